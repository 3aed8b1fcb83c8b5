"""Proxies with transform pipelines, applications and the usage report through the vendor's
Node SDK (`@basis-theory/node-sdk`), one Node process a test (tests/sdk/node/calls.mjs)."""

from __future__ import annotations

from typing import Any

from sdk_clients import SdkTenant, node_calls, value_of

PASS_THROUGH = "module.exports = async function (req) { return req.args; };"

REQUEST_STEPS = [
    {"type": "code", "code": PASS_THROUGH},
    {
        "type": "tokenize",
        "options": {
            "token": {"type": "token", "data": "{{ req.body.card }}"},
            "identifier": "card_token",
        },
    },
]
"""A step of each type a request takes, as the Node SDK's ProxyTransform has them."""

RESPONSE_STEPS = [
    {"type": "mask", "matcher": "regex", "expression": '"pan":\\s*"(.*?)"', "replacement": "*"},
    {"type": "append_json", "options": {"value": "{{ configuration.KEY }}", "location": "$.k"}},
    {"type": "append_text", "options": {"value": "&source=sdk"}},
    {"type": "append_header", "options": {"value": "Bearer x", "location": "X-Auth"}},
    {"type": "code", "code": PASS_THROUGH},
]
"""Masking and appending are done to the destination's response only."""


def _id(index: int) -> dict[str, Any]:
    return {"$from": [index, "value", "id"]}


def test_proxies_with_pipelines(sdk_tenant: SdkTenant) -> None:
    url = "https://echo.example.com/anything"
    calls = [
        {  # 0
            "call": "proxies.create",
            "args": [
                {
                    "name": "Node pipelines",
                    "destinationUrl": url,
                    "requestTransforms": REQUEST_STEPS,
                    "responseTransforms": RESPONSE_STEPS,
                    "application": {"id": sdk_tenant.invoke_application_id},
                    "configuration": {"KEY": "k", "OTHER": "o"},
                    "disableDetokenization": True,
                }
            ],
        },
        {"call": "proxies.get", "args": [_id(0)]},  # 1
        {  # 2
            "call": "proxies.update",
            "args": [
                _id(0),
                {
                    "name": "Node pipelines 2",
                    "destinationUrl": url,
                    "requestTransforms": REQUEST_STEPS[1:],
                    "configuration": {"KEY": "k", "OTHER": "o"},
                },
            ],
        },
        {  # 3
            "call": "proxies.patch",
            "args": [_id(0), {"responseTransforms": RESPONSE_STEPS[:1], "name": "Node 3"}],
        },
        {"call": "proxies.get", "args": [_id(0)]},  # 4
        *[
            {"call": "proxies.create", "args": [{"name": f"NodeListed {n}", "destinationUrl": url}]}
            for n in range(3)
        ],  # 5, 6, 7
        {"call": "proxies.list", "args": [{"name": "nodelisted*", "size": 2}], "walk": True},  # 8
        {"call": "proxies.list", "args": [{"id": [_id(5)]}]},  # 9
        {"call": "proxies.list", "args": [{"name": "nodelisted*", "size": 2, "start": ""}]},  # 10
        {  # 11
            "call": "proxies.list",
            "args": [
                {
                    "name": "nodelisted*",
                    "size": 2,
                    "start": {"$from": [10, "value", "response", "pagination", "after"]},
                }
            ],
        },
        {"call": "proxies.delete", "args": [_id(5)]},  # 12
        {"call": "proxies.get", "args": [_id(5)]},  # 13
        {  # 14
            "call": "proxies.create",
            "args": [
                {
                    "name": "Bad",
                    "destinationUrl": url,
                    "responseTransforms": [{"type": "mask", "matcher": "regex"}],
                }
            ],
        },
    ]
    results = node_calls(sdk_tenant.base_url, sdk_tenant.management_key, calls)

    for result in results[:2]:
        proxy = value_of(result)
        assert proxy["requestTransforms"] == REQUEST_STEPS
        assert proxy["responseTransforms"] == RESPONSE_STEPS
        assert proxy["state"] == "active" and proxy["disableDetokenization"] is True
        assert proxy["applicationId"] == sdk_tenant.invoke_application_id
        assert proxy["destinationUrl"] == url
    assert results[0]["status"] == 201
    updated = value_of(results[2])
    assert updated["name"] == "Node pipelines 2"
    assert updated["requestTransforms"] == REQUEST_STEPS[1:]
    assert updated["responseTransforms"] == []
    assert results[3]["ok"] and results[3]["status"] == 204
    patched = value_of(results[4])
    assert patched["name"] == "Node 3" and patched["responseTransforms"] == RESPONSE_STEPS[:1]
    assert patched["requestTransforms"] == REQUEST_STEPS[1:]

    listed = sorted(value_of(results[i])["id"] for i in (5, 6, 7))
    assert sorted(p["id"] for p in value_of(results[8])["items"]) == listed
    assert [p["id"] for p in value_of(results[9])["data"]] == [value_of(results[5])["id"]]
    first, second = value_of(results[10]), value_of(results[11])
    assert (
        first["response"]["pagination"]["after"]
        and "totalItems" not in first["response"]["pagination"]
    )
    assert sorted(p["id"] for p in first["data"] + second["data"]) == listed
    assert results[12]["ok"] and results[12]["status"] == 204
    assert (results[13]["error"], results[13]["status"]) == ("NotFoundError", 404)
    assert (results[14]["error"], results[14]["status"]) == ("BadRequestError", 400)
    assert results[14]["body"]["errors"], results[14]["body"]


def test_applications_usage_and_permissions(sdk_service: Any, sdk_tenant: SdkTenant) -> None:
    sdk_service.set_usage(sdk_tenant.tenant_id, 1000, 7, {"card": (30, None), "bank": (12, None)})
    calls = [
        {  # 0
            "call": "applications.create",
            "args": [
                {
                    "name": "Node keyless",
                    "type": "private",
                    "permissions": ["token:read"],
                    "createKey": False,
                }
            ],
        },
        {"call": "applications.list", "args": [{"type": "private"}], "walk": True},  # 1
        {"call": "applications.list", "args": [{"type": ["management"]}]},  # 2
        {"call": "tenants.self.getUsageReports", "args": []},  # 3
        {"call": "proxies.list", "args": [], "key": "invoker"},  # 4
        {"call": "applications.list", "args": [], "key": "invoker"},  # 5
    ]
    keys = {"default": sdk_tenant.management_key, "invoker": sdk_tenant.invoke_key}
    results = node_calls(sdk_tenant.base_url, keys, calls)
    keyless = value_of(results[0])
    assert results[0]["status"] == 201 and "key" not in keyless and keyless["keys"] == []
    private = {a["id"] for a in value_of(results[1])["items"]}
    assert keyless["id"] in private and sdk_tenant.invoke_application_id in private
    assert all(a["type"] == "private" for a in value_of(results[1])["items"])
    management = value_of(results[2])["data"]
    assert management and all(a["type"] == "management" for a in management)
    assert value_of(results[3])["totalTokens"] == 42

    denied = results[4:]
    assert [(r["error"], r["status"]) for r in denied] == [("ForbiddenError", 403)] * 2
