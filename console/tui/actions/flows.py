"""The flows that change things: open a form, delete, regenerate a key, with the
confirmations before and the key reveal after. Used by the shell's screens (through
console.tui.actions.bindings_policy).

Every flow is a coroutine that shows dialogs and waits for them, so it must run in a worker:
`app.run_worker(delete_object(app, PROXIES, proxy))`. None checks read-only mode, the key's
permissions or what the service offers: console.tui.actions.declarations declares what each
action needs and runs its guard, once, before the flow (`change_actions.run`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from console.tui.actions.key_permissions import (
    REGENERATE,
    in_read_only_mode,
    session_application_id,
)
from console.tui.base.connection import Connection as ConsoleConnection
from console.tui.browse.kinds import APPLICATIONS, TENANT

if TYPE_CHECKING:
    from console.client import AdminClient
    from console.models import Application
    from console.tui.actions.key_guard import KeyStakes
    from console.tui.base.shell import FlowHost
    from console.tui.base.shown import Model, Shown
    from console.tui.browse.kinds import Kind
    from console.tui.forms.base import ResourceForm
    from console.tui.modals import ConfirmModal, TypeToConfirmModal

log = logging.getLogger(__name__)


def _client(app: FlowHost, client: AdminClient | None) -> AdminClient:
    client = client if client is not None else app.connected_client()
    if client is None:
        raise RuntimeError("No connection to a service yet.")
    return client


def form_for(
    app: FlowHost,
    kind: Kind,
    obj: Shown | None = None,
    *,
    client: AdminClient | None = None,
) -> ResourceForm[Any, Any]:
    """The form screen for a new (obj None) or existing object; read-only where it must be."""
    from console.tui.forms.registry import form_class as form_of

    form_class = form_of(kind)
    return form_class(_client(app, client), obj, read_only=in_read_only_mode(app))


async def open_form(
    app: FlowHost,
    kind: Kind,
    obj: Shown | None = None,
    *,
    client: AdminClient | None = None,
) -> Model | None:
    """Shows the create or edit form; returns the saved object, or None if nothing was saved.

    A new application's key is revealed by the form itself before it closes.
    """
    form = form_for(app, kind, obj, client=client)
    return await app.ask(form)


RESTORE_NOTE = (
    "It can be restored from History (H): created again from its recorded body, with a new id"
)
"""Said by every delete's confirmation but the tenant's (a deleted tenant cannot come back)."""


async def delete_object(
    app: FlowHost, kind: Kind, obj: Shown, *, client: AdminClient | None = None
) -> bool:
    """Asks, then deletes. True when the object is gone (also if someone deleted it first)."""
    from console.client import ApiError, NotFound
    from console.tui.modals import ConfirmModal, TypeToConfirmModal

    noun = kind.singular
    client = _client(app, client)
    label = str(_field(obj, "name") or _field(obj, "id") or "")
    body = kind.delete_consequences
    guarded = False
    if kind is APPLICATIONS:
        stakes = await _key_stakes(app, client, obj)
        guarded = stakes.guarded
        if guarded:
            body += " " + stakes.losses("delete")
        body += "\n\n" + await _proxies_losing(client, kind.item_id(obj))
    if kind is not TENANT:
        body += "\n\n" + RESTORE_NOTE + (" and a new key." if kind is APPLICATIONS else ".")
    modal: ConfirmModal | TypeToConfirmModal
    if kind is TENANT:
        modal = TypeToConfirmModal(
            f'Delete the tenant "{label}"?', body, label, confirm_label="Delete tenant"
        )
    elif guarded:  # a key the console lives on: its name typed, never Tab Enter
        modal = TypeToConfirmModal(f'Delete {noun} "{label}"?', body, label)
    else:
        modal = ConfirmModal(f'Delete {noun} "{label}"?', body, confirm_label="Delete")
    if not await app.ask(modal):
        return False
    try:
        await kind.delete(client, obj)
    except NotFound:
        app.notify(f'The {noun} "{label}" was already deleted.', title="Deleted")
        return True
    except ApiError as error:
        app.notify(str(error), title=f"The {noun} was not deleted", severity="error")
        return False
    if kind is TENANT:
        app.notify(
            f'Deleted the tenant "{label}". Its keys no longer work: switch to another '
            "profile (p) or quit.",
            title="Tenant deleted",
            severity="warning",
            timeout=20,
        )
    else:
        app.notify(f'Deleted {noun} "{label}".', title="Deleted")
    return True


PROXY_SCAN_PAGES = 20
"""Pages of 100 proxies read to find those an application's deletion affects: 2,000
proxies is more than a tenant usually has, and the dialog must not wait on a huge one."""


PROXIES_NAMED = 5
"""Proxies named in the confirmation; past these, "and N more"."""


async def proxies_using(client: AdminClient, application_id: str) -> tuple[list[str], bool]:
    """Names of the proxies bound to the application, and whether every proxy was read.

    The service filters proxies by id and name only, so this walks the pages (as sent:
    no models, a few in flight), at most PROXY_SCAN_PAGES of them.
    """
    from contextlib import aclosing

    from console.client.walk import envelope_end, walk_pages

    names: list[str] = []
    pages = walk_pages(
        lambda page: client.proxies.page_json(page=page, size=100),
        envelope_end,
        budget=client.budget,
        max_pages=PROXY_SCAN_PAGES,
    )
    async with aclosing(pages):
        async for number, data in pages:
            rows = data.get("data") or []
            names += [
                str(row.get("name") or row.get("id"))
                for row in rows
                if isinstance(row, dict) and str(row.get("application_id") or "") == application_id
            ]
            if not envelope_end(data, number).has_more:
                return names, True
    return names, False


def _names_sentence(names: list[str]) -> str:
    quoted = [f'"{n}"' for n in names[:PROXIES_NAMED]]
    more = len(names) - len(quoted)
    if more:
        return ", ".join(quoted) + f" and {more} more"
    if len(quoted) == 1:
        return quoted[0]
    return ", ".join(quoted[:-1]) + " and " + quoted[-1]


async def _proxies_losing(client: AdminClient, application_id: str) -> str:
    """The confirmation's sentence naming the proxies that lose their application."""
    try:
        names, complete = await proxies_using(client, application_id)
    except Exception as error:  # e.g. a key without proxy:read: say so, still ask
        log.warning("Could not list the proxies using an application", exc_info=True)
        return f"Could not check which proxies use it: {error}"
    checked = "" if complete else f" (among the first {PROXY_SCAN_PAGES * 100} proxies)"
    if not names:
        return f"No proxy uses it{checked}."
    if len(names) == 1:
        what = "1 proxy loses its application, and with it the key its transforms get"
    else:
        what = (
            f"{len(names)} proxies lose their application, and with it the key their transforms get"
        )
    return f"{what}{checked}: {_names_sentence(names)}."


