"""The overview of every profile (console.estate.overview): one row per profile, checked
concurrently with a bound and a timeout each, against the real local service (and the
hosted-shaped stand-in); a stub that accepts and never answers is the slow tenant."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import keyring.core
import pytest
from hosted_service import KEY as HOSTED_KEY
from hosted_service import HostedService
from keyring.errors import KeyringLocked
from memory_keyring import MemoryKeyring

from console.estate.overview import Count, ProfileStatus, Usage, check_profiles, saved_targets
from console.profiles.config import Profile, ProfilesFile
from console.profiles.keys import SERVICE

TIMEOUT = 2.0
JS = "module.exports = async function (req) {\n  return { raw: req.args };\n};\n"


class LockedFor(MemoryKeyring):
    """An in-memory keyring whose entry for one profile is locked; it records every read."""

    def __init__(self, locked: str) -> None:
        super().__init__()
        self.locked = locked
        self.reads: list[str] = []

    def get_password(self, service: str, username: str) -> str | None:
        self.reads.append(username)
        if service == SERVICE and username == self.locked:
            raise KeyringLocked("the collection is locked")
        return super().get_password(service, username)


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A loopback port that accepts connections (the kernel's backlog) and never answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        yield listener.getsockname()[1]


@pytest.fixture
def closed_port() -> int:
    """A loopback port nothing listens on (bound, then closed): connections are refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def save(name: str, base_url: str, key: str | None, backend: MemoryKeyring, **extra: Any) -> None:
    profiles = ProfilesFile.load()
    profiles.add(Profile(name=name, base_url=base_url, **extra))
    profiles.save()
    if key is not None:
        backend.entries[(SERVICE, name)] = key


def seed(base_url: str, key: str) -> None:
    with httpx.Client(base_url=base_url, headers={"SVC-API-KEY": key}, timeout=30) as http:
        for name in ("Checkout", "Billing"):
            body = {"name": name, "destination_url": "https://example.com/hook"}
            assert http.post("/proxies", json=body).status_code == 201
        body = {"name": "Own formula", "type": "private", "code": JS}
        assert http.post("/reactor-formulas", json=body).status_code == 201
        for name in ("Scoring", "Relay"):  # no runtime: active at once
            assert http.post("/reactors", json={"name": name, "code": JS}).status_code == 201


async def collect(targets: list[Any], **options: Any) -> list[tuple[float, ProfileStatus]]:
    started = time.monotonic()
    return [
        (time.monotonic() - started, status)
        async for status in check_profiles(targets, timeout=TIMEOUT, **options)
    ]


