"""How the journal's undo makes a request body from an object as it was recorded.

The hooks a kind's UndoFacet names (console.kinds.facets): plain functions of the recorded
object, so that undo (console.journal.undo) knows no kind by name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

RESPONSE_ONLY = frozenset(
    {
        "id",
        "tenant_id",
        "key",
        "keys",
        "status",
        "created_at",
        "created_by",
        "modified_at",
        "modified_by",
        "application_id",
        "owner_id",
    }
)
"""Fields the service sets: never sent back (it would ignore them, or refuse a key)."""


def recorded_fields(before: Mapping[str, Any]) -> dict[str, Any]:
    """The object's fields as recorded, unknown ones included; the service's own left out."""
    return {k: v for k, v in before.items() if k not in RESPONSE_ONLY}


def application_creation(before: Mapping[str, Any]) -> dict[str, Any]:
    """An application made again: without an expiry when it had none (null is refused), and
    never with a `create_key` a service may have echoed (made again, it gets a key; an update
    must not send the option at all)."""
    body = recorded_fields(before)
    body.pop("create_key", None)
    if not body.get("expires_at"):
        body.pop("expires_at", None)
    return body


def application_update(before: Mapping[str, Any]) -> dict[str, Any]:
    """An application written back: a type never changes and sending it is refused, and
    its expiry is not changed by an update."""
    body = application_creation(before)
    body.pop("type", None)
    body.pop("expires_at", None)
    return body


def tenant_update(before: Mapping[str, Any]) -> dict[str, Any]:
    """The tenant written back: only its name and settings can be."""
    return {"name": before.get("name"), "settings": before.get("settings")}


def key_of(created: Mapping[str, Any]) -> str | None:
    """The key an object is created with (an application's): shown once, never kept."""
    key = created.get("key")
    return key if isinstance(key, str) else None


def reactor_fields(before: Mapping[str, Any]) -> dict[str, Any]:
    """A reactor made again or written back: what a reactor request holds (its name, code,
    application, configuration and the runtime options given), never what the service
    reports of it (`state`, `requested`, a formula it was made from)."""
    body: dict[str, Any] = {
        "name": before.get("name"),
        "code": before.get("code"),
        "application": before.get("application"),
        "configuration": before.get("configuration") or {},
    }
    runtime = before.get("runtime")
    if isinstance(runtime, Mapping):
        body["runtime"] = {k: v for k, v in runtime.items() if v is not None}
    return body


PROXY_REPORTED = frozenset({"state", "requested", "proxy_host"})
"""What the service reports of a proxy and a request never holds."""


def proxy_fields(before: Mapping[str, Any]) -> dict[str, Any]:
    """A proxy made again or written back: its pipelines when it was read with them (the
    single transforms beside them only repeat a one-step pipeline, and a request may not
    hold both), else the single transforms of a specification-era service."""
    body = {k: v for k, v in recorded_fields(before).items() if k not in PROXY_REPORTED}
    for side in ("request", "response"):
        if isinstance(body.get(f"{side}_transforms"), list):
            body.pop(f"{side}_transform", None)
        else:
            body.pop(f"{side}_transforms", None)
    return body


ASSIGNABLE = ("ADMIN", "READ_ONLY")
"""The roles an invitation or a role change may give (console.models.people)."""


def _role(value: Any) -> str:
    """A recorded role as one to give again: READ_ONLY when it is not one (the least)."""
    role = str(value or "").upper()
    return role if role in ASSIGNABLE else "READ_ONLY"


def member_invitation(before: Mapping[str, Any]) -> dict[str, Any]:
    """A removed member brought back: an invitation to its email with its role (it must be
    accepted; a member is never created directly)."""
    user = before.get("user")
    email = user.get("email") if isinstance(user, Mapping) else None
    return {"email": email, "role": _role(before.get("role"))}


def member_role(before: Mapping[str, Any]) -> dict[str, Any]:
    """A member's role written back: the only thing a member update holds."""
    return {"role": _role(before.get("role"))}


def invitation_fields(before: Mapping[str, Any]) -> dict[str, Any]:
    """An invitation sent again: to the same email with the same role (a new one, with a new
    expiry; its status and expiry as recorded are the service's)."""
    return {"email": before.get("email"), "role": _role(before.get("role"))}


def member_restore_summary(body: Mapping[str, Any]) -> str:
    """What undoing a member's removal does."""
    return f"Send an invitation to {body.get('email')} as {body.get('role')}"


MEMBER_RESTORE_NOTE = (
    "A removed member cannot be added back directly: they get an invitation, and are a "
    "member again (with a new member id) only once they accept it."
)
INVITATION_RESTORE_NOTE = "It is a new invitation, expiring 72 hours after it is sent."
RESEND_IS_FINAL = (
    "Resending an invitation only gave it a new expiry and sent it again: there is nothing "
    "to take back (revoke it to withdraw it)."
)


def webhook_fields(before: Mapping[str, Any]) -> dict[str, Any]:
    """A webhook made again: its name, URL, events and email (a create has no status: it
    starts enabled; WEBHOOK_RESTORE_NOTE says so). Never what the service reports of it
    (`disabled_reason`)."""
    body: dict[str, Any] = {
        "name": before.get("name"),
        "url": before.get("url"),
        "events": list(before.get("events") or []),
    }
    if before.get("notify_email"):
        body["notify_email"] = before["notify_email"]
    return body


def webhook_update(before: Mapping[str, Any]) -> dict[str, Any]:
    """A webhook written back whole (PUT): its fields and its status as recorded (an
    enable or disable is undone so), and any field the console does not know, as read."""
    known = {*RESPONSE_ONLY, "disabled_reason", "failures"}
    body = {k: v for k, v in before.items() if k not in known}
    body.update(webhook_fields(before))
    if before.get("status") in ("enabled", "disabled"):
        body["status"] = before["status"]
    return body


WEBHOOK_RESTORE_NOTE = (
    "It is a new webhook, with a new id, and it starts enabled (a webhook is created so): "
    "disable it again if it was disabled."
)