async def _is_session_application(app: FlowHost, client: AdminClient, application: Shown) -> bool:
    own = await session_application_id(app, client)
    return own is not None and own == str(_field(application, "id") or "")


async def _key_stakes(app: FlowHost, client: AdminClient, application: Shown) -> KeyStakes:
    """Whether the console lives on this application's key (console.tui.actions.key_guard)."""
    from console.tui.actions.key_guard import key_stakes

    own = await _is_session_application(app, client, application)
    return await key_stakes(client, application, own_key=own)


def _field(obj: Shown, name: str) -> object:
    """A field of a model or of an object as sent; None where it has none."""
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


async def regenerate_key(
    app: FlowHost, application: Application, *, client: AdminClient | None = None
) -> Application | None:
    """Asks, regenerates (once: a POST is never retried), and shows the new key once.

    If it was the session's own key, the live client switches to the new key and the
    profile's stored key is replaced, so the console keeps working.
    """
    from console.client import ApiError, NotOffered
    from console.tui.browse.grants import grant_note
    from console.tui.modals import KeyRevealModal, RegenerateConfirm, TypeToConfirmModal
    from console.tui.modals.confirm import REGENERATE_CONSEQUENCES

    client = _client(app, client)
    stakes = await _key_stakes(app, client, application)
    own = stakes.own_key
    note = await grant_note(client, application.permissions, subject="The new key")
    notes = (note, await _regenerate_note(app, client, application))
    note = "\n".join(n for n in notes if n) or None
    modal: RegenerateConfirm | TypeToConfirmModal
    if stakes.guarded:  # a key the console lives on: its name typed, never Tab Enter
        modal = TypeToConfirmModal(
            f'Regenerate the key of "{application.name}"?',
            f"{REGENERATE_CONSEQUENCES} {stakes.losses('regenerate')}",
            application.name,
            confirm_label="Regenerate",
            warning=note,
        )
    else:
        modal = RegenerateConfirm(application.name, grant_note=note)
    if not await app.ask(modal):
        return None
    try:
        result = await client.applications.regenerate(application.id)
    except NotOffered as error:
        app.mark_unavailable(REGENERATE)
        app.notify(str(error), title="The key was not regenerated", severity="error")
        return None
    except ApiError as error:
        app.notify(str(error), title="The key was not regenerated", severity="error")
        return None
    if own and result.key:
        await adopt_session_key(app, client, result.key)
    if result.key:
        await app.ask(KeyRevealModal(result.key, result.name, regenerated=True))
    return result


