"""Application Keys in the local service: several keys per application, created beside each
other, revoked one at a time (at once), never read back; isolation as for every object."""

from __future__ import annotations

import httpx
import pytest
from service_http import (
    Caller,
    application_body,
    assert_problem,
    describe,
    http_client,
    private_application_body,
    unknown_id,
)


@pytest.fixture(scope="module")
def client(service) -> httpx.Client:
    with http_client(service.base_url) as c:
        yield c


@pytest.fixture(scope="module")
def owner(service, client) -> Caller:
    return Caller(client, service.new_tenant("Application Keys").key)


def _status_with(caller_client: httpx.Client, key: str) -> int:
    return Caller(caller_client, key).get("/applications/key").status_code


def test_a_new_application_has_its_first_key_listed_without_material(owner: Caller) -> None:
    created = owner.created("/applications", application_body(permissions=["application:read"]))
    assert len(created["keys"]) == 1
    first = created["keys"][0]
    assert first["version"] == "1" and "key" not in first
    assert first["created_at"] == created["created_at"]
    read = owner.get(f"/applications/{created['id']}").json()
    assert read["keys"] == created["keys"] and "key" not in read
    listed = owner.get(f"/applications/{created['id']}/keys")
    assert listed.status_code == 200, describe(listed)
    assert listed.json() == created["keys"]


def test_create_beside_then_revoke_stops_only_that_key_at_once(owner: Caller, client) -> None:
    app = owner.created("/applications", application_body(permissions=["application:read"]))
    old_key = app["key"]
    # The SDKs POST without a body; an empty object is accepted too.
    made = owner.post(f"/applications/{app['id']}/keys")
    assert made.status_code == 201, describe(made)
    new = made.json()
    assert set(new) >= {"id", "key", "version", "created_at", "created_by"}
    assert new["version"] == "2" and new["key"] and new["key"] != old_key
    assert owner.post(f"/applications/{app['id']}/keys", json={}).status_code == 201
    assert _status_with(client, old_key) == 200 and _status_with(client, new["key"]) == 200

    keys = owner.get(f"/applications/{app['id']}/keys").json()
    assert [k["version"] for k in keys] == ["1", "2", "3"]
    assert all("key" not in k for k in keys)
    one = owner.get(f"/applications/{app['id']}/keys/{new['id']}")
    assert one.status_code == 200 and one.json() == keys[1] and "key" not in one.json()
    narrowed = owner.get(f"/applications/{app['id']}/keys", params={"id": new["id"]}).json()
    assert [k["id"] for k in narrowed] == [new["id"]]

    revoked = owner.delete(f"/applications/{app['id']}/keys/{keys[0]['id']}")
    assert revoked.status_code == 204 and revoked.content == b""
    assert_problem(Caller(client, old_key).get("/applications/key"), 401)
    assert _status_with(client, new["key"]) == 200
    assert [k["id"] for k in owner.get(f"/applications/{app['id']}").json()["keys"]] == [
        k["id"] for k in keys[1:]
    ]
    assert_problem(owner.delete(f"/applications/{app['id']}/keys/{keys[0]['id']}"), 404)


def test_an_application_revoking_its_own_key_loses_it_at_once(owner: Caller, client) -> None:
    app = owner.created(
        "/applications", application_body(permissions=["application:read", "application:update"])
    )
    own = Caller(client, app["key"])
    spare = own.post(f"/applications/{app['id']}/keys").json()
    assert own.delete(f"/applications/{app['id']}/keys/{app['keys'][0]['id']}").status_code == 204
    assert_problem(own.get("/applications/key"), 401)
    assert _status_with(client, spare["key"]) == 200


def test_regenerate_replaces_every_key_with_one(owner: Caller, client) -> None:
    app = owner.created("/applications", application_body(permissions=["application:read"]))
    second = owner.post(f"/applications/{app['id']}/keys").json()
    regenerated = owner.post(f"/applications/{app['id']}/regenerate")
    assert regenerated.status_code == 200, describe(regenerated)
    body = regenerated.json()
    assert [k["version"] for k in body["keys"]] == ["3"]
    for gone in (app["key"], second["key"]):
        assert_problem(Caller(client, gone).get("/applications/key"), 401)
    assert _status_with(client, body["key"]) == 200


def test_keys_of_another_application_or_tenant_are_not_found(service, owner: Caller, client):
    mine = owner.created("/applications", private_application_body())
    other = owner.created("/applications", private_application_body())
    stranger = Caller(client, service.new_tenant("Key stranger").key)
    theirs = stranger.created("/applications", private_application_body())
    other_key = other["keys"][0]["id"]
    expected = {}
    for method in ("GET", "DELETE"):
        # Another application's key through mine; another tenant's through theirs.
        expected[method] = assert_problem(
            owner.request(method, f"/applications/{mine['id']}/keys/{unknown_id()}"), 404
        )
        cross = owner.request(method, f"/applications/{mine['id']}/keys/{other_key}")
        assert assert_problem(cross, 404) == expected[method]
        assert_problem(owner.request(method, f"/applications/{mine['id']}/keys/not-a-uuid"), 404)
        foreign = f"/applications/{theirs['id']}/keys/{theirs['keys'][0]['id']}"
        assert_problem(owner.request(method, foreign), 404)
    assert_problem(owner.get(f"/applications/{theirs['id']}/keys"), 404)
    assert_problem(owner.post(f"/applications/{theirs['id']}/keys"), 404)
    # Nothing changed: every key is still there.
    assert len(stranger.get(f"/applications/{theirs['id']}/keys").json()) == 1
    assert len(owner.get(f"/applications/{other['id']}/keys").json()) == 1


