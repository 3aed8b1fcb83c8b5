"""Promotion from the console: "copy to profile…" on an application, proxy, formula or
reactor, and the whole-tenant diff with another profile.

The plan is console.estate's, for that one object (and the application a proxy or reactor
uses), against the target profile's tenant through a second client; the target's key is resolved
off the UI thread (a keyring call may block). Read-only mode refuses to apply.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from console.tui.actions.key_permissions import in_read_only_mode
from console.tui.base.app_access import OfAnApp
from console.tui.base.connection import close_quietly
from console.tui.browse.kinds import LOOKS
from console.tui.browse.live import LiveSequence

if TYPE_CHECKING:
    from console.client.client import AdminClient
    from console.estate.apply import ApplyResult
    from console.estate.plan import Plan
    from console.tui.base.shell import FlowHost
    from console.tui.base.shown import Shown
    from console.tui.browse.looks import ListLook

log = logging.getLogger(__name__)


def promotable_keys() -> tuple[str, ...]:
    """The kinds copied to another profile: those export/apply carry (console.estate), in
    the registry's order."""
    return tuple(look.key for look in LOOKS.lists() if look.declaration.estate is not None)


PROMOTABLE_KINDS: LiveSequence[str] = LiveSequence(promotable_keys)
"""`promotable_keys()`, as of each use."""


@runtime_checkable
class _ShowsOne(Protocol):
    """A detail screen (console.tui.screens.detail): the object it shows and its kind."""

    @property
    def kind(self) -> ListLook: ...

    @property
    def item(self) -> Shown | None: ...


class _ListOfOneKind(Protocol):
    """A list section (console.tui.widgets.resource_list): its kind and highlighted row."""

    @property
    def kind(self) -> ListLook: ...

    @property
    def current_row(self) -> Shown | None: ...


@runtime_checkable
class _ShowsLists(Protocol):
    """The console screen (console.tui.screens.console): the list it shows, if any."""

    @property
    def current_list(self) -> _ListOfOneKind | None: ...


def promotable(kind: ListLook | None, item: Shown | None) -> bool:
    """An application, a proxy, a reactor or a private formula (an official one is the
    operator's)."""
    if kind is None or item is None or kind.key not in promotable_keys():
        return False
    return not kind.is_read_only(item)


def screen_target(screen: OfAnApp) -> tuple[ListLook | None, Shown | None]:
    """The object a screen stands on: a detail's, or the highlighted row of the console's list."""
    if isinstance(screen, _ShowsOne):  # a detail screen
        return screen.kind, screen.item
    if isinstance(screen, _ShowsLists) and screen.current_list is not None:
        current = screen.current_list
        return current.kind, current.current_row
    return None, None


def start_tenant_diff(app: FlowHost) -> None:
    app.run_worker(tenant_diff_flow(app), group="promote", exit_on_error=False)


async def _other_profile(app: FlowHost, title: str) -> str | None:
    from console.tui.modals.target_profile import TargetProfilePicker

    try:
        names = await asyncio.to_thread(app.profiles.names)
    except Exception as exc:
        log.warning("The profile names could not be read", exc_info=True)
        app.notify(str(exc), title="Profiles", severity="error")
        return None
    current = app.connection.profile if app.connection else None
    others = [name for name in names if name != current]
    if not others:
        app.notify(
            "There is no other profile: add one with tenant-console profile add.",
            title="Copy to profile",
            severity="warning",
        )
        return None
    result: str | None = await app.ask(TargetProfilePicker(title, others))
    return result


async def _client_for(app: FlowHost, name: str) -> AdminClient:
    """A client for the profile `name` (its key resolved in a thread); ValueError with a
    sentence when there is none to use."""
    from console.tui.base.connection import ProfileUnavailable

    try:
        connection = await asyncio.to_thread(app.profiles.resolve, name)
    except ProfileUnavailable as exc:
        raise ValueError(str(exc)) from None
    if not connection.key:
        raise ValueError(connection.problem or f"Profile {name} has no key.")
    current = app.connection
    if current is not None and (current.base_url, current.key) == (
        connection.base_url,
        connection.key,
    ):  # e.g. TENANT_CONSOLE_BASE_URL and _API_KEY set: every profile is that one tenant
        raise ValueError(
            f"Profile {name} resolves to this very tenant (same URL and key): "
            "there is nothing to copy or compare."
        )
    from console.models.contract import DEFAULT_KEY_HEADER
    from console.tui.base.recording import record_changes

    if connection.key_header != DEFAULT_KEY_HEADER:
        client = app.client_factory(
            connection.base_url, connection.key, key_header=connection.key_header
        )
    else:
        client = app.client_factory(connection.base_url, connection.key)
    record_changes(client, name, "promote")
    return client


def _failure(exc: BaseException) -> str:
    from console.tui.base.problems import describe

    problem = describe(exc)
    return f"{problem.title}: {problem.message}"


