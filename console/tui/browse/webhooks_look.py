"""How the tenant's webhooks look in the console (console.kinds.builtin.WEBHOOKS): the
Webhooks section's columns, a webhook's detail, and the two things the section reads beside
the webhooks themselves: the event types to choose from and the public key deliveries are
verified with.

A disabled webhook says why where the service says it (the local service's own
`disabled_reason`, written when it disabled the webhook after repeated failed deliveries);
the hosted service says nothing but `status`, and the detail says so rather than guess.

There is no per-webhook signing secret (console.webhooks.signing): every delivery of a
service is signed with one key pair, and a receiver verifies it with the service's public
key. The detail shows that key (copied with `Y`), and a new webhook's form shows it once
saved (console.tui.modals.verification_key).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text

from console.kinds import field_of
from console.kinds.builtin import WEBHOOKS as WEBHOOKS_KIND
from console.terminal_text import printable
from console.tui.base import formatting as fmt
from console.tui.base.columns import Column, Labels, Renderable
from console.tui.browse.looks import LOOKS, CodeBlock, ListLook, modified_column

if TYPE_CHECKING:
    from console.client.client import AdminClient
    from console.models.webhooks import Webhook
    from console.tui.base.shown import JsonObject, Shown

log = logging.getLogger("console.tui")

ENABLED = "enabled"
DISABLED = "disabled"

TOGGLE_KEY = "t"
"""Enables or disables the highlighted webhook (turns it on or off): `e` edits and `x`
revokes a key on every screen, and `t` ticks a box in the dialogs that have one, the
nearest meaning (tests/tui/test_one_meaning_per_key.py)."""
TOGGLE_LABEL = "On/off"
TOGGLE_PERMISSION = "toggle"
"""The action name the toggle asks its permission for (webhook:update: Look.change_permission)."""

COPY_KEY = "Y"
"""Copies the verification public key shown in a webhook's detail (`y` copies the id)."""

EVENTS_SHOWN = 2
"""Event types a row names before "+N"."""
REASON_CELL = 40
"""A list row's reason, cut to this many characters (the detail says it whole)."""

SERVICE_DISABLED = "The service disabled this webhook: {reason}"
NO_REASON = (
    "Disabled. The service does not say why: usually it disabled the webhook after repeated "
    "failed deliveries; someone may also have disabled it."
)
VERIFY_SENTENCE = (
    "Deliveries are signed with the service's key (RSA-PSS, SHA-256, in the BT-SIGNATURE "
    "header, v1); verify them with this public key. It is not a secret."
)


def _text(value: object) -> str:
    return printable(str(value)) if value is not None else ""


def disabled_reason(webhook: Shown) -> str:
    """Why a disabled webhook is disabled, as the service said it ("" if it did not)."""
    return _text(field_of(webhook, "disabled_reason")).strip()


def status_text(status: object, reason: str = "", *, width: int | None = REASON_CELL) -> Text:
    """Enabled in green; disabled in red with its reason (cut to `width`, None: whole)."""
    if not status:
        return Text("—", style="dim")
    word = _text(status)
    if word == ENABLED:
        return Text(f"● {word}", style="green")
    if word != DISABLED:
        return Text(word, style="yellow")  # a status the console does not know: as sent
    text = Text(f"✗ {word}", style="bold red")
    if reason:
        # "Disabled after 10 failed deliveries": said once ("✗ disabled after 10 ...").
        said = reason[len(DISABLED) :].lstrip(" :") if reason.lower().startswith(DISABLED) else ""
        joined = f" {said}" if said else f": {reason}"
        if width is not None and len(joined) > width:
            joined = joined[: width - 1].rstrip() + "…"
        text.append(joined, style="red")
    return text


def _status_cell(webhook: JsonObject) -> Renderable:
    return status_text(webhook.get("status"), disabled_reason(webhook))


def events_text(events: Sequence[object] | None, shown: int = EVENTS_SHOWN) -> str:
    """`3 · reactor.created, reactor.deleted +1`: how many, and the first few."""
    names = [_text(e) for e in events or ()]
    if not names:
        return "none"
    first = ", ".join(names[:shown])
    more = len(names) - shown
    return f"{len(names)} · {first}" + (f" +{more}" if more > 0 else "")


def status_sentence(webhook: Webhook) -> Text:
    """The detail's status: enabled, or disabled with the service's full reason, or, where
    it gives none (the hosted service never does), that it does not say."""
    if webhook.status != DISABLED:
        return status_text(webhook.status)
    reason = disabled_reason(webhook)
    text = status_text(webhook.status, width=None)
    text.append("\n")
    if reason:
        text.append(SERVICE_DISABLED.format(reason=reason), style="red")
    else:
        text.append(NO_REASON, style="dim")
    text.append(f"\nPress {TOGGLE_KEY} to enable it again.", style="dim")
    return text


def _events_detail(events: Sequence[str]) -> Renderable:
    if not events:
        return Text("none", style="dim")
    return Text("\n".join(_text(e) for e in events))


def _or_dash(value: object) -> Renderable:
    return _text(value) or Text("—", style="dim")


