"""What the vendor's SDKs meet beyond the specification (issue 35): the `type` filter on
`GET /applications`, `create_key: false` on `POST /applications`, and `total_tokens` in the
usage report."""

from __future__ import annotations

from typing import Any

import pytest
from service_http import Caller, assert_invalid, describe, http_client


@pytest.fixture
def api(service) -> Any:  # type: ignore[no-untyped-def]
    tenant = service.new_tenant("SDK differences")
    with http_client(service.base_url) as client:
        yield Caller(client, tenant.key)


def app_body(name: str, kind: str) -> dict[str, Any]:
    permissions = {"private": ["token:read"], "public": ["token:create"]}
    return {"name": name, "type": kind, "permissions": permissions.get(kind, ["proxy:read"])}


def test_the_type_filter(api: Caller) -> None:
    api.created("/applications", app_body("Back end", "private"))
    api.created("/applications", app_body("Web", "public"))
    api.created("/applications", app_body("Ops", "management"))

    def names(*types: str) -> list[str]:
        response = api.get("/applications", params=[("type", t) for t in types])
        assert response.status_code == 200, describe(response)
        return sorted(a["name"] for a in response.json()["data"])

    assert names("private") == ["Back end"]
    assert names("public", "private") == ["Back end", "Web"]
    assert "Ops" in names("management") and len(names()) == 4  # with the bootstrap's own
    response = api.get("/applications", params={"type": "private", "size": 1})
    assert response.json()["pagination"]["total_items"] == 1
    assert_invalid(api.get("/applications", params={"type": "robot"}), "type[0]")


def test_create_key_false_makes_an_application_without_a_key(api: Caller) -> None:
    made = api.created("/applications", {**app_body("Keyless", "private"), "create_key": False})
    assert "key" not in made and made["keys"] == []
    read = api.get(f"/applications/{made['id']}").json()
    assert read["keys"] == []
    key = api.post(f"/applications/{made['id']}/keys")
    assert key.status_code == 201, describe(key)
    assert len(api.get(f"/applications/{made['id']}").json()["keys"]) == 1


@pytest.mark.parametrize("create_key", [True, None])
def test_create_key_true_or_left_out_makes_one(api: Caller, create_key: bool | None) -> None:
    body = app_body("Keyed", "private")
    if create_key is not None:
        body["create_key"] = create_key
    made = api.created("/applications", body)
    assert made["key"] and len(made["keys"]) == 1


def test_create_key_must_be_a_boolean(api: Caller) -> None:
    body = {**app_body("Keyed", "private"), "create_key": "no"}
    assert_invalid(api.post("/applications", json=body), "create_key")


def test_the_usage_report_has_total_tokens(service, api: Caller) -> None:  # type: ignore[no-untyped-def]
    assert api.get("/tenants/self/reports/usage").json()["total_tokens"] == 0
    tenant = service.new_tenant("Usage totals")
    service.set_usage(tenant.tenant_id, 100, 3, {"card": (5, None), "token": (7, None)})
    with http_client(service.base_url) as client:
        report = Caller(client, tenant.key).get("/tenants/self/reports/usage").json()
    assert report["total_tokens"] == 12
    assert sum(m["count"] for m in report["token_report"]["metrics_by_type"].values()) == 12
