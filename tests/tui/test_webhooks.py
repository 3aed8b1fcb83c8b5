"""The console's Webhooks section against the real local service: the list (enabled in green,
disabled in red with the service's reason), the detail (the whole reason, the verification
public key and Y), the form (the URL checked as typed, the event types filtered and ticked,
nothing typed lost when the service refuses), the public key shown once after a create,
the limit of five said before the form opens, t (disable asked first, enable), d (a plain
confirmation), a key that may only read them, L, and the section at 80x24."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from console_support import go_to, make_app, notifications, settle
from form_host import SIZE, screen_is, wait_until
from textual.widgets import Input

from console.journal.store import open_journal
from console.tui.browse.webhooks_look import (
    NO_REASON,
    VERIFICATION_TITLE,
    WEBHOOKS,
    status_text,
)
from console.tui.forms.event_types import EventTypeChecklist
from console.tui.forms.webhook import WebhookForm
from console.tui.modals import ConfirmModal
from console.tui.modals.verification_key import VerificationKeyModal
from console.tui.palette.commands import ObjectProvider
from console.tui.screens.console import ConsoleScreen
from console.tui.screens.detail import CodeView, DetailScreen

REASON = "5 deliveries in a row failed: connection refused by http://127.0.0.1:9/hooks"


class Hooks:
    """A tenant with two webhooks: "Audit feed" enabled, "Broken sink" disabled by the
    service with its reason (written in the store: the deliverer takes minutes to give up)."""

    def __init__(self, service: Any) -> None:
        self.service = service
        self.tenant = service.new_tenant("Webhook tenant")
        self.key = self.tenant.key
        self.audit = self.create(
            "Audit feed", "https://hooks.example.com/audit", ["application.created"]
        )
        self.broken = self.create(
            "Broken sink", "http://127.0.0.1:9/hooks", ["proxy.created", "proxy.deleted"]
        )
        self.disable_with_reason(self.broken["id"], REASON)

    def create(self, name: str, url: str, events: list[str], key: str | None = None) -> Any:
        response = httpx.post(
            self.service.base_url + "/webhooks",
            json={"name": name, "url": url, "events": events},
            headers={self.service.key_header: key or self.key},
            timeout=30,
        )
        assert response.status_code == 201, response.text
        return response.json()

    def read(self, webhook_id: str) -> Any:
        response = httpx.get(
            f"{self.service.base_url}/webhooks/{webhook_id}",
            headers={self.service.key_header: self.key},
            timeout=30,
        )
        return response.json() if response.status_code == 200 else None

    def disable_with_reason(self, webhook_id: str, reason: str) -> None:
        self.service.write_store(
            "UPDATE webhooks SET status = 'disabled', disabled_reason = ?, failures = 5 "
            "WHERE id = ?",
            (reason, webhook_id),
        )

    def key_with(self, *permissions: str) -> str:
        response = httpx.post(
            self.service.base_url + "/applications",
            json={"name": "Reader", "type": "management", "permissions": list(permissions)},
            headers={self.service.key_header: self.key},
            timeout=30,
        )
        assert response.status_code == 201, response.text
        return str(response.json()["key"])


@pytest.fixture
def hooks(service: Any, private_data_dir: Path) -> Hooks:
    return Hooks(service)


async def open_webhooks(pilot: Any) -> Any:
    await settle(pilot)
    await go_to(pilot, WEBHOOKS.key)
    app = pilot.app
    listing = app.screen.resource_list(WEBHOOKS.key)
    await wait_until(pilot, lambda: listing.loaded, what="the webhooks")
    await settle(pilot)
    return listing


@asynccontextmanager
async def webhooks_shown(
    hooks: Hooks, key: str | None = None, size: tuple[int, int] = SIZE
) -> AsyncIterator[tuple[Any, Any, Any]]:
    """The console on `hooks`' tenant (with `key`, else the tenant's own) at `size`, its
    Webhooks section loaded: the app, its pilot and the section's list."""
    app = make_app(hooks.service.base_url, key or hooks.key)
    async with app.run_test(size=size) as pilot:
        yield app, pilot, await open_webhooks(pilot)


async def press_for(pilot: Any, key: str, kind: type, what: str) -> None:
    """`key` pressed, and the screen it opens (a `kind`) waited for."""
    await pilot.press(key)
    await wait_until(pilot, screen_is(pilot.app, kind), what=what)


