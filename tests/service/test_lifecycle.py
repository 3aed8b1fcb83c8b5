"""Changes that end a key or an object take effect at once; response-only fields are ignored.

Covers regenerate, expiry, application and tenant deletion, the key never being shown again,
and that no API key is ever stored in plain text in the data dir.
"""

from __future__ import annotations

import time
import uuid
from datetime import datetime, timedelta, timezone

import httpx
import pytest
from service_http import (
    SEEN_KEYS,
    Caller,
    application_body,
    assert_problem,
    describe,
    formula_body,
    future,
    http_client,
    ids,
    private_application_body,
    proxy_body,
)

EXPIRY_DEADLINE_S = 20.0
EXPIRY_SLACK_S = 2.0
"""How long after `expires_at` a key may still answer: request latency, not a clean-up cycle."""


@pytest.fixture(scope="module")
def client(service) -> httpx.Client:
    with http_client(service.base_url) as c:
        yield c


@pytest.fixture(scope="module")
def owner(service, client) -> Caller:
    return Caller(client, service.new_tenant("Lifecycle").key)


def whoami(client: httpx.Client, key: str) -> httpx.Response:
    return Caller(client, key).get("/applications/key")


# Regenerate.


def test_regenerate_invalidates_the_old_key_at_once(owner: Caller, client) -> None:
    app = owner.created("/applications", application_body(permissions=["application:read"]))
    old = app["key"]
    assert whoami(client, old).status_code == 200
    response = owner.post(f"/applications/{app['id']}/regenerate")
    assert response.status_code == 200, describe(response)
    regenerated = response.json()
    new = regenerated["key"]
    assert new and new != old
    assert regenerated["id"] == app["id"]
    assert_problem(whoami(client, old), 401)
    current = whoami(client, new)
    assert current.status_code == 200, describe(current)
    assert current.json()["id"] == app["id"]


def test_regenerate_twice_leaves_only_the_last_key(owner: Caller, client) -> None:
    app = owner.created("/applications", application_body(permissions=["application:read"]))
    first = owner.post(f"/applications/{app['id']}/regenerate").json()["key"]
    second = owner.post(f"/applications/{app['id']}/regenerate").json()["key"]
    assert len({app["key"], first, second}) == 3
    assert_problem(whoami(client, app["key"]), 401)
    assert_problem(whoami(client, first), 401)
    assert whoami(client, second).status_code == 200


def test_an_application_can_regenerate_its_own_key(owner: Caller, client) -> None:
    body = application_body(permissions=["application:read", "application:update"])
    app = owner.created("/applications", body)
    me = Caller(client, app["key"])
    response = me.post(f"/applications/{app['id']}/regenerate")
    assert response.status_code == 200, describe(response)
    assert_problem(me.get("/applications/key"), 401)
    assert whoami(client, response.json()["key"]).status_code == 200


def test_key_is_never_shown_after_create_or_regenerate(owner: Caller) -> None:
    app = owner.created("/applications", private_application_body())
    assert app["key"]
    owner.post(f"/applications/{app['id']}/regenerate")
    got = owner.get(f"/applications/{app['id']}").json()
    assert got.get("key") is None, got
    for item in owner.list_all("/applications"):
        assert item.get("key") is None, item
    updated = owner.put(
        f"/applications/{app['id']}", json={"name": "x", "permissions": ["token:use"]}
    )
    assert updated.status_code == 200, describe(updated)
    assert updated.json().get("key") is None


# Deletion.


def test_deleted_application_key_is_401_at_once(owner: Caller, client) -> None:
    app = owner.created("/applications", application_body(permissions=["application:read"]))
    response = owner.delete(f"/applications/{app['id']}")
    assert response.status_code == 204, describe(response)
    assert_problem(whoami(client, app["key"]), 401)
    assert_problem(owner.get(f"/applications/{app['id']}"), 404)
    assert_problem(owner.delete(f"/applications/{app['id']}"), 404)
    assert app["id"] not in ids(owner.list_all("/applications"))


@pytest.mark.parametrize(
    ("path", "body"), [("/proxies", proxy_body), ("/reactor-formulas", formula_body)]
)
def test_deleted_object_is_gone_at_once(owner: Caller, path: str, body) -> None:
    created = owner.created(path, body())
    response = owner.delete(f"{path}/{created['id']}")
    assert response.status_code == 204, describe(response)
    assert response.content == b""
    assert_problem(owner.get(f"{path}/{created['id']}"), 404)
    assert_problem(owner.put(f"{path}/{created['id']}", json=body()), 404)
    assert_problem(owner.delete(f"{path}/{created['id']}"), 404)
    assert created["id"] not in ids(owner.list_all(path))


