"""Every screen against hosted-service-shaped answers (the contract suite; see
tests/hosted_service.py): nothing fails, what is not understood is shown, saving an object
unchanged sends back everything the console did not show, and a missing route is said so."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from console_support import SIZE, USAGE_KEY, console, footer_status, resource_list, settle
from form_host import wait_until
from hosted_service import (
    CHECKOUT_ID,
    KEY,
    MASK_TRANSFORM,
    MASKING_PROXY_ID,
    PRIVATE_FORMULA_ID,
    RUNNER_ID,
    UNLISTED_PERMISSION,
    HostedService,
)
from textual.widgets import Static

from console.tui.app import TenantConsoleApp
from console.tui.base.connection import Connection
from console.tui.forms.base import ResourceForm
from console.tui.forms.permissions import PermissionChecklist
from console.tui.forms.proxy import ApplicationPicker
from console.tui.screens.detail import DetailScreen
from console.tui.widgets.fields_view import FieldsView
from console.tui.widgets.keys_panel import KeysPanel
from console.tui.widgets.tenant_view import TenantView
from console.tui.widgets.usage_view import UsageView


@pytest.fixture
def hosted() -> Iterator[HostedService]:
    with HostedService.running() as service:
        yield service


def hosted_app(hosted: HostedService, **connection: Any) -> TenantConsoleApp:
    return TenantConsoleApp(connection=Connection("hosted", hosted.base_url, KEY, **connection))


def cell_text(app: TenantConsoleApp, key: str, row: int) -> list[str]:
    table = resource_list(app, key).table
    return [getattr(c, "plain", str(c)) for c in table.row(row)]


async def open_row(pilot: Any, app: TenantConsoleApp, key: str, row: int) -> DetailScreen:
    listing = resource_list(app, key)
    listing.table.move_cursor(row=row)
    listing.table.focus()
    await pilot.press("enter")
    await settle(pilot)
    detail = app.screen
    assert isinstance(detail, DetailScreen)
    return detail


async def test_applications_list_with_unreadable_items(hosted: HostedService) -> None:
    app = hosted_app(hosted)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        apps = resource_list(app, "applications")
        assert len(apps.items) == 6 and apps.problem is None
        assert footer_status(app) == "6 of 6 loaded"
        assert cell_text(app, "applications", 3)[1] == "session"
        assert cell_text(app, "applications", 4)[0].startswith("unreadable")
        assert "Half-written" in cell_text(app, "applications", 4)[0]
        assert cell_text(app, "applications", 5)[0].startswith("unreadable")

        detail = await open_row(pilot, app, "applications", 4)
        assert "does not match" in detail.fields_view.value_of("Unreadable")
        assert detail.fields_view.value_of("name") == "Half-written application"
        assert not detail.check_action("edit", ())
        detail.refresh_times()  # the app's timer: the unreadable object stays shown as sent
        assert "does not match" in detail.fields_view.value_of("Unreadable")
        await pilot.press("escape")
        await settle(pilot)

        detail = await open_row(pilot, app, "applications", 1)
        assert UNLISTED_PERMISSION in detail.fields_view.value_of("Permissions")
        # Issue 26: its keys are in the keys panel, no longer among the unknown fields.
        await wait_until(pilot, lambda: detail.query_one(KeysPanel).keys is not None)
        assert "0c5e1f4e" in detail.query_one(KeysPanel).plain_text()
        detail.refresh_times()
        assert "0c5e1f4e" in detail.query_one(KeysPanel).plain_text()


async def test_proxy_detail_shows_a_mask_transform_and_unknown_fields(
    hosted: HostedService,
) -> None:
    app = hosted_app(hosted)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        assert [p["name"] for p in resource_list(app, "proxies").items] == [
            "Card masking",
            "Plain forwarder",
        ]
        detail = await open_row(pilot, app, "proxies", 0)
        fields = detail.fields_view
        assert fields.value_of("Response transform").startswith("mask")
        assert fields.value_of("Timeout") == "30 s"
        assert fields.value_of("Proxy host") == "cards.proxy.example.net"
        assert fields.value_of("State") == "active"
        assert fields.value_of("Application").startswith("Reactor runner")
        titles = [c.block.title for c in detail.query("CodeView")]  # type: ignore[attr-defined]
        assert titles == ["Request transform", "Response transform (mask)"]
        await pilot.press("escape")
        await settle(pilot)
        plain = await open_row(pilot, app, "proxies", 1)
        assert plain.fields_view.value_of("Tenant") == "—"


async def test_formulas_permissions_tenant_and_a_total_only_usage(hosted: HostedService) -> None:
    app = hosted_app(hosted)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        assert cell_text(app, "reactor_formulas", 1)[2] == "deprecated"
        detail = await open_row(pilot, app, "reactor_formulas", 2)
        assert detail.fields_view.value_of("Type") == "partner"
        await pilot.press("escape")
        await settle(pilot)

        await pilot.press("5")
        await settle(pilot)
        assert footer_status(app) == "37 of 37 loaded"  # and the webhooks (#37)

        await pilot.press("6")
        await settle(pilot)
        fields = console(app).query_one(TenantView).query_one(FieldsView)
        assert fields.value_of("type") == "production"
        assert "deduplication_behaviour = update_existing" in fields.value_of("Other settings")
        assert fields.value_of("region") == "eu-west"

        await pilot.press(USAGE_KEY)
        await settle(pilot)
        dashboard = console(app).query_one(UsageView).dashboard
        assert dashboard.state == "report", dashboard.error_text
        assert dashboard.totals_text.startswith("Total tokens 1,433 · not reported:")
        assert dashboard.gauge_state == "normal"
        assert "did not report" in str(dashboard.query_one("#usage-empty", Static).content)
        assert console(app).header.summary == "1,433 tokens, no plan figures"


async def test_pages_without_totals_say_more_is_available() -> None:
    many = [
        {"id": f"00000000-0000-4000-8000-{i:012d}", "name": f"App {i}", "type": "private"}
        for i in range(60)
    ]
    with HostedService.running(totals=False) as hosted:
        hosted.collections["/applications"] = many
        app = hosted_app(hosted)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert footer_status(app) == "50 loaded, more available"
            apps = resource_list(app, "applications")
            apps.table.move_cursor(row=49)
            await settle(pilot)
            assert len(apps.items) == 60 and not apps.has_more
            assert footer_status(app) == "60 loaded"


async def test_a_retired_section_is_marked_not_offered() -> None:
    with HostedService.running(retired={("GET", "/reactor-formulas")}) as hosted:
        app = hosted_app(hosted)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("3")
            await settle(pilot)
            formulas = resource_list(app, "reactor_formulas")
            assert formulas.problem is not None and formulas.problem.not_offered
            assert "does not offer reactor formulas" in formulas.problem.message
            assert "reactor_formulas" in app.unavailable
            assert "reactor_formulas" in console(app).header.unavailable


async def test_regenerate_without_its_route_marks_it_unavailable() -> None:
    retired = {("POST", "/applications/{id}/regenerate")}
    with HostedService.running(retired=retired) as hosted:
        app = hosted_app(hosted)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            resource_list(app, "applications").table.move_cursor(row=1)
            await pilot.press("R")
            await wait_until(pilot, lambda: app.screen.query("#confirm"), what="confirm")
            await pilot.click("#confirm")
            await wait_until(pilot, lambda: "regenerate" in app.unavailable, what="marked")
            screen = console(app)
            assert screen.check_action("regenerate", ()) is False
        # The POST itself is never repeated (the key-feature probes go to an application
        # that exists nowhere: console.client.key_features).
        posts = [r for r in hosted.requests if r.method == "POST" and RUNNER_ID in r.path]
        assert len(posts) == 1


async def save_unchanged(pilot: Any, app: TenantConsoleApp) -> None:
    await pilot.press("e")
    await wait_until(pilot, lambda: isinstance(app.screen, ResourceForm), what="the form")
    form = app.screen
    for checklist in form.query(PermissionChecklist):
        await wait_until(pilot, lambda c=checklist: c.loaded, what="permissions")
    for picker in form.query(ApplicationPicker):
        await wait_until(pilot, lambda p=picker: p.loaded, what="applications")
    await pilot.pause()
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: not isinstance(app.screen, ResourceForm), what="saved")
    await settle(pilot)


async def test_saving_unchanged_keeps_what_the_console_does_not_show(
    hosted: HostedService,
) -> None:
    app = hosted_app(hosted)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        resource_list(app, "applications").table.move_cursor(row=1)  # Reactor runner
        await save_unchanged(pilot, app)
        resource_list(app, "applications").table.move_cursor(row=2)  # Checkout web
        await save_unchanged(pilot, app)

        await pilot.press("3")
        await settle(pilot)
        resource_list(app, "reactor_formulas").table.move_cursor(row=1)  # Loyalty enrichment
        await save_unchanged(pilot, app)

        await pilot.press("2")
        await settle(pilot)
        await save_unchanged(pilot, app)  # Card masking

        await pilot.press("6")
        await settle(pilot)
        await save_unchanged(pilot, app)

    (application,) = hosted.puts(f"/applications/{RUNNER_ID}")
    assert set(application["permissions"]) == {
        "token:create",
        "reactor:invoke",
        "webhook:read",
        UNLISTED_PERMISSION,
    }
    assert "keys" not in application and "key" not in application  # response-only

    (checkout,) = hosted.puts(f"/applications/{CHECKOUT_ID}")
    assert [r["transform"] for r in checkout["rules"]] == ["mask", "format_preserving"]
    assert checkout["rules"][0]["rule_id"] == "r-0001" and checkout["state"] == "active"

    (formula,) = hosted.puts(f"/reactor-formulas/{PRIVATE_FORMULA_ID}")
    assert formula["request_parameters"][0]["validation"] == "luhn"
    assert formula["request_parameters"][1]["type"] == "decimal"
    assert formula["runtime"] == "node16"

    (proxy,) = hosted.puts(f"/proxies/{MASKING_PROXY_ID}")
    assert proxy["response_transform"] == MASK_TRANSFORM
    assert proxy["request_transform"]["code"].startswith("module.exports")
    assert proxy["timeout"] == 30  # no form edits it: sent back as read
    assert not {"state", "requested", "proxy_host"} & set(proxy)  # reported, never sent
    assert proxy["transforms"] == [MASK_TRANSFORM]

    (tenant,) = hosted.puts("/tenants/self")
    assert tenant["settings"] == {
        "fingerprint_tokens": "false",
        "disable_ephemeral_proxy": "false",
        "deduplicate_tokens": "false",
        "deduplication_behaviour": "update_existing",
    }
    assert tenant["region"] == "eu-west" and tenant["type"] == "production"


async def test_the_profile_key_header_is_used_by_every_request() -> None:
    with HostedService.running(key_header="X-Admin-Key") as hosted:
        app = hosted_app(hosted, key_header="X-Admin-Key")
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert len(resource_list(app, "applications").items) == 6
            await pilot.press("6")
            await settle(pilot)
            assert console(app).header.tenant == "My Tenant"
        assert len(hosted.requests) >= 3
        assert all(r.headers.get("x-admin-key") == KEY for r in hosted.requests)
        assert all("svc-api-key" not in r.headers for r in hosted.requests)


async def test_the_local_service_with_another_key_header(start_service: Any) -> None:
    service = start_service(key_header="X-Admin-Key")
    connection = Connection("other", service.base_url, service.key, key_header="X-Admin-Key")
    app = TenantConsoleApp(connection=connection)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        apps = resource_list(app, "applications")
        assert apps.problem is None and len(apps.items) == 1


async def test_a_report_with_nulls_and_no_plan_amount() -> None:
    usage = {
        "token_report": {
            "metrics_by_type": {
                "card": {"count": 5, "last_created_at": None},
                "bank": None,
                "token": {"count": None},
            },
            "monthly_active_tokens": 10,
            "included_monthly_active_tokens": None,
        },
        "period": "2026-11",
    }
    with HostedService.running(usage=usage) as hosted:
        app = hosted_app(hosted)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press(USAGE_KEY)
            await settle(pilot)
            dashboard = console(app).query_one(UsageView).dashboard
            assert dashboard.state == "report", dashboard.error_text
            assert dashboard.totals_text == (
                "Total tokens 5 in 2 types · not reported: the plan's included tokens"
            )
            assert [row[0] for row in dashboard.table_rows] == ["card", "token"]
            assert dashboard.plan_text.startswith("This service did not report")
            assert console(app).header.summary == "5 tokens, no plan figures"
