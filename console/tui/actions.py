"""The flows that change things: open a form, delete, regenerate a key, with the
confirmations before and the key reveal after. Used by the shell's screens.

Every flow is a coroutine that shows dialogs and waits for them, so it must run in a worker:
`app.run_worker(delete_object(app, "proxy", proxy))`. Each refuses in read-only mode.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import weakref
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.binding import Binding

if TYPE_CHECKING:
    from console.client import AdminClient

_KIND_ALIASES = {
    "application": "application",
    "applications": "application",
    "proxy": "proxy",
    "proxies": "proxy",
    "reactor_formula": "reactor_formula",
    "reactor-formula": "reactor_formula",
    "reactor_formulas": "reactor_formula",
    "reactor-formulas": "reactor_formula",
    "formula": "reactor_formula",
    "formulas": "reactor_formula",
    "tenant": "tenant",
}


def with_article(noun: str) -> str:
    """ "an application", "a proxy": the article a sentence needs before `noun`."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


NOUNS = {
    "application": "application",
    "proxy": "proxy",
    "reactor_formula": "reactor formula",
    "tenant": "tenant",
}

CONSEQUENCES = {
    "application": "Its API key stops working at once.",
    "proxy": "Calls to the proxy fail at once, and its key stops working.",
    "reactor_formula": "Reactors can no longer be made from it.",
    "tenant": (
        "Every application, proxy and formula in it is deleted, and every key of the tenant "
        "stops working at once, including the one this console uses. This cannot be undone."
    ),
}

log = logging.getLogger(__name__)

_session_applications: weakref.WeakKeyDictionary[Any, str | None] = weakref.WeakKeyDictionary()
_key_permissions: weakref.WeakKeyDictionary[Any, frozenset[str] | None] = (
    weakref.WeakKeyDictionary()
)
"""Per client (so per connection): the permissions of the key it sends, None if unknown."""
_asking: weakref.WeakSet[Any] = weakref.WeakSet()


def kind_name(kind: Any) -> str:
    """ "application", "proxy", "reactor_formula" or "tenant", from a name or a ResourceKind."""
    for candidate in (kind, getattr(kind, "key", None), getattr(kind, "singular", None)):
        if isinstance(candidate, str):
            found = _KIND_ALIASES.get(candidate.strip().lower().replace(" ", "_"))
            if found:
                return found
    raise ValueError(f"Unknown kind of object: {kind!r}")


REGENERATE = "regenerate"
"""The feature name `mark_unavailable` records for a service without key regeneration."""


def not_offered(app: App[Any]) -> set[str]:
    """What the service in use was found not to offer (TenantConsoleApp.unavailable)."""
    return getattr(app, "unavailable", set())


def is_read_only(app: App[Any]) -> bool:
    return bool(getattr(app, "read_only", False))


def refuse_if_read_only(app: App[Any], what: str) -> bool:
    """True (and says so) when the console runs read-only and `what` must not happen."""
    if is_read_only(app):
        app.notify(f"Read-only mode: {what} is refused.", title="Read-only", severity="warning")
        return True
    return False


def _client(app: App[Any], client: Any | None) -> Any:
    client = client if client is not None else getattr(app, "client", None)
    if client is None:
        raise RuntimeError("No connection to a service yet.")
    return client


def _resource(client: Any, kind: str) -> Any:
    return {
        "application": client.applications,
        "proxy": client.proxies,
        "reactor_formula": client.reactor_formulas,
        "tenant": client.tenant,
    }[kind]


# ----- forms --------------------------------------------------------------------------------


def form_for(app: App[Any], kind: Any, obj: Any | None = None, *, client: Any = None) -> Any:
    """The form screen for a new (obj None) or existing object; read-only where it must be."""
    from console.tui.forms import FORMS

    return FORMS[kind_name(kind)](_client(app, client), obj, read_only=is_read_only(app))


