"""Audit logs through the vendor's Node SDK (`@basis-theory/node-sdk`): `client.logs.list`
with its filters and pager, and `client.logs.getEntityTypes()` (issue 36)."""

from __future__ import annotations

from typing import Any

from sdk_clients import SdkTenant, node_calls, value_of

from console.kinds import KINDS

URL = "https://echo.example.com/anything"


def _id(index: int) -> dict[str, Any]:
    return {"$from": [index, "value", "id"]}


def test_logs_list_and_entity_types(sdk_tenant: SdkTenant) -> None:
    calls = [
        {"call": "proxies.create", "args": [{"name": "Node logged", "destinationUrl": URL}]},  # 0
        {"call": "proxies.patch", "args": [_id(0), {"name": "Node logged 2"}]},  # 1
        {"call": "proxies.delete", "args": [_id(0)]},  # 2
        {"call": "logs.list", "args": [{"size": 2}], "walk": True},  # 3
        {"call": "logs.list", "args": [{"entityType": "proxy", "entityId": _id(0)}]},  # 4
        {"call": "logs.list", "args": [{"size": 2, "start": ""}]},  # 5
        {  # 6
            "call": "logs.list",
            "args": [
                {"size": 2, "start": {"$from": [5, "value", "response", "pagination", "after"]}}
            ],
        },
        {"call": "logs.list", "args": [{"startDate": {"$date": "2999-01-01T00:00:00Z"}}]},  # 7
        {"call": "logs.list", "args": [{"endDate": {"$date": "2999-01-01T00:00:00Z"}}]},  # 8
        {"call": "logs.getEntityTypes", "args": []},  # 9
        {"call": "logs.list", "args": [{"entityId": "not-a-uuid"}]},  # 10
    ]
    results = node_calls(sdk_tenant.base_url, sdk_tenant.management_key, calls)
    proxy_id = value_of(results[0])["id"]

    walked = value_of(results[3])["items"]
    assert [e["message"] for e in walked[:3]] == ["Proxy deleted", "Proxy updated", "Proxy created"]
    assert all(e["entityId"] == proxy_id for e in walked[:3])
    assert {e["actorType"] for e in walked} == {"application"}
    assert all(e["tenantId"] == sdk_tenant.tenant_id and e["id"] for e in walked)
    assert walked[-1]["message"] == "Application created"  # the module's invoker, first

    about = value_of(results[4])["data"]
    assert [e["operation"] for e in about] == ["delete", "update", "create"]

    first, second = value_of(results[5]), value_of(results[6])
    pagination = first["response"]["pagination"]
    assert pagination["after"] and "totalItems" not in pagination
    assert first["data"] + second["data"] == walked[:4]

    assert value_of(results[7])["data"] == []
    assert len(value_of(results[8])["data"]) == len(walked)

    types = value_of(results[9])
    assert {"displayName": "Proxy", "value": "proxy"} in types
    assert {t["value"] for t in types} == {k.log_entity for k in KINDS if k.log_entity}

    assert (results[10]["error"], results[10]["status"]) == ("BadRequestError", 400)
    assert "entity_id" in results[10]["body"]["errors"]
