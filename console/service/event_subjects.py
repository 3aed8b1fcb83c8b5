"""The object a webhook event is about (`data.<object>`), made from the stored row, one
function per kind, and narrowed to the fields the vendor's "Webhook Event Data" documents
for the event type (`DOCUMENTED`).

Each function names the columns it reads: nothing is copied wholesale, so a key (an API key,
a proxy's key), a configuration value or code can never reach an event, whatever columns a
table gains. Times are shown as the API shows them (ISO 8601, UTC).

Where the local service keeps no such field (a proxy's `proxy_host`, the hosted service's
address for it), the event leaves it out rather than make one up.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from typing import Any

from console.service.timestamps import shown

_INVITATION = ("id", "email", "role", "expires_at", "created_at", "created_by")

DOCUMENTED: dict[str, tuple[str, ...]] = {
    "application.created": (
        "id",
        "type",
        "name",
        "created_by",
        "created_at",
        "permissions",
        "rules",
    ),
    "application.updated": (
        "id",
        "name",
        "type",
        "permissions",
        "rules",
        "created_at",
        "created_by",
        "modified_at",
        "modified_by",
    ),
    "application.deleted": ("id",),
    "application.key.created": ("id", "application_id", "version", "created_at", "created_by"),
    "application.key.deleted": ("id", "application_id"),
    "proxy.created": (
        "id",
        "name",
        "application_id",
        "destination_url",
        "require_authentication",
        "created_at",
        "created_by",
    ),
    "proxy.updated": (
        "id",
        "name",
        "proxy_host",
        "timeout",
        "destination_url",
        "require_authentication",
        "created_at",
        "created_by",
        "modified_at",
        "modified_by",
    ),
    "proxy.deleted": ("id",),
    "reactor.created": ("id", "name", "created_at", "created_by"),
    "reactor.updated": ("id", "name", "created_at", "created_by", "modified_by", "modified_at"),
    "reactor.deleted": ("id",),
    "tenant.updated": ("id", "name", "created_at", "created_by", "modified_at", "modified_by"),
    "tenant.deleted": ("id",),
    "tenant.invitation.created": _INVITATION,
    "tenant.invitation.resent": _INVITATION,
    "tenant.invitation.deleted": _INVITATION,
    "tenant.invitation.accepted": _INVITATION,
    "tenant.member.created": ("id", "user_id", "role", "created_at", "created_by"),
    "tenant.member.deleted": ("id",),
}
"""Event type -> the fields of its object, in the vendor's order (docs/api/webhooks/
eventdata.mdx), for every event the local service emits for a change it makes."""


def narrowed(event_type: str, subject: Mapping[str, Any]) -> dict[str, Any]:
    """`subject` with only the fields documented for `event_type` (all of them for a type
    not in `DOCUMENTED`: a triggered sample's own object)."""
    fields = DOCUMENTED.get(event_type)
    if fields is None:
        return dict(subject)
    return {name: subject[name] for name in fields if name in subject}


def _times(row: sqlite3.Row, *, modified: bool = True) -> dict[str, Any]:
    times = {"created_by": row["created_by"], "created_at": shown(row["created_at"])}
    if modified:
        times |= {"modified_by": row["modified_by"], "modified_at": shown(row["modified_at"])}
    return times


def _columns(row: sqlite3.Row, *names: str) -> dict[str, Any]:
    """The columns `names`, as stored and under their own names: the fields a subject
    copies unchanged, still each one named."""
    return {name: row[name] for name in names}


def _column(row: sqlite3.Row, *names: str) -> Any:
    """The first of `names` the row has (a row read with its live application's id under
    another name, or the table's own)."""
    keys = row.keys()
    for name in names:
        if name in keys:
            return row[name]
    return None


def application(row: sqlite3.Row) -> dict[str, Any]:
    """An application (never its keys: they live in another table, and are hashed)."""
    return {
        **_columns(row, "id", "tenant_id", "name", "type"),
        "permissions": json.loads(row["permissions"]),
        "rules": json.loads(row["rules"]),
        **_times(row),
    }


def application_key(row: sqlite3.Row) -> dict[str, Any]:
    """An application key's identity: never its material (the row holds only its hash, and
    this does not read it)."""
    return {
        **_columns(row, "id", "application_id"),
        "version": str(row["version"]),
        **_times(row, modified=False),
    }


def proxy(row: sqlite3.Row) -> dict[str, Any]:
    """A proxy: never its key, configuration or transforms (their code and options)."""
    return {
        **_columns(row, "id", "tenant_id", "name"),
        "application_id": _column(row, "live_application_id", "application_id"),
        "destination_url": row["destination_url"],
        "require_authentication": bool(row["require_auth"]),
        "timeout": row["timeout"],
        **_times(row),
    }


def reactor(row: sqlite3.Row) -> dict[str, Any]:
    """A reactor: never its code, configuration or runtime."""
    return {**_columns(row, "id", "tenant_id", "name"), **_times(row)}


def tenant(row: sqlite3.Row) -> dict[str, Any]:
    """A tenant: its name, never its settings."""
    return {**_columns(row, "id", "name"), **_times(row)}


def invitation(row: sqlite3.Row) -> dict[str, Any]:
    return {
        **_columns(row, "id", "tenant_id", "email", "role"),
        "expires_at": shown(row["expires_at"]),
        **_times(row),
    }


def member(row: sqlite3.Row) -> dict[str, Any]:
    """A member (a row of `members` or of the `member_rows` view)."""
    return {**_columns(row, "id", "tenant_id", "user_id", "role"), **_times(row)}