async def open_form(
    app: App[Any], kind: Any, obj: Any | None = None, *, client: Any = None
) -> Any | None:
    """Shows the create or edit form; returns the saved object, or None if nothing was saved.

    A new application's key is revealed by the form itself before it closes.
    """
    name = kind_name(kind)
    readable = name == "reactor_formula" and getattr(obj, "type", None) == "official"
    if not readable and refuse_if_read_only(
        app, f"{'editing' if obj is not None else 'creating'} {with_article(NOUNS[name])}"
    ):
        return None
    form = form_for(app, name, obj, client=client)
    return await app.push_screen(form, wait_for_dismiss=True)


# ----- delete -------------------------------------------------------------------------------


async def delete_object(app: App[Any], kind: Any, obj: Any, *, client: Any = None) -> bool:
    """Asks, then deletes. True when the object is gone (also if someone deleted it first)."""
    from console.client import ApiError, NotFound
    from console.tui.modals import ConfirmModal, TypeToConfirmModal

    name = kind_name(kind)
    noun = NOUNS[name]
    if refuse_if_read_only(app, f"deleting {with_article(noun)}"):
        return False
    if name == "reactor_formula" and getattr(obj, "type", None) == "official":
        app.notify(
            "Official formulas belong to the service operator: no tenant can delete them.",
            title="Not deleted",
            severity="warning",
        )
        return False
    client = _client(app, client)
    label = str(getattr(obj, "name", "") or getattr(obj, "id", ""))
    body = CONSEQUENCES[name]
    if name == "application" and await _is_session_application(app, client, obj):
        body += " It is the key this console is using: the console loses its access."
    if name == "application":
        body += "\n\n" + await _proxies_losing(client, obj)
    if name == "tenant":
        modal: Any = TypeToConfirmModal(
            f'Delete the tenant "{label}"?', body, label, confirm_label="Delete tenant"
        )
    else:
        modal = ConfirmModal(f'Delete {noun} "{label}"?', body, confirm_label="Delete")
    if not await app.push_screen(modal, wait_for_dismiss=True):
        return False
    try:
        if name == "tenant":
            await client.tenant.delete()
        else:
            await _resource(client, name).delete(obj.id)
    except NotFound:
        app.notify(f'The {noun} "{label}" was already deleted.', title="Deleted")
        return True
    except ApiError as error:
        app.notify(str(error), title=f"The {noun} was not deleted", severity="error")
        return False
    if name == "tenant":
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


async def proxies_using(client: Any, application_id: str) -> tuple[list[str], bool]:
    """Names of the proxies bound to the application, and whether every proxy was read.

    The service filters proxies by id and name only, so this walks the pages (as sent:
    no models), at most PROXY_SCAN_PAGES of them.
    """
    names: list[str] = []
    for page in range(1, PROXY_SCAN_PAGES + 1):
        data = await client.proxies.page_json(page=page, size=100)
        rows = data.get("data") or []
        names += [
            str(row.get("name") or row.get("id"))
            for row in rows
            if isinstance(row, dict) and str(row.get("application_id") or "") == application_id
        ]
        pagination = data.get("pagination") or {}
        total = pagination.get("total_items")
        if not rows or (isinstance(total, int) and page * 100 >= total):
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


async def _proxies_losing(client: Any, application: Any) -> str:
    """The confirmation's sentence naming the proxies that lose their application."""
    try:
        names, complete = await proxies_using(client, str(application.id))
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


# ----- regenerate ---------------------------------------------------------------------------


async def session_application_id(app: App[Any], client: Any) -> str | None:
    """The id of the application whose key the session uses (GET /applications/key, once)."""
    known = getattr(app, "session_application_id", None)
    if known:
        return str(known)
    if client not in _session_applications:
        await key_application(client)
    return _session_applications.get(client)


