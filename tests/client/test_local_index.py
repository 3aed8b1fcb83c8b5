"""The local index (console.client.index): filled by every list page the client reads,
answered from by name, stale rows marked, nothing but kinds, ids, names and times in it."""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

import pytest

from console.client import AdminClient
from console.client.find import confirm_live, from_index
from console.client.index import LocalIndex, age_text, index_path


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TENANT_CONSOLE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_the_file_is_private_and_in_the_cache_dir(cache: Path) -> None:
    index = LocalIndex.for_profile("prod/eu", "http://127.0.0.1:1")
    index.close()
    path = index_path("prod/eu")
    assert path == cache / "index" / "prod_eu.sqlite3"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert [p.name for p in path.parent.iterdir()] == ["prod_eu.sqlite3"], "no journal beside it"


def test_only_ids_and_names_are_kept(cache: Path) -> None:
    index = LocalIndex.for_profile("p", "http://x")
    secret = "key-material-0123456789abcdef"
    index.record(
        "applications",
        [
            {"id": "a1", "name": "Checkout", "key": secret, "rules": [{"code": "evil()"}]},
            {"id": 7, "name": "no string id"},
            "not an object",
        ],
    )
    index.close()
    conn = sqlite3.connect(index_path("p"))
    columns = [row[1] for row in conn.execute("PRAGMA table_info(objects)")]
    rows = conn.execute("SELECT kind, id, name FROM objects").fetchall()
    conn.close()
    assert columns == ["kind", "id", "name", "seen_at", "gone_at"]
    assert rows == [("applications", "a1", "Checkout")]
    raw = index_path("p").read_bytes()
    assert secret.encode() not in raw and b"evil()" not in raw


def test_names_match_as_the_service_filter_and_gone_rows_are_left_out(cache: Path) -> None:
    index = LocalIndex.for_profile("p", "http://x")
    index.record("applications", [{"id": "1", "name": "Checkout EU"}, {"id": "2", "name": "Pay"}])
    index.record("proxies", [{"id": "3", "name": "checkout-proxy"}])
    assert [r.id for r in index.search("checkout")] == ["1", "3"]
    assert [r.id for r in index.search("c*eu")] == ["1"]
    assert [r.id for r in index.search("checkout", ["proxies"])] == ["3"]
    index.mark_gone("applications", ["1"])
    assert [r.id for r in index.search("checkout")] == ["3"]
    assert [r.id for r in index.search("checkout", gone=True)] == ["1", "3"]
    index.record("applications", [{"id": "1", "name": "Checkout EU"}])  # seen again
    assert [r.id for r in index.search("checkout")] == ["1", "3"]


def test_another_service_or_a_damaged_file_starts_afresh(cache: Path) -> None:
    index = LocalIndex.for_profile("p", "http://one")
    index.record("applications", [{"id": "1", "name": "A"}])
    index.close()
    again = LocalIndex.for_profile("p", "http://one")
    assert again.count() == 1
    again.close()
    moved = LocalIndex.for_profile("p", "http://two")
    assert moved.count() == 0, "ids of another service mean nothing here"
    moved.close()
    index_path("p").write_bytes(b"this is not a database" * 100)
    fresh = LocalIndex.for_profile("p", "http://two")
    assert fresh.count() == 0
    assert stat.S_IMODE(os.stat(index_path("p")).st_mode) == 0o600


def test_age_reads_as_a_person_would() -> None:
    assert age_text(5) == "less than a minute old"
    assert age_text(180) == "3 minutes old"
    assert age_text(3600) == "1 hour old"
    assert age_text(2 * 86400 + 5) == "2 days old"


