"""Application Keys in the console: a new key (shown once), revoking one (the session's own
key needs the application's name typed, and is replaced in the session and the keyring
first), and the guided rotation, remembered across restarts (console.keys.rotation).

Each flow is a coroutine that waits for dialogs. Read-only mode, the permission they need
(application:update) and whether the service offers Application Keys are checked before
they start, once, by their declarations (console.tui.actions.declarations: NEW_KEY, REVOKE_KEY,
ROTATE_KEY).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from console.tui.actions.flows import adopt_session_key, proxies_using, refresh_after_change
from console.tui.actions.key_offers import KEYS, proxies_sentence
from console.tui.actions.key_permissions import session_application_id
from console.tui.browse.kinds import APPLICATIONS

if TYPE_CHECKING:
    from console.client import AdminClient
    from console.keys.rotation import Rotation
    from console.models import Application, ApplicationKey
    from console.tui.base.shell import FlowHost
    from console.tui.widgets.keys_panel import KeysPanel

log = logging.getLogger(__name__)


def session_scope(app: FlowHost) -> str:
    """What a rotation and the session's key are remembered under: the profile, else the URL."""
    connection = app.connection
    if connection is None:
        return ""
    return connection.profile or connection.base_url


async def session_key_of(
    app: FlowHost, client: AdminClient, application: Application
) -> tuple[bool, str | None]:
    """(whether this session's key belongs to `application`, the id of that key if known)."""
    from console.keys.session import session_key_id

    own_id = await session_application_id(app, client)
    if own_id is None or own_id != str(application.id):
        return False, None
    ids = [str(k.id) for k in application.keys or []]
    return True, session_key_id(session_scope(app), own_id, ids)


async def _current_keys(client: AdminClient, application: Application) -> list[ApplicationKey]:
    if application.keys is not None:
        return list(application.keys)
    return await client.application_keys.list(application.id)


async def _reveal(app: FlowHost, key: ApplicationKey, application: Application) -> None:
    from console.tui.modals import KeyRevealModal

    if key.key:
        await app.ask(KeyRevealModal(key.key, application.name, regenerated=True))


def _not_done(app: FlowHost, title: str, error: Exception) -> None:
    from console.client import NotOffered

    if isinstance(error, NotOffered):
        app.mark_unavailable(KEYS)
    app.notify(str(error), title=title, severity="error")


async def new_key_flow(app: FlowHost, application: Application) -> ApplicationKey | None:
    """`N`: a new key beside the others (they keep working), shown once."""
    from console.client import ApiError
    from console.tui.modals import ConfirmModal

    client = app.client
    asked = ConfirmModal(
        f'New key for "{application.name}"?',
        "A new key is made beside the existing ones, which keep working. It is shown once: "
        "copy it or write it to a file.",
        confirm_label="Make key",
        danger=False,
    )
    if not await app.ask(asked):
        return None
    try:
        made = await client.application_keys.create(application.id)
    except ApiError as error:
        _not_done(app, "No key was made", error)
        return None
    await _reveal(app, made, application)
    refresh_after_change(app, APPLICATIONS)
    return made


async def _proxies_sentence(client: AdminClient, application_id: str) -> str:
    """Names the proxies that use the application (their transforms get its key)."""
    try:
        names, complete = await proxies_using(client, application_id)
    except Exception as error:
        log.warning("Could not list the proxies using an application", exc_info=True)
        return f"Could not check which proxies use it: {error}"
    return proxies_sentence(names, complete)


def _key_line(key: ApplicationKey, marker: str = "") -> str:
    from console.tui.base import formatting as fmt
    from console.tui.widgets.keys_panel import short_id

    made = fmt.relative(key.created_at) or "time unknown"
    return f"{short_id(key.id)}  version {key.version or '—'}  made {made}{marker}"