class WebhooksLook(ListLook):
    """The tenant's webhooks (at most five): name, status (why disabled), URL, events."""

    delete_consequences = "The service stops sending it events at once."
    short_title = "Hooks"
    filter_placeholder = "any column or column:value"
    columns = (
        Column("name", "Name", lambda w: _text(w.get("name")), min_width=12, grow=True),
        Column(
            "status",
            "Status",
            _status_cell,
            REASON_CELL + 12,  # "✗ disabled" and the reason's first REASON_CELL characters
            min_width=24,  # the reason in sight at 80 columns: the dates go first
            grow=True,
        ),
        Column("url", "URL", lambda w: _text(w.get("url")), 30, min_width=16, grow=True),
        Column(
            "events",
            "Events",
            lambda w: events_text(w.get("events")),
            30,
            min_width=14,
            drop_order=2,
            grow=True,
        ),
        modified_column(),
    )

    def change_permission(self, action: str) -> str | None:
        """Enabling or disabling (`t`) is an update (webhook:update)."""
        if action == TOGGLE_PERMISSION:
            return self.declaration.permission_for("update")
        return super().change_permission(action)

    async def creation_refusal(self, client: AdminClient) -> str | None:
        """The service keeps at most MAX_WEBHOOKS a tenant: said before the form opens. A
        count that cannot be read refuses nothing (saving would say it)."""
        from console.models.webhooks import MAX_WEBHOOKS

        try:
            envelope = await client.collection(self.declaration).page_json(page=1, size=20)
            count = len(envelope.get("data") or ())
        except Exception:
            log.info("The webhooks could not be counted before the form", exc_info=True)
            return None
        if count < MAX_WEBHOOKS:
            return None
        return (
            f"This tenant has {count} webhooks, the most the service allows ({MAX_WEBHOOKS}): "
            "delete one (d) or change one to send other events (e)."
        )

    def fields(self, item: Webhook, labels: Labels | None = None) -> list[tuple[str, Renderable]]:
        return [
            ("Id", _text(item.id)),
            ("Name", _or_dash(item.name)),
            ("Status", status_sentence(item)),
            ("URL", _or_dash(item.url)),
            ("Notify email", _or_dash(item.notify_email)),
            (f"Events ({len(item.events)})", _events_detail(item.events)),
            ("Signature", Text(VERIFY_SENTENCE + f" {COPY_KEY} copies it.")),
            ("Tenant", _or_dash(item.tenant_id)),
            ("Created", fmt.when(item.created_at)),
            ("Created by", _or_dash(item.created_by)),
            ("Modified", fmt.when(item.modified_at)),
            ("Modified by", _or_dash(item.modified_by)),
        ]

    async def detail_blocks(self, client: AdminClient, item: Shown) -> list[CodeBlock]:
        """The public key deliveries are verified with, read from the service (the hosted
        service's is published, console.webhooks.signing.WEBHOOK_KEY_URL)."""
        blocks = []
        command = listen_command(item, client.base_url)
        if command is not None:
            blocks.append(CodeBlock(LISTEN_TITLE, command, "text"))
        try:
            key = await verification_key(client)
        except Exception as error:  # the detail still shows the webhook; r reads again
            log.warning("The webhooks' verification key could not be read", exc_info=True)
            return [*blocks, CodeBlock(VERIFICATION_TITLE, f"Not read: {error}", "text")]
        return [*blocks, CodeBlock(VERIFICATION_TITLE, key, "text", copy_label="public key")]

    def empty_message(self, filter_text: str) -> str:
        if filter_text:
            return f"No webhooks match “{filter_text}”. Press escape to clear."
        return "This tenant has no webhooks yet: press n to add one (at most five)."


VERIFICATION_TITLE = "Verification public key"
LISTEN_TITLE = "Receive its deliveries in a terminal"
_LOOPBACK = re.compile(r"http://(?:127\.0\.0\.1|localhost|\[::1\]):(\d{1,5})/?")


def listen_command(item: Any, base_url: str) -> str | None:
    """For a webhook delivering to a port on this machine (the demo's Local listen), the
    `listen` that receives and verifies its deliveries there, reading the key from this
    service: no profile nor API key needed, so it works beside the demo. None otherwise."""
    match = _LOOPBACK.fullmatch(field_of(item, "url") or "")
    if match is None:
        return None
    return (
        f"tenant-console webhooks listen --no-register --port {match.group(1)} "
        f"--service-url {base_url.rstrip('/')}"
    )


async def event_types(client: AdminClient) -> list[str]:
    """The event types a webhook may subscribe to, as the service lists them
    (`GET /webhooks/event-types`, console.client.webhooks)."""
    types: list[str] = await client.webhooks.event_types()
    return types


async def verification_key(client: AdminClient) -> str:
    """The PEM of the public key the service's deliveries verify with (the local service
    publishes it at LOCAL_KEY_PATH, the hosted service on its CDN: the client asks both,
    never sending the API key)."""
    key = await client.webhook_signing_key()
    return key.pem


WEBHOOKS = WebhooksLook(WEBHOOKS_KIND)
LOOKS.register(WEBHOOKS)