async def key_application(client: Any) -> Any | None:
    """GET /applications/key, once per client (one client per connection): the session's
    application id and its permissions are kept; None when the service will not say."""
    try:
        application = await client.applications.current()
    except Exception:  # without application:read the console cannot tell; no harm
        log.info("GET /applications/key failed; the key's permissions stay unknown", exc_info=True)
        _session_applications[client] = None
        _key_permissions[client] = None
        return None
    _session_applications[client] = str(application.id)
    _key_permissions[client] = frozenset(application.permissions)
    return application


async def _is_session_application(app: App[Any], client: Any, application: Any) -> bool:
    own = await session_application_id(app, client)
    return own is not None and own == str(getattr(application, "id", ""))


async def regenerate_key(app: App[Any], application: Any, *, client: Any = None) -> Any | None:
    """Asks, regenerates (once: a POST is never retried), and shows the new key once.

    If it was the session's own key, the live client switches to the new key and the
    profile's stored key is replaced, so the console keeps working.
    """
    from console.client import ApiError, NotOffered
    from console.tui.modals import KeyRevealModal, RegenerateConfirm

    if refuse_if_read_only(app, "regenerating a key"):
        return None
    if REGENERATE in not_offered(app):
        app.notify("This service does not offer regenerating keys.", severity="warning")
        return None
    from console.tui.grants import grant_note

    client = _client(app, client)
    own = await _is_session_application(app, client, application)
    note = await grant_note(client, getattr(application, "permissions", ()), subject="The new key")
    if not await app.push_screen(
        RegenerateConfirm(application.name, own_key=own, grant_note=note), wait_for_dismiss=True
    ):
        return None
    try:
        result = await client.applications.regenerate(application.id)
    except NotOffered as error:
        app.mark_unavailable(REGENERATE)  # type: ignore[attr-defined]
        app.notify(str(error), title="The key was not regenerated", severity="error")
        return None
    except ApiError as error:
        app.notify(str(error), title="The key was not regenerated", severity="error")
        return None
    if own and result.key:
        await adopt_session_key(app, client, result.key)
    if result.key:
        await app.push_screen(
            KeyRevealModal(result.key, result.name, regenerated=True), wait_for_dismiss=True
        )
    return result


def swap_client_key(client: AdminClient, key: str) -> None:
    """Makes the live client send `key` from its next request on."""
    client.set_api_key(key)


async def adopt_session_key(app: App[Any], client: Any, key: str) -> None:
    """The session's key was regenerated: use the new one now, and store it for next time."""
    swap_client_key(client, key)
    connection = getattr(app, "connection", None)
    if connection is not None and dataclasses.is_dataclass(connection):
        app.connection = dataclasses.replace(connection, key=key)  # type: ignore[attr-defined]
    profile = getattr(connection, "profile", None)
    source = getattr(connection, "key_source", "memory")
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


def _store_key(app: App[Any], profile: str, key: str) -> None:
    """Blocking: in a thread. The app's profile source if it has one, else the keyring."""
    profiles = getattr(app, "profiles", None)
    if profiles is not None and hasattr(profiles, "store_key"):
        profiles.store_key(profile, key)
        return
    from console.profiles.keys import set_key

    set_key(profile, key)


# ----- what the key may do ------------------------------------------------------------------

_PERMISSION_PREFIX = {
    "application": "application",
    "proxy": "proxy",
    "reactor_formula": "reactor",
    "tenant": "tenant",
}
_PERMISSION_VERB = {"new": "create", "edit": "update", "delete": "delete", "regenerate": "update"}


def needed_permission(kind: Any, action: str) -> str | None:
    """The permission `n`, `e`, `d` or `R` on this kind of object needs (`proxy:create`)."""
    try:
        name = kind_name(kind)
    except ValueError:
        return None
    verb = _PERMISSION_VERB.get(action)
    return f"{_PERMISSION_PREFIX[name]}:{verb}" if verb else None


