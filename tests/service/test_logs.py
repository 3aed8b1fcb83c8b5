"""The local service's audit logs (issue 36): `GET /logs` and `GET /logs/entity-types`.

Every management write leaves one entry (entity, operation, actor: the calling application),
reads and reacts leave none, and no entry ever holds a key or a configuration value. The list
filters by entity and time, pages by number and by cursor, newest first, within the log
retention (`serve --log-retention`); time is moved through the project clock
(TENANT_CONSOLE_FROZEN_NOW), never waited for.
"""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import httpx
import pytest
from service_http import (
    Caller,
    assert_invalid,
    assert_problem,
    describe,
    formula_body,
    http_client,
    private_application_body,
    proxy_body,
    reactor_body,
)

from console.kinds import KINDS
from console.service.store.listing import MAX_PAGE_SIZE

FROZEN = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


@pytest.fixture
def tenant(service) -> Any:  # type: ignore[no-untyped-def]
    return service.new_tenant("Logs")


@pytest.fixture
def api(service, tenant) -> Iterator[Caller]:  # type: ignore[no-untyped-def]
    with http_client(service.base_url) as client:
        yield Caller(client, tenant.key)


def ok(response: httpx.Response, status: int = 200) -> Any:
    assert response.status_code == status, describe(response)
    return response.json() if response.content else None


def every_entry(api: Caller, **params: Any) -> list[dict[str, Any]]:
    """The whole log (newest first), following the cursor."""
    entries: list[dict[str, Any]] = []
    start = ""
    while True:
        body = ok(api.get("/logs", params={**params, "start": start, "size": MAX_PAGE_SIZE}))
        entries += body["data"]
        start = body["pagination"]["after"]
        if start is None:
            return entries


def summary(entries: list[dict[str, Any]]) -> list[tuple[str, str, str, str]]:
    return [(e["entity_type"], e["entity_id"], e["operation"], e["message"]) for e in entries]


def every_kind_of_write(api: Caller) -> list[tuple[str, str, str, str]]:
    """Makes one of every management write; returns the entries they should leave, in
    the order made (oldest first)."""
    expected: list[tuple[str, str, str, str]] = []

    app = api.created("/applications", private_application_body())
    expected.append(("application", app["id"], "create", "Application created"))
    body = {"name": "Renamed", "permissions": ["token:read"]}
    ok(api.put(f"/applications/{app['id']}", json=body))
    expected.append(("application", app["id"], "update", "Application updated"))
    ok(api.post(f"/applications/{app['id']}/regenerate"))
    expected.append(("application", app["id"], "update", "Application key regenerated"))
    key = ok(api.post(f"/applications/{app['id']}/keys"), 201)
    expected.append(("application", app["id"], "update", f"Application key {key['id']} created"))
    ok(api.delete(f"/applications/{app['id']}/keys/{key['id']}"), 204)
    expected.append(("application", app["id"], "update", f"Application key {key['id']} revoked"))

    proxy = api.created("/proxies", proxy_body())
    expected.append(("proxy", proxy["id"], "create", "Proxy created"))
    ok(api.put(f"/proxies/{proxy['id']}", json=proxy_body()))
    expected.append(("proxy", proxy["id"], "update", "Proxy updated"))
    ok(api.request("PATCH", f"/proxies/{proxy['id']}", json={"name": "Patched"}), 204)
    expected.append(("proxy", proxy["id"], "update", "Proxy updated"))

    formula = api.created("/reactor-formulas", formula_body())
    expected.append(("reactor_formula", formula["id"], "create", "Reactor formula created"))
    ok(api.put(f"/reactor-formulas/{formula['id']}", json=formula_body()))
    expected.append(("reactor_formula", formula["id"], "update", "Reactor formula updated"))

    reactor = api.created("/reactors", reactor_body())
    expected.append(("reactor", reactor["id"], "create", "Reactor created"))
    ok(api.put(f"/reactors/{reactor['id']}", json=reactor_body()))
    expected.append(("reactor", reactor["id"], "update", "Reactor updated"))
    ok(api.request("PATCH", f"/reactors/{reactor['id']}", json={"name": "Patched"}), 204)
    expected.append(("reactor", reactor["id"], "update", "Reactor updated"))

    tenant = ok(api.put("/tenants/self", json={"name": "Renamed tenant"}))
    expected.append(("tenant", tenant["id"], "update", "Tenant updated"))

    ok(api.delete(f"/reactors/{reactor['id']}"), 204)
    expected.append(("reactor", reactor["id"], "delete", "Reactor deleted"))
    ok(api.delete(f"/reactor-formulas/{formula['id']}"), 204)
    expected.append(("reactor_formula", formula["id"], "delete", "Reactor formula deleted"))
    ok(api.delete(f"/proxies/{proxy['id']}"), 204)
    expected.append(("proxy", proxy["id"], "delete", "Proxy deleted"))
    ok(api.delete(f"/applications/{app['id']}"), 204)
    expected.append(("application", app["id"], "delete", "Application deleted"))
    return expected