async def open_form(pilot: Any, key: str) -> tuple[Any, EventTypeChecklist]:
    """The webhook form `key` opens (n or e), once its event types are loaded."""
    await press_for(pilot, key, WebhookForm, "the form")
    form = pilot.app.screen
    checklist = form.query_one("#events", EventTypeChecklist)
    await wait_until(pilot, lambda: checklist.loaded, what="the event types")
    return form, checklist


def names(listing: Any) -> list[str]:
    return [str(item.get("name")) for item in listing.shown_items]


def row_text(listing: Any, name: str) -> str:
    item = next(i for i in listing.shown_items if i.get("name") == name)
    return " | ".join(str(cell) for cell in listing.rows[listing.items.index(item)])


async def move_to(pilot: Any, listing: Any, name: str) -> None:
    listing.table.move_cursor(row=names(listing).index(name))
    await pilot.pause()


# ----- the list and the detail -----------------------------------------------------------


def test_status_is_green_when_enabled_and_red_with_the_reason_when_disabled() -> None:
    enabled = status_text("enabled")
    assert enabled.plain == "● enabled" and "green" in str(enabled.style)
    disabled = status_text("disabled", "x" * 80)
    assert disabled.plain.startswith("✗ disabled: xxx") and disabled.plain.endswith("…")
    assert "red" in str(disabled.style)
    assert status_text("disabled", "short", width=None).plain == "✗ disabled: short"
    said_once = status_text("disabled", "Disabled after 10 failed deliveries", width=None)
    assert said_once.plain == "✗ disabled after 10 failed deliveries"


async def test_the_list_shows_status_url_and_events_and_the_detail_the_whole_reason(hooks):
    async with webhooks_shown(hooks) as (app, pilot, listing):
        assert sorted(names(listing)) == ["Audit feed", "Broken sink"]
        audit = row_text(listing, "Audit feed")
        assert "● enabled" in audit and "https://hooks.example.com/audit" in audit
        assert "1 · application.created" in audit
        broken = row_text(listing, "Broken sink")
        assert "✗ disabled: 5 deliveries in a row failed" in broken
        assert "2 · proxy.created, proxy.deleted" in broken

        await move_to(pilot, listing, "Broken sink")
        await press_for(pilot, "enter", DetailScreen, "the detail")
        detail = app.screen
        await wait_until(pilot, lambda: bool(detail.extra_blocks), what="the public key")
        status = detail.fields_view.value_of("Status")
        assert f"The service disabled this webhook: {REASON}" in status
        assert "proxy.deleted" in detail.fields_view.value_of("Events (2)")
        [block] = detail.extra_blocks
        assert block.title == VERIFICATION_TITLE
        assert block.code.startswith("-----BEGIN PUBLIC KEY-----")
        assert any(isinstance(v, CodeView) and v.block is block for v in detail.query(CodeView))
        # the key is public: Y copies it, whatever the key may do
        await pilot.press("Y")
        await settle(pilot)
        assert any("public key" in n.lower() for n in notifications(app))
        # L: its log entries (the service logs webhook changes as "webhook")
        await pilot.press("L")
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, ConsoleScreen) and app.screen.current == "logs",
            what="the Logs section",
        )


async def test_the_palette_finds_a_webhook_by_name_and_opens_it(hooks):
    async with webhooks_shown(hooks) as (app, pilot, _listing):
        hits = [hit async for hit in ObjectProvider(app.screen).search("Broken")]
        assert {str(h.text) for h in hits} == {"Open webhook: Broken sink"}
        hits[0].command()
        await wait_until(pilot, screen_is(app, DetailScreen), what="the detail")
        assert app.screen.kind is WEBHOOKS


async def test_a_disabled_webhook_without_a_reason_says_the_service_gives_none(hooks):
    hooks.disable_with_reason(hooks.audit["id"], None)
    async with webhooks_shown(hooks) as (app, pilot, listing):
        assert row_text(listing, "Audit feed").startswith("Audit feed | ✗ disabled |")
        await move_to(pilot, listing, "Audit feed")
        await press_for(pilot, "enter", DetailScreen, "the detail")
        status = app.screen.fields_view.value_of("Status")
        assert " ".join(NO_REASON.split()) in " ".join(status.split())


# ----- create ----------------------------------------------------------------------------