async def test_every_list_page_read_fills_the_index_and_a_search_confirms_it(
    service, cache: Path
) -> None:  # type: ignore[no-untyped-def]
    """Browsing a page records it; the next search answers from the index at once, then
    confirms live: an application deleted meanwhile is marked gone, a new one added."""
    info = service.new_tenant("Index")
    index = LocalIndex.for_profile("indexed", service.base_url)
    async with AdminClient(service.base_url, info.key) as client:
        client.index = index
        made = {}
        for name in ("Checkout alpha", "Checkout beta", "Payments"):
            made[name] = await client.applications.create(
                {"name": name, "type": "private", "permissions": ["token:read"]}
            )
        await client.applications.page_json(page=1, size=20)  # a list page, as the console reads
        answer = from_index(index, "checkout", ["applications"])
        assert [row.name for row in answer.rows] == ["Checkout alpha", "Checkout beta"]
        assert answer.caption == "from the index, less than a minute old"

        await client.applications.delete(made["Checkout beta"].id)
        await client.applications.create(
            {"name": "Checkout gamma", "type": "private", "permissions": ["token:read"]}
        )
        told: list[str] = []
        found = await confirm_live(
            client,
            "checkout",
            answer,
            ["applications"],
            index=index,
            on_found=lambda f: told.append(f.name),
        )
    states = {f.name: f.state for f in found}
    assert states == {
        "Checkout alpha": "confirmed",
        "Checkout gamma": "new",
        "Checkout beta": "gone",
    }
    assert [f.name for f in found][-1] == "Checkout beta", "gone rows come last"
    assert told == ["Checkout alpha", "Checkout gamma"]
    assert [row.name for row in index.search("checkout")] == ["Checkout alpha", "Checkout gamma"]
    raw = index.path.read_bytes()
    index.close()
    assert info.key.encode() not in raw
    assert all(app.key is None or app.key.encode() not in raw for app in made.values())


async def test_pages_read_before_the_index_opens_are_recorded_when_it_does(
    service, cache: Path
) -> None:  # type: ignore[no-untyped-def]
    """The console opens the index off the UI thread, after the first page may have come:
    the pages read meanwhile are held (a bounded number) and recorded once it is set."""
    from console.client.client import HELD_PAGES

    info = service.new_tenant("Held pages")
    async with AdminClient(service.base_url, info.key) as client:
        await client.applications.create(
            {"name": "Early bird", "type": "private", "permissions": ["token:read"]}
        )
        client.hold_pages_for_index()
        for _ in range(HELD_PAGES + 5):  # more than are held: memory stays bounded
            await client.applications.page_json(page=1, size=20)
        assert len(client._held_pages) == HELD_PAGES
        index = LocalIndex.for_profile("held", service.base_url)
        assert index.search("early") == []
        client.index = index
        assert [row.name for row in index.search("early")] == ["Early bird"]
        assert client._held_pages == []
        client.hold_pages_for_index()
        await client.applications.page_json(page=1, size=20)
        client.index = None  # no index file after all: what was held is dropped
        assert client._held_pages == []
    index.close()


def test_a_symlinked_index_is_refused_and_its_target_untouched(cache: Path, tmp_path: Path) -> None:
    from console.files import UnsafeFileError

    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious\n")
    path = index_path("prod")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(victim)
    with pytest.raises(UnsafeFileError, match="symbolic link") as refused:
        LocalIndex.for_profile("prod", "http://127.0.0.1:1")
    assert str(path) in str(refused.value)
    said: list[str] = []
    assert LocalIndex.open_quietly("prod", "http://127.0.0.1:1", said.append) is None
    assert len(said) == 1 and str(path) in said[0] and "symbolic link" in said[0]
    assert victim.read_bytes() == b"precious\n" and path.is_symlink()


def test_an_index_others_can_write_or_another_users_is_refused(cache: Path) -> None:
    from console.files import UnsafeFileError

    LocalIndex.for_profile("prod", "http://127.0.0.1:1").close()
    path = index_path("prod")
    os.chmod(path, 0o666)
    with pytest.raises(UnsafeFileError, match="can be written by other users"):
        LocalIndex.for_profile("prod", "http://127.0.0.1:1")
    if hasattr(os, "getuid") and os.getuid() == 0:
        os.chmod(path, 0o600)
        os.chown(path, 65534, 65534)
        with pytest.raises(UnsafeFileError, match="belongs to another user"):
            LocalIndex.for_profile("prod", "http://127.0.0.1:1")


def test_search_says_a_symlinked_index_is_not_used(cache: Path, tmp_path: Path, capsys) -> None:
    from console.search_cli import _open_index

    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious\n")
    path = index_path("prod")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(victim)

    class Connection:
        profile = "prod"
        base_url = "http://127.0.0.1:1"

    assert _open_index(Connection()) is None  # type: ignore[arg-type]
    err = capsys.readouterr().err
    assert str(path) in err and "symbolic link" in err and "Traceback" not in err
    assert victim.read_bytes() == b"precious\n"
