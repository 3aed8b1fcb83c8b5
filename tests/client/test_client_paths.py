"""An id is one path segment, never more (issue 33): `..`, `a/b`, `%2e%2e` and the like are
refused by the client before anything is recorded or sent, whichever way the path was built.
A loopback listener that must hear nothing proves it, and the journal stays empty."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from loopback_stub import Listener

from console.client import AdminClient, ApiError, UnsafePath
from console.client.paths import check_path, segment
from console.journal.store import ChangeJournal

GOOD_ID = "0b7c1f4e-2d8a-4c61-9f3e-5a6b7c8d9e01"
BAD_IDS = [
    "..",
    ".",
    "",
    "../tenants/self",
    f"../proxies/{GOOD_ID}",
    "a/b",
    "%2e%2e",
    "%2E%2E",
    "a%2Fb",
    "a\\b",
    "a?b=1",
    "a#b",
    "x\x1b[2J",
    "x\r\nX-Injected: 1",
    "two words",
]
BAD_PATHS = [
    "/proxies/../tenants/self",
    "/proxies/%2e%2e/tenants/self",
    "/proxies/%2E%2e",
    "/proxies/.",
    "/proxies//tenants",
    "/proxies/a%2Fb",
    "/proxies/a%5cb",
    "/proxies/a\\b",
    "/proxies/a?b",
    "/proxies/a#b",
    "/proxies/a%3Fb",
    "/proxies/%252e%252e",
    "/proxies/%ff",
    "/proxies/x\x00",
    "proxies/relative",
]


@pytest.mark.parametrize("value", BAD_IDS)
def test_a_value_that_is_not_one_segment_is_refused(value: str) -> None:
    with pytest.raises(UnsafePath) as refused:
        segment(value)
    assert "nothing was sent" in str(refused.value)
    assert "\x1b" not in str(refused.value) and "\r" not in str(refused.value)


def test_ids_and_plain_paths_pass() -> None:
    assert segment(GOOD_ID) == GOOD_ID
    for path in ("/", "/applications", f"/applications/{GOOD_ID}/keys", "/tenants/self"):
        check_path("GET", path)


@pytest.mark.parametrize("path", BAD_PATHS)
def test_a_path_with_a_segment_that_changes_it_is_refused(path: str) -> None:
    with pytest.raises(UnsafePath):
        check_path("PUT", path)


@pytest.fixture
async def listener():  # type: ignore[no-untyped-def]
    stub = await Listener().start()
    yield stub
    await stub.stop()


async def test_nothing_reaches_the_service_and_nothing_is_journalled(
    listener: Listener, tmp_path: Path
) -> None:
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    async with AdminClient(listener.base_url, "k" * 32) as client:
        client.record_changes(journal, profile=None, origin="console")
        for bad in BAD_IDS:
            calls = (
                client.proxies.get(bad),
                client.proxies.delete(bad),
                client.applications.update(bad, {"name": "x"}),
                client.applications.regenerate(bad),
                client.application_keys.revoke(GOOD_ID, bad),
                client.application_keys.list(bad),
            )
            for call in calls:
                with pytest.raises(UnsafePath):
                    await call
        for path in BAD_PATHS:
            for method in ("GET", "PUT", "DELETE", "POST"):
                with pytest.raises(UnsafePath):
                    await client.send_json(method, path, body={"name": "x"})
    assert listener.heard == []
    assert journal.list() == []
    # The listener does hear: a good path reaches it (so the silence above means something).
    async with AdminClient(listener.base_url, "k" * 32) as client:
        with pytest.raises(ApiError):  # its 500
            await client.send_json("DELETE", f"/proxies/{GOOD_ID}")
    assert listener.heard[0].startswith(f"DELETE /proxies/{GOOD_ID} ")
