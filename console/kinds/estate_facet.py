"""How a kind travels between tenants (console.estate): the facet and the types its hooks use.

The generic code of export, diff, apply, the file check and the plan iterates the travelling
kinds (`KINDS.travelling()`) and calls these hooks; what is particular to a kind (an
application's rules, a proxy's configuration, a formula's privacy) lives in the hooks, beside
the kind's declaration (console.kinds.configured, console.kinds.estate_checks). Nothing here
imports anything above the standard library.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from console.kinds.reference import Reference

Item = dict[str, Any]
"""An object in a configuration document: its normal form."""

Located = Sequence[tuple[str, Mapping[str, Any]]]
"""Objects of one kind as a file holds them, each with its path (`proxies[2]`)."""


@dataclass(frozen=True)
class CodeField:
    """A field holding code the plan checks before it is sent (console.code_files)."""

    field: str
    label: str
    """How a sentence names it ("request transform")."""
    nested: bool = False
    """The code sits in the field's own `code` (a transform), not in the field itself."""
    each: bool = False
    """The field is a list of such (a proxy's pipeline): each item's code is checked (with
    `nested`, its `code`), named by its place ("request transform 2"), and a plan shows a
    changed pipeline item by item (`request_transforms[1].code`)."""

    def codes(self, value: Any) -> list[tuple[str, str]]:
        """(label, code) of every piece of code `value` (the field's value) holds."""
        items = value if self.each and isinstance(value, list) else [value]
        found = []
        for index, item in enumerate(items):
            code = item.get("code") if self.nested and isinstance(item, Mapping) else item
            if isinstance(code, str):
                label = f"{self.label} {index + 1}" if self.each else self.label
                found.append((label, code))
        return found


@dataclass(frozen=True)
class Unchangeable:
    """A difference the service cannot make to an existing object (an application's type)."""

    note: str
    blocks: bool = True
    """The step cannot be applied at all; else the other fields are and the note says what
    is left behind."""


@dataclass(frozen=True)
class TargetFacts:
    """What a file is checked against besides itself: the target's objects and the permission
    catalogue of the service it is on."""

    objects: Mapping[str, Sequence[Mapping[str, Any]]]
    """The target's objects in normal form, by kind key."""
    catalogue: Mapping[str, Collection[str]] | None = None
    """Permission -> the application types that may hold it; None: not checked (a file)."""
    now: datetime | None = None
    """The time an object to create must expire after; None: not checked (a file)."""

    def names(self, kind: str, by: str = "name") -> set[str]:
        """The names (the field `by`) the target's objects of `kind` have."""
        return {str(item.get(by)) for item in self.objects.get(kind, ())}


class FileCheck(Protocol):
    """What a kind's file check is given (console.estate.validate): pieces that report each
    problem with its path, all of them at once."""

    def add(self, path: str, sentence: str) -> None: ...

    def describe(self, value: Any) -> str:
        """What a value is, in a person's words ("text", "a list")."""
        ...

    def quote(self, value: Any) -> str:
        """A name as JSON writes it (quoted, escapes shown)."""
        ...

    def shown(self, text: str) -> str:
        """Text from the file made safe to print."""
        ...

    def text(self, value: Any, path: str, *, optional: bool = True) -> None: ...

    def required_text(self, value: Any, path: str, what: str) -> None: ...

    def moment(self, value: Any, path: str) -> None: ...

    def boolean(self, value: Any, path: str) -> None: ...

    def strings(self, value: Any, path: str) -> None: ...

    def fields(self, item: Mapping[str, Any], known: tuple[str, ...], path: str) -> None: ...

    def name(self, item: Mapping[str, Any], path: str) -> None: ...

    def reference(self, item: Mapping[str, Any], path: str, reference: Reference) -> None:
        """The field names an object of the kind referred to, by name."""
        ...


def _sent_whole(item: Item, creating: bool) -> Item:
    return dict(item)


def _every(row: Mapping[str, Any]) -> bool:
    return True


@dataclass(frozen=True)
class EstateFacet:
    """How a kind travels in a configuration document (console.estate)."""

    order: int
    """Its place in apply order: a kind another refers to comes first."""
    form: Callable[[Mapping[str, Any]], Item]
    """The normal form of an object (as the service sends it, or as a file holds it, once
    checked): only what an administrator configures, keys in a fixed order, so two exports
    diff cleanly. Each reference's field already holds the other object's name."""
    check: Callable[[FileCheck, Mapping[str, Any], str], None]
    """Reports every problem of one object of a file (at its path), as the service would."""
    references: tuple[Reference, ...] = ()
    body: Callable[[Item, bool], Item] = _sent_whole
    """The request body from the normal form, to create (True) or update (False) the object;
    references are then replaced by the other object's id. Default: the whole form."""
    travels: Callable[[Mapping[str, Any]], bool] = _every
    """Which of a tenant's objects (as sent) are its own to export (private formulas)."""
    cannot_change: Callable[[Item, Item, Sequence[str]], Unchangeable | None] | None = None
    """(the target's object, the source's, the paths that differ): what the service cannot
    change in an existing object, or None."""
    target_check: (
        Callable[[FileCheck, Located, Sequence[Mapping[str, Any]], TargetFacts], None] | None
    ) = None
    """(the file's objects, the target's own of this kind, the facts): reports what the file
    asks of this target that it cannot do."""
    created_note: Callable[[Item], str] | None = None
    """What a plan line adds to an object to create (an application's type)."""
    code: tuple[CodeField, ...] = ()
    secret: tuple[str, ...] = ()
    """Fields whose values a plan says change, never what they are."""
    redacted: tuple[str, ...] = ()
    """Maps whose every value `export --redact` replaces (they may be secrets)."""
    limit: int | None = None
    """The most objects of the kind a tenant may hold (webhooks: 5), or None. A file holding
    more is refused; a plan that would leave the target with more blocks its creates; and
    with `--prune` its deletes come before its creates, so that the service never holds
    more than the limit in between (nothing may refer to such a kind)."""
