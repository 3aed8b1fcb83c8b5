"""Every method of the client against the real local service."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
from client_helpers import (
    FAST_RETRY,
    application_payload,
    formula_payload,
    proxy_payload,
    unique,
)

from console.client import AdminClient, NotFound, Unauthorized, ValidationFailed
from console.models import (
    MANAGEMENT_PERMISSIONS,
    PERMISSIONS,
    Application,
    ApplicationCreate,
    ApplicationUpdate,
    Page,
    Permission,
    Proxy,
    ProxyCreate,
    ReactorFormula,
    ReactorFormulaCreate,
    Tenant,
    TenantUpdate,
    UsageReport,
)

# Permissions


async def test_permissions_list_is_the_catalogue(client: AdminClient) -> None:
    permissions = await client.permissions.list()
    assert all(isinstance(p, Permission) for p in permissions)
    assert {p.type for p in permissions} == {p.type for p in PERMISSIONS}


async def test_permissions_list_filters_by_application_type(client: AdminClient) -> None:
    management = await client.permissions.list(application_type="management")
    assert {p.type for p in management} == set(MANAGEMENT_PERMISSIONS)
    public = await client.permissions.list("public")
    assert {p.type for p in public} == {"token:create", "token:update"}


async def test_permissions_list_refuses_an_unknown_type(client: AdminClient) -> None:
    with pytest.raises(ValidationFailed) as caught:
        await client.permissions.list("robot")
    assert caught.value.status == 400


# Applications


async def test_application_create_get_update_delete(client: AdminClient) -> None:
    created = await client.applications.create(
        ApplicationCreate(name=unique("Reader"), type="management", permissions=["proxy:read"])
    )
    assert isinstance(created, Application)
    assert created.key, "create returns the new key"

    fetched = await client.applications.get(created.id)
    assert fetched.id == created.id
    assert fetched.key is None, "a GET never shows the key"
    assert fetched.permissions == ["proxy:read"]

    renamed = await client.applications.update(
        created.id,
        ApplicationUpdate(name="Renamed reader", permissions=["proxy:read", "proxy:create"]),
    )
    assert renamed.name == "Renamed reader"
    assert renamed.permissions == ["proxy:read", "proxy:create"]

    as_dict = await client.applications.update(
        str(created.id), {"name": "Renamed again", "permissions": ["proxy:read"]}
    )
    assert as_dict.name == "Renamed again"

    assert await client.applications.delete(created.id) is None
    with pytest.raises(NotFound):
        await client.applications.get(created.id)


async def test_application_create_accepts_a_dict(client: AdminClient) -> None:
    created = await client.applications.create(
        {"name": unique("Private"), "type": "private", "permissions": ["token:read"]}
    )
    assert created.type == "private"
    assert created.key


async def test_applications_current_is_the_keys_own(client: AdminClient, tenant) -> None:  # type: ignore[no-untyped-def]
    current = await client.applications.current()
    assert str(current.id) == str(tenant.application_id)
    assert str(current.tenant_id) == str(tenant.tenant_id)
    assert current.key is None


async def test_applications_regenerate_replaces_the_key(client: AdminClient, service) -> None:  # type: ignore[no-untyped-def]
    created = await client.applications.create(
        application_payload(permissions=["application:read"])
    )
    old_key = created.key
    assert old_key
    regenerated = await client.applications.regenerate(created.id)
    assert regenerated.id == created.id
    assert regenerated.key and regenerated.key != old_key

    async with AdminClient(service.base_url, old_key, retry=FAST_RETRY) as stale:
        with pytest.raises(Unauthorized):
            await stale.applications.current()
    async with AdminClient(service.base_url, regenerated.key, retry=FAST_RETRY) as fresh:
        assert (await fresh.applications.current()).id == created.id


async def test_applications_list_pages_and_filters_by_id(client: AdminClient) -> None:
    made = [await client.applications.create(application_payload()) for _ in range(5)]
    wanted = [a.id for a in made]

    first = await client.applications.list(page=1, size=2, ids=wanted)
    assert isinstance(first, Page)
    assert [a.id for a in first.data] == wanted[:2]
    assert first.pagination.total_items == 5
    assert first.pagination.total_pages == 3
    assert (first.pagination.page_number, first.pagination.page_size) == (1, 2)
    assert first.has_more

    last = await client.applications.list(page=3, size=2, ids=wanted)
    assert [a.id for a in last.data] == wanted[4:]
    assert not last.has_more

    some = await client.applications.list(ids=[wanted[0], str(wanted[3])])
    assert [a.id for a in some.data] == [wanted[0], wanted[3]]
    assert some.pagination.total_items == 2


async def test_applications_list_without_filter_holds_the_bootstrap_app(
    client: AdminClient, tenant
) -> None:  # type: ignore[no-untyped-def]
    page = await client.applications.list()
    assert str(tenant.application_id) in {str(a.id) for a in page.data}
    assert all(a.key is None for a in page.data)


async def test_applications_iterate_fetches_every_page_lazily(
    client: AdminClient, counting
) -> None:  # type: ignore[no-untyped-def]
    made = [await client.applications.create(application_payload()) for _ in range(5)]
    wanted = [a.id for a in made]
    before = counting.count("GET", "/applications")

    iterator = client.applications.iterate(ids=wanted, size=2)
    first = await anext(iterator)
    assert first.id == wanted[0]
    assert counting.count("GET", "/applications") == before + 1, "one page so far"

    rest = [a.id async for a in iterator]
    assert [first.id, *rest] == wanted
    assert counting.count("GET", "/applications") == before + 3


# Proxies


async def test_proxy_create_get_update_delete(client: AdminClient) -> None:
    app = await client.applications.create(
        {"name": unique("Backend"), "type": "private", "permissions": ["token:use"]}
    )
    created = await client.proxies.create(
        ProxyCreate(
            name=unique("Proxy"),
            destination_url="https://echo.example.com/post",
            application={"id": app.id},
            configuration={"REGION": "eu"},
            request_transform={"code": "module.exports = async (req) => req;"},
        )
    )
    assert isinstance(created, Proxy)
    assert created.application_id == app.id
    assert created.configuration == {"REGION": "eu"}

    fetched = await client.proxies.get(created.id)
    assert fetched.name == created.name
    assert fetched.request_transform and "module.exports" in fetched.request_transform.code

    updated = await client.proxies.update(
        created.id, proxy_payload(name="Renamed proxy", require_auth=False)
    )
    assert updated.name == "Renamed proxy"
    assert updated.require_auth is False

    await client.proxies.delete(created.id)
    with pytest.raises(NotFound):
        await client.proxies.get(created.id)


async def test_proxies_page_through_a_name_filter(client: AdminClient, counting) -> None:  # type: ignore[no-untyped-def]
    marker = uuid.uuid4().hex[:10]
    made = [await client.proxies.create(proxy_payload(name=f"Edge {marker} {i}")) for i in range(5)]
    await client.proxies.create(proxy_payload(name="Unrelated proxy"))
    wanted = [p.id for p in made]

    first = await client.proxies.list(page=1, size=2, name=marker.upper())
    assert [p.id for p in first.data] == wanted[:2], "case-insensitive, creation order"
    assert first.pagination.total_items == 5
    assert first.pagination.total_pages == 3
    assert first.has_more

    second = await client.proxies.list(2, 2, name=marker)
    assert [p.id for p in second.data] == wanted[2:4]
    third = await client.proxies.list(3, 2, name=marker)
    assert [p.id for p in third.data] == wanted[4:]
    assert not third.has_more
    past_the_end = await client.proxies.list(4, 2, name=marker)
    assert past_the_end.data == [] and not past_the_end.has_more

    wildcard = await client.proxies.list(size=100, name=f"edge*{marker} 3")
    assert [p.id for p in wildcard.data] == [wanted[3]]

    before = counting.count("GET", "/proxies")
    assert [p.id async for p in client.proxies.iterate(name=marker, size=2)] == wanted
    assert counting.count("GET", "/proxies") == before + 3


async def test_proxies_filter_by_ids_and_name_together(client: AdminClient) -> None:
    marker = uuid.uuid4().hex[:10]
    a = await client.proxies.create(proxy_payload(name=f"Alpha {marker}"))
    b = await client.proxies.create(proxy_payload(name=f"Beta {marker}"))
    c = await client.proxies.create(proxy_payload(name="Gamma"))

    by_ids = await client.proxies.list(ids=[a.id, c.id])
    assert [p.id for p in by_ids.data] == [a.id, c.id]
    both = await client.proxies.list(ids=[a.id, b.id, c.id], name="beta")
    assert [p.id for p in both.data] == [b.id]
    iterated = [p.id async for p in client.proxies.iterate(ids=[b.id, c.id], name=marker)]
    assert iterated == [b.id]


# Reactor formulas


async def test_formula_create_get_update_delete(client: AdminClient) -> None:
    created = await client.reactor_formulas.create(
        ReactorFormulaCreate.parse(formula_payload(name=unique("Adder")))
    )
    assert isinstance(created, ReactorFormula)
    assert created.type == "private"
    assert created.status == "verified"

    fetched = await client.reactor_formulas.get(created.id)
    assert fetched.code == created.code
    assert [p.name for p in fetched.request_parameters] == ["n"]

    updated = await client.reactor_formulas.update(
        created.id, formula_payload(name="Renamed adder", code="module.exports = () => 1;")
    )
    assert updated.name == "Renamed adder"
    assert updated.code == "module.exports = () => 1;"

    await client.reactor_formulas.delete(created.id)
    with pytest.raises(NotFound):
        await client.reactor_formulas.get(created.id)


async def test_formulas_page_through_a_name_filter(client: AdminClient) -> None:
    marker = uuid.uuid4().hex[:10]
    made = [
        await client.reactor_formulas.create(formula_payload(name=f"Formula {marker} {i}"))
        for i in range(3)
    ]
    wanted = [f.id for f in made]

    first = await client.reactor_formulas.list(page=1, size=2, name=marker)
    assert [f.id for f in first.data] == wanted[:2]
    assert first.pagination.total_items == 3
    assert first.has_more
    second = await client.reactor_formulas.list(page=2, size=2, name=marker)
    assert [f.id for f in second.data] == wanted[2:]
    assert not second.has_more

    everything = [f async for f in client.reactor_formulas.iterate(size=2)]
    assert set(wanted) <= {f.id for f in everything}
    assert [f.id async for f in client.reactor_formulas.iterate(name=marker)] == wanted


# Tenant


async def test_tenant_get_and_usage(client: AdminClient, service, tenant) -> None:  # type: ignore[no-untyped-def]
    got = await client.tenant.get()
    assert isinstance(got, Tenant)
    assert str(got.id) == str(tenant.tenant_id)

    last = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)
    service.set_usage(tenant.tenant_id, 50_000, 12_500, {"card_number": (420, last)})
    usage = await client.tenant.usage()
    assert isinstance(usage, UsageReport)
    report = usage.token_report
    assert (report.included_monthly_active_tokens, report.monthly_active_tokens) == (
        50_000,
        12_500,
    )
    assert report.metrics_by_type["card_number"].count == 420
    assert report.metrics_by_type["card_number"].last_created_at == last
    assert report.plan_share == 0.25


async def test_tenant_update_with_and_without_settings(client: AdminClient) -> None:
    changed = await client.tenant.update(
        TenantUpdate(
            name="Settings changed",
            settings={"fingerprint_tokens": "false", "deduplicate_tokens": "true"},
        )
    )
    assert changed.name == "Settings changed"
    assert changed.settings["fingerprint_tokens"] == "false"

    renamed = await client.tenant.update(TenantUpdate(name="Only renamed"))
    assert renamed.name == "Only renamed"
    assert renamed.settings["fingerprint_tokens"] == "false", "no settings sent: kept"

    as_dict = await client.tenant.update({"name": "Renamed from a dict"})
    assert as_dict.name == "Renamed from a dict"
    assert (await client.tenant.get()).name == "Renamed from a dict"


async def test_tenant_delete_ends_its_keys(client: AdminClient) -> None:
    assert await client.tenant.delete() is None
    with pytest.raises(Unauthorized):
        await client.tenant.get()


async def test_set_api_key_switches_the_key_for_later_requests(service) -> None:
    tenant = service.new_tenant("Key switch")
    async with AdminClient(service.base_url, tenant.key) as client:
        own = await client.applications.current()
        fresh = await client.applications.regenerate(own.id)
        with pytest.raises(Unauthorized):
            await client.applications.current()
        client.set_api_key(fresh.key)
        assert (await client.applications.current()).id == own.id
