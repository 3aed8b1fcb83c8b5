"""How a kind looks in the console, attached to its declaration (console.kinds).

The declaration says what a kind is (key, nouns, path, permission prefix, features, models,
id and name fields); a look adds only how the console shows it: columns, filter, detail
fields, code blocks, and its form (console.tui.forms.registry). `LOOKS` holds the looks;
every table of the console's kinds (sections, lists, forms, palette, promotion) is derived
from it when used, in the registry's order, so a kind registered later (a test's own kind,
with its look) reaches each of them with no other change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rich.text import Text

from console.kinds import KINDS, Kind, field_of
from console.tui.base import formatting as fmt
from console.tui.base.columns import Column, Labels, Renderable
from console.tui.base.shown import JsonObject, Query, Shown

if TYPE_CHECKING:
    from console.client.client import AdminClient
    from console.tui.base.shown import Model
    from console.tui.browse.row_filter import RowFilter

PAGE_SIZE = 50
"""Rows a list asks for at a time."""

FormLoader = Callable[[], type[Any]]
"""A kind's form screen class, imported when first asked for (console.tui.forms.registry)."""

_PERMISSION_VERBS = {
    "new": "create",
    "edit": "update",
    "delete": "delete",
    "regenerate": "update",
    "react": "invoke",
}


@dataclass(frozen=True)
class Fetched:
    """One page as the list needs it."""

    items: list[JsonObject]
    """The objects as the service sent them."""
    total: int | None
    """None when the service sent no totals."""
    page: int
    has_more: bool
    labels: Labels = field(default_factory=dict)


@dataclass(frozen=True)
class CodeBlock:
    title: str
    code: str
    language: str = "javascript"
    copy_label: str = ""
    """What the block holds, when a detail offers to copy it (`Y`: "public key"); "" if not."""


class FilterInvalid(ValueError):
    """The filter text cannot become a server filter for this resource; one sentence."""


def list_page(envelope: JsonObject, page: int = 1, size: int = PAGE_SIZE) -> Fetched:
    """A list page as sent (its envelope checked by the client) as the list needs it; a page
    without totals has `total` None, and more follow while pages come back full."""
    from console.client.envelope import page_numbers

    total, has_more = page_numbers(envelope, page, size)
    number = (envelope.get("pagination") or {}).get("page_number") or page
    return Fetched(envelope["data"], total, number, has_more)


class Look:
    """How one kind looks, on top of what its declaration says it is: the console passes
    looks, not names. Its nouns, permission and features are the declaration's."""

    delete_consequences: str = ""
    """What deleting one breaks, for the confirmation."""
    short_title: str = ""
    """The section's title on a narrow terminal's header; the title when not given."""

    def __init__(self, declaration: Kind) -> None:
        self.declaration = declaration

    @property
    def key(self) -> str:
        """The kind's key: its section, its client collection, its journal entries."""
        return self.declaration.key

    @property
    def title(self) -> str:
        return self.declaration.nouns.title

    @property
    def short(self) -> str:
        return self.short_title or self.title

    @property
    def singular(self) -> str:
        """The noun in sentences: "application", "reactor formula"."""
        return self.declaration.nouns.singular

    @property
    def plural(self) -> str:
        """ "applications", "reactor formulas"."""
        return self.declaration.nouns.plural

    @property
    def path(self) -> str:
        """The list endpoint, for the console's first page (console.client.plain_get)."""
        return self.declaration.path

    @property
    def permission(self) -> str | None:
        """The permission reading it needs (`proxy:read`); None if none."""
        return self.declaration.permission_for("read")

    @property
    def changeable(self) -> bool:
        """Whether the console creates, edits or deletes objects of this kind."""
        return self.declaration.features.changeable

    @property
    def creatable(self) -> bool:
        """Whether `n` makes a new one (there is one tenant: it is edited, never created)."""
        return self.declaration.features.create

    @property
    def regenerable(self) -> bool:
        """Whether its objects have an API key that `R` regenerates."""
        return self.declaration.features.keys

    @property
    def a_noun(self) -> str:
        """ "an application": the noun with its article."""
        return self.declaration.nouns.a_singular

    @property
    def action_object(self) -> str:
        """What an action names when it acts on the object: "a proxy", "the tenant"."""
        return f"the {self.singular}" if self.declaration.singleton else self.a_noun

    def is_read_only(self, obj: Shown | None) -> bool:
        """Whether this object may never be changed, whatever the key (an official formula)."""
        return False

    def read_only_reason(self, obj: Shown) -> str:
        """Why `is_read_only(obj)`, for the refusal to delete it."""
        return f"This {self.singular} cannot be changed."

    def change_permission(self, action: str) -> str | None:
        """The permission `n`, `e`, `d`, `R` or React needs (`proxy:create`,
        `reactor:invoke`); None if none applies."""
        verb = _PERMISSION_VERBS.get(action)
        if not self.changeable or verb is None:
            return None
        return self.declaration.permission_for(verb)

    def model_of(self, item: Shown) -> Shown:
        """The typed object (console.models) for an object as sent; a model stays as it is."""
        return item

    def item_id(self, item: Shown) -> str:
        """The object's id as text ("" if it has none)."""
        value = field_of(item, self.declaration.id_field)
        return "" if value is None else str(value)

    async def get(self, client: AdminClient, item_id: str) -> Model:
        """The object as the service holds it now."""
        raise NotImplementedError

    async def delete(self, client: AdminClient, obj: Shown) -> None:
        raise NotImplementedError

    async def creation_refusal(self, client: AdminClient) -> str | None:
        """Why a new one cannot be made now (a limit the service would refuse it for), said
        before its form opens rather than after everything was typed; None: it can."""
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.key}>"