async def _regenerate_note(
    app: FlowHost, client: AdminClient, application: Application
) -> str | None:
    """Issue 26: on a service with regenerate only, that the old key stops at once with no
    rotation possible, and the proxies using the application (console.tui.actions.key_offers)."""
    from console.tui.actions.key_offers import lacks_keys, proxies_sentence, regenerate_only_note

    if not await lacks_keys(app, client):
        return None
    try:
        names, complete = await proxies_using(client, str(application.id))
        proxies = proxies_sentence(names, complete)
    except Exception as error:  # e.g. a key without proxy:read: say so, still ask
        log.warning("Could not list the proxies using an application", exc_info=True)
        proxies = f"Could not check which proxies use it: {error}"
    return regenerate_only_note(proxies)


def swap_client_key(client: AdminClient, key: str) -> None:
    """Makes the live client send `key` from its next request on."""
    client.set_api_key(key)


async def adopt_session_key(app: FlowHost, client: AdminClient, key: str) -> None:
    """The session's key was regenerated: use the new one now, and store it for next time."""
    swap_client_key(client, key)
    connection = app.connection
    if isinstance(connection, ConsoleConnection):
        app.connection = dataclasses.replace(connection, key=key)
    profile = connection.profile if connection is not None else None
    source = connection.key_source if connection is not None else "memory"
    if profile is None or source == "memory":
        app.notify("The console now uses the new key (held in memory for this session).")
        return
    if source == "env":
        app.notify(
            "The console now uses the new key, but TENANT_CONSOLE_API_KEY still holds the old "
            "one: set it to the new key before the next start.",
            title="Update TENANT_CONSOLE_API_KEY",
            severity="warning",
            timeout=15,
        )
        return
    origin = connection.key_origin if isinstance(connection, ConsoleConnection) else None
    if origin is not None:
        app.notify(
            f"The console now uses the new key, but profile {profile} takes its key from "
            f"{origin}, which still gives the old one: put the new key there before the next "
            "start.",
            title="Update the profile's key source",
            severity="warning",
            timeout=15,
        )
        return
    try:
        await asyncio.to_thread(_store_key, app, profile, key)
    except Exception as error:
        log.warning("The new key could not be stored", exc_info=True)
        app.notify(
            f"The console uses the new key for this session, but it could not be stored for "
            f"profile {profile}: {error} Copy the key now, then set TENANT_CONSOLE_API_KEY or "
            f"run `tenant-console profile add {profile} --base-url ...` again.",
            title="New key not stored",
            severity="error",
            timeout=30,
        )
        return
    app.notify(f"The new key is stored for profile {profile}.", title="Key stored")


