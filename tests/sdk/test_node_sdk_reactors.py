"""Reactors through the vendor's Node SDK (`@basis-theory/node-sdk`): every route, read by the
SDK (camelCase fields), and the errors as the SDK throws them (its error classes).

Each test is one Node process running a batch of calls (tests/sdk/node/calls.mjs): a later
call names an earlier one's answer with {"$from": [index, ...]}.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from basis_theory.types import ReactorRuntime
from sdk_clients import (
    ECHO_CODE,
    NO_FUNCTION_CODE,
    SLOW_CODE,
    STATUS_CODE,
    THROWING_CODE,
    SdkTenant,
    node_calls,
    python_client,
    value_of,
    wait_for,
)

RUNTIME = {"image": "node22", "timeout": 5, "resources": "standard", "warmConcurrency": 0}


def _id(index: int) -> dict[str, Any]:
    return {"$from": [index, "value", "id"]}


def _while(state: str) -> dict[str, Any]:
    return {"while": {"state": state}, "seconds": 15}


@pytest.fixture(scope="module")
def reactors(sdk_tenant: SdkTenant) -> dict[str, str]:
    """Active reactors for the invoking key's batches, made with the Python SDK (set-up)."""
    bt = python_client(sdk_tenant.base_url, sdk_tenant.management_key)
    made: dict[str, str] = {}
    for name, code in (
        ("echo", ECHO_CODE),
        ("slow", SLOW_CODE),
        ("throwing", THROWING_CODE),
        ("status", STATUS_CODE),
        ("no function", NO_FUNCTION_CODE),
    ):
        made[name] = bt.reactors.create(
            name=f"Node {name}",
            code=code,
            configuration={"SECRET": "s"},
            runtime=ReactorRuntime(image="node22"),
        ).id
    for name, reactor_id in made.items():  # provisioned side by side: one delay for all
        wait_for(lambda r=reactor_id: bt.reactors.get(r).state, "active".__eq__, name)
    return made


def test_crud_list_and_provisioning(sdk_tenant: SdkTenant) -> None:
    new_code = ECHO_CODE.replace("echoed", "updated")
    calls = [
        {  # 0
            "call": "reactors.create",
            "args": [
                {
                    "name": "Node echo",
                    "code": ECHO_CODE,
                    "configuration": {"A": "1", "B": "2"},
                    "runtime": RUNTIME,
                    "application": {"id": sdk_tenant.invoke_application_id},
                }
            ],
        },
        {"call": "reactors.get", "args": [_id(0)], "poll": _while("creating")},  # 1
        *[
            {"call": "reactors.create", "args": [{"name": f"NodePaged {n}", "code": ECHO_CODE}]}
            for n in range(3)
        ],  # 2, 3, 4
        {"call": "reactors.list", "args": [{"name": "nodepaged*", "size": 2}], "walk": True},  # 5
        {"call": "reactors.list", "args": [{"name": "nodepaged*", "size": 2}]},  # 6
        {"call": "reactors.list", "args": [{"id": [_id(2), _id(4)]}]},  # 7
        {  # 8
            "call": "reactors.update",
            "args": [
                _id(0),
                {
                    "name": "Node echo 2",
                    "code": new_code,
                    "configuration": {"A": "1", "B": "2"},
                    "runtime": RUNTIME,
                },
            ],
        },
        {"call": "reactors.get", "args": [_id(0)], "poll": _while("updating")},  # 9
        {"call": "reactors.patch", "args": [_id(0), {"name": "Node echo 3"}]},  # 10
        {"call": "reactors.get", "args": [_id(0)]},  # 11
        {"call": "reactors.delete", "args": [_id(2)]},  # 12
        {"call": "reactors.get", "args": [_id(2)]},  # 13
    ]
    results = node_calls(sdk_tenant.base_url, sdk_tenant.management_key, calls)

    created = value_of(results[0])
    assert results[0]["status"] == 201 and created["state"] == "creating"
    assert created["runtime"] == RUNTIME and created["tenantId"] == sdk_tenant.tenant_id
    active = value_of(results[1])
    assert active["state"] == "active" and active.get("requested") is None
    assert active["application"]["id"] == sdk_tenant.invoke_application_id
    assert active["configuration"] == {"A": "1", "B": "2"} and active["code"] == ECHO_CODE

    paged = [value_of(results[i])["id"] for i in (2, 3, 4)]
    assert sorted(r["id"] for r in value_of(results[5])["items"]) == sorted(paged)
    first = value_of(results[6])
    assert len(first["data"]) == 2 and first["hasNextPage"] is True
    assert first["response"]["pagination"]["totalItems"] == 3
    assert first["response"]["pagination"]["pageSize"] == 2
    assert sorted(r["id"] for r in value_of(results[7])["data"]) == sorted([paged[0], paged[2]])

    updating = value_of(results[8])
    assert updating["state"] == "updating" and updating["name"] == "Node echo 2"
    assert updating["requested"]["reactor"]["code"] == new_code
    updated = value_of(results[9])
    assert updated["state"] == "active" and updated["code"] == new_code
    assert results[10]["ok"] and results[10]["status"] == 204
    assert value_of(results[11])["name"] == "Node echo 3"
    assert results[12]["ok"] and results[12]["status"] == 204
    assert (results[13]["error"], results[13]["status"]) == ("NotFoundError", 404)


