"""Taking one recorded change back, alike for `tenant-console undo` and the History screen.

A delete is undone by creating the object again from its recorded body (a new id; an
application gets a new key, and the proxies that used it can be linked to it again); an
update by writing back the recorded state, after checking through the lost-update guard's
comparison whether the object changed since; a create by deleting what it created. The undo
goes through the same journaling client, so it is a change in the journal too.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

from console.client.guard import changed_since
from console.client.recording import changes_made_by
from console.journal.diff import FieldDiff, field_diffs
from console.journal.sealed import markers_in, opened
from console.journal.store import FAILED, OK, PENDING, Change
from console.kinds import KINDS, TENANT, Kind, UndoFacet
from console.kinds.facets import Reference

if TYPE_CHECKING:
    from console.client import AdminClient

log = logging.getLogger(__name__)


class CannotUndo(Exception):
    """This change cannot be taken back; str() says why, plainly."""


@dataclass
class UndoPlan:
    """What undoing one change will do, before anything is sent."""

    change: Change
    action: str
    """create, update or delete: the request the undo makes."""
    kind: str
    target_id: str | None
    payload: dict[str, Any] | None
    summary: str
    permission: str | None
    relink: list[dict[str, str]] = field(default_factory=list)
    """Objects that used a deleted object (proxies an application), to be linked to the one
    created again: each with its `id`, `name` and `kind` (its kind's key)."""
    diffs: list[FieldDiff] = field(default_factory=list)
    """What the undo changes on the object as it is now."""
    changed_since: bool = False
    """An update's object was changed by someone else after the recorded change."""
    notes: list[str] = field(default_factory=list)
    unrestored: list[str] = field(default_factory=list)
    """Configuration values the journal could not give back (`configuration.NAME`)."""

    @property
    def question(self) -> str:
        """The sentence the confirmation asks."""
        text = self.summary + "?"
        if self.changed_since:
            text += (
                " It was changed after this change was made: undoing it overwrites those "
                "changes too (see the differences)."
            )
        return text

    @property
    def path(self) -> str:
        """Where the undo's request goes: the collection for a create, else the object."""
        kind = KINDS.get(self.kind)
        return _path(kind, None if self.action == "create" else self.target_id)


@dataclass
class UndoResult:
    lines: list[str] = field(default_factory=list)
    new_id: str | None = None
    new_key: str | None = field(default=None, repr=False)
    """A re-created object's key (an application's): shown once, never kept."""


def noun(kind: str) -> str:
    """The journal's kind as a person reads it: "reactor formula" for `reactor_formulas`."""
    found = KINDS.find(kind)
    return found.nouns.singular if found is not None else kind.replace("_", " ")


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def plan_undo(change: Change) -> UndoPlan:
    """The undo of `change`, from the journal alone; CannotUndo with the reason if none."""
    what = f'{noun(change.kind)} "{change.name}"' if change.name else noun(change.kind)
    if change.outcome == FAILED:
        raise CannotUndo(f"Change {change.id} failed: the service changed nothing to take back.")
    if change.outcome == PENDING:
        raise CannotUndo(f"Change {change.id} was never answered: its outcome is not known.")
    if change.outcome != OK:
        raise CannotUndo(
            f"Change {change.id} got no answer: whether the service made it is not known. "
            f"Look at the {noun(change.kind)} and change it by hand."
        )
    if change.action == "regenerate":
        raise CannotUndo(
            "A regenerated key cannot be undone: the old key stopped working when the new "
            "one was made, and the service cannot bring it back."
        )
    if change.action == "revoke key":
        raise CannotUndo(
            "A revoked key cannot be undone: it stopped working when it was revoked, and the "
            "service cannot bring it back. Make a new key instead (N on the application)."
        )
    if change.action == "create key":
        raise CannotUndo(
            "A new key is taken back by revoking it: x on the application's keys, or "
            "`tenant-console keys revoke`."
        )
    found = KINDS.find(change.kind)
    if found is not None and found.singleton and change.action == "delete":
        raise CannotUndo(
            f"A deleted {noun(change.kind)} cannot be restored: everything it owned was "
            "deleted with it."
        )
    if found is None or found.undo is None:
        raise CannotUndo(f"Changes to {change.kind} cannot be undone from the console.")
    kind, facet = found, found.undo
    if (final := facet.final_reason(change.action)) is not None:
        raise CannotUndo(final)
    if change.action == "create":
        if kind.singleton or not change.result_id:
            raise CannotUndo(f"Change {change.id} left no object id to delete.")
        target = service_id(change.result_id, change, "after.id")
        return UndoPlan(
            change,
            "delete",
            change.kind,
            target,
            None,
            f"{facet.delete_verb} {what}, created by change {change.id}",
            kind.permission_for("delete"),
        )
    if change.before is None:
        raise CannotUndo(
            f"The {noun(change.kind)} as it was before change {change.id} was not recorded "
            "(it could not be read): there is nothing to restore."
        )
    if change.action == "delete":
        return _plan_restore(change, kind, facet, what)
    if change.action == "update":
        return _plan_write_back(change, kind, facet, what)
    raise CannotUndo(f'A "{change.action}" cannot be undone from the console.')


def service_id(value: Any, change: Change, where: str) -> str:
    """`value` as the service writes an id (a UUID); CannotUndo naming the field otherwise.
    A journal is a file: an id in it could be `../tenants/self` (console.client.paths)."""
    try:
        return str(UUID(str(value)))
    except ValueError:
        raise CannotUndo(
            f"Change {change.id} holds {where} {str(value)[:80]!r}, which is not an id of the "
            "service (a UUID): nothing was sent."
        ) from None


def _checked_reference(change: Change, facet: UndoFacet, body: dict[str, Any]) -> dict[str, Any]:
    """`body` with the id of the object it uses (a proxy's application) checked as the
    service's: it is read, then sent."""
    reference = facet.reference
    if reference is not None and isinstance(body.get(reference.field), dict):
        used = service_id(body[reference.field].get("id"), change, f"before.{reference.read_field}")
        body[reference.field] = {"id": used}
    return body


def _plan_restore(change: Change, kind: Kind, facet: UndoFacet, what: str) -> UndoPlan:
    body = _checked_reference(change, facet, creation_body(change.kind, change.before or {}))
    made = KINDS.find(facet.restored_as) if facet.restored_as else kind
    if made is None:
        raise CannotUndo(f"Changes to {change.kind} cannot be undone from the console.")
    summary = (
        facet.restore_summary(body)
        if facet.restore_summary is not None
        else f"Create {what} again (it gets a new id)"
    )
    plan = UndoPlan(
        change,
        "create",
        made.key,
        None,
        body,
        summary,
        made.permission_for("create"),
        diffs=field_diffs({}, body, old_name="deleted", new_name="restored"),
    )
    if facet.new_key is not None:
        plan.summary += " with a new key"
    if facet.restore_note:
        plan.notes.append(facet.restore_note)
    for user in _users_of(kind):
        _plan_relink(plan, user)
    return plan


def _users_of(kind: Kind) -> list[Kind]:
    """The kinds whose objects use objects of `kind` (proxies use applications)."""
    return [
        other
        for other in KINDS
        if other.undo is not None
        and other.undo.reference is not None
        and other.undo.reference.kind == kind.key
    ]


def _plan_relink(plan: UndoPlan, user: Kind) -> None:
    """The objects of `user` that used the deleted object, as the journal recorded them
    before the delete (`related.linked_<key>`): linked again to the one made again."""
    change = plan.change
    recorded = f"linked_{user.key}"
    linked = change.related.get(recorded) or []
    if not isinstance(linked, list) or not all(isinstance(p, dict) for p in linked):
        raise CannotUndo(
            f"Change {change.id} holds {user.nouns.plural} to link again that are unreadable."
        )
    found = [
        {
            "id": service_id(p.get("id"), change, f"related.{recorded}[{i}].id"),
            "name": str(p.get("name") or ""),
            "kind": user.key,
        }
        for i, p in enumerate(linked)
    ]
    plan.relink += found
    if f"{recorded}_unknown" in change.related:
        plan.notes.append(
            f"Which {user.nouns.plural} used it could not be read when it was deleted: link "
            "them again by hand."
        )
    if found:
        plan.notes.append(
            f"{len(found)} {user.nouns.singular if len(found) == 1 else user.nouns.plural} "
            "used it: " + ", ".join(p["name"] for p in found)
        )


def _plan_write_back(change: Change, kind: Kind, facet: UndoFacet, what: str) -> UndoPlan:
    body = _checked_reference(change, facet, update_body(change.kind, change.before or {}))
    if kind.singleton:
        if change.object_id not in (None, "self"):
            raise CannotUndo(
                f"Change {change.id} holds object_id {str(change.object_id)[:80]!r} for the "
                f"{noun(change.kind)}, which is always self: nothing was sent."
            )
        target = "self"
    else:
        target = service_id(change.object_id, change, "object_id")
    return UndoPlan(
        change,
        "update",
        change.kind,
        target,
        body,
        f"Write {what} back as it was before change {change.id}",
        kind.permission_for("update"),
        diffs=field_diffs(change.after, change.before, old_name="now", new_name="restored"),
    )


def _facet(kind: str) -> UndoFacet:
    """How changes to the kind named `kind` are undone; CannotUndo if they cannot be."""
    found = KINDS.find(kind)
    if found is None or found.undo is None:
        raise CannotUndo(f"Changes to {kind} cannot be undone from the console.")
    return found.undo


def creation_body(kind: str, before: dict[str, Any]) -> dict[str, Any]:
    """The create request that makes the object of `before` again (its fields as recorded,
    unknown ones included; the service's own fields left out), by the kind's undo facet."""
    facet = _facet(kind)
    body = facet.creation_body(before)
    if facet.reference is not None:  # the id as read goes back as the body's link
        body.pop(facet.reference.read_top, None)
        body.update(_reference_body(facet.reference, before))
    return body


def _reference_body(reference: Reference, before: dict[str, Any]) -> dict[str, Any]:
    """The field holding the object used (`{"application": {"id": ...}}`), null if none."""
    used = reference.read(before)
    return {reference.field: {"id": str(used)} if used else None}


def update_body(kind: str, before: dict[str, Any]) -> dict[str, Any]:
    """The update request that writes `before` back."""
    facet = _facet(kind)
    if facet.update_body is None:
        return creation_body(kind, before)
    return facet.update_body(before)


def _path(kind: Kind, object_id: str | None) -> str:
    """The collection's path, or an object's; `object_id` was checked (service_id)."""
    if kind.singleton or not object_id:
        return kind.path
    return kind.item_path(object_id)


async def _read(client: AdminClient, path: str) -> Any:
    return await client.send_json("GET", path)


async def read_object(client: AdminClient, kind: Kind, object_id: str | None) -> Any:
    """The object as it is now: read at its path, or found in its kind's list where the
    service reads it only there (the hosted service's members); NotFound if it is in
    neither. `object_id` was checked (service_id)."""
    from console.client import NotFound
    from console.client.recording import listed_object

    try:
        return await _read(client, _path(kind, object_id))
    except NotFound:
        if kind.singleton or not object_id:
            raise
        listed = await listed_object(kind, object_id, lambda path: _read_query(client, path))
        if listed is None:
            raise
        return listed


async def _read_query(client: AdminClient, path: str) -> Any:
    """A GET of `path?query`, its query sent as parameters (a path holds none)."""
    from urllib.parse import parse_qsl

    bare, _, query = path.partition("?")
    return await client.send_json("GET", bare, params=parse_qsl(query) or None)


async def check_now(client: AdminClient, plan: UndoPlan) -> UndoPlan:
    """Reads the object as it is now: an update's undo learns whether it changed since (and
    its diff becomes now -> restored); CannotUndo if the object is gone or already back."""
    from console.client import NotFound

    await _check_tenant(client, plan.change)
    if plan.action == "create":
        await _open_configuration(plan, None)
        await _check_reference(client, plan)
        return plan
    try:
        current = await read_object(client, KINDS.get(plan.kind), plan.target_id)
    except NotFound:
        what = noun(plan.kind)
        if plan.action == "delete":
            raise CannotUndo(f"The {what} is already gone: nothing to delete.") from None
        raise CannotUndo(
            f"The {what} no longer exists: undo its delete first, then this change."
        ) from None
    if plan.action == "update" and isinstance(current, dict):
        before, after = await _open_configuration(plan, current)
        kind = plan.kind
        plan.changed_since = changed_since(
            _Read(after), _Read(current), lambda read: update_body(kind, read.body)
        )
        plan.diffs = field_diffs(current, before, old_name="now", new_name="restored")
        if not plan.diffs:
            raise CannotUndo(
                f"The {noun(plan.kind)} is already as it was before change {plan.change.id}."
            )
    return plan


async def _check_tenant(client: AdminClient, change: Change) -> None:
    """CannotUndo, naming both, unless `client` reaches the service and tenant the change was
    made on: the tenant's id where the journal has it (a name changes), else its name. A
    change made through a profile without the tenant's id (recorded before ids were, or by
    a key that could not read the tenant) is matched by the profile alone; one made
    without a profile never is."""
    from console.client import ApiError

    recorded_id = change.related.get("tenant_id") if isinstance(change.related, dict) else None
    recorded_id = recorded_id if isinstance(recorded_id, str) and recorded_id else None
    recorded = change.tenant or recorded_id
    if recorded_id is None and change.profile is not None:
        return
    data: Any = None
    try:
        data = await _read(client, TENANT.path)
    except ApiError as error:
        log.info("Could not read the tenant to check an undo against: %s", error)
    data = data if isinstance(data, dict) else {}
    now = str(data.get("name") or data.get("id") or "") or None
    now_id = str(data.get("id") or "") or None
    made_on = f"{TENANT.nouns.singular} {recorded or '(not recorded)'} at {change.base_url}"
    if recorded is None or now is None:
        raise CannotUndo(
            f"Change {change.id} was made on {made_on}; which tenant this connection reaches "
            f"({client.base_url}) could not be checked against it: nothing was sent."
        )
    same = now_id == recorded_id if recorded_id else now == recorded
    if not same or client.base_url.rstrip("/") != change.base_url.rstrip("/"):
        raise CannotUndo(
            f"Change {change.id} was made on {made_on}, but this connection reaches tenant "
            f"{now} at {client.base_url}: nothing was changed."
        )


async def _open_configuration(
    plan: UndoPlan, current: dict[str, Any] | None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The recorded bodies (before, after) with their configuration values opened with the
    journal key (read from the keyring in a thread), and the payload made from them. A value
    that cannot be opened keeps the value it has now (an update) or is left out (a restore),
    and a note says so."""
    import asyncio

    from console.journal.sealed import load_sealer

    change = plan.change
    before = change.before if isinstance(change.before, dict) else {}
    after = change.after if isinstance(change.after, dict) else {}
    if not markers_in((before, after)):
        return before, after
    sealer = await asyncio.to_thread(load_sealer)
    before, lost = opened(before, sealer, current)
    after, _ = opened(after, sealer, current)
    checked = plan.payload or {}  # the id of the object it uses was checked: kept as it is
    if plan.action == "create":  # by the changed kind's facet (a restore may make another)
        plan.payload = creation_body(change.kind, before)
    else:
        plan.payload = update_body(change.kind, before)
    reference = _facet(change.kind).reference
    if reference is not None and reference.field in checked:
        plan.payload[reference.field] = checked[reference.field]
    plan.unrestored = sorted(set(lost))
    if plan.unrestored:
        plan.notes.append(unrestored_note(plan))
    return before, after


def unrestored_note(plan: UndoPlan) -> str:
    """What undo says of configuration values it cannot give back."""
    from console.journal.sealed import NOT_RESTORABLE

    left = "they stay as they are now" if plan.action == "update" else "it comes back without them"
    return f"Its {NOT_RESTORABLE} ({', '.join(plan.unrestored)}); {left}: set them again by hand."


class _Read:
    """A body as the lost-update guard compares objects: its `modified_at` and its fields."""

    def __init__(self, body: dict[str, Any]) -> None:
        self.body = body
        self.modified_at: datetime | None
        try:
            self.modified_at = datetime.fromisoformat(str(body["modified_at"]))
        except (KeyError, ValueError):
            self.modified_at = None


async def _check_reference(client: AdminClient, plan: UndoPlan) -> None:
    """The object a re-created one uses (a proxy's application) may be gone too: then it
    comes back without it."""
    from console.client import NotFound

    reference = _facet(plan.kind).reference
    used = KINDS.find(reference.kind) if reference is not None else None
    if reference is None or used is None:
        return
    link = (plan.payload or {}).get(reference.field)
    if not link:
        return
    try:
        await _read(client, _path(used, link["id"]))
    except NotFound:
        assert plan.payload is not None
        plan.payload[reference.field] = None
        plan.notes.append(
            f"Its {used.nouns.singular} no longer exists: the {noun(plan.kind)} comes back "
            f"without one (restore the {used.nouns.singular} first to keep the link)."
        )


async def run_undo(client: AdminClient, plan: UndoPlan, *, relink: bool = False) -> UndoResult:
    """Makes the undo's request (recorded as an undo of the change); `relink`: link the
    proxies that used a re-created application to it."""
    if markers_in((plan.payload,)):  # never sent: check_now opens them first
        raise CannotUndo("Its configuration values have not been opened: nothing was sent.")
    result = await _request(client, plan, relink)
    if plan.unrestored:
        result.lines.append(unrestored_note(plan))
    return result


async def _request(client: AdminClient, plan: UndoPlan, relink: bool) -> UndoResult:
    result = UndoResult()
    what = noun(plan.kind)
    with changes_made_by("undo", undoes=plan.change.id):
        if plan.action == "delete":
            await client.send_json("DELETE", plan.path)
            result.lines.append(f"Deleted {what} {plan.change.name or plan.target_id}.")
            return result
        if plan.action == "update":
            await client.send_json("PUT", plan.path, body=plan.payload)
            result.lines.append(f"Wrote {what} {plan.change.name or ''} back.".replace("  ", " "))
            return result
        created = await client.send_json("POST", plan.path, body=plan.payload)
        new_key = _facet(plan.kind).new_key
        if isinstance(created, dict):
            result.new_id = str(created.get("id") or "") or None
            # only a kind whose objects come with a key shows it (a proxy's is no secret)
            result.new_key = new_key(created) if new_key is not None else None
        if plan.kind == plan.change.kind:
            result.lines.append(f'Created {what} "{plan.change.name}" again as {result.new_id}.')
        else:  # brought back as another kind (a removed member by an invitation)
            result.lines.append(f'Created {what} {result.new_id} for "{plan.change.name}".')
        if relink and plan.relink and result.new_id:
            result.lines += await _relink(client, plan.relink, result.new_id)
    return result


async def _relink(client: AdminClient, users: list[dict[str, str]], new_id: str) -> list[str]:
    """Links each object that used the deleted one (a proxy its application) to the one made
    again: each read, then written back whole."""
    from console.client import ApiError

    lines = []
    for user in users:
        kind = KINDS.get(user["kind"])
        reference = _facet(kind.key).reference
        assert reference is not None  # planned only for kinds with one (_users_of)
        word = kind.nouns.singular
        try:
            path = _path(kind, user["id"])  # checked when planned (service_id)
            current = await _read(client, path)
            body = creation_body(kind.key, current)
            body[reference.field] = {"id": new_id}
            await client.send_json("PUT", path, body=body)
        except ApiError as error:
            lines.append(f'{_capitalised(word)} "{user["name"]}" was not linked again: {error}')
        else:
            lines.append(f'Linked {word} "{user["name"]}" to it again.')
    return lines


__all__ = [
    "CannotUndo",
    "UndoPlan",
    "UndoResult",
    "check_now",
    "creation_body",
    "plan_undo",
    "run_undo",
]
