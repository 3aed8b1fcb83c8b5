"""The lost-update guard's question, asked alike by the forms and `tenant-console push`.

An update replaces the whole object, so before writing, the object is read again and compared
with the version the change was based on. There is no version number in the API: the service's
`modified_at` and the writable fields (in the shape of the request) together tell a change.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol, TypeVar


class Dated(Protocol):
    """An object as read, with the service's time of its last change (None: it sent none)."""

    @property
    def modified_at(self) -> datetime | None: ...


D = TypeVar("D", bound=Dated)


def modified_at(obj: Dated) -> datetime | None:
    """When the service last changed `obj`, if it says."""
    value = obj.modified_at
    return value if isinstance(value, datetime) else None


def changed_since(opened: D, current: D, payload_of: Callable[[D], dict[str, Any]]) -> bool:
    """Whether `current` (read now) differs from `opened` (the version the edit started from):
    a newer `modified_at`, or any writable field changed."""
    if modified_at(current) != modified_at(opened):
        return True
    return payload_of(current) != payload_of(opened)