def test_list_by_cursor(sdk_tenant: SdkTenant) -> None:
    """`start` pages by an opaque cursor (`after`, no totals); the SDK's pager walks on
    from a cursor too (it steps `page` beside the same `start`)."""
    calls = [
        *[
            {"call": "reactors.create", "args": [{"name": f"NodeCursor {n}", "code": ECHO_CODE}]}
            for n in range(3)
        ],  # 0, 1, 2
        {"call": "reactors.list", "args": [{"name": "nodecursor*", "size": 2, "start": ""}]},  # 3
        {  # 4
            "call": "reactors.list",
            "args": [
                {
                    "name": "nodecursor*",
                    "size": 2,
                    "start": {"$from": [3, "value", "response", "pagination", "after"]},
                }
            ],
        },
        {  # 5
            "call": "reactors.list",
            "args": [{"name": "nodecursor*", "size": 1, "start": ""}],
            "walk": True,
        },
    ]
    results = node_calls(sdk_tenant.base_url, sdk_tenant.management_key, calls)
    made = sorted(value_of(results[i])["id"] for i in range(3))
    first, rest = value_of(results[3]), value_of(results[4])
    assert "totalItems" not in first["response"]["pagination"]
    assert first["response"]["pagination"]["after"] and len(first["data"]) == 2
    assert "after" not in rest["response"]["pagination"]
    assert sorted(r["id"] for r in first["data"] + rest["data"]) == made
    assert sorted(r["id"] for r in value_of(results[5])["items"]) == made


