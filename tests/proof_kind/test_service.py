"""The proof's test service: `/widgets`, a kind only the tests have, served by the real
local service (`python -m proof_kind.serve`) as the built-in kinds are: the same paging
envelope, the same problems, the same permission checks, with the bootstrap key."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest
from local_service import RunningService

from console.kinds import KINDS, Kind
from console.models.permissions import PERMISSIONS
from console.service import grants
from proof_kind.kind import WIDGETS
from proof_kind.service import WidgetService

PROBLEM_JSON = "application/problem+json"
WIDGET_PERMISSIONS = ["widget:read", "widget:create", "widget:update", "widget:delete"]


class Api:
    """One key against one service, with plain httpx (never the console's client)."""

    def __init__(self, service: WidgetService, key: str | None) -> None:
        self.base_url = service.base_url
        self.headers = {} if key is None else {service.key_header: key}

    def call(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        return httpx.request(
            method, self.base_url + path, headers=self.headers, timeout=30.0, **kwargs
        )

    def ok(self, method: str, path: str, status: int = 200, **kwargs: Any) -> Any:
        response = self.call(method, path, **kwargs)
        assert response.status_code == status, (method, path, response.status_code, response.text)
        return response.json() if response.content else None


def problem(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM_JSON
    return response.json()


@pytest.fixture
def api(widget_service: WidgetService) -> Api:
    """The bootstrap key of a tenant of the test's own."""
    return Api(widget_service, widget_service.new_tenant().key)


def test_the_launcher_serves_widgets_with_its_bootstrap_key(widget_service: WidgetService) -> None:
    api = Api(widget_service, widget_service.key)
    created = api.ok("POST", "/widgets", 201, json={"name": "Launcher widget", "colour": "red"})
    assert api.ok("GET", f"/widgets/{created['id']}") == created
    held = api.ok("GET", "/applications/key")["permissions"]
    assert set(WIDGET_PERMISSIONS) <= set(held)


def test_widgets_are_created_read_updated_and_deleted(api: Api) -> None:
    created = api.ok("POST", "/widgets", 201, json={"name": "Sprocket", "colour": "blue"})
    assert set(created) == {"id", "name", "colour", "created_at", "modified_at"}
    assert created["name"] == "Sprocket" and created["colour"] == "blue"
    assert uuid.UUID(created["id"])
    assert api.ok("GET", f"/widgets/{created['id']}") == created

    updated = api.ok("PUT", f"/widgets/{created['id']}", json={"name": "Sprocket 2"})
    assert updated["id"] == created["id"] and updated["name"] == "Sprocket 2"
    assert updated["colour"] is None  # PUT replaces: an omitted field takes its default
    assert updated["created_at"] == created["created_at"]
    assert updated["modified_at"] >= created["modified_at"]

    response = api.call("DELETE", f"/widgets/{created['id']}")
    assert response.status_code == 204 and not response.content
    gone = problem(api.call("GET", f"/widgets/{created['id']}"), 404)
    assert gone == {
        "type": "about:blank",
        "title": "Not Found",
        "status": 404,
        "detail": "No widget with that id exists.",
    }
    problem(api.call("DELETE", f"/widgets/{created['id']}"), 404)


def test_the_list_pages_and_filters_by_name_as_the_built_in_lists_do(api: Api) -> None:
    for name in ("Alpha gear", "Beta gear", "Gamma cog"):
        api.ok("POST", "/widgets", 201, json={"name": name})
    first = api.ok("GET", "/widgets", params={"size": 2})
    assert first["pagination"] == {
        "total_items": 3,
        "page_number": 1,
        "page_size": 2,
        "total_pages": 2,
    }
    assert [w["name"] for w in first["data"]] == ["Alpha gear", "Beta gear"]  # oldest first
    second = api.ok("GET", "/widgets", params={"size": 2, "page": 2})
    assert [w["name"] for w in second["data"]] == ["Gamma cog"]
    gears = api.ok("GET", "/widgets", params={"name": "GEAR"})
    assert [w["name"] for w in gears["data"]] == ["Alpha gear", "Beta gear"]
    assert [w["name"] for w in api.ok("GET", "/widgets", params={"name": "a*cog"})["data"]] == [
        "Gamma cog"
    ]

    proxies = api.ok("GET", "/proxies", params={"size": 2})
    assert set(proxies) == set(first) and set(proxies["pagination"]) == set(first["pagination"])

    bad = problem(api.call("GET", "/widgets", params={"page": "0", "size": "500"}), 400)
    assert bad["errors"] == {
        "page": ["The page must be at least 1."],
        "size": ["The size must be from 1 to 100."],
    }


def test_a_bad_body_is_refused_with_field_errors(api: Api) -> None:
    missing = problem(api.call("POST", "/widgets", json={"colour": "green"}), 400)
    assert missing["detail"] == "One or more validation errors occurred."
    assert list(missing["errors"]) == ["name"]
    too_long = problem(api.call("POST", "/widgets", json={"name": "W", "colour": "x" * 41}), 400)
    assert list(too_long["errors"]) == ["colour"]
    not_json = problem(api.call("POST", "/widgets", content=b"name=W"), 415)
    assert not_json["detail"] == "The body must be application/json, not none."


def test_permissions_are_checked_as_for_the_built_in_kinds(
    api: Api, widget_service: WidgetService
) -> None:
    widget = api.ok("POST", "/widgets", 201, json={"name": "Guarded"})
    tenant_key = api.headers[widget_service.key_header]
    reader = Api(widget_service, widget_service.new_key(["widget:read"], tenant_key))
    assert reader.ok("GET", f"/widgets/{widget['id']}") == widget
    refused = problem(reader.call("DELETE", f"/widgets/{widget['id']}"), 403)
    assert refused["detail"] == "The application lacks the widget:delete permission."

    other = Api(widget_service, widget_service.new_key(["proxy:read"], tenant_key))
    for method, path in [
        ("GET", "/widgets"),
        ("POST", "/widgets"),
        ("GET", f"/widgets/{widget['id']}"),
        ("PUT", f"/widgets/{widget['id']}"),
        ("DELETE", f"/widgets/{widget['id']}"),
    ]:
        verb = {"GET": "read", "POST": "create", "PUT": "update", "DELETE": "delete"}[method]
        found = problem(other.call(method, path, json={"name": "x"}), 403)
        assert found["detail"] == f"The application lacks the widget:{verb} permission."
    # the 403 of a built-in kind, word for word but for the permission
    proxies = problem(reader.call("GET", "/proxies"), 403)
    assert proxies["detail"] == "The application lacks the proxy:read permission."

    nobody = problem(Api(widget_service, None).call("GET", "/widgets"), 401)
    assert nobody["detail"] == "The SVC-API-KEY header is missing."


def test_another_tenants_widget_is_not_found(api: Api, widget_service: WidgetService) -> None:
    widget = api.ok("POST", "/widgets", 201, json={"name": "Mine"})
    stranger = Api(widget_service, widget_service.new_tenant("Other").key)
    problem(stranger.call("GET", f"/widgets/{widget['id']}"), 404)
    assert stranger.ok("GET", "/widgets")["data"] == []


def test_the_served_catalogue_holds_the_widgets_permissions(api: Api) -> None:
    served = [p["type"] for p in api.ok("GET", "/permissions")]
    assert served == [p.type for p in PERMISSIONS] + WIDGET_PERMISSIONS
    document = api.ok("GET", "/openapi.json")
    assert {"/widgets", "/widgets/{id}"} <= set(document["paths"])
    create = document["paths"]["/widgets"]["post"]["requestBody"]["content"]["application/json"]
    assert create["schema"] == {"$ref": "#/components/schemas/WidgetCreate"}
    assert document["components"]["schemas"]["WidgetCreate"]["required"] == ["name"]


def test_the_product_catalogue_is_unchanged_without_the_kind() -> None:
    assert KINDS.find(WIDGETS.key) is None
    assert grants.catalogue() == PERMISSIONS
    assert not [p for p in grants.management_grants() if p.startswith("widget:")]


def test_widgets_registered_registers_the_kind_for_the_test(widgets_registered: Kind) -> None:
    assert widgets_registered is WIDGETS
    assert KINDS.get("widgets") is WIDGETS and KINDS.by_path("/widgets/3") is WIDGETS
    assert [p.type for p in grants.catalogue()][-4:] == WIDGET_PERMISSIONS
    assert WIDGETS.models.create is not None and WIDGETS.models.read.__name__ == "Widget"


def test_the_product_service_serves_no_widgets(service: RunningService) -> None:
    """`tenant-console serve` (the session's shared service) has no widgets' routes, and its
    catalogue no widgets' permissions: only the tests' launcher adds them."""
    headers = {service.key_header: service.key}
    response = httpx.get(f"{service.base_url}/widgets", headers=headers, timeout=30.0)
    assert problem(response, 404)["detail"] == "No route matches this path."
    catalogue = httpx.get(f"{service.base_url}/permissions", headers=headers, timeout=30.0)
    assert [p["type"] for p in catalogue.json()] == [p.type for p in PERMISSIONS]