async def revoke_key_flow(
    app: FlowHost, application: Application, key_id: str | None = None
) -> bool:
    """`x`: revoke one key (chosen from a list). It stops at once. The session's own key (or,
    where the console cannot tell which it is, any key of its application) needs the name
    typed, and a new key is made and stored for the session before it goes."""
    from console.client import ApiError, NotFound
    from console.tui.modals import ConfirmModal, TypeToConfirmModal
    from console.tui.modals.key_choice import KeyChoiceModal
    from console.tui.widgets.keys_panel import short_id

    client = app.client
    try:
        keys = await _current_keys(client, application)
    except ApiError as error:
        _not_done(app, "The keys could not be read", error)
        return False
    if not keys:
        app.notify(f'"{application.name}" has no key to revoke.', severity="warning")
        return False
    own, session_key = await session_key_of(app, client, application)
    if key_id is None:
        choices = [
            (
                str(k.id),
                _key_line(k, "  ◀ this session" if own and session_key == str(k.id) else ""),
            )
            for k in keys
        ]
        key_id = await app.ask(
            KeyChoiceModal(f'Revoke which key of "{application.name}"?', choices)
        )
        if key_id is None:
            return False
    key = next((k for k in keys if str(k.id) == key_id), None)
    if key is None:
        app.notify("That key is no longer there.", severity="warning")
        return False
    sessions = own and (session_key is None or session_key == key_id)
    body = (
        f"Key {short_id(key_id)} (version {key.version or '—'}) stops working at once: every "
        "service still using it gets 401 until it is given another key. "
        + await _proxies_sentence(client, str(application.id))
    )
    if len(keys) == 1:
        body += " It is the application's only key: nothing can authenticate as it afterwards."
    title = f'Revoke key {short_id(key_id)} of "{application.name}"?'
    if sessions:
        which = "is" if session_key == key_id else "may be"
        body += (
            f"\n\nIt {which} the key this console uses: a new key is made, shown once and "
            "stored for this profile first, then this one is revoked."
        )
        modal: ConfirmModal | TypeToConfirmModal = TypeToConfirmModal(
            title, body, application.name, confirm_label="Revoke key"
        )
    else:
        modal = ConfirmModal(title, body, confirm_label="Revoke key")
    if not await app.ask(modal):
        return False
    if sessions and not await _swap_session_key(app, client, application):
        return False
    try:
        await client.application_keys.revoke(application.id, key_id)
    except NotFound:
        app.notify(f"Key {short_id(key_id)} was already revoked.", title="Revoked")
    except ApiError as error:
        _not_done(app, "The key was not revoked", error)
        return False
    else:
        app.notify(f'Revoked key {short_id(key_id)} of "{application.name}".', title="Revoked")
    refresh_after_change(app, APPLICATIONS)
    return True


async def _swap_session_key(app: FlowHost, client: AdminClient, application: Application) -> bool:
    """Makes a new key, shows it once, and moves the session and the profile to it; only
    once the new key answers is anything revoked. False (and says why) if it failed."""
    from console.client import ApiError
    from console.keys.session import remember_session_key

    try:
        made = await client.application_keys.create(application.id)
    except ApiError as error:
        _not_done(app, "Nothing was revoked: no new key could be made", error)
        return False
    if not made.key:
        app.notify("The service sent no key material: nothing was revoked.", severity="error")
        return False
    await adopt_session_key(app, client, made.key)
    remember_session_key(session_scope(app), str(application.id), str(made.id))
    await _reveal(app, made, application)
    try:
        await client.applications.current()
    except ApiError as error:
        _not_done(app, "Nothing was revoked: the new key did not answer", error)
        return False
    return True