# -- what is recorded ------------------------------------------------------------------------


def test_every_management_write_leaves_its_entry_newest_first(api: Caller, tenant) -> None:
    expected = every_kind_of_write(api)
    entries = every_entry(api)
    assert summary(entries) == list(reversed(expected))
    for entry in entries:
        assert entry["tenant_id"] == tenant.tenant_id
        assert entry["actor_id"] == tenant.application_id
        assert entry["actor_type"] == "application"
        assert str(uuid.UUID(entry["id"])) == entry["id"]
    times = [datetime.fromisoformat(e["created_at"]) for e in entries]
    assert times == sorted(times, reverse=True)
    assert all(moment.tzinfo is not None for moment in times)


def test_the_actor_is_the_application_whose_key_wrote(service, api: Caller) -> None:
    other = service.new_key(["proxy:create"], api.key)
    with http_client(service.base_url) as client:
        proxy = Caller(client, other).created("/proxies", proxy_body())
    mine = ok(api.get("/applications/key"))
    (entry,) = every_entry(api, entity_id=proxy["id"])
    assert entry["actor_id"] != mine["id"]
    by_id = {a["id"]: a for a in ok(api.get("/applications", params={"size": 100}))["data"]}
    assert by_id[entry["actor_id"]]["permissions"] == ["proxy:create"]


def test_reads_failed_writes_and_reacts_leave_no_entry(api: Caller) -> None:
    proxy = api.created("/proxies", proxy_body())
    before = every_entry(api)
    ok(api.get("/proxies"))
    ok(api.get(f"/proxies/{proxy['id']}"))
    ok(api.get("/tenants/self"))
    ok(api.get("/applications/key"))
    assert_invalid(api.post("/proxies", json={"destination_url": "http://insecure"}), "name")
    assert_problem(api.delete(f"/proxies/{uuid.uuid4()}"), 404)
    ok(api.get("/logs/entity-types"))
    assert every_entry(api) == before


def test_a_deleted_tenants_entry_is_recorded(start_service) -> None:  # type: ignore[no-untyped-def]
    from console.service.store import Store

    running = start_service()
    with http_client(running.base_url) as client:
        ok(Caller(client, running.key).delete("/tenants/self"), 204)
    store = Store(running.data_dir)
    try:
        with store.read() as conn:
            rows = conn.execute(
                "SELECT entity_type, entity_id, operation, message, actor_id FROM logs"
                " WHERE tenant_id = ?",
                (running.tenant_id,),
            ).fetchall()
    finally:
        store.close()
    assert [tuple(row) for row in rows] == [
        ("tenant", running.tenant_id, "delete", "Tenant deleted", running.application_id)
    ]


def test_no_key_or_configuration_value_is_ever_logged(service, api: Caller, tenant) -> None:  # type: ignore[no-untyped-def]
    secret = "s3cret-" + secrets.token_hex(8)
    seen: set[str] = {secret, api.key or ""}
    app = api.created("/applications", private_application_body())
    seen.add(app["key"])
    seen.add(ok(api.post(f"/applications/{app['id']}/regenerate"))["key"])
    seen.add(ok(api.post(f"/applications/{app['id']}/keys"), 201)["key"])
    reactor = api.created("/reactors", reactor_body(configuration={"API_TOKEN": secret}))
    patch = {"configuration": {"B": secret}}
    ok(api.request("PATCH", f"/reactors/{reactor['id']}", json=patch), 204)
    proxy = api.created("/proxies", proxy_body(configuration={"DOWNSTREAM_KEY": secret}))
    ok(api.put(f"/proxies/{proxy['id']}", json=proxy_body(configuration={"K": secret})))
    ok(api.put("/tenants/self", json={"name": "Tenant", "settings": {"custom": secret}}))
    text = json.dumps(every_entry(api))
    assert all(value not in text for value in seen if value)
    from console.service.store import Store

    store = Store(service.data_dir)
    try:
        with store.read() as conn:
            rows = conn.execute(
                "SELECT * FROM logs WHERE tenant_id = ?", (tenant.tenant_id,)
            ).fetchall()
    finally:
        store.close()
    assert len(rows) >= 8
    stored = json.dumps([list(row) for row in rows])
    assert all(value not in stored for value in seen if value)


