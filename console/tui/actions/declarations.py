"""The actions that change data, each declared once: n, e, d and R on the lists, the details
and the Tenant section; N, x and o on an application's detail; c, a copy to another profile;
React (ctrl+l), which runs a reactor on the service; i and I in the People section (invite,
resend an invitation; e there changes a member's role, d removes or revokes); t in the
Webhooks section (enable or disable one).

A declaration says what the action needs (a permission, a feature of the service), whether
read-only mode refuses it, which kinds of object it applies to, and the flow it runs. The
footer (`check_action`: `offered`), the palette (`visible`) and the keys (`start`, `run`)
ask the same declaration; `run` guards once, then runs the flow, which checks none of this
again (console.tui.actions.flows, console.tui.actions.key_flows, console.tui.actions.promote).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from console.tui.actions.flows import (
    create_flow,
    delete_flow,
    edit_flow,
    regenerate_flow,
    start_flow,
)
from console.tui.actions.key_offers import KEYS
from console.tui.actions.key_permissions import (
    REGENERATE,
    in_read_only_mode,
    lacking_now,
    lacking_permission,
    not_offered,
    refuse_if_read_only,
    say_lacking,
    unproven_permission,
)
from console.tui.actions.promote import PROMOTABLE_KINDS
from console.tui.browse.kinds import (
    APPLICATIONS,
    INVITATIONS,
    LIST_KINDS,
    MEMBERS,
    REACT_KEY,
    REACT_LABEL,
    REACTORS,
    TENANT,
    ResourceKind,
)
from console.tui.browse.live import LiveSequence
from console.tui.browse.webhooks_look import (
    TOGGLE_KEY,
    TOGGLE_LABEL,
    TOGGLE_PERMISSION,
    WEBHOOKS,
)

if TYPE_CHECKING:
    from console.tui.base.shell import FlowHost
    from console.tui.base.shown import Shown
    from console.tui.browse.kinds import Kind

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Target:
    """What an action acts on: a kind (`n` needs no object) and the object, if any."""

    kind: Kind | None
    obj: Shown | None = None
    unreadable: bool = False
    """The object did not match its model (a detail showing it as sent): nothing can
    change it, as no form or flow can read it."""


NO_TARGET = Target(None)

Phrase = Callable[[Target], str]
"""The action in a sentence for this target ("deleting a proxy"), for its refusals."""

ReadOnlyObject = Literal["refuse", "view", "skip"]
"""What the action does on an object no one may change (an official formula): `refuse`
when it is run (saying why), `view` it (the form opens read-only: nothing is changed, so
nothing is refused), or `skip` it (the action does not apply: not offered)."""


@dataclass(frozen=True)
class Refusal:
    """Why `run` did not start the flow; `said` once the user was told."""

    reason: str
    said: bool = False


@dataclass(frozen=True)
class Action:
    """One action that changes data, declared once (see the module's docstring)."""

    name: str
    """The screen action its key calls (`action_<name>`), and its name in this module."""
    key: str
    """Its key on the screens that offer it (their bindings are made from this: see
    console.tui.actions.declared_keys); one meaning per key everywhere."""
    label: str
    """Its name in the footer."""
    kinds: Collection[str]
    """The kinds (Kind.key) it applies to (derived from the registry when asked)."""
    flow: Callable[[FlowHost, Target], Awaitable[object]]
    """What it does once the guard let it: dialogs, the request, the reloads."""
    refused_as: Phrase
    """The action in read-only mode's refusal ("Read-only mode: ... is refused.")."""
    lacking_as: Phrase | None = None
    """The action in the missing permission's sentence; None: as `refused_as`."""
    permission: str | None = None
    """The change its kind's permission names (Kind.change_permission: `new`, `edit`,
    `delete`, `regenerate`); None when the service decides alone."""
    needs_object: bool = True
    """False for `n`: a kind is enough."""
    needs_model: bool = True
    """The flow works on the typed object (Kind.model_of): a row as sent is converted."""
    feature: str | None = None
    """What the service must offer (a name in FlowHost.unavailable)."""
    not_offered: str = ""
    """Said when the service was found not to offer `feature`."""
    not_offered_title: str = ""
    read_only_object: ReadOnlyObject = "refuse"
    """On an object no one may change (see ReadOnlyObject)."""
    refused_object_title: str = "Not changed"
    """The title of the refusal on such an object (`refuse`)."""
    refused_in_read_only: bool = True
    """Read-only mode refuses it (its key stays bound, to say why, but leaves the footer).
    An action it does not refuse (React: it changes no object) still needs its permission
    there, known to be held (key_permissions.unproven_permission)."""

    # ---- whether it applies: the footer and the palette --------------------------------

    def fits(self, target: Target) -> bool | str:
        """True, or why the action can never apply to this target (its kind, no object,
        an object as sent, one no one may change where it skips those)."""
        kind = target.kind
        if kind is None or kind.key not in self.kinds:
            return f"{self.name} does not apply to {kind.key if kind else 'nothing'}"
        if self.needs_object and target.obj is None:
            return f"{self.name} needs {kind.a_noun}"
        if self.needs_model and target.unreadable:
            return f"this {kind.singular} does not match what the console expects"
        if (
            self.read_only_object == "skip"
            and target.obj is not None
            and kind.is_read_only(target.obj)
        ):
            return kind.read_only_reason(target.obj)
        return True

    def applies(self, app: FlowHost, target: Target) -> bool | str:
        """True, or why not (`fits`, or the service does not offer it): the footer and the
        palette leave it out then."""
        fits = self.fits(target)
        if fits is not True:
            return fits
        if self.feature is not None and self.feature in not_offered(app):
            return self.not_offered
        return True

    def changes(self, target: Target) -> bool:
        """Whether running it on the target changes anything (editing an official formula
        only shows it): what does not is neither refused read-only nor needs a permission."""
        obj = target.obj
        if self.read_only_object != "view" or obj is None or target.kind is None:
            return True
        return not target.kind.is_read_only(obj)

    def lacking_phrase(self, target: Target) -> str:
        return (self.lacking_as or self.refused_as)(target)


# ---- the footer, the palette and the keys ask these ------------------------------------


def offered(action: Action, app: FlowHost, target: Target) -> bool | None:
    """check_action's answer: False (hidden) where it does not apply, None (dimmed) where
    the key is known to lack its permission, else True. Read-only mode leaves it True: its
    key stays bound to say why, out of the footer (bindings_policy.hide_mutating_bindings)."""
    if action.applies(app, target) is not True:
        return False
    needs = action.permission if action.changes(target) else None
    if needs is not None and lacking_now(app, target.kind, needs):
        return None
    return True


def visible(action: Action, app: FlowHost, target: Target) -> bool:
    """Whether a list of commands (the palette) offers it: it applies, the key may do it,
    and read-only mode does not refuse it."""
    if action.refused_in_read_only and in_read_only_mode(app) and action.changes(target):
        return False
    return offered(action, app, target) is True


def explain_lacking(action: Action, app: FlowHost, target: Target) -> None:
    """A dimmed key was pressed: says which permission the session's key lacks."""
    if offered(action, app, target) is not None or action.permission is None:
        return
    missing = lacking_now(app, target.kind, action.permission)
    if missing:
        say_lacking(app, missing, action.lacking_phrase(target))


async def guard(action: Action, app: FlowHost, target: Target) -> Refusal | None:
    """Everything that must hold before the flow starts, checked once, in the order the
    user is told: read-only mode, the permission, what the service offers, the object."""
    fits = action.fits(target)
    if fits is not True:
        return Refusal(str(fits))
    kind = target.kind
    assert kind is not None  # it fits: there is one
    changes = action.changes(target)
    if changes and action.refused_in_read_only:
        what = action.refused_as(target)
        if refuse_if_read_only(app, what):
            return Refusal(f"Read-only mode: {what} is refused.", said=True)
    if changes and action.permission is not None and in_read_only_mode(app):
        # Not refused read-only (else it was, above): only with the permission known held.
        missing = await unproven_permission(app, kind, action.permission)
        if missing:
            what = action.refused_as(target)
            app.notify(
                f"Read-only mode: {what} needs a key known to hold {missing}.",
                title="Read-only",
                severity="warning",
            )
            return Refusal(f"needs {missing}", said=True)
    elif changes and action.permission is not None:
        missing = await lacking_permission(app, kind, action.permission)
        if missing:
            say_lacking(app, missing, action.lacking_phrase(target))
            return Refusal(f"needs {missing}", said=True)
    if action.feature is not None and action.feature in not_offered(app):
        app.notify(action.not_offered, title=action.not_offered_title, severity="warning")
        return Refusal(action.not_offered, said=True)
    obj = target.obj if action.needs_object else None  # `n`, `i`: the row is not acted on
    if action.read_only_object == "refuse" and obj is not None and kind.is_read_only(obj):
        reason = kind.read_only_reason(obj)
        app.notify(reason, title=action.refused_object_title, severity="warning")
        return Refusal(reason, said=True)
    return None


def typed(action: Action, app: FlowHost, target: Target) -> Target | None:
    """The target with its object as the flow works on it (a row as sent becomes its model);
    None, having said why, when the object does not match its model."""
    kind, obj = target.kind, target.obj
    if not action.needs_model or kind is None or obj is None or action.fits(target) is not True:
        return target  # nothing to convert, or the guard says why not
    try:
        return Target(kind, kind.model_of(obj))
    except Exception as exc:  # an object that does not match the API
        log.warning("The object does not match its model", exc_info=True)
        app.notify(str(exc), title=f"Cannot change this {kind.singular}", severity="error")
        return None


async def run(action: Action, app: FlowHost, target: Target) -> object | None:
    """The one way an action runs: its object made the model the flow works on, the guard
    once, then the flow. The flow's result; None when refused (the user was told why,
    unless the action does not apply here at all)."""
    ready = typed(action, app, target)
    if ready is None:
        return None
    refusal = await guard(action, app, ready)
    if refusal is not None:
        if not refusal.said:
            log.info("%s not run: %s", action.name, refusal.reason)
        return None
    return await action.flow(app, ready)


def start(action: Action, app: FlowHost, target: Target) -> None:
    """`run` in an app worker: flows wait for dialogs (see flows.start_flow)."""
    start_flow(app, run(action, app, target))


# ---- the declarations ------------------------------------------------------------------


def _a_noun(verb: str) -> Phrase:
    """ "deleting a proxy" (read-only mode's refusals name the kind with its article)."""
    return lambda target: f"{verb} {target.kind.a_noun if target.kind else ''}"


def _the_object(verb: str) -> Phrase:
    """ "deleting the tenant" (the permission's sentence: Kind.action_object)."""
    return lambda target: f"{verb} {target.kind.action_object if target.kind else ''}"


def _named(template: str) -> Phrase:
    """'revoking a key of "Checkout"': the application by its name."""
    return lambda target: template.format(name=getattr(target.obj, "name", ""))


def _kinds(
    *, creatable: bool = False, regenerable: bool = False, updatable: bool = False
) -> Collection[str]:
    """The keys of the changeable kinds (and creatable, regenerable, updatable ones), as
    registered at each use: a kind registered later is in them."""

    def keys() -> tuple[str, ...]:
        kinds = (*LIST_KINDS, TENANT)
        return tuple(
            k.key
            for k in kinds
            if k.changeable
            and (k.creatable or not creatable)
            and (k.regenerable or not regenerable)
            and (k.declaration.features.update or not updatable)
        )

    return LiveSequence(keys)


async def _create(app: FlowHost, target: Target) -> object:
    assert target.kind is not None
    return await create_flow(app, target.kind)


async def _edit(app: FlowHost, target: Target) -> object:
    assert target.kind is not None
    if target.kind is MEMBERS:  # a member's role: its own dialog (people_flows)
        from console.models.people import Member
        from console.tui.actions.people_flows import change_role_flow

        assert isinstance(target.obj, Member)
        return await change_role_flow(app, target.obj)
    return await edit_flow(app, target.kind, target.obj)


async def _delete(app: FlowHost, target: Target) -> object:
    assert target.kind is not None
    if target.kind is MEMBERS:  # the owner and the console's own user guarded (people_flows)
        from console.models.people import Member
        from console.tui.actions.people_flows import remove_flow

        assert isinstance(target.obj, Member)
        return await remove_flow(app, target.obj)
    if target.kind is INVITATIONS:
        from console.tui.actions.people_flows import revoke_flow

        return await revoke_flow(app, target.obj)
    return await delete_flow(app, target.kind, target.obj)


async def _regenerate(app: FlowHost, target: Target) -> object:
    return await regenerate_flow(app, target.obj)


async def _new_key(app: FlowHost, target: Target) -> object:
    from console.models import Application
    from console.tui.actions.key_flows import new_key_flow

    assert isinstance(target.obj, Application)
    return await new_key_flow(app, target.obj)


async def _revoke_key(app: FlowHost, target: Target) -> object:
    from console.models import Application
    from console.tui.actions.key_flows import revoke_key_flow

    assert isinstance(target.obj, Application)
    return await revoke_key_flow(app, target.obj)


async def _rotate_key(app: FlowHost, target: Target) -> object:
    from console.models import Application
    from console.tui.actions.key_flows import rotate_flow

    assert isinstance(target.obj, Application)
    await rotate_flow(app, target.obj)
    return True


async def _copy_to_profile(app: FlowHost, target: Target) -> object:
    from console.tui.actions.promote import promote_flow

    assert isinstance(target.kind, ResourceKind) and target.obj is not None
    await promote_flow(app, target.kind, target.obj)
    return True


NEW = Action(
    name="new",
    key="n",
    label="New",
    kinds=_kinds(creatable=True),
    flow=_create,
    refused_as=_a_noun("creating"),
    lacking_as=_the_object("creating"),
    permission="new",
    needs_object=False,
)
EDIT = Action(
    name="edit",
    key="e",
    label="Edit",
    kinds=_kinds(updatable=True),
    flow=_edit,
    refused_as=_a_noun("editing"),
    lacking_as=_the_object("editing"),
    permission="edit",
    read_only_object="view",
)
DELETE = Action(
    name="delete",
    key="d",
    label="Delete",
    kinds=_kinds(),
    flow=_delete,
    refused_as=_a_noun("deleting"),
    lacking_as=_the_object("deleting"),
    permission="delete",
    refused_object_title="Not deleted",
)
REGENERATE_KEY = Action(
    name="regenerate",
    key="R",
    label="Regenerate key",
    kinds=_kinds(regenerable=True),
    flow=_regenerate,
    refused_as=lambda target: "regenerating a key",
    lacking_as=_the_object("regenerating the key of"),
    permission="regenerate",
    feature=REGENERATE,
    not_offered="This service does not offer regenerating keys.",
)


def _key_action(
    name: str,
    key: str,
    label: str,
    flow: Callable[[FlowHost, Target], Awaitable[object]],
    doing: str,
) -> Action:
    """One of the Application Keys actions on an application (N, x, o): `edit` permission,
    and the service must offer Application Keys."""
    return Action(
        name=name,
        key=key,
        label=label,
        kinds=frozenset({APPLICATIONS.key}),
        flow=flow,
        refused_as=_named(doing),
        permission="edit",
        feature=KEYS,
        not_offered=(
            f"This service does not offer Application Keys: {REGENERATE_KEY.key} regenerates "
            "the key instead (the old key stops at once)."
        ),
        not_offered_title="No Application Keys",
    )


NEW_KEY = _key_action("new_key", "N", "New key", _new_key, 'making a new key for "{name}"')
REVOKE_KEY = _key_action("revoke_key", "x", "Revoke key", _revoke_key, 'revoking a key of "{name}"')
ROTATE_KEY = _key_action("rotate_key", "o", "Rotate", _rotate_key, 'rotating the key of "{name}"')

COPY_TO_PROFILE = Action(
    name="copy_to_profile",
    key="c",
    label="Copy to profile",
    kinds=PROMOTABLE_KINDS,
    flow=_copy_to_profile,
    refused_as=lambda target: "copying to another profile",
    needs_model=False,  # the plan reads the object again, by its name
    read_only_object="skip",  # an official formula is the operator's
)


async def _react(app: FlowHost, target: Target) -> object:
    from console.models.reactors import Reactor
    from console.tui.forms.run_targets import react_target

    assert isinstance(target.obj, Reactor)
    app.open_react(react_target(target.obj))
    return True


REACT = Action(
    name="react",
    key=REACT_KEY,
    label=REACT_LABEL,
    kinds=frozenset({REACTORS.key}),
    flow=_react,
    refused_as=lambda target: "reacting",
    lacking_as=_the_object("reacting with"),
    permission="react",
    # It changes no object (the code runs on the service with its own permissions): read-only
    # mode lets it run, with reactor:invoke known to be held.
    refused_in_read_only=False,
)


async def _invite(app: FlowHost, target: Target) -> object:
    from console.tui.actions.people_flows import invite_flow

    return await invite_flow(app)


async def _resend(app: FlowHost, target: Target) -> object:
    from console.tui.actions.people_flows import resend_flow

    return await resend_flow(app, target.obj)


INVITE = Action(
    name="invite",
    key="i",
    label="Invite",
    kinds=frozenset({MEMBERS.key, INVITATIONS.key}),  # anywhere in the People section
    flow=_invite,
    refused_as=lambda target: "inviting someone",
    permission="invite",  # the invitations' create (people_looks)
    needs_object=False,
    needs_model=False,
)
RESEND = Action(
    name="resend",
    key="I",  # `r` refreshes everywhere; I: invite again
    label="Resend",
    kinds=frozenset({INVITATIONS.key}),
    flow=_resend,
    refused_as=lambda target: "resending an invitation",
    permission="resend",  # the invitations' update (people_looks)
)


async def _toggle(app: FlowHost, target: Target) -> object:
    from console.models.webhooks import Webhook
    from console.tui.actions.webhook_flows import toggle_flow

    assert isinstance(target.obj, Webhook)
    return await toggle_flow(app, target.obj)


TOGGLE = Action(
    name="toggle",
    key=TOGGLE_KEY,
    label=TOGGLE_LABEL,
    kinds=frozenset({WEBHOOKS.key}),
    flow=_toggle,
    refused_as=lambda target: "enabling or disabling a webhook",
    lacking_as=lambda target: "enabling or disabling a webhook",
    permission=TOGGLE_PERMISSION,  # the webhooks' update (webhooks_look)
)

CONSOLE_ACTIONS: dict[str, Action] = {
    a.name: a
    for a in (NEW, EDIT, DELETE, REGENERATE_KEY, COPY_TO_PROFILE, REACT, INVITE, RESEND, TOGGLE)
}
"""The console screen's (its lists and the Tenant section)."""
DETAIL_ACTIONS: dict[str, Action] = {
    a.name: a
    for a in (
        EDIT,
        DELETE,
        REGENERATE_KEY,
        COPY_TO_PROFILE,
        NEW_KEY,
        REVOKE_KEY,
        ROTATE_KEY,
        REACT,
        TOGGLE,
    )
}
"""A detail screen's."""