async def test_every_kind_of_profile_in_one_overview(
    service: Any, silent_port: int, closed_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    backend = LockedFor("locked")
    monkeypatch.setattr(keyring.core, "_keyring_backend", backend)
    healthy = service.new_tenant("Healthy Corp")
    seed(service.base_url, healthy.key)
    service.set_usage(healthy.tenant_id, included=1000, monthly_active=870)
    partial = service.new_key(["tenant:read", "application:read"], tenant_key=healthy.key)
    nothing = service.new_key([], tenant_key=healthy.key)
    url = service.base_url
    retired = {("GET", "/reactor-formulas")}
    no_reactors = {("GET", "/reactors")}
    with (
        HostedService.running(totals=False, retired=retired) as hosted,
        HostedService.running(retired=no_reactors) as older,
    ):
        # The slow one first: it holds a slot the whole time, and the others go on.
        save("slow", f"http://127.0.0.1:{silent_port}", "slow-key-" + "s" * 24, backend)
        save("healthy", url, healthy.key, backend, label="PROD", color="red")
        save("rejected", url, "not-a-key-of-this-service-000000", backend)
        save("closed", f"http://127.0.0.1:{closed_port}", "closed-key-" + "c" * 24, backend)
        save("locked", url, "never-read-" + "l" * 24, backend)
        save("partial", url, partial, backend)
        save("nothing", url, nothing, backend)
        save("nokey", url, None, backend)
        save("hosted", hosted.base_url, HOSTED_KEY, backend)
        save("older", older.base_url, HOSTED_KEY, backend)

        targets = saved_targets()
        assert backend.reads == []  # listing the profiles reads no key
        arrived = await collect(targets, concurrency=4)

    by_name = {status.name: status for _, status in arrived}
    assert {n: s.status for n, s in by_name.items()} == {
        "slow": "timed_out",
        "healthy": "ok",
        "rejected": "rejected",
        "closed": "unreachable",
        "locked": "keyring_locked",
        "partial": "ok",
        "nothing": "lacks_permissions",
        "nokey": "no_key",
        "hosted": "ok",
        "older": "ok",
    }
    # The slow tenant held up nobody: every other row came before it, well within its timeout.
    assert arrived[-1][1].name == "slow"
    assert max(t for t, s in arrived if s.name != "slow") < TIMEOUT
    assert arrived[-1][0] < TIMEOUT * 2
    # Each key is read once, when its profile's check starts.
    assert sorted(backend.reads) == sorted(by_name)

    good = by_name["healthy"]
    assert (good.tenant_name, good.label, good.message) == ("Healthy Corp", "PROD", None)
    assert good.usage == Usage(monthly_active=870, included=1000, total_tokens=0)
    assert good.usage.text() == "870 / 1,000 (87%)"
    assert good.applications == Count(value=3)  # the bootstrap application and two keys
    assert good.proxies == Count(value=2)
    assert good.formulas == Count(value=1)  # the official formulas are not the tenant's
    assert good.reactors == Count(value=2)

    some = by_name["partial"]
    assert some.tenant_name == "Healthy Corp" and some.applications == Count(value=3)
    assert some.proxies is not None and some.proxies.text() == "lacks permissions"
    assert some.proxies.note == "proxy:read"
    assert some.message is not None and "proxy:read" in some.message
    assert "reactor:read" in some.message

    none = by_name["nothing"]
    assert none.tenant_name is None and "tenant:read" in (none.message or "")

    assert "Cannot reach the service" in (by_name["closed"].message or "")
    assert "locked" in (by_name["locked"].message or "")
    assert "profile add nokey" in (by_name["nokey"].message or "")
    assert by_name["slow"].message == f"No answer within {TIMEOUT:g} seconds."

    lenient = by_name["hosted"]
    assert lenient.tenant_name == "My Tenant"
    assert lenient.usage is not None and lenient.usage.text() == "1,433 tokens, no plan"
    assert lenient.formulas is not None and lenient.formulas.text() == "not offered"
    assert lenient.formulas.note == "The service does not offer reactor formulas."
    assert lenient.reactors is not None and lenient.reactors.text() == "1"
    older = by_name["older"]  # reactors not offered (its code_surfaces said so); formulas are
    assert older.reactors is not None and older.reactors.text() == "not offered"
    assert older.formulas is not None and older.formulas.state == "ok"
    assert older.to_json()["reactors"]["state"] == "not_offered"
    assert lenient.applications is not None and lenient.applications.exact  # a short page

    shown = json.dumps([status.to_json() for _, status in arrived])
    for key in (healthy.key, partial, nothing, HOSTED_KEY, "slow-key-", "never-read-"):
        assert key not in shown
        assert key not in repr(targets)


async def test_a_keyring_that_never_answers_is_waited_on_once(
    service: Any, monkeypatch: pytest.MonkeyPatch, memory_keyring: MemoryKeyring
) -> None:
    """A keyring that hangs (locked, its prompt unanswered) costs one timeout, not one per
    profile, and every profile says why it has no key."""
    import threading

    release = threading.Event()

    class Hanging(MemoryKeyring):
        def get_password(self, service: str, username: str) -> str | None:
            release.wait(10)
            return None

    monkeypatch.setattr(keyring.core, "_keyring_backend", Hanging())
    for name in ("a", "b", "c"):
        save(name, service.base_url, None, memory_keyring)
    try:
        started = time.monotonic()
        arrived = await collect(saved_targets(), concurrency=3)
        elapsed = time.monotonic() - started
    finally:
        release.set()
    assert [s.status for _, s in arrived] == ["keyring_locked"] * 3
    assert elapsed < TIMEOUT * 2


def test_figures_say_what_is_known() -> None:
    assert Count(value=100, exact=False).text() == "≥100"
    assert Count(value=1234).text() == "1,234"
    assert Count("lacks_permissions", note="proxy:read").text() == "lacks permissions"
    assert Usage(monthly_active=1001, included=1000).text() == "1,001 / 1,000 (101%)"
    assert Usage(monthly_active=999, included=1000).percent == 99
    assert Usage(monthly_active=5, included=0).text() == "5 / 0"
    assert Usage().text() == "not reported"
