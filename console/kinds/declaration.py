"""What a resource kind is, declared once: the one description every layer derives from.

A declaration holds what the service, the client, the journal, export/apply and the local
index need to know of a kind (its path, nouns, models, fields, permissions, features). How a
kind looks in the console (columns, detail rows, form) is declared beside it in the TUI
(console.tui.browse.looks). Nothing here imports pydantic: model classes come through a
function, so the console's first rows come before the models load.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from console.kinds.routes import STANDARD, Routes

if TYPE_CHECKING:
    from pydantic import BaseModel

    from console.kinds.facets import EstateFacet, IndexFacet, UndoFacet


@dataclass(frozen=True)
class Nouns:
    """How a person reads the kind: "reactor formula", "reactor formulas", "Reactor formulas"."""

    singular: str
    plural: str
    title: str = ""
    """The section's title; the plural with a capital when not given."""

    def __post_init__(self) -> None:
        if not self.title:
            object.__setattr__(self, "title", self.plural[:1].upper() + self.plural[1:])

    @property
    def a_singular(self) -> str:
        """ "an application", "a proxy": the singular with its article."""
        return f"{'an' if self.singular[:1].lower() in 'aeiou' else 'a'} {self.singular}"


@dataclass(frozen=True)
class Models:
    """The model classes of a kind (console.models): one object as read, and the bodies of
    its create and update requests (None where the kind has no such request)."""

    read: type[BaseModel]
    create: type[BaseModel] | None = None
    update: type[BaseModel] | None = None


@dataclass(frozen=True)
class Features:
    """What the service lets a client do with objects of the kind."""

    create: bool = True
    update: bool = True
    patch: bool = False
    """PATCH as merge-patch, besides PUT."""
    delete: bool = True
    code: bool = False
    """Its objects hold code the console edits and test-runs."""
    keys: bool = False
    """Its objects hold API keys (regenerate, application keys)."""

    @property
    def changeable(self) -> bool:
        """Whether the console changes objects of this kind at all."""
        return self.create or self.update or self.delete


READ_ONLY = Features(create=False, update=False, delete=False)
"""A catalogue the console only reads (permissions)."""


@dataclass(frozen=True, eq=False)
class Kind:
    """One kind of object the service keeps: applications, proxies, reactor formulas, ...

    `key` is the kind's one name in code: the client's resource group, the export's section,
    the journal's kind, the console's section. Compare kinds by identity."""

    key: str
    path: str
    """The collection's path (`/reactor-formulas`); a singleton's own path (`/tenants/self`)."""
    nouns: Nouns
    load_models: Callable[[], Models] = field(repr=False)
    """The model classes, imported when first asked for (pydantic loads late)."""
    permission: str | None = None
    """The permissions' prefix (`reactor` in `reactor:read`); None if reading needs none."""
    features: Features = Features()
    id_field: str = "id"
    """The field that identifies an object (a permission's is `type`)."""
    name_field: str = "name"
    singleton: bool = False
    """One object at `path`, with no id in the path (the tenant)."""
    name_filter: bool = False
    """Whether the collection answers a `name` query parameter (proxies, formulas)."""
    id_filter: bool = False
    """Whether the collection answers an `id` query parameter of full ids."""
    cursor_pages: bool = False
    """Its list pages by cursor (each page's `pagination.next`, sent back as `start`), not
    by number: the client reads every page from the first and answers them as one numbered
    page (console.client.resources), so every walker of numbered pages reads it as any
    other (webhooks: at most five a tenant)."""
    routes: Routes = STANDARD
    """Routes beyond the standard ones of its features (console.kinds.routes): an
    application's `/key` and `keys`, the tenant's usage report; or a catalogue's fewer."""

    log_entity: str | None = None
    """The `entity_type` audit logs name its objects by (`application`, `tenant_member`):
    a log entry opens its object, and an object's logs are asked for by it (console.kinds
    .logged)."""
    code_surface: str | None = None
    """Its word among the ways a service runs tenant code (`formulas`, `reactors`): a
    service offers some of them (console.client.code_surfaces)."""
    # -- export, diff, apply (console.estate) --------------------------------------------
    estate: EstateFacet | None = None

    # -- undo from the journal (console.journal) -----------------------------------------
    undo: UndoFacet | None = None

    # -- the local index and search (console.client.index) -------------------------------
    index: IndexFacet | None = None

    # -- end of facets ---------------------------------------------------------------------

    @property
    def models(self) -> Models:
        """The kind's model classes (imports them on first use)."""
        return self.load_models()

    @property
    def segment(self) -> str:
        """The path's first segment (`reactor-formulas`, `tenants`): what a URL is matched by."""
        return self.path.strip("/").split("/", 1)[0]

    def item_path(self, object_id: str) -> str:
        """The path of one object; callers check `object_id` (console.client.paths)."""
        return self.path if self.singleton else f"{self.path}/{object_id}"

    def permission_for(self, verb: str) -> str | None:
        """`reactor:update` for "update": the permission a verb on this kind needs."""
        return None if self.permission is None else f"{self.permission}:{verb}"

    def __repr__(self) -> str:
        return f"<Kind {self.key}>"


def field_of(item: Any, name: str) -> Any:
    """A field of an object as sent (a dict) or of its model; None where it has none.
    A dotted name (`user.email`) reads a nested field."""
    if "." in name:
        for part in name.split("."):
            if item is None:
                return None
            item = field_of(item, part)
        return item
    return item.get(name) if isinstance(item, dict) else getattr(item, name, None)