# -- reading -----------------------------------------------------------------------------------


@pytest.fixture
def history(api: Caller) -> list[dict[str, Any]]:
    """Eight entries about two proxies and an application (newest first)."""
    a = api.created("/proxies", proxy_body())
    b = api.created("/proxies", proxy_body())
    app = api.created("/applications", private_application_body())
    for proxy in (a, b, a):
        ok(api.request("PATCH", f"/proxies/{proxy['id']}", json={"name": "Patched"}), 204)
    ok(api.delete(f"/proxies/{b['id']}"), 204)
    ok(api.delete(f"/applications/{app['id']}"), 204)
    entries = every_entry(api)
    assert len(entries) == 8
    return entries


def test_filters_by_entity_type_and_id(api: Caller, history: list[dict[str, Any]]) -> None:
    proxies = [e for e in history if e["entity_type"] == "proxy"]
    assert every_entry(api, entity_type="proxy") == proxies
    one = history[-1]["entity_id"]  # the first proxy made
    assert every_entry(api, entity_id=one) == [e for e in history if e["entity_id"] == one]
    assert every_entry(api, entity_type="proxy", entity_id=one.upper()) == [
        e for e in proxies if e["entity_id"] == one
    ]
    assert every_entry(api, entity_type="reactor") == []
    assert every_entry(api, entity_type="no_such_type") == []


def test_filters_by_time(api: Caller, history: list[dict[str, Any]]) -> None:
    middle = history[4]["created_at"]
    at_or_after = [e for e in history if e["created_at"] >= middle]
    before = [e for e in history if e["created_at"] < middle]
    assert every_entry(api, start_date=middle) == at_or_after
    assert every_entry(api, end_date=middle) == before
    # The same time without an offset is UTC.
    naive = datetime.fromisoformat(middle).astimezone(UTC).replace(tzinfo=None).isoformat()
    assert every_entry(api, start_date=naive) == at_or_after
    # In another offset, the same moment.
    india = timezone(timedelta(hours=5, minutes=30))
    east = datetime.fromisoformat(middle).astimezone(india).isoformat()
    assert every_entry(api, end_date=east) == before
    # A date is its midnight (UTC).
    day = datetime.fromisoformat(history[0]["created_at"]).astimezone(UTC).date()
    assert every_entry(api, start_date=day.isoformat()) == history
    assert every_entry(api, end_date=day.isoformat()) == []
    assert every_entry(api, end_date=(day + timedelta(days=1)).isoformat()) == history
    assert every_entry(api, start_date=middle, end_date=middle) == []


def test_pages_by_number_newest_first(api: Caller, history: list[dict[str, Any]]) -> None:
    first = ok(api.get("/logs", params={"size": 3}))
    assert first["pagination"] == {
        "total_items": 8,
        "page_number": 1,
        "page_size": 3,
        "total_pages": 3,
    }
    walked = []
    for page in (1, 2, 3):
        walked += ok(api.get("/logs", params={"size": 3, "page": page}))["data"]
    assert walked == history
    assert ok(api.get("/logs", params={"size": 3, "page": 4}))["data"] == []
    default = ok(api.get("/logs"))
    assert default["pagination"]["page_size"] == 20 and default["data"] == history
    filtered = ok(api.get("/logs", params={"entity_type": "proxy", "size": 2}))
    assert filtered["pagination"]["total_items"] == 6


def test_pages_by_cursor_newest_first(api: Caller, history: list[dict[str, Any]]) -> None:
    walked: list[dict[str, Any]] = []
    start = ""
    pages = 0
    while start is not None:
        body = ok(api.get("/logs", params={"size": 3, "start": start}))
        assert set(body["pagination"]) == {"page_size", "after"}
        walked += body["data"]
        start = body["pagination"]["after"]
        pages += 1
    assert walked == history and pages == 3
    # The vendor's pagers keep `start` and count pages after it.
    counted: list[dict[str, Any]] = []
    for page in range(1, 5):
        counted += ok(api.get("/logs", params={"size": 3, "start": "", "page": page}))["data"]
    assert counted == history
    # A cursor keeps its place when newer entries come.
    after = ok(api.get("/logs", params={"size": 3, "start": ""}))["pagination"]["after"]
    api.created("/proxies", proxy_body())
    rest = ok(api.get("/logs", params={"size": 100, "start": after}))["data"]
    assert rest == history[3:]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("start_date", "yesterday"),
        ("start_date", "2026-13-01"),
        ("end_date", "2026-11-22T25:00:00Z"),
        ("end_date", "1700000000"),
        ("entity_id", "not-a-uuid"),
        ("entity_type", "Proxy Type"),
        ("size", str(MAX_PAGE_SIZE + 1)),
        ("start", "not a cursor"),
    ],
)
def test_a_bad_query_is_400_at_its_name(api: Caller, name: str, value: str) -> None:
    assert_invalid(api.get("/logs", params={name: value}), name)


