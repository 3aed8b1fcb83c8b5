"""The Webhooks section's own flow: `t` enables or disables a webhook (disabling asked first).

Run through its declaration (console.tui.actions.declarations.TOGGLE), whose guard has
checked read-only mode and webhook:update. The webhook is read again first and sent back
whole with the other status (`PUT /webhooks/{id}` replaces it: what someone else changed
meanwhile is kept, not overwritten by the row shown: console.client.webhooks.set_status).
The client records the change in the
journal (History, undo). The list is then read again with its cursor on the webhook; the
rows shown stay until the fresh ones replace them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from console.tui.actions.flows import refresh_after_change
from console.tui.browse.webhooks_look import DISABLED, ENABLED, TOGGLE_KEY, WEBHOOKS

if TYPE_CHECKING:
    from console.client import AdminClient
    from console.models.webhooks import Webhook
    from console.tui.base.shell import FlowHost

DISABLE_CONSEQUENCES = (
    "The service stops sending it events until it is enabled again ({key}); events that "
    "happen meanwhile are not sent to it later."
)


def _client(app: FlowHost) -> AdminClient:
    client = app.connected_client()
    if client is None:
        raise RuntimeError("No connection to a service yet.")
    return client


async def toggle_flow(app: FlowHost, webhook: Webhook) -> Webhook | None:
    """`t`: a disabled webhook enabled; an enabled one disabled once confirmed."""
    from console.client import ApiError, NotFound
    from console.terminal_text import printable
    from console.tui.modals import ConfirmModal

    client = _client(app)
    name = printable(webhook.name or webhook.id)
    try:
        current = await client.webhooks.get(webhook.id)
    except NotFound:
        app.notify(f'The webhook "{name}" was deleted meanwhile.', title="Not changed")
        refresh_after_change(app, WEBHOOKS, webhook.id)
        return None
    except ApiError as error:
        app.notify(str(error), title="The webhook was not changed", severity="error")
        return None
    status = DISABLED if current.enabled else ENABLED
    if status == DISABLED:
        modal = ConfirmModal(
            f'Disable the webhook "{name}"?',
            DISABLE_CONSEQUENCES.format(key=TOGGLE_KEY),
            confirm_label="Disable",
        )
        if not await app.ask(modal):
            return None
    try:
        # Read again and sent back whole with the other status (console.client.webhooks).
        changed = await client.webhooks.set_status(webhook.id, status)
    except NotFound:
        app.notify(f'The webhook "{name}" was deleted meanwhile.', title="Not changed")
        refresh_after_change(app, WEBHOOKS, webhook.id)
        return None
    except ApiError as error:
        app.notify(str(error), title=f"The webhook was not {status}", severity="error")
        return None
    done = "Enabled" if status == ENABLED else "Disabled"
    app.notify(f'{done} the webhook "{name}".', title=done)
    refresh_after_change(app, WEBHOOKS, webhook.id)
    return changed