def known_permissions(app: App[Any]) -> frozenset[str] | None:
    """The key's permissions if known already, else None; asks the service once per
    connection, in the background, and refreshes every screen's keys when it answers.

    Never makes the client itself: before the first rows its modules are not loaded, and
    the footer is drawn long before that (see console.tui.early_start)."""
    client = _loaded_client(app)
    if client is None:
        return None
    if client in _key_permissions:
        return _key_permissions[client]
    if client not in _asking:
        _asking.add(client)
        app.run_worker(_ask_permissions(app, client), group="key-permissions", exit_on_error=False)
    return None


def _loaded_client(app: App[Any]) -> Any | None:
    """The app's client if it has been made already, never making it: the console makes
    its client once the first rows are on screen (TenantConsoleApp.client is a property
    that would make it now; a plain `client` attribute, as in tests' hosts, is read)."""
    attributes = vars(app)
    client = attributes.get("_client") or attributes.get("client")
    return client if hasattr(client, "applications") else None


async def _ask_permissions(app: App[Any], client: Any) -> None:
    try:
        await key_application(client)
    finally:
        _asking.discard(client)
    for screen in app.screen_stack:
        screen.refresh_bindings()


async def lacking_permission(app: App[Any], kind: Any, action: str) -> str | None:
    """The permission the key lacks for this action (asking the service if not yet known),
    or None when it has it or the console cannot tell (the service then decides)."""
    needed = needed_permission(kind, action)
    if needed is None or is_read_only(app):
        return None
    client = getattr(app, "client", None)
    if client is None:
        return None
    if client not in _key_permissions:
        await key_application(client)
    permissions = _key_permissions.get(client)
    return needed if permissions is not None and needed not in permissions else None


def lacking_now(app: App[Any], kind: Any, action: str) -> str | None:
    """As `lacking_permission`, from what is known now (for the footer's keys)."""
    needed = needed_permission(kind, action)
    if needed is None or is_read_only(app):
        return None
    permissions = known_permissions(app)
    return needed if permissions is not None and needed not in permissions else None


def say_lacking(app: App[Any], permission: str, what: str) -> None:
    app.notify(
        f"{what.capitalize()} needs {permission}, which this key lacks. Use a key that has it "
        "(another profile: p).",
        title=f"Needs {permission}",
        severity="warning",
    )


_ACTION_WORDS = {
    "new": "creating",
    "edit": "editing",
    "delete": "deleting",
    "regenerate": "regenerating the key of",
}


def _doing(kind: Any, action: str) -> str:
    noun = "the tenant" if kind_name(kind) == "tenant" else with_article(NOUNS[kind_name(kind)])
    if action == "regenerate":
        return f"regenerating the key of {noun}"
    return f"{_ACTION_WORDS[action]} {noun}"


# ----- for the shell's screens ----------------------------------------------------------------

MUTATING_ACTIONS = ("new", "edit", "delete", "regenerate")
"""The screen actions that change data; read-only mode keeps their keys bound (to say why
not) but out of the footer and help."""

CHANGE_KEYS_GROUP = Binding.Group("New/Edit/Del")
"""n, e and d share one footer label: the footer has little room."""

LIST_KEYS = {
    "application": "applications",
    "proxy": "proxies",
    "reactor_formula": "reactor_formulas",
}


def hide_mutating_bindings(node: Any) -> None:
    """In read-only mode, takes the keys that change data out of the footer of `node`.

    Otherwise adds, behind each of those keys, a hidden binding that says which permission
    is missing: a key the session's key may not use is dimmed (check_action None), and
    Textual then tries the next binding of the same key."""
    if not is_read_only(node.app):
        for key, found in list(node._bindings.key_to_bindings.items()):
            for binding in found:
                action = binding.action.split("(")[0]
                if action in MUTATING_ACTIONS:
                    node._bindings.bind(key, f"lacking_permission('{action}')", show=False)
        return
    bindings = node._bindings.key_to_bindings
    for key, found in list(bindings.items()):
        bindings[key] = [
            dataclasses.replace(b, show=False) if b.action.split("(")[0] in MUTATING_ACTIONS else b
            for b in found
        ]
    node.refresh_bindings()