def test_reading_logs_needs_log_read(service, api: Caller) -> None:  # type: ignore[no-untyped-def]
    without = service.new_key(["application:read", "proxy:read"], api.key)
    with_it = service.new_key(["log:read"], api.key)
    with http_client(service.base_url) as client:
        for path in ("/logs", "/logs/entity-types"):
            assert_problem(Caller(client, without).get(path), 403)
            assert_problem(Caller(client, None).get(path), 401)
            ok(Caller(client, with_it).get(path))
        # The permission is checked before the query.
        assert_problem(Caller(client, without).get("/logs", params={"start_date": "x"}), 403)


def test_entity_types_name_every_kinds_log_entity(api: Caller) -> None:
    listed = ok(api.get("/logs/entity-types"))
    assert {"display_name": "Proxy", "value": "proxy"} in listed
    assert {"display_name": "Reactor formula", "value": "reactor_formula"} in listed
    values = [item["value"] for item in listed]
    assert len(values) == len(set(values))
    assert set(values) == {kind.log_entity for kind in KINDS if kind.log_entity}
    assert all(set(item) == {"display_name", "value"} for item in listed)


def test_another_tenants_entries_are_never_shown(service, api: Caller) -> None:  # type: ignore[no-untyped-def]
    other = service.new_tenant("Other logs")
    with http_client(service.base_url) as client:
        proxy = Caller(client, other.key).created("/proxies", proxy_body())
    assert every_entry(api, entity_id=proxy["id"]) == []
    assert all(e["tenant_id"] != other.tenant_id for e in every_entry(api))


# -- retention ---------------------------------------------------------------------------------


def test_entries_past_the_retention_are_never_answered(start_service) -> None:  # type: ignore[no-untyped-def]
    running = start_service(frozen_now=FROZEN.isoformat(), log_retention=3600)
    with http_client(running.base_url) as client:
        old = Caller(client, running.key).created("/proxies", proxy_body())
    running.stop()
    running.frozen_now = (FROZEN + timedelta(minutes=59)).isoformat()
    running.start()
    with http_client(running.base_url) as client:
        api = Caller(client, running.key)
        assert [e["entity_id"] for e in every_entry(api)] == [old["id"]]
    running.stop()
    running.frozen_now = (FROZEN + timedelta(hours=1, seconds=1)).isoformat()
    running.start()
    with http_client(running.base_url) as client:
        api = Caller(client, running.key)
        assert every_entry(api) == []
        assert ok(api.get("/logs"))["pagination"]["total_items"] == 0
        new = api.created("/proxies", proxy_body())
        assert [e["entity_id"] for e in every_entry(api)] == [new["id"]]