class ListLook(Look):
    """The look of a kind with many objects, listed in its section."""

    filter_placeholder: str = ""
    columns: tuple[Column, ...] = ()

    async def get(self, client: AdminClient, item_id: str) -> Model:
        item: Model = await client.collection(self.declaration).get(item_id)
        return item

    async def delete(self, client: AdminClient, obj: Shown) -> None:
        await client.collection(self.declaration).delete(self.item_id(obj))

    def server_query(self, row_filter: RowFilter) -> Query | None:
        """The server filter for the text typed after `/` and enter, where the API has one
        (spec: ids, names of proxies and formulas, permissions by application type); None
        where it has none (the loaded rows are filtered, and the tenant searched)."""
        return None

    async def fetch(self, client: AdminClient, page: int, size: int, query: Query) -> Fetched:
        """One page, as sent, from the kind's collection."""
        collection = client.collection(self.declaration)
        envelope = await collection.page_json(page=page, size=size, **query)
        return list_page(envelope, page, size)

    def model_of(self, item: Shown) -> Shown:
        """The typed object (console.models) for an object as sent; a model stays as it is.

        An object that does not match the API raises the client's UnexpectedResponse."""
        if not isinstance(item, dict):
            return item
        from console.client.resources import parse_response

        model = self.declaration.models.read
        parsed: Shown = parse_response(model, item, method="GET", path=self.path)
        return parsed

    def item_name(self, item: Shown) -> str:
        name = field_of(item, self.declaration.name_field)
        return str(name if name is not None else self.item_id(item) or "(unnamed)")

    def row_cells(self, item: Shown, labels: Labels) -> tuple[Renderable, ...]:
        """The row of an object as sent. One the console cannot read (not an object, or no
        id) is a row saying so, with its name or id where it has one; enter shows its JSON."""
        if not isinstance(item, dict) or not self.item_id(item):
            what = field_of(item, "name") if isinstance(item, dict) else None
            first = Text.assemble(("unreadable ", "bold red"), (str(what or ""), "dim"))
            return (first, *(Text("") for _ in self.columns[1:]))
        return tuple(c.cell(item, labels) for c in self.columns)

    def fields(self, item: Any, labels: Labels | None = None) -> list[tuple[str, Renderable]]:
        """The detail's rows of the kind's model (each look narrows `item` to its own)."""
        return []

    def code_blocks(self, item: Any) -> list[CodeBlock]:
        """The code a detail shows of the kind's model (each look narrows `item`)."""
        return []

    async def detail_blocks(self, client: AdminClient, item: Any) -> list[CodeBlock]:
        """Blocks a detail shows below the code that take another request (a webhook's
        verification key): read once the detail shows, what it shows staying meanwhile."""
        return []

    def empty_message(self, filter_text: str) -> str:
        if filter_text:
            return f"No {self.title.lower()} match “{filter_text}”. Press escape to clear."
        return f"This tenant has no {self.title.lower()} yet."