def refresh_after_change(app: App[Any], kind: Any) -> None:
    """Reloads what shows this kind of object: its list (or the tenant), and the header."""
    screen = getattr(app, "console_screen", None)
    name = kind_name(kind)
    if screen is not None:
        key = LIST_KEYS.get(name, "tenant")

        def reload() -> None:
            try:
                screen.section_widget(key).reload()
            except Exception:  # a section not there has nothing to refresh
                log.info("The %s section was not reloaded", key, exc_info=True)

        # After the dialog has gone and the screen has its focus back, so that the list
        # puts the focus on its rows again once they are loaded.
        screen.call_after_refresh(reload)
    refresh_header = getattr(app, "refresh_header_info", None)
    if callable(refresh_header):
        refresh_header()


async def fresh_copy(app: App[Any], kind: Any, obj: Any, *, client: Any = None) -> Any:
    """The object as the service holds it now, so a form opens on the latest version."""
    name = kind_name(kind)
    client = _client(app, client)
    try:
        if name == "tenant":
            return await client.tenant.get()
        return await _resource(client, name).get(obj.id)
    except Exception:  # the form still opens on what is shown; saving will tell
        log.warning("The full object could not be read before editing", exc_info=True)
        return obj


async def _refuse_if_lacking(app: App[Any], kind: Any, action: str) -> bool:
    """True (and says which permission) when the key may not do this."""
    missing = await lacking_permission(app, kind, action)
    if missing:
        say_lacking(app, missing, _doing(kind, action))
        return True
    return False


async def create_flow(app: App[Any], kind: Any) -> Any | None:
    """`n` on a list: the form, then the list reloaded."""
    if await _refuse_if_lacking(app, kind, "new"):
        return None
    saved = await open_form(app, kind)
    if saved is not None:
        refresh_after_change(app, kind)
    return saved


async def edit_flow(app: App[Any], kind: Any, obj: Any) -> Any | None:
    """`e` on a row, a detail or the tenant: the form on the latest version, then reloads."""
    name = kind_name(kind)
    if obj is None:
        return None
    official = name == "reactor_formula" and getattr(obj, "type", None) == "official"
    if not official and refuse_if_read_only(app, f"editing {with_article(NOUNS[name])}"):
        return None
    if not official and await _refuse_if_lacking(app, name, "edit"):
        return None
    saved = await open_form(app, name, await fresh_copy(app, name, obj))
    if saved is not None:
        refresh_after_change(app, name)
    return saved


async def delete_flow(app: App[Any], kind: Any, obj: Any) -> bool:
    """`d` on a row, a detail or the tenant: confirmation, delete, then reloads."""
    if obj is None:
        return False
    if not is_read_only(app) and await _refuse_if_lacking(app, kind, "delete"):
        return False
    deleted = await delete_object(app, kind, obj)
    if deleted:
        refresh_after_change(app, kind)
    return deleted


async def regenerate_flow(app: App[Any], application: Any) -> Any | None:
    """`R` on an application: confirmation, the new key shown once, then reloads."""
    if application is None:
        return None
    if not is_read_only(app) and await _refuse_if_lacking(app, "application", "regenerate"):
        return None
    result = await regenerate_key(app, application)
    if result is not None:
        refresh_after_change(app, "application")
    return result


def start_flow(app: App[Any], flow: Any) -> None:
    """Runs a flow coroutine in an app worker: flows wait for dialogs, and a screen that
    closes meanwhile (a detail whose object was deleted) must not cancel them."""
    app.run_worker(flow, group="change", exit_on_error=False)


# ----- the keys n, e, d, R on the console and detail screens -------------------------------------


def changeable(kind: Any) -> bool:
    """Whether objects of this kind can be created, edited or deleted (permissions cannot)."""
    try:
        kind_name(kind)
    except ValueError:
        return False
    return True