def test_react_async_results_and_invocation_errors(
    sdk_tenant: SdkTenant, reactors: dict[str, str]
) -> None:
    args = {"args": {"card": {"number": "4242"}}}
    accepted = {"$from": [1, "value", "asyncReactorRequestId"]}
    calls = [
        {"call": "reactors.react", "args": [reactors["echo"], args]},  # 0
        {"call": "reactors.reactAsync", "args": [reactors["slow"], {"args": {"n": 7}}]},  # 1
        {"call": "reactors.results.get", "args": [reactors["slow"], accepted]},  # 2
        {  # 3
            "call": "reactors.results.get",
            "args": [reactors["slow"], accepted],
            "poll": {"while": {"status": "pending"}, "seconds": 15},
        },
        {"call": "reactors.results.get", "args": [reactors["slow"], str(uuid.uuid4())]},  # 4
        {"call": "reactors.react", "args": [reactors["no function"], args]},  # 5
        {"call": "reactors.react", "args": [reactors["throwing"], args]},  # 6
        {"call": "reactors.react", "args": [reactors["status"], args]},  # 7
        {"call": "reactors.react", "args": [str(uuid.uuid4()), args]},  # 8
        {"call": "reactors.list", "args": []},  # 9
        {"call": "reactors.delete", "args": [reactors["echo"]]},  # 10
        {"call": "reactors.reactAsync", "args": [reactors["status"], args]},  # 11
        {  # 12: a failed run is the result's answer
            "call": "reactors.results.get",
            "args": [reactors["status"], {"$from": [11, "value", "asyncReactorRequestId"]}],
            "poll": {"while": {"status": "pending"}, "seconds": 15},
        },
    ]
    results = node_calls(sdk_tenant.base_url, sdk_tenant.invoke_key, calls)

    react = value_of(results[0])
    assert react["raw"] == {"args": args["args"], "configuration": {"SECRET": "s"}}
    assert react["body"] == {"echoed": args["args"]} and react["headers"] == {"x-echo": "yes"}
    assert react.get("tokens") is None

    assert results[1]["status"] == 202 and uuid.UUID(value_of(results[1])["asyncReactorRequestId"])
    assert (results[2]["status"], value_of(results[2])) == (202, {"status": "pending"})
    assert results[3]["status"] == 200
    assert value_of(results[3])["raw"] == {"slept": True, "args": {"n": 7}}
    assert (results[4]["error"], results[4]["status"]) == ("NotFoundError", 404)

    assert (results[5]["error"], results[5]["status"]) == ("UnprocessableEntityError", 422)
    assert "not a valid function" in f"{results[5]['body']['title']} {results[5]['body']['detail']}"
    assert (results[6]["error"], results[6]["status"]) == ("BasisTheoryError", 500)
    assert results[6]["body"]["title"] == "Reactor Runtime Error"
    assert results[6]["body"]["errors"] == {"error": ["card declined"]}
    assert (results[7]["error"], results[7]["status"]) == ("BasisTheoryError", 402)
    assert results[7]["body"]["errors"] == {"card": ["Invalid card"]}
    assert (results[8]["error"], results[8]["status"]) == ("NotFoundError", 404)
    assert (results[9]["error"], results[9]["status"]) == ("ForbiddenError", 403)
    assert (results[10]["error"], results[10]["status"]) == ("ForbiddenError", 403)
    assert (results[12]["error"], results[12]["status"]) == ("BasisTheoryError", 402)
    assert results[12]["body"]["errors"] == {"card": ["Invalid card"]}


def test_bad_requests_and_missing_permissions(
    sdk_service: Any, sdk_tenant: SdkTenant, reactors: dict[str, str]
) -> None:
    keys = {
        "default": sdk_tenant.management_key,
        "reader": sdk_service.new_key(["reactor:read"], tenant_key=sdk_tenant.management_key),
    }
    calls = [
        *[
            {"call": "reactors.create", "args": [{"name": "Bad", "code": ECHO_CODE, "runtime": r}]}
            for r in ({"image": "node8"}, {"image": "node22", "timeout": 99})
        ],
        {"call": "reactors.get", "args": [reactors["echo"]], "key": "reader"},
        {"call": "reactors.react", "args": [reactors["echo"], {"args": {}}], "key": "reader"},
        {"call": "reactors.reactAsync", "args": [reactors["echo"], {"args": {}}], "key": "reader"},
    ]
    *bad, got, react, react_async = node_calls(sdk_tenant.base_url, keys, calls)
    for result in bad:
        assert (result["error"], result["status"]) == ("BadRequestError", 400)
        assert result["body"]["errors"], result["body"]
    assert value_of(got)["id"] == reactors["echo"]
    assert (react["error"], react["status"]) == ("ForbiddenError", 403)
    assert (react_async["error"], react_async["status"]) == ("ForbiddenError", 403)
