"""Proxies with transform pipelines, applications and the usage report through the vendor's
Python SDK (`basistheoryclient`): the differences issue 35 closed, read into the SDK's models."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from basis_theory.errors import BadRequestError, ForbiddenError, NotFoundError
from basis_theory.types import (
    Application,
    CreateTokenRequest,
    Proxy,
    ProxyTransform,
    ProxyTransformOptions,
    TenantUsageReport,
    ValidationProblemDetails,
)
from sdk_clients import SdkTenant, python_client

PASS_THROUGH = "module.exports = async function (req) { return req.args; };"

REQUEST_STEPS = [
    ProxyTransform(type="code", code=PASS_THROUGH),
    ProxyTransform(
        type="tokenize",
        options=ProxyTransformOptions(
            token=CreateTokenRequest(type="token", data="{{ req.body.card }}"),
            identifier="card_token",
        ),
    ),
]
"""A request pipeline with a step of each type a request takes (code, tokenize)."""

RESPONSE_STEPS = [
    ProxyTransform(
        type="mask", matcher="regex", expression='"accountNumber":\\s*"(.*?)"', replacement="*"
    ),
    ProxyTransform(
        type="append_json",
        options=ProxyTransformOptions(value="{{ configuration.KEY }}", location="$.auth.key"),
    ),
    ProxyTransform(type="append_text", options=ProxyTransformOptions(value="&source=sdk")),
    ProxyTransform(
        type="append_header",
        options=ProxyTransformOptions(value="Bearer {{ configuration.KEY }}", location="X-Auth"),
    ),
    ProxyTransform(type="code", code=PASS_THROUGH),
]
"""A response pipeline: masking and appending are done to the destination's response only
(docs/reactors.md), and code."""


@pytest.fixture(scope="module")
def bt(sdk_tenant: SdkTenant) -> Any:
    return python_client(sdk_tenant.base_url, sdk_tenant.management_key)


def _proxy(bt: Any, name: str, **fields: Any) -> Proxy:
    fields.setdefault("destination_url", "https://echo.example.com/anything")
    created = bt.proxies.create(name=name, **fields)
    assert isinstance(created, Proxy) and created.id
    return created


def test_pipelines_are_created_and_read_back_step_by_step(bt: Any, sdk_tenant: SdkTenant) -> None:
    created = _proxy(
        bt,
        "Pipelines",
        request_transforms=REQUEST_STEPS,
        response_transforms=RESPONSE_STEPS,
        application=Application(id=sdk_tenant.invoke_application_id),
        configuration={"KEY": "secret"},
        disable_detokenization=True,
    )
    for proxy in (created, bt.proxies.get(created.id)):
        assert proxy.request_transforms == REQUEST_STEPS
        assert proxy.response_transforms == RESPONSE_STEPS
        assert proxy.request_transform is None and proxy.response_transform is None
        assert proxy.state == "active" and proxy.disable_detokenization is True
        assert proxy.application_id == sdk_tenant.invoke_application_id
        assert proxy.configuration == {"KEY": "secret"}


def test_a_single_transform_reads_back_as_a_pipeline_of_one(bt: Any) -> None:
    step = ProxyTransform(code=PASS_THROUGH)
    created = _proxy(bt, "Single", request_transform=step)
    read = bt.proxies.get(created.id)
    assert [s.code for s in read.request_transforms] == [PASS_THROUGH]
    assert read.request_transform is not None and read.request_transform.code == PASS_THROUGH
    assert read.response_transforms == [] and read.response_transform is None
    assert read.disable_detokenization is False and read.timeout is None


def test_update_and_patch_replace_pipelines(bt: Any) -> None:
    proxy = _proxy(bt, "Changing", request_transforms=REQUEST_STEPS[:1])
    updated = bt.proxies.update(
        proxy.id,
        name="Changed",
        destination_url="https://echo.example.com/other",
        request_transforms=REQUEST_STEPS[1:],
        response_transforms=RESPONSE_STEPS[:1],
        configuration={"KEY": "one", "OTHER": "two"},
    )
    assert isinstance(updated, Proxy) and updated.name == "Changed"
    assert updated.request_transforms == REQUEST_STEPS[1:]
    assert updated.response_transforms == RESPONSE_STEPS[:1]

    raw = bt.proxies.with_raw_response.patch(
        proxy.id, response_transforms=RESPONSE_STEPS, configuration={"OTHER": None}
    )
    assert raw.status_code == 204 and raw.data is None
    patched = bt.proxies.get(proxy.id)
    assert patched.name == "Changed" and patched.request_transforms == REQUEST_STEPS[1:]
    assert patched.response_transforms == RESPONSE_STEPS
    assert patched.configuration == {"KEY": "one"}
    assert bt.proxies.patch(proxy.id, request_transforms=[]) is None
    assert bt.proxies.get(proxy.id).request_transforms == []


def test_delete_then_get_is_not_found(bt: Any) -> None:
    proxy = _proxy(bt, "Deleted")
    assert bt.proxies.delete(proxy.id) is None
    with pytest.raises(NotFoundError):
        bt.proxies.get(proxy.id)
    with pytest.raises(NotFoundError):
        bt.proxies.patch(str(uuid.uuid4()), name="x")


def test_an_incomplete_step_is_a_bad_request(bt: Any) -> None:
    for steps in (
        [ProxyTransform(type="mask", matcher="regex", expression="no group", replacement="*")],
        [ProxyTransform(type="append_header", options=ProxyTransformOptions(value="v"))],
        [ProxyTransform(type="tokenize", options=ProxyTransformOptions(identifier="t"))],
        [ProxyTransform(type="code", code=PASS_THROUGH)] * 11,
    ):
        with pytest.raises(BadRequestError) as raised:
            _proxy(bt, "Bad", response_transforms=steps)
        assert isinstance(raised.value.body, ValidationProblemDetails)
        assert raised.value.body.errors, raised.value.body
    with pytest.raises(BadRequestError):  # masking is done to responses only
        _proxy(bt, "Masked request", request_transforms=RESPONSE_STEPS[:1])
    with pytest.raises(BadRequestError):  # a single transform beside a longer pipeline
        _proxy(bt, "Both", request_transform=REQUEST_STEPS[0], request_transforms=REQUEST_STEPS)
    # A proxy as read (its only step also as the single transform) can be sent back.
    read = bt.proxies.get(_proxy(bt, "One step", request_transforms=REQUEST_STEPS[:1]).id)
    again = bt.proxies.update(
        read.id,
        name=read.name,
        destination_url=read.destination_url,
        request_transform=read.request_transform,
        request_transforms=read.request_transforms,
    )
    assert again.request_transforms == REQUEST_STEPS[:1]


def test_list_is_walked_by_the_sdks_pager_and_filtered(bt: Any) -> None:
    made = [_proxy(bt, f"Listed {n}").id for n in range(3)]
    pager = bt.proxies.list(name="listed*", size=2)
    assert pager.response.pagination.total_items == 3
    assert sorted(p.id for p in pager) == sorted(made)
    assert [p.id for p in bt.proxies.list(id=[made[1]])] == [made[1]]

    seen: list[str] = []
    start = ""
    for _ in range(5):
        page = bt.proxies.list(name="listed*", size=2, start=start)
        seen += [p.id for p in page.items]
        if not page.response.pagination.after:
            break
        start = page.response.pagination.after
    assert sorted(seen) == sorted(made)


def test_applications_by_type_and_without_a_key(bt: Any, sdk_tenant: SdkTenant) -> None:
    keyless = bt.applications.create(
        name="Keyless", type="private", permissions=["token:read"], create_key=False
    )
    assert isinstance(keyless, Application)
    assert keyless.key is None and keyless.keys == []
    assert bt.applications.get(keyless.id).keys == []
    private = {a.id for a in bt.applications.list(type="private")}
    assert private == {keyless.id, sdk_tenant.invoke_application_id}
    management = list(bt.applications.list(type="management"))
    assert management and all(a.type == "management" for a in management)
    both = {a.id for a in bt.applications.list(type=["private", "management"])}
    assert both == private | {a.id for a in management}


def test_usage_report_has_total_tokens(bt: Any, sdk_service: Any, sdk_tenant: SdkTenant) -> None:
    sdk_service.set_usage(sdk_tenant.tenant_id, 1000, 7, {"card": (30, None), "bank": (12, None)})
    report = bt.tenants.self_.get_usage_reports()
    assert isinstance(report, TenantUsageReport)
    assert report.total_tokens == 42


def test_a_key_without_proxy_permissions_is_forbidden(sdk_tenant: SdkTenant) -> None:
    invoker = python_client(sdk_tenant.base_url, sdk_tenant.invoke_key)
    with pytest.raises(ForbiddenError):
        invoker.proxies.list()
    with pytest.raises(ForbiddenError):
        invoker.proxies.create(name="x", destination_url="https://example.com")