def _console_target(screen: Any) -> tuple[Any, Any]:
    """(kind, object) the console screen's change keys act on: the highlighted row of a list,
    or the tenant on the Tenant section; (None, None) elsewhere (the permissions list)."""
    current_list = getattr(screen, "current_list", None)
    if current_list is not None:
        if not changeable(current_list.kind):
            return None, None
        return current_list.kind, current_list.current_row
    if getattr(screen, "current", None) == "tenant":
        return "tenant", getattr(screen.section_widget("tenant"), "tenant", None)
    return None, None


def console_action_allowed(screen: Any, action: str) -> bool | None:
    """Whether `n`, `e`, `d` or `R` applies where the console screen stands now; None
    (shown dimmed) when it would but the key lacks the permission."""
    kind, obj = _console_target(screen)
    if action == "new":
        applies = kind is not None and kind != "tenant"
    elif action == "regenerate":
        applies = (
            kind is not None
            and kind_name(kind) == "application"
            and obj is not None
            and REGENERATE not in not_offered(screen.app)
        )
    else:
        applies = obj is not None
    if applies and lacking_now(screen.app, kind, action):
        return None
    return applies


def explain_lacking_permission(screen: Any, action: str) -> None:
    """A dimmed `n`, `e`, `d` or `R` was pressed: say which permission it needs."""
    if hasattr(screen, "item") and hasattr(screen, "kind"):  # a detail screen
        dimmed = detail_action_allowed(screen, action) is None
        kind = screen.kind
    else:
        dimmed = console_action_allowed(screen, action) is None
        kind, _ = _console_target(screen)
    missing = lacking_now(screen.app, kind, action) if dimmed else None
    if missing:
        say_lacking(screen.app, missing, _doing(kind, action))


def run_console_action(screen: Any, action: str) -> None:
    """Starts the flow for `n`, `e`, `d` or `R` on the console screen."""
    app = screen.app
    kind, obj = _console_target(screen)
    if kind is None or (action != "new" and obj is None):
        return
    if obj is not None and kind != "tenant":
        try:
            obj = kind.model_of(obj)  # the row as sent becomes the model the flows work on
        except Exception as exc:  # an object that does not match the API
            log.warning("The object does not match its model", exc_info=True)
            app.notify(str(exc), title=f"Cannot change this {kind.singular}", severity="error")
            return
    if action == "new":
        start_flow(app, create_flow(app, kind))
    elif action == "edit":
        start_flow(app, edit_flow(app, kind, obj))
    elif action == "delete":
        start_flow(app, delete_flow(app, kind, obj))
    elif action == "regenerate" and kind_name(kind) == "application":
        start_flow(app, regenerate_flow(app, obj))


def detail_action_allowed(screen: Any, action: str) -> bool | None:
    """Whether `e`, `d` or `R` applies to the object a detail screen shows; None (dimmed)
    when the key lacks the permission."""
    if screen.item is None or not changeable(screen.kind):
        return False
    name = kind_name(screen.kind)
    if action == "regenerate":
        applies = name == "application" and REGENERATE not in not_offered(screen.app)
    else:
        applies = action in ("edit", "delete")
    if applies and lacking_now(screen.app, screen.kind, action):
        return None
    return applies


def run_detail_action(screen: Any, action: str) -> None:
    """Starts the flow for `e`, `d` or `R` on a detail screen; it shows the result."""
    if detail_action_allowed(screen, action):
        start_flow(screen.app, _detail_flow(screen, action))


async def _detail_flow(screen: Any, action: str) -> None:
    app = screen.app
    if action == "edit":
        if await edit_flow(app, screen.kind, screen.item) is not None:
            screen.action_refresh()
    elif action == "delete":
        if await delete_flow(app, screen.kind, screen.item) and app.screen is screen:
            app.pop_screen()
    elif action == "regenerate":
        await regenerate_flow(app, screen.item)