async def test_create_filters_the_event_types_then_shows_the_public_key_once(hooks):
    async with webhooks_shown(hooks) as (app, pilot, listing):
        form, checklist = await open_form(pilot, "n")
        assert "reactor.created" in checklist.options and "proxy.invoked" in checklist.options
        form.query_one("#name", Input).value = "Reactor feed"
        # the URL checked as typed
        form.query_one("#url", Input).value = "ftp://nope"
        await pilot.pause()
        assert "https://" in form.url_error
        form.query_one("#url", Input).value = "https://hooks.example.com/reactors"
        await pilot.pause()
        assert form.url_error == ""
        # filtered: only the reactors' types shown; All shown ticks those, and no other
        form.query_one("#events-filter", Input).value = "reactor."
        await pilot.pause()
        assert checklist.shown and all(t.startswith("reactor.") for t in checklist.shown)
        checklist.tick_shown()
        await pilot.pause()
        assert checklist.selected == checklist.shown
        ticked = list(checklist.selected)
        # cleared, every type shows again and the ticks stay
        form.query_one("#events-filter", Input).value = ""
        await pilot.pause()
        assert len(checklist.shown) == len(checklist.options)
        assert checklist.selected == ticked
        await press_for(pilot, "ctrl+s", VerificationKeyModal, "the public key")
        modal = app.screen
        assert modal.public_key.startswith("-----BEGIN PUBLIC KEY-----")
        assert "verify them with this public key" in " ".join(
            str(s.content) for s in modal.query(".dialog-body")
        )
        await pilot.press("y")  # the save's worker waits on this dialog: no settle here
        await wait_until(pilot, lambda: bool(modal.status_text), what="the copy said")
        await press_for(pilot, "o", ConsoleScreen, "the list")
        await wait_until(pilot, lambda: "Reactor feed" in names(listing), what="the new row")
        await settle(pilot)
        assert listing.current_row["name"] == "Reactor feed"  # the cursor on it
        assert sorted(listing.current_row["events"]) == sorted(ticked)
    changes = [(c.kind, c.action, c.outcome) for c in open_journal().list()]
    assert ("webhooks", "create", "ok") in changes


async def test_a_refused_save_keeps_everything_typed(hooks):
    """The service refuses a sixth webhook (409): said in the form, nothing typed lost."""
    for n in range(2):  # four: the form opens
        hooks.create(f"Extra {n}", f"https://hooks.example.com/{n}", ["proxy.created"])
    async with webhooks_shown(hooks) as (app, pilot, _listing):
        form, checklist = await open_form(pilot, "n")
        form.query_one("#name", Input).value = "Fifth"
        form.query_one("#url", Input).value = "https://hooks.example.com/fifth"
        form.query_one("#events-filter", Input).value = "tenant.updated"
        await pilot.pause()
        checklist.tick_shown()
        hooks.create("Sneaked in", "https://hooks.example.com/six", ["proxy.created"])
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: bool(form.banner_text), what="the refusal")
        assert isinstance(app.screen, WebhookForm)
        assert form.query_one("#name", Input).value == "Fifth"
        assert form.query_one("#url", Input).value == "https://hooks.example.com/fifth"
        assert checklist.selected == ["tenant.updated"]


async def test_the_limit_of_five_is_said_before_the_form_opens(hooks):
    for n in range(3):
        hooks.create(f"Extra {n}", f"https://hooks.example.com/{n}", ["proxy.created"])
    async with webhooks_shown(hooks) as (app, pilot, _listing):
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, ConsoleScreen)  # no form
        assert any("the most the service allows (5)" in n for n in notifications(app))


# ----- enable, disable, delete -------------------------------------------------------------


async def test_t_disables_after_asking_and_enables_again_the_cursor_staying(hooks):
    async with webhooks_shown(hooks) as (app, pilot, listing):
        await move_to(pilot, listing, "Audit feed")
        await press_for(pilot, "t", ConfirmModal, "the confirmation")
        await pilot.press("escape")  # not now: nothing changes
        await wait_until(pilot, screen_is(app, ConsoleScreen), what="the list")
        assert hooks.read(hooks.audit["id"])["status"] == "enabled"
        await press_for(pilot, "t", ConfirmModal, "the confirmation")
        await pilot.press("y")
        await wait_until(
            pilot, lambda: "✗ disabled" in row_text(listing, "Audit feed"), what="disabled"
        )
        await settle(pilot)
        assert hooks.read(hooks.audit["id"])["status"] == "disabled"
        assert listing.current_row["name"] == "Audit feed"
        # enabling asks nothing; the service's reason goes with it
        await move_to(pilot, listing, "Broken sink")
        await pilot.press("t")
        await wait_until(
            pilot, lambda: "● enabled" in row_text(listing, "Broken sink"), what="enabled"
        )
        await settle(pilot)
        assert listing.current_row["name"] == "Broken sink"
        assert hooks.read(hooks.broken["id"])["status"] == "enabled"
        assert not hooks.read(hooks.broken["id"]).get("disabled_reason")
    actions = [c.action for c in open_journal().list() if c.kind == "webhooks"]
    assert actions.count("update") == 2, actions


