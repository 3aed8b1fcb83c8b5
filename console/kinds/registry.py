"""The kinds the console knows, in one registry every layer asks at call time.

Derive tables from it when they are used, not at import: a kind registered later (a test's
own kind) must reach every layer without another change.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from console.kinds.declaration import Kind


class Registry:
    """Kinds by key, in the order they were registered."""

    def __init__(self) -> None:
        self._kinds: dict[str, Kind] = {}

    def register(self, kind: Kind) -> Kind:
        """Add `kind`; ValueError if its key, path or index name is taken."""
        for other in self._kinds.values():
            if kind.key == other.key or kind.path == other.path:
                raise ValueError(f"{kind!r} clashes with {other!r}")
        self._kinds[kind.key] = kind
        return kind

    def unregister(self, kind: Kind) -> None:
        if self._kinds.get(kind.key) is kind:
            del self._kinds[kind.key]

    @contextmanager
    def registered(self, kind: Kind) -> Iterator[Kind]:
        """`kind` registered for the block's length (tests' own kinds)."""
        self.register(kind)
        try:
            yield kind
        finally:
            self.unregister(kind)

    def __iter__(self) -> Iterator[Kind]:
        return iter(tuple(self._kinds.values()))

    def __len__(self) -> int:
        return len(self._kinds)

    def __contains__(self, key: object) -> bool:
        return key in self._kinds

    def get(self, key: str) -> Kind:
        """The kind named `key`; KeyError if none."""
        return self._kinds[key]

    def find(self, key: str) -> Kind | None:
        """The kind named `key`, or None."""
        return self._kinds.get(key)

    def by_path(self, path: str) -> Kind | None:
        """The kind a request path is about (`/proxies/3f2c...?x` -> proxies), or None."""
        bare = path.split("?", 1)[0]
        best: Kind | None = None
        for kind in self._kinds.values():
            matches = bare == kind.path or bare.startswith(kind.path + "/")
            if matches and (best is None or len(kind.path) > len(best.path)):
                best = kind
        if best is None:
            segment = bare.strip("/").split("/", 1)[0]
            best = next((k for k in self._kinds.values() if k.segment == segment), None)
        return best

    def by_index_name(self, name: str) -> Kind | None:
        """The kind whose local-index rows are named `name`."""
        return next((k for k in self._kinds.values() if k.index and k.index.name == name), None)

    def by_log_entity(self, entity_type: str) -> Kind | None:
        """The kind whose objects audit logs name by `entity_type` (`proxy`), or None."""
        return next((k for k in self._kinds.values() if k.log_entity == entity_type), None)

    def collections(self) -> tuple[Kind, ...]:
        """The kinds with many objects (not a singleton like the tenant)."""
        return tuple(k for k in self._kinds.values() if not k.singleton)

    def travelling(self) -> tuple[Kind, ...]:
        """The kinds export/apply carry, in apply order."""
        return tuple(
            sorted((k for k in self._kinds.values() if k.estate), key=lambda k: k.estate.order)  # type: ignore[union-attr]
        )

    def indexed(self) -> tuple[Kind, ...]:
        """The kinds the local index records."""
        return tuple(k for k in self._kinds.values() if k.index)


KINDS = Registry()
"""The console's registry: the built-in kinds (console.kinds.builtin), and any registered."""