def test_a_key_made_here_never_reappears_in_a_read(owner: Caller) -> None:
    app = owner.created("/applications", application_body(permissions=["application:read"]))
    made = owner.post(f"/applications/{app['id']}/keys").json()
    reads = [
        owner.get(f"/applications/{app['id']}"),
        owner.get("/applications", params={"size": 100}),
        owner.get(f"/applications/{app['id']}/keys"),
        owner.get(f"/applications/{app['id']}/keys/{made['id']}"),
    ]
    for response in reads:
        assert response.status_code == 200, describe(response)
        assert made["key"] not in response.text and app["key"] not in response.text


def test_a_data_dir_of_the_previous_schema_keeps_its_keys(tmp_path) -> None:
    """Version 2 kept one key hash on the application; version 3 makes it the first key."""
    import sqlite3

    from console.service.keys import hash_key, new_api_key
    from console.service.schema import MIGRATIONS
    from console.service.store import Store
    from console.service.store import applications as rows

    path = tmp_path / "tenant-console.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.row_factory = sqlite3.Row
    for migration in MIGRATIONS[:2]:
        migration(conn)
    key = new_api_key()
    conn.execute(
        "INSERT INTO tenants (id, owner_id, name, created_at) VALUES ('t', 'o', 'Old', 'x')"
    )
    conn.execute(
        "INSERT INTO applications (id, tenant_id, name, type, permissions, rules, key_hash,"
        " created_at) VALUES ('a', 't', 'Old app', 'management', '[]', '[]', ?,"
        " '2024-01-01T00:00:00.000000+00:00')",
        (hash_key(key),),
    )
    conn.execute("PRAGMA user_version = 2")
    conn.close()
    store = Store(tmp_path)
    try:
        with store.read() as db:
            found = rows.by_key(db, key, "2030-01-01")
            assert found is not None and found["id"] == "a"
            (first,) = db.execute("SELECT * FROM application_keys").fetchall()
            assert first["version"] == 1 and first["created_at"].startswith("2024-01-01")
            assert db.execute("SELECT key_hash FROM applications").fetchone()[0] != hash_key(key)
    finally:
        store.close()


def test_the_hosted_sdks_calls_work_against_the_local_service(start_service) -> None:
    """The requests exactly as the published SDKs send them (the Python SDK's
    `application_keys` client, basis-theory-js `applicationKeys`, basistheory-go
    `ApplicationKeysApi`): the service's own key header, a POST with no body and no
    Content-Type, the list's `id` and `type` parameters; and the answers read with the
    SDKs' ApplicationKey fields (id, key, version, created_by, created_at)."""
    from datetime import datetime

    sdk_header = "BT-API-KEY"  # the hosted service's header; `serve --key-header` takes it
    running = start_service(key_header=sdk_header)
    headers = {sdk_header: running.new_tenant("SDK shapes").key}
    with httpx.Client(base_url=running.base_url, headers=headers, timeout=30.0) as sdk:
        app = sdk.post(
            "/applications", json={"name": "SDK", "type": "private", "permissions": ["token:read"]}
        ).json()
        created = sdk.request("POST", f"/applications/{app['id']}/keys")
        assert created.status_code == 201, describe(created)
        assert "content-type" not in created.request.headers
        key = created.json()
        assert set(key) == {"id", "key", "version", "created_by", "created_at"}
        assert isinstance(key["version"], str) and isinstance(key["key"], str)
        datetime.fromisoformat(key["created_at"])

        listed = sdk.get(f"/applications/{app['id']}/keys", params={"id": key["id"], "type": "x"})
        assert listed.status_code == 200 and [k["id"] for k in listed.json()] == [key["id"]]
        every = sdk.get(f"/applications/{app['id']}/keys").json()
        assert isinstance(every, list) and all(set(k) <= set(key) for k in every)

        one = sdk.get(f"/applications/{app['id']}/keys/{key['id']}")
        assert one.status_code == 200 and "key" not in one.json()
        gone = sdk.delete(f"/applications/{app['id']}/keys/{key['id']}")
        assert gone.status_code == 204 and gone.content == b""
        missing = sdk.get(f"/applications/{app['id']}/keys/{key['id']}")
        assert missing.status_code == 404  # the SDKs' NotFoundError
        # The application as the SDKs' Application model reads it: `keys` entries.
        assert [k["id"] for k in sdk.get(f"/applications/{app['id']}").json()["keys"]] == [
            app["keys"][0]["id"]
        ]