async def test_t_on_a_detail_disables_and_shows_it(hooks):
    async with webhooks_shown(hooks) as (app, pilot, listing):
        await move_to(pilot, listing, "Audit feed")
        await press_for(pilot, "enter", DetailScreen, "the detail")
        await press_for(pilot, "t", ConfirmModal, "the confirmation")
        await pilot.press("y")
        detail = app.screen
        await wait_until(
            pilot,
            lambda: (
                isinstance(app.screen, DetailScreen)
                and "disabled" in app.screen.fields_view.value_of("Status")
            ),
            what="the detail read again",
        )
        assert detail is app.screen


async def test_d_deletes_after_a_plain_confirmation(hooks):
    async with webhooks_shown(hooks) as (app, pilot, listing):
        await move_to(pilot, listing, "Broken sink")
        await press_for(pilot, "d", ConfirmModal, "the confirmation")
        assert "stops sending it events" in app.screen.body_text
        await pilot.press("y")
        await wait_until(pilot, lambda: "Broken sink" not in names(listing), what="gone")
        assert hooks.read(hooks.broken["id"]) is None


async def test_a_key_that_may_only_read_webhooks_is_refused_changes(hooks):
    """Its permissions known (it may read its own application), each change is refused
    before anything is asked or sent, naming the permission it lacks."""
    reader = hooks.key_with("webhook:read", "application:read")
    async with webhooks_shown(hooks, reader) as (app, pilot, listing):
        await move_to(pilot, listing, "Audit feed")
        for key in ("t", "d", "n"):
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, ConsoleScreen), key
        said = " ".join(notifications(app))
        assert "webhook:update" in said and "webhook:delete" in said
        assert "webhook:create" in said
        assert hooks.read(hooks.audit["id"])["status"] == "enabled"


async def test_the_section_is_usable_at_80x24(hooks):
    async with webhooks_shown(hooks, size=(80, 24)) as (_app, pilot, listing):
        broken = row_text(listing, "Broken sink")
        assert "✗ disabled" in broken
        form, _checklist = await open_form(pilot, "n")
        for widget in ("#name", "#url", "#notify-email", "#events-filter"):
            assert form.query_one(widget).region.width > 10, widget


async def test_e_edits_a_disabled_webhook_and_its_status_stays(hooks):
    """The form keeps the status as it is (t changes it): the service's reason stays too."""
    async with webhooks_shown(hooks) as (_app, pilot, listing):
        await move_to(pilot, listing, "Broken sink")
        form, checklist = await open_form(pilot, "e")
        assert checklist.selected == ["proxy.created", "proxy.deleted"]
        form.query_one("#url", Input).value = "https://hooks.example.com/fixed"
        await press_for(pilot, "ctrl+s", ConsoleScreen, "saved")
        await wait_until(
            pilot,
            lambda: "https://hooks.example.com/fixed" in row_text(listing, "Broken sink"),
            what="the row read again",
        )
    saved = hooks.read(hooks.broken["id"])
    assert saved["url"] == "https://hooks.example.com/fixed"
    assert saved["status"] == "disabled"
    assert saved["events"] == ["proxy.created", "proxy.deleted"]


def test_a_loopback_webhook_offers_the_listen_that_receives_it() -> None:
    """The demo's Local listen: its detail shows the command that receives and verifies its
    deliveries beside the demo (no profile needed); a webhook elsewhere gets none."""
    from console.tui.browse.webhooks_look import listen_command

    base = "http://127.0.0.1:41234/"
    assert listen_command({"url": "http://127.0.0.1:8765/"}, base) == (
        "tenant-console webhooks listen --no-register --port 8765 "
        "--service-url http://127.0.0.1:41234"
    )
    assert listen_command({"url": "http://localhost:9000"}, base) is not None
    assert listen_command({"url": "https://hooks.example.com/in"}, base) is None
    assert listen_command({"url": "http://127.0.0.1:8765/x; rm -rf ~"}, base) is None
