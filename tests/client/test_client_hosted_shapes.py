"""The client against hosted-service-shaped answers: it reads leniently and says plainly when
the service lacks a route (the contract suite; see tests/hosted_service.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from client_helpers import FAST_RETRY
from hosted_service import (
    BARE_FORMULA_ID,
    CHECKOUT_ID,
    KEY,
    MASK_TRANSFORM,
    MASKING_PROXY_ID,
    OWN_APP_ID,
    OWN_KEY_ID,
    PLAIN_PROXY_ID,
    PRIVATE_FORMULA_ID,
    RUNNER_ID,
    SESSION_ID,
    UNLISTED_PERMISSION,
    HostedService,
)

from console.client import AdminClient, NotFound, NotOffered, Unauthorized
from console.client.key_features import KeyFeature
from console.models import ProxyCreate, TenantUpdate
from console.models.round_trip import update_body


@pytest.fixture
def hosted() -> Iterator[HostedService]:
    with HostedService.running() as service:
        yield service


def client_of(hosted: HostedService, **options: object) -> AdminClient:
    return AdminClient(hosted.base_url, KEY, retry=FAST_RETRY, **options)  # type: ignore[arg-type]


async def test_tenant_with_more_settings_and_a_type(hosted: HostedService) -> None:
    async with client_of(hosted) as client:
        tenant = await client.tenant.get()
    assert tenant.settings["deduplication_behaviour"] == "update_existing"
    assert tenant.settings["retired_setting"] is None
    assert tenant.created_by is None
    assert tenant.unknown_fields == {"type": "production", "region": "eu-west"}


async def test_applications_page_keeps_its_readable_items_and_the_rest_as_sent(
    hosted: HostedService,
) -> None:
    async with client_of(hosted) as client:
        page = await client.applications.list(size=50)
        runner = await client.applications.get(RUNNER_ID)
        checkout = await client.applications.get(CHECKOUT_ID)
        session = await client.applications.get(SESSION_ID)
    assert [a.name for a in page.data][1:] == [
        "Reactor runner",
        "Checkout web",
        "Browser session broker",
    ]
    assert page.unreadable == [{"name": "Half-written application", "type": "private"}, None]
    assert UNLISTED_PERMISSION in runner.permissions and runner.rules == []
    assert runner.keys is not None and runner.keys[0].version == "1"
    assert runner.keys[0].created_by is None and runner.expires_at is None
    assert checkout.keys is None  # a service that does not list them: not known, not empty
    assert checkout.permissions == []  # null: none
    assert [r.transform for r in checkout.rules] == ["mask", "format_preserving"]
    assert checkout.rules[1].permissions == ["token:create"]  # a null item carries nothing
    assert session.type == "session"


async def test_proxies_with_a_mask_transform_and_fields_the_spec_lacks(
    hosted: HostedService,
) -> None:
    async with client_of(hosted) as client:
        masking = await client.proxies.get(MASKING_PROXY_ID)
        plain = await client.proxies.get(PLAIN_PROXY_ID)
    assert masking.request_transform is not None and masking.request_transform.is_code
    response = masking.response_transform
    assert response is not None and not response.is_code and response.kind == "mask"
    assert response.replacement == "*" and "replacement" not in response.unknown_fields
    assert masking.require_auth is True  # null: the default
    assert masking.configuration == {"REGION": "eu", "OPTIONAL_TOKEN": None}
    assert set(masking.unknown_fields) == {"transforms"}
    assert masking.state == "active" and masking.timeout == 30
    assert masking.proxy_host is not None
    assert plain.tenant_id is None and plain.key is None


async def test_formulas_with_new_types_statuses_and_nulls(hosted: HostedService) -> None:
    async with client_of(hosted) as client:
        private = await client.reactor_formulas.get(PRIVATE_FORMULA_ID)
        bare = await client.reactor_formulas.get(BARE_FORMULA_ID)
    assert private.status == "deprecated" and private.configuration == []
    assert private.request_parameters[0].unknown_fields == {"validation": "luhn"}
    assert private.request_parameters[1].type == "decimal"
    assert bare.type == "partner" and bare.code is None


async def test_a_larger_permission_catalogue(hosted: HostedService) -> None:
    async with client_of(hosted) as client:
        catalogue = await client.permissions.list()
        private = await client.permissions.list("private")
    names = [p.type for p in catalogue]
    assert len(names) == len(set(names)) == 37 and "reactor:invoke" in names
    assert next(p for p in catalogue if p.type == "key:read").description == ""
    assert "webhook:read" in [p.type for p in private]


async def test_a_usage_report_holding_only_a_total(hosted: HostedService) -> None:
    async with client_of(hosted) as client:
        report = await client.tenant.usage()
    tokens = report.token_report
    assert tokens.token_total == 1433
    assert tokens.plan_share is None and tokens.metrics_by_type is None
    assert tokens.missing == [
        "the breakdown by token type",
        "the monthly active tokens",
        "the plan's included tokens",
    ]


async def test_pages_without_totals_walk_until_a_short_page() -> None:
    with HostedService.running(totals=False) as hosted:
        async with client_of(hosted) as client:
            first = await client.applications.list(page=1, size=2)
            names = [a.name async for a in client.applications.iterate(size=2)]
            last = await client.applications.list(page=3, size=2)
        gets = [r for r in hosted.requests if r.path == "/applications"]
    assert first.pagination.total_items is None and first.has_more
    assert names == ["Console admin", "Reactor runner", "Checkout web", "Browser session broker"]
    # The walk: pages 1 to 3 came back full (page 3 with two unreadable items), page 4 empty.
    # Without totals, pages go out ahead of the answers (several in flight): page 5 may have
    # been asked for before page 4 said it was the end, never more.
    asked = sorted(int(r.query["page"][0]) for r in gets)
    for listed in (1, 3):  # the two `list` calls around the walk
        asked.remove(listed)
    assert asked[:4] == [1, 2, 3, 4] and set(asked) <= {1, 2, 3, 4, 5}
    assert len(asked) == len(set(asked)), "each page once"
    assert not last.data and len(last.unreadable) == 2 and last.has_more  # full: ask again


@pytest.mark.parametrize("status", [404, 405])
async def test_a_retired_route_is_not_offered_not_a_missing_object(status: int) -> None:
    retired = {("GET", "/reactor-formulas"), ("GET", "/tenants/self/reports/usage")}
    with HostedService.running(retired=retired, retired_status=status) as hosted:
        async with client_of(hosted) as client:
            with pytest.raises(NotOffered, match="does not offer reactor formulas"):
                await client.reactor_formulas.list()
            with pytest.raises(NotOffered, match="does not offer a usage report"):
                await client.tenant.usage()
            with pytest.raises(NotFound, match="does not exist"):  # an object: still NotFound
                await client.proxies.get("00000000-0000-4000-8000-000000000000")


async def test_regenerate_without_its_route_is_told_from_a_missing_application() -> None:
    retired = {("POST", "/applications/{id}/regenerate")}
    with HostedService.running(retired=retired) as hosted:
        async with client_of(hosted) as client:
            with pytest.raises(NotOffered, match="does not offer regenerating keys"):
                await client.applications.regenerate(RUNNER_ID)
            with pytest.raises(NotFound):
                await client.applications.regenerate("00000000-0000-4000-8000-000000000000")
        posts = [r for r in hosted.requests if r.method == "POST"]
    assert len(posts) == 2, "the POST itself is never repeated"


async def test_the_key_travels_in_the_header_the_service_reads() -> None:
    with HostedService.running(key_header="X-Admin-Key") as hosted:
        async with client_of(hosted) as default, client_of(hosted, key_header="X-Admin-Key") as c:
            with pytest.raises(Unauthorized):
                await default.tenant.get()
            assert (await c.tenant.get()).name == "My Tenant"
        assert all("svc-api-key" not in r.headers for r in hosted.requests[1:])


async def test_an_update_body_carries_back_what_the_console_did_not_understand(
    hosted: HostedService,
) -> None:
    async with client_of(hosted) as client:
        proxy = await client.proxies.get(MASKING_PROXY_ID)
        tenant = await client.tenant.get()
    payload = ProxyCreate.parse(
        {
            "name": proxy.name,
            "destination_url": proxy.destination_url,
            "response_transform": proxy.response_transform.model_dump(exclude_none=True),
        }
    )
    body = update_body(proxy, payload)
    assert body["response_transform"] == MASK_TRANSFORM
    assert body["transforms"] == [MASK_TRANSFORM] and "state" not in body  # state: read only
    settings = {k: v for k, v in tenant.settings.items() if v is not None}
    tenant_body = update_body(tenant, TenantUpdate.parse({"name": "x", "settings": settings}))
    assert tenant_body["settings"]["deduplication_behaviour"] == "update_existing"
    assert tenant_body["region"] == "eu-west"


# -- Application Keys, as the hosted service's SDKs call them --------------------------------


async def test_application_keys_as_the_sdks_call_them(hosted: HostedService) -> None:
    async with client_of(hosted) as client:
        made = await client.application_keys.create(RUNNER_ID)
        listed = await client.application_keys.list(RUNNER_ID)
        one = await client.application_keys.get(RUNNER_ID, made.id)
        await client.application_keys.revoke(RUNNER_ID, listed[0].id)
        after = await client.application_keys.list(RUNNER_ID)
    assert made.key and made.version == "2" and str(made.created_by) == OWN_APP_ID
    assert [k.version for k in listed] == ["1", "2"] and one.key is None
    assert [k.id for k in after] == [made.id]
    post = next(r for r in hosted.requests if r.method == "POST")
    assert post.path == f"/applications/{RUNNER_ID}/keys" and post.body is None  # no body


async def test_a_key_made_beside_the_session_key_works_and_revoking_the_old_stops_it(
    hosted: HostedService,
) -> None:
    async with client_of(hosted) as client:
        made = await client.application_keys.create(OWN_APP_ID)
        assert made.key
        client.set_api_key(made.key)
        await client.application_keys.revoke(OWN_APP_ID, OWN_KEY_ID)
        assert (await client.applications.current()).name == "Console admin"
    async with client_of(hosted) as old:
        with pytest.raises(Unauthorized):
            await old.tenant.get()


@pytest.mark.parametrize(
    ("retired", "kind"),
    [
        (set(), KeyFeature.BOTH),
        ({("POST", "/applications/{id}/regenerate")}, KeyFeature.KEYS),
        (
            {
                ("GET", "/applications/{id}/keys"),
                ("POST", "/applications/{id}/keys"),
                ("GET", "/applications/{id}/keys/{id}"),
                ("DELETE", "/applications/{id}/keys/{id}"),
            },
            KeyFeature.REGENERATE,
        ),
        (
            {
                ("GET", "/applications/{id}/keys"),
                ("POST", "/applications/{id}/keys"),
                ("POST", "/applications/{id}/regenerate"),
            },
            KeyFeature.NEITHER,
        ),
    ],
    ids=["both", "keys-only", "regenerate-only", "neither"],
)
@pytest.mark.parametrize("status", [404, 405])
async def test_key_features_are_told_apart_once(
    retired: set[tuple[str, str]], kind: KeyFeature, status: int
) -> None:
    with HostedService.running(retired=retired, retired_status=status) as hosted:
        async with client_of(hosted) as client:
            assert (await client.key_features()).kind is kind
            assert (await client.key_features()).kind is kind
        probes = [r for r in hosted.requests if "/applications/" in r.path]
    assert len(probes) == 4, "asked once per connection"
    assert not any(r.path.startswith(f"/applications/{RUNNER_ID}") for r in probes)


async def test_key_features_undecided_by_a_rejected_key_are_asked_again() -> None:
    with HostedService.running() as hosted:
        async with AdminClient(hosted.base_url, "not-the-hosted-key-000000", retry=FAST_RETRY) as c:
            first = await c.key_features()
            await c.key_features()
        assert first.keys is None and first.kind is KeyFeature.BOTH  # taken as offered
        assert len(hosted.requests) == 8