def _store_key(app: FlowHost, profile: str, key: str) -> None:
    """Blocking: in a thread. The app's profile source (the keyring, for saved profiles)."""
    app.profiles.store_key(profile, key)


def refresh_after_change(app: FlowHost, kind: Kind, focus_id: str | None = None) -> None:
    """Reloads what shows this kind of object: its section (a list or the tenant), and the
    header. A list keeps its cursor on `focus_id` (the object created or changed; after a
    delete, the deleted one's neighbour) and its scroll position."""
    screen = app.console_screen
    if screen is not None:

        def reload() -> None:
            from console.tui.widgets.resource_list import ResourceList  # loaded with the screen

            try:
                section = screen.section_widget(kind.key)
            except Exception:  # a section not there has nothing to refresh
                log.info("The %s section was not reloaded", kind.key, exc_info=True)
                return
            if isinstance(section, ResourceList):
                section.reload(focus_id)
            else:
                section.reload()

        # After the dialog has gone and the screen has its focus back, so that the list
        # puts the focus on its rows again once they are loaded.
        screen.call_after_refresh(reload)
    app.refresh_header_info()


async def fresh_copy(
    app: FlowHost, kind: Kind, obj: Shown, *, client: AdminClient | None = None
) -> Shown:
    """The object as the service holds it now, so a form opens on the latest version."""
    client = _client(app, client)
    try:
        return await kind.get(client, kind.item_id(obj))
    except Exception:  # the form still opens on what is shown; saving will tell
        log.warning("The full object could not be read before editing", exc_info=True)
        return obj


async def create_flow(app: FlowHost, kind: Kind) -> Model | None:
    """`n` on a list: the form (unless the kind says now why a new one would be refused:
    a limit reached), then the list reloaded."""
    refusal = await kind.creation_refusal(_client(app, None))
    if refusal is not None:
        app.notify(refusal, title=f"No new {kind.singular}", severity="warning", timeout=8)
        return None
    saved = await open_form(app, kind)
    if saved is not None:
        refresh_after_change(app, kind, kind.item_id(saved))
    return saved


async def edit_flow(app: FlowHost, kind: Kind, obj: Shown | None) -> Model | None:
    """`e` on a row, a detail or the tenant: the form on the latest version, then reloads.
    An object no one may change opens its form read-only, whatever the mode or the key."""
    if obj is None:
        return None
    saved = await open_form(app, kind, await fresh_copy(app, kind, obj))
    if saved is not None:
        refresh_after_change(app, kind, kind.item_id(saved))
    return saved


async def delete_flow(app: FlowHost, kind: Kind, obj: Shown | None) -> bool:
    """`d` on a row, a detail or the tenant: confirmation, delete, then reloads."""
    if obj is None:
        return False
    deleted = await delete_object(app, kind, obj)
    if deleted:  # its id is gone: the cursor goes to its neighbour
        refresh_after_change(app, kind, kind.item_id(obj))
    return deleted


async def regenerate_flow(app: FlowHost, application: Shown | None) -> Application | None:
    """`R` on an application: confirmation, the new key shown once, then reloads. An
    application shown as sent (it did not match the model) cannot be regenerated."""
    from console.models import Application

    if not isinstance(application, Application):
        return None
    result = await regenerate_key(app, application)
    if result is not None:
        refresh_after_change(app, APPLICATIONS, str(application.id))
    return result


def start_flow(app: FlowHost, flow: Coroutine[object, object, object]) -> None:
    """Runs a flow coroutine in an app worker: flows wait for dialogs, and a screen that
    closes meanwhile (a detail whose object was deleted) must not cancel them."""
    app.run_worker(flow, group="change", exit_on_error=False)