def test_the_sweep_deletes_entries_past_the_retention(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from console.service.changes import Actor, Change
    from console.service.store import Store
    from console.service.timestamps import stamp

    store = Store(tmp_path / "data")
    try:
        info = store.create_tenant("Sweep")
        actor = Actor(info.application_id, "application")

        def change(at: datetime, message: str) -> Change:
            return Change(
                info.tenant_id, "proxy", str(uuid.uuid4()), "create", message, actor, stamp(at)
            )

        added = store.add_logs(
            [
                change(FROZEN - timedelta(hours=2), "Old"),
                change(FROZEN - timedelta(minutes=30), "Kept"),
                change(FROZEN, "Now"),
            ]
        )
        assert added == 3
        monkeypatch.setenv("TENANT_CONSOLE_FROZEN_NOW", FROZEN.isoformat())
        assert store.sweep_logs(3600) == 1
        assert store.sweep_logs(3600) == 0
        with store.read() as conn:
            kept = [row[0] for row in conn.execute("SELECT message FROM logs ORDER BY seq")]
        assert kept == ["Kept", "Now"]
        monkeypatch.setenv("TENANT_CONSOLE_FROZEN_NOW", (FROZEN + timedelta(hours=1)).isoformat())
        assert store.sweep_logs(3600) == 1
    finally:
        store.close()


def test_seeded_entries_of_one_time_keep_their_order(tmp_path) -> None:
    from console.service.changes import Actor, Change
    from console.service.store import Store
    from console.service.store import logs as rows
    from console.service.store.listing import PageRequest
    from console.service.timestamps import stamp

    store = Store(tmp_path / "data")
    try:
        info = store.create_tenant("Order")
        actor = Actor(None, "system")
        at = stamp(FROZEN)
        store.add_logs(
            Change(info.tenant_id, "tenant", info.tenant_id, "update", f"Entry {i}", actor, at)
            for i in range(5)
        )
        with store.read() as conn:
            page = rows.page(conn, info.tenant_id, PageRequest(size=2, start=""), kept_since="")
            after = page["pagination"]["after"]
            rest = rows.page(conn, info.tenant_id, PageRequest(size=10, start=after), kept_since="")
        shown = [e["message"] for e in page["data"] + rest["data"]]
        assert shown == [f"Entry {i}" for i in (4, 3, 2, 1, 0)]
    finally:
        store.close()


@pytest.mark.parametrize("value", ["0", "-5", "999999999999"])
def test_serve_with_a_bad_log_retention_fails_with_one_line(value: str, tmp_path) -> None:
    command = [sys.executable, "-m", "console", "serve", "--port", "0"]
    result = subprocess.run(
        [*command, "--data-dir", str(tmp_path), "--log-retention", value],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert result.stderr.strip().count("\n") == 0
    assert "--log-retention" in result.stderr


# -- the demo ----------------------------------------------------------------------------------


def test_the_demo_has_a_recent_history_by_others_and_an_application_that_never_acts(
    start_service,
) -> None:  # type: ignore[no-untyped-def]
    from console.models.demo import demo_id

    running = start_service(demo_data=True, frozen_now=FROZEN.isoformat())
    with http_client(running.base_url) as client:
        api = Caller(client, running.key)
        entries = every_entry(api)
        again = every_entry(api)
    assert entries == again and len(entries) >= 14
    times = [datetime.fromisoformat(e["created_at"]) for e in entries]
    assert times == sorted(times, reverse=True)
    assert all(FROZEN - timedelta(hours=20) <= t <= FROZEN for t in times)
    actors = {(e["actor_type"], e["actor_id"]) for e in entries}
    ci = demo_id("application", "CI deploy pipeline")
    assert ("application", ci) in actors
    assert ("application", running.application_id) in actors
    assert ("user", demo_id("user", "owner")) in actors
    assert ("user", demo_id("user", "admin")) in actors
    assert demo_id("application", "Ops dashboard (read-only)") not in {a for _, a in actors}
    assert {e["entity_type"] for e in entries} >= {"proxy", "reactor", "application"}
    assert running.key not in json.dumps(entries)
    keyed = [e["message"] for e in entries if e["message"].startswith("Application key ")]
    assert keyed and all(str(uuid.UUID(m.split()[2])) == m.split()[2] for m in keyed)


def test_the_demo_history_is_the_same_under_a_frozen_clock(start_service) -> None:  # type: ignore[no-untyped-def]
    answers = []
    for _ in range(2):
        running = start_service(demo_data=True, frozen_now=FROZEN.isoformat())
        with http_client(running.base_url) as client:
            answers.append(every_entry(Caller(client, running.key)))
    assert answers[0] == answers[1]


def test_the_sweep_deletes_in_batches_every_tenants_entries(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from console.service.changes import Actor, Change
    from console.service.store import Store
    from console.service.store import logs as rows
    from console.service.timestamps import stamp

    monkeypatch.setattr(rows, "SWEEP_BATCH", 3)
    store = Store(tmp_path / "data")
    try:
        tenants = [store.create_tenant(f"Tenant {i}") for i in range(3)]
        old = stamp(FROZEN - timedelta(days=2))
        store.add_logs(
            Change(t.tenant_id, "tenant", t.tenant_id, "update", "Old", Actor(None, "system"), at)
            for t in tenants
            for at in (old, old, stamp(FROZEN))
        )
        monkeypatch.setenv("TENANT_CONSOLE_FROZEN_NOW", FROZEN.isoformat())
        assert store.sweep_logs(3600) == 6
        with store.read() as conn:
            left = conn.execute("SELECT tenant_id, created_at FROM logs").fetchall()
        assert sorted(row[0] for row in left) == sorted(t.tenant_id for t in tenants)
        assert {row[1] for row in left} == {stamp(FROZEN)}
    finally:
        store.close()