def test_tenant_delete_ends_every_key_and_spares_the_other_tenant(service, client) -> None:
    doomed = service.new_tenant("Doomed")
    survivor = service.new_tenant("Survivor")
    doomed_owner = Caller(client, doomed.key)
    extra_key = service.new_key(["tenant:read", "proxy:read"], tenant_key=doomed.key)
    private = doomed_owner.created("/applications", private_application_body())
    doomed_owner.created("/proxies", proxy_body())
    survivor_owner = Caller(client, survivor.key)
    kept = survivor_owner.created("/proxies", proxy_body())
    before = survivor_owner.get("/tenants/self").json()

    response = doomed_owner.delete("/tenants/self")
    assert response.status_code == 204, describe(response)
    assert response.content == b""

    for key in (doomed.key, extra_key, private["key"]):
        assert_problem(Caller(client, key).get("/permissions"), 401)
    assert_problem(doomed_owner.get("/tenants/self"), 401)
    assert survivor_owner.get("/tenants/self").json() == before
    assert survivor_owner.get(f"/proxies/{kept['id']}").status_code == 200
    assert whoami(client, survivor.key).status_code == 200


# Expiry.


def test_expired_application_is_gone_at_once(owner: Caller, client) -> None:
    expires_at = datetime.fromisoformat(future(4))
    body = application_body(permissions=["application:read"], expires_at=expires_at.isoformat())
    app = owner.created("/applications", body)
    assert datetime.fromisoformat(app["expires_at"]) == expires_at
    assert app["expires_at"].endswith("+00:00"), app["expires_at"]
    key = app["key"]
    first = whoami(client, key)
    if datetime.now(expires_at.tzinfo) < expires_at:
        assert first.status_code == 200, describe(first)

    deadline = time.monotonic() + EXPIRY_DEADLINE_S
    while True:
        response = whoami(client, key)
        if response.status_code == 401:
            refused_at = datetime.now(expires_at.tzinfo)
            break
        assert response.status_code == 200, describe(response)
        assert time.monotonic() < deadline, "the key still works long after expires_at"
        time.sleep(0.1)
    assert_problem(response, 401)
    assert refused_at - expires_at < timedelta(seconds=EXPIRY_SLACK_S), (
        f"key refused {refused_at - expires_at} after expires_at: it must end at once"
    )
    # Gone from GET and list at the same moment, not on a later clean-up.
    assert_problem(owner.get(f"/applications/{app['id']}"), 404)
    assert app["id"] not in ids(owner.list_all("/applications"))
    response = owner.get("/applications", params={"id": [app["id"]]})
    assert response.json()["data"] == []
    assert_problem(owner.post(f"/applications/{app['id']}/regenerate"), 404)


def test_expires_at_with_another_offset_is_stored_in_utc(owner: Caller) -> None:
    sent = datetime.fromisoformat(future(3600)).astimezone(timezone(timedelta(hours=2)))
    app = owner.created("/applications", application_body(expires_at=sent.isoformat()))
    assert app["expires_at"].endswith("+00:00"), app["expires_at"]
    assert datetime.fromisoformat(app["expires_at"]) == sent


# Response-only fields in a request are ignored.

FOREIGN_ID = "00000000-0000-4000-8000-000000000001"
ANCIENT = "2001-01-01T00:00:00+00:00"
RESPONSE_ONLY = {
    "id": FOREIGN_ID,
    "tenant_id": FOREIGN_ID,
    "key": "chosen-by-the-caller",
    "status": "coming_soon",
    "created_at": ANCIENT,
    "created_by": FOREIGN_ID,
    "modified_at": ANCIENT,
    "modified_by": FOREIGN_ID,
    "application_id": FOREIGN_ID,
    "colour": "an unknown field, ignored too",
}


def assert_not_applied(created: dict, own_tenant: str | None) -> None:
    assert created["id"] != FOREIGN_ID
    if own_tenant is not None:
        assert created["tenant_id"] == own_tenant
    assert created.get("key") != "chosen-by-the-caller"
    for field in ("created_at", "modified_at"):
        if created.get(field) is not None:
            assert created[field] != ANCIENT, field
    for field in ("created_by", "modified_by"):
        assert created.get(field) != FOREIGN_ID, field
    assert "colour" not in created


def test_response_only_fields_are_ignored_on_create(owner: Caller, client) -> None:
    tenant_id = owner.get("/tenants/self").json()["id"]
    proxy = owner.created("/proxies", proxy_body(**RESPONSE_ONLY))
    assert_not_applied(proxy, tenant_id)
    assert proxy["application_id"] is None
    assert proxy["key"]

    app = owner.created(
        "/applications", application_body(**RESPONSE_ONLY, permissions=["application:read"])
    )
    assert_not_applied(app, tenant_id)
    assert_problem(whoami(client, "chosen-by-the-caller"), 401)
    assert whoami(client, app["key"]).status_code == 200

    formula = owner.created("/reactor-formulas", formula_body(**RESPONSE_ONLY))
    assert_not_applied(formula, None)
    assert formula["status"] == "verified"
    assert_problem(owner.get(f"/reactor-formulas/{FOREIGN_ID}"), 404)


