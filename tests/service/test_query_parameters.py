"""Query parameters: one model, read after authorization, documented from the model itself.

The document may list only the parameters an operation validates, and must list every one:
each operation is sent a bad value for every parameter the API knows, and answers 400 on
exactly those its document names.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from service_http import Caller, assert_invalid, assert_problem, describe, http_client, unknown_id

from console.models import MANAGEMENT_PERMISSIONS

BAD_VALUES = {
    "id": "not-a-uuid",
    "name": "a\x00b",
    "page": "0",
    "size": "101",
    "application_type": "robot",
    "start": "not-a-cursor",
    "type": "robot",
    "entity_type": "Not A Type",
    "entity_id": "not-a-uuid",
    "start_date": "yesterday",
    "end_date": "2026-02-30",
}
"""A value each query parameter of the API refuses."""

LISTS = {
    "/applications": "application:read",
    "/proxies": "proxy:read",
    "/reactor-formulas": "reactor:read",
    "/logs": "log:read",
}


@pytest.fixture(scope="module")
def client(service) -> httpx.Client:
    with http_client(service.base_url) as c:
        yield c


@pytest.fixture(scope="module")
def tenant(service):
    return service.new_tenant("Query parameters")


@pytest.fixture(scope="module")
def owner(client, tenant) -> Caller:
    return Caller(client, tenant.key)


@pytest.fixture(scope="module")
def document(client) -> dict[str, Any]:
    return client.get("/openapi.json").json()


@pytest.mark.parametrize(("path", "permission"), LISTS.items())
def test_the_query_is_read_only_after_the_key_and_the_permission(
    service, client, tenant, owner: Caller, path: str, permission: str
) -> None:
    bad = {"id": "x", "name": "\x00", "page": "0", "size": "ten"}
    assert_problem(Caller(client, None).get(path, params=bad), 401)
    assert_problem(Caller(client, "not-a-key").get(path, params=bad), 401)
    lacking = [p for p in MANAGEMENT_PERMISSIONS if p != permission]
    caller = Caller(client, service.new_key(lacking, tenant_key=tenant.key))
    problem = assert_problem(caller.get(path, params=bad), 403)
    assert "errors" not in problem, problem
    assert_invalid(owner.get(path, params=bad), "page")


def test_the_permissions_query_is_read_only_after_the_key(client, owner: Caller) -> None:
    params = {"application_type": "robot"}
    assert_problem(Caller(client, None).get("/permissions", params=params), 401)
    assert_invalid(owner.get("/permissions", params=params), "application_type")


def test_every_bad_query_parameter_is_reported_at_once(owner: Caller) -> None:
    params = {"id": ["x", "y"], "name": "\x00", "page": "0", "size": "ten"}
    errors = assert_invalid(owner.get("/proxies", params=params), "page")
    assert set(errors) == {"id[0]", "id[1]", "name", "page", "size"}, errors


def test_the_document_names_exactly_the_query_parameters_each_operation_reads(
    owner: Caller, document: dict[str, Any]
) -> None:
    checked = 0
    for template, operations in document["paths"].items():
        operation = operations.get("get")
        if operation is None:
            continue  # writes are covered by the authorization and validation matrices
        documented = {p["name"] for p in operation.get("parameters", []) if p["in"] == "query"}
        assert documented <= set(BAD_VALUES), (template, documented)
        path = template.replace("{id}", unknown_id())
        for name, value in BAD_VALUES.items():
            response = owner.get(path, params={name: value})
            if name in documented:
                assert_invalid(response, name, f"{name}[0]")
            else:
                assert response.status_code in (200, 404), describe(response)
            checked += 1
    assert checked >= 9 * len(BAD_VALUES)


@pytest.mark.parametrize("path", [*LISTS, "/permissions"])
def test_documented_query_parameters_are_optional_with_their_defaults(
    document: dict[str, Any], path: str
) -> None:
    parameters = document["paths"][path]["get"]["parameters"]
    for parameter in parameters:
        assert parameter["in"] == "query" and parameter["required"] is False, parameter
        # a query value is never null (a time is a date-time or a date)
        assert {"type": "null"} not in parameter["schema"].get("anyOf", []), parameter
    by_name = {p["name"]: p["schema"] for p in parameters}
    if "page" in by_name:
        assert by_name["page"] == {"type": "integer", "minimum": 1, "default": 1}
        assert by_name["size"] == {"type": "integer", "minimum": 1, "maximum": 100, "default": 20}
