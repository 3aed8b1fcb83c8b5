"""A field through which an object uses an object of another kind (a proxy its application):
one declaration that undo and export/apply both read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Reference:
    """A field through which an object uses an object of another kind: a proxy its
    application. Undo checks the id, restores the link, and links again the objects that
    used a deleted object it makes again (the journal records them in the delete's
    `related` as `linked_<key>`). A configuration document names the object used instead
    (ids differ between tenants), and apply sends its id in the target."""

    kind: str
    """The key of the kind used (`applications`); it comes earlier in apply order."""
    field: str
    """The field in a request body, holding `{"id": ...}` or null (`application`); in a
    configuration document, the used object's name."""
    read_field: str
    """The field in the object as read, holding the id: `application_id`, or a dotted path
    into a nested object (`application.id`: a reactor as read holds its application)."""

    def read(self, obj: Mapping[str, Any] | None) -> Any:
        """The id `obj` (an object as read) holds in `read_field`, or None."""
        value: Any = obj
        for part in self.read_field.split("."):
            if not isinstance(value, Mapping):
                return None
            value = value.get(part)
        return value

    @property
    def read_top(self) -> str:
        """The top-level field of `read_field` (`application` of `application.id`)."""
        return self.read_field.split(".", 1)[0]