def test_response_only_fields_are_ignored_on_update(owner: Caller) -> None:
    proxy = owner.created("/proxies", proxy_body())
    response = owner.put(f"/proxies/{proxy['id']}", json=proxy_body(**RESPONSE_ONLY))
    assert response.status_code == 200, describe(response)
    updated = response.json()
    assert updated["id"] == proxy["id"]
    assert updated["key"] == proxy["key"]
    assert updated["tenant_id"] == proxy["tenant_id"]
    assert updated["created_at"] == proxy["created_at"]
    assert updated["created_by"] == proxy["created_by"]
    assert updated["application_id"] is None

    formula = owner.created("/reactor-formulas", formula_body())
    response = owner.put(f"/reactor-formulas/{formula['id']}", json=formula_body(**RESPONSE_ONLY))
    assert response.status_code == 200, describe(response)
    assert response.json()["status"] == formula["status"] == "verified"
    assert response.json()["id"] == formula["id"]

    app = owner.created("/applications", application_body())
    body = {k: v for k, v in RESPONSE_ONLY.items() if k != "status"}
    response = owner.put(
        f"/applications/{app['id']}", json={"name": "n", "permissions": ["proxy:read"], **body}
    )
    assert response.status_code == 200, describe(response)
    assert response.json()["id"] == app["id"]
    assert response.json().get("key") is None

    tenant = owner.get("/tenants/self").json()
    response = owner.put("/tenants/self", json={"name": "Lifecycle", **body})
    assert response.status_code == 200, describe(response)
    assert response.json()["id"] == tenant["id"]
    assert response.json()["created_at"] == tenant["created_at"]


def test_put_tenant_without_settings_keeps_them(owner: Caller) -> None:
    settings = {"fingerprint_tokens": "false", "deduplicate_tokens": "true"}
    response = owner.put("/tenants/self", json={"name": "Lifecycle", "settings": settings})
    assert response.status_code == 200, describe(response)
    response = owner.put("/tenants/self", json={"name": "Lifecycle again"})
    assert response.json()["settings"] == settings
    assert owner.get("/tenants/self").json()["settings"] == settings


# Keys at rest.


def test_no_api_key_is_stored_in_plain_text(service, owner: Caller, client) -> None:
    """Every key this test package was handed, regenerated-away ones included, is absent."""
    made = [owner.created("/applications", application_body())["key"] for _ in range(3)]
    made.append(owner.created("/applications", private_application_body())["key"])
    app = owner.created("/applications", application_body())
    regenerated = owner.post(f"/applications/{app['id']}/regenerate").json()["key"]
    tenant = service.new_tenant("Scan")
    keys = {*SEEN_KEYS, *made, app["key"], regenerated, tenant.key, service.key}
    keys.discard("chosen-by-the-caller")
    assert len(keys) >= 7
    # The service has written everything it acknowledged; WAL and SHM files are scanned too.
    files = [p for p in service.data_dir.rglob("*") if p.is_file()]
    assert files, f"no files in {service.data_dir}"
    found = []
    for path in files:
        data = path.read_bytes()
        for key in keys:
            if key.encode() in data or key.encode("utf-16-le") in data:
                found.append(f"{path.name}: {key[:4]}…")
    assert not found, f"API keys stored in plain text: {found}"


def test_no_api_key_appears_in_the_service_logs(service, owner: Caller) -> None:
    """Keys never appear in logs; only the bootstrap block on first start shows its own key."""
    log_dir = getattr(service, "log_dir", None)
    if log_dir is None or not log_dir.exists():
        pytest.skip("this service fixture keeps no log files to scan")
    app = owner.created("/applications", application_body())
    owner.post(f"/applications/{app['id']}/regenerate")
    keys = {*SEEN_KEYS, app["key"]} - {service.key, "chosen-by-the-caller"}
    found = []
    for path in log_dir.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            found += [f"{path.name}: {key[:4]}…" for key in keys if key.encode() in data]
    assert not found, f"API keys in the service's logs: {found}"


def test_keys_are_long_and_distinct(owner: Caller) -> None:
    keys = [owner.created("/applications", application_body())["key"] for _ in range(5)]
    assert len(set(keys)) == 5
    for key in keys:
        # At least 128 bits of randomness: 22+ characters of a base64-ish alphabet.
        assert len(key) >= 22, "an API key must carry at least 128 bits of randomness"
        assert uuid.UUID(int=0).hex not in key