class Looks:
    """The looks of the registered kinds, each with its form if it has one; iterated in the
    kinds' registry order (console.kinds.KINDS), a kind without a look left out."""

    def __init__(self) -> None:
        self._looks: dict[Kind, Look] = {}
        self._forms: dict[Kind, FormLoader] = {}
        self._within: dict[Kind, Look] = {}

    def register(
        self, look: Look, *, form: FormLoader | None = None, within: Look | None = None
    ) -> Look:
        """Add `look` (and the form that edits its kind); ValueError if its kind has one.
        `within`: the look whose section lists this kind too (the invitations in People):
        it has no section of its own."""
        if look.declaration in self._looks:
            raise ValueError(f"{look.declaration!r} has a look already")
        self._looks[look.declaration] = look
        if within is not None:
            self._within[look.declaration] = within
        if form is not None:
            self.attach_form(look, form)
        return look

    def attach_form(self, look: Look, form: FormLoader) -> None:
        """The form of a registered look (the built-in forms: console.tui.forms.registry)."""
        self._forms[look.declaration] = form

    def unregister(self, look: Look) -> None:
        if self._looks.get(look.declaration) is look:
            del self._looks[look.declaration]
            self._forms.pop(look.declaration, None)
            self._within.pop(look.declaration, None)

    @contextmanager
    def registered(self, look: Look, *, form: FormLoader | None = None) -> Iterator[Look]:
        """`look` registered for the block's length (tests' own kinds)."""
        self.register(look, form=form)
        try:
            yield look
        finally:
            self.unregister(look)

    def __iter__(self) -> Iterator[Look]:
        return iter(tuple(self._looks[k] for k in KINDS if k in self._looks))

    def sectioned(self) -> tuple[Look, ...]:
        """The looks with a section of their own (not those listed within another's)."""
        return tuple(look for look in self if look.declaration not in self._within)

    def section_of(self, look: Look) -> Look:
        """The look whose section shows `look`'s objects: its own, or the one it is within."""
        return self._within.get(look.declaration, look)

    def of(self, declaration: Kind) -> Look:
        """The look of `declaration`; KeyError if it has none."""
        return self._looks[declaration]

    def find(self, key: str) -> Look | None:
        """The look of the registered kind named `key`, or None."""
        kind = KINDS.find(key)
        return None if kind is None else self._looks.get(kind)

    def lists(self) -> tuple[ListLook, ...]:
        """The looks listed in sections of rows (every kind but a singleton like the tenant)."""
        return tuple(look for look in self if isinstance(look, ListLook))

    def form_of(self, look: Look) -> FormLoader | None:
        """The loader of the form that edits `look`'s kind; None for a kind without one."""
        return self._forms.get(look.declaration)


LOOKS = Looks()
"""The console's looks: the built-in ones (console.tui.browse.kinds), and any registered."""


DATE_CHARS = "0123456789-: ?—"
"""What a date cell may show: digits, separators, and the marks for none or unreadable."""


def modified_column() -> Column:
    """The lists' last column: when an object last changed (when it was made, if never
    since), the first to give way on a narrow terminal."""
    return Column(
        "modified",
        "Modified",
        lambda item: date_cell(item.get("modified_at") or item.get("created_at")),
        16,
        drop_order=1,
        charset=DATE_CHARS,
    )


def date_cell(value: object) -> str:
    """A wire time as the lists show a date; "—" for none."""
    return fmt.short_date(fmt.wire_time(value)) if isinstance(value, str) else "—"