async def rotate_flow(app: FlowHost, application: Application) -> None:
    """`o`: the guided rotation, begun or continued (a rotation remembered from before)."""
    from console.client import ApiError
    from console.keys.rotation import DEPLOYING, remember, rotation_for
    from console.tui.modals import ConfirmModal

    client = app.client
    scope = session_scope(app)
    rotation = rotation_for(scope, str(application.id))
    if rotation is None:
        own, _ = await session_key_of(app, client, application)
        asked = ConfirmModal(
            f'Rotate the key of "{application.name}"?',
            "1. A new key is made beside the old ones and shown once.\n"
            "2. The old keys keep working while you deploy the new one.\n"
            "3. Once it is deployed, the old keys are revoked.\n"
            "You can close the console in between: the rotation stays on this application."
            + (
                "\n\nThis console uses this application: it switches to the new key at once."
                if own
                else ""
            ),
            confirm_label="Make new key",
            danger=False,
        )
        if not await app.ask(asked):
            return
        from console.keys.operations import start_rotation

        try:
            started = await start_rotation(client, scope, application, own=own)
        except ApiError as error:
            _not_done(app, "The rotation did not start", error)
            return
        rotation = started.rotation
        if own and started.key.key:
            from console.keys.session import remember_session_key

            await adopt_session_key(app, client, started.key.key)
            remember_session_key(scope, str(application.id), str(started.key.id))
        await _reveal(app, started.key, application)
        rotation.stage = DEPLOYING
        try:
            remember(rotation)
        except OSError as error:
            log.warning("The key rotation could not be remembered", exc_info=True)
            app.notify(
                f"The rotation could not be remembered ({error}): finish it now, or revoke "
                "the old keys with x later.",
                severity="warning",
            )
        refresh_after_change(app, APPLICATIONS)
    await continue_rotation(app, client, application, rotation)


async def continue_rotation(
    app: FlowHost, client: AdminClient, application: Application, rotation: Rotation
) -> None:
    """The rotation's last step: revoke the old keys once deployed, cancel, or later."""
    from console.client import ApiError
    from console.keys.operations import cancel_rotation, revoke_old_keys
    from console.tui.modals import ConfirmModal

    consequences = await _proxies_sentence(client, str(application.id))
    choice = await app.open_rotation(rotation, consequences=consequences)
    if choice == "revoke":
        try:
            revoked = await revoke_old_keys(client, rotation)
        except ApiError as error:
            _not_done(app, "Not every old key was revoked (the rotation stays)", error)
            refresh_after_change(app, APPLICATIONS)
            return
        app.notify(
            f'Revoked {len(revoked)} old key(s) of "{application.name}": the rotation is done.',
            title="Rotation finished",
        )
    elif choice == "cancel":
        sure = ConfirmModal(
            "Cancel the rotation?",
            "The old and the new keys all stay valid. Revoke the one no longer used with x.",
            confirm_label="Cancel rotation",
            cancel_label="Keep it",
            danger=False,
        )
        if not await app.ask(sure):
            return
        cancel_rotation(rotation)
        app.notify("The rotation was cancelled: every key stays valid.", title="Rotation")
    refresh_after_change(app, APPLICATIONS)


async def fill_keys_panel(
    app: FlowHost, panel: KeysPanel, application: Application, labels: dict[str, str]
) -> None:
    """The application's keys on its detail: which one the session uses, the rotation in
    progress; where the service does not list keys, what it offers instead."""
    from console.keys.rotation import rotation_for
    from console.tui.actions.key_offers import key_features

    client = app.client
    rotation = rotation_for(session_scope(app), str(application.id))
    try:
        own, session_key = await session_key_of(app, client, application)
    except Exception:  # the marker is a help, not a need
        log.info("The session's key could not be told", exc_info=True)
        own, session_key = False, None
    keys = application.keys
    note = ""
    if keys is not None:  # drawn at once; what the service lacks is asked afterwards
        panel.show_keys(
            keys, session_application=own, session_key=session_key, rotation=rotation, labels=labels
        )
    try:  # once per connection: what it lacks is then said (and R or N, x, o hidden)
        features = await key_features(app, client)
    except Exception:
        log.info("The key features could not be asked", exc_info=True)
        features = None
    if keys is None:
        if features is not None and features.keys is False:
            note = (
                "This service has no Application Keys: R regenerates the key, and the old "
                "one stops at once."
                if features.has_regenerate
                else "This service offers neither Application Keys nor regenerate."
            )
        else:
            try:
                keys = await client.application_keys.list(application.id)
            except Exception as error:
                log.warning("The application's keys could not be read", exc_info=True)
                note = f"The keys could not be read: {error}"
    if application.keys is None:
        panel.show_keys(
            keys,
            session_application=own,
            session_key=session_key,
            rotation=rotation,
            labels=labels,
            note=note,
        )