async def promote_flow(app: FlowHost, kind: ListLook, item: Shown) -> None:
    """Pick a profile, show the plan for this object there, apply it once confirmed.
    `c` or the palette runs it (console.tui.actions.declarations.COPY_TO_PROFILE: refused
    read-only)."""
    from console.estate.apply import ApplyResult, apply_plan, check_applicable
    from console.estate.document import KINDS
    from console.estate.plan import compute_plan
    from console.estate.tenant import read_objects

    name = kind.item_name(item)
    target = await _other_profile(app, f'Copy {kind.singular} "{name}" to profile')
    if target is None:
        return
    source_label = f"profile {app.connection.label}" if app.connection else "this tenant"
    screen, answer = app.open_promotion(f'Copy {kind.singular} "{name}" to profile {target}')
    target_client = None
    try:
        target_client = await _client_for(app, target)
        source = await read_objects(app.client, {kind.key: {name}})
        only = {k: {str(i["name"]) for i in source.document[k]} for k in KINDS}
        only[kind.key].add(name)
        present = await read_objects(target_client, only)
        plan = compute_plan(
            source.document,
            present,
            source_label=source_label,
            target_label=f"profile {target}",
            only=only,
        )
    except Exception as exc:
        log.warning("The promotion could not be planned", exc_info=True)
        if screen.is_mounted:  # else it was closed while the plan was being made
            screen.show_problem(str(exc) if isinstance(exc, ValueError) else _failure(exc))
        await answer
        await close_quietly(target_client)
        return
    if not screen.is_mounted:  # cancelled while the plan was being made
        await close_quietly(target_client)
        return
    refusal = None
    try:
        check_applicable(plan, force=True)  # code problems are marked and warned of, below
    except Exception as exc:
        refusal = str(exc)
    if in_read_only_mode(app):
        refusal = "Read-only mode: applying is refused."
    screen.show_plan(plan, refusal=refusal, warning=_code_warning(plan))
    result = ApplyResult()  # filled as the steps go: a key created before a failure is kept
    try:
        if not await answer or in_read_only_mode(app):
            return
        # Confirmed with the code check's findings on screen: as "save anyway" in a form.
        await apply_plan(target_client, plan, result=result, force=True)
    except Exception as exc:
        log.warning("The promotion failed", exc_info=True)
        app.notify(_failure(exc), title="Copy to profile", severity="error")
        await _reveal_keys(app, result)
        return
    finally:
        await close_quietly(target_client)
    await _report(app, result, target)


def _code_warning(plan: Plan) -> str | None:
    """The note under a plan whose code the check finds broken (the form's own question)."""
    broken = plan.code_problems()
    if not broken:
        return None
    count = f"{len(broken)} problem{'s' if len(broken) != 1 else ''}"
    return (
        f"The code check finds {count} in the code this copies (marked ! code check above); "
        "the service would not run it. Apply only if you mean to copy it as it is."
    )


async def _report(app: FlowHost, result: ApplyResult, target: str) -> None:
    done = "; ".join(result.done) or "nothing"
    if result.complete:
        app.notify(f"Done in profile {target}: {done}.", title="Copy to profile")
    else:
        assert result.failed is not None
        not_done = "; ".join(f"{s.action} {s.label}" for s in result.not_done)
        app.notify(
            f"Stopped at {result.failed.label}: {result.error} Done: {done}. Not done: "
            f"{not_done}. Copy again to finish.",
            title="Copy to profile",
            severity="error",
            timeout=30,
        )
    await _reveal_keys(app, result)


async def _reveal_keys(app: FlowHost, result: ApplyResult) -> None:
    """Each new application's key, shown once, as after a create."""
    from console.tui.modals.key_reveal import KeyRevealModal

    for new in result.new_keys:
        await app.ask(KeyRevealModal(new.key, new.application))


async def tenant_diff_flow(app: FlowHost) -> None:
    """Pick a profile; show what it takes to make its tenant like this one."""
    from console.estate.plan import compute_plan
    from console.estate.tenant import read_tenant

    target = await _other_profile(app, "Compare this tenant with profile")
    if target is None:
        return
    screen = await app.open_estate_diff(target)
    target_client = None
    try:
        target_client = await _client_for(app, target)
        source, present = await asyncio.gather(read_tenant(app.client), read_tenant(target_client))
    except Exception as exc:
        log.warning("The tenants could not be compared", exc_info=True)
        if screen.is_mounted:
            screen.show_problem(str(exc) if isinstance(exc, ValueError) else _failure(exc))
        return
    finally:
        await close_quietly(target_client)
    source_label = f"profile {app.connection.label}" if app.connection else "this tenant"
    plan = compute_plan(
        source.document, present, source_label=source_label, target_label=f"profile {target}"
    )
    if screen.is_mounted:  # else the admin went back before the diff was ready
        screen.show_plan(plan)
