"""Finding objects by name across a tenant: at once from the local index, then live.

What the index holds is the first answer ("from the index, 3 minutes old"); the live walk
behind it confirms each row, adds the ones the index did not know and marks those that no
longer exist. A kind whose list the service filters by name (its declaration's
`name_filter`) is searched through that filter, any other by walking every page; every walk
goes through console.client.walk, and every page it reads lands in the index. Kinds are
named as the index names them (console.kinds' IndexFacet). Used by `tenant-console search`;
no Textual here.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from contextlib import aclosing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from console.client.errors import NotOffered
from console.client.index import IndexRow, LocalIndex, age_text, indexed_names, name_pattern
from console.client.walk import WALK_PAGE_SIZE, PageEnd, envelope_end, walk_pages
from console.kinds import KINDS

if TYPE_CHECKING:
    from console.client.client import AdminClient

log = logging.getLogger("console.client")

State = Literal["indexed", "confirmed", "new", "gone"]


@dataclass(frozen=True)
class Found:
    """One object found: its kind, id and name, and what the live walk made of it."""

    kind: str
    id: str
    name: str
    state: State
    """indexed: only the index says so yet; confirmed: the service has it too; new: the
    index did not know it; gone: the index knew it, the service no longer has it."""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id, "name": self.name, "state": self.state}


@dataclass(frozen=True)
class IndexAnswer:
    """What the index answered, and how old it is."""

    rows: list[Found]
    age: float | None
    """Seconds since the oldest of these rows was seen; None without rows."""

    @property
    def caption(self) -> str:
        """ "from the index, 3 minutes old" (or that the index knows none)."""
        if self.age is None:
            return "nothing in the index yet"
        return f"from the index, {age_text(self.age)}"


def from_index(
    index: LocalIndex | None, query: str, kinds: Sequence[str] | None = None
) -> IndexAnswer:
    """The index's answer, at once; `kinds` by their names in the index (all if None)."""
    rows: list[IndexRow] = index.search(query, kinds) if index is not None else []
    found = [Found(row.kind, row.id, row.name, "indexed") for row in rows]
    age = time.time() - min(row.seen_at for row in rows) if rows else None
    return IndexAnswer(found, age)


PageFetch = Callable[[int], Awaitable[dict[str, Any]]]


def _pages(client: AdminClient, index_name: str, query: str) -> tuple[PageFetch, bool]:
    """Page n of the walk that finds the kind named `index_name` in the index by name, and
    whether the service filters it (else every page is walked); KeyError for a kind the
    index does not hold."""
    kind = KINDS.by_index_name(index_name)
    if kind is None:
        raise KeyError(index_name)
    group = client.collection(kind)
    name = query if kind.name_filter else None
    return (lambda n: group.page_json(page=n, size=WALK_PAGE_SIZE, name=name)), kind.name_filter


async def confirm_live(
    client: AdminClient,
    query: str,
    answer: IndexAnswer,
    kinds: Sequence[str] | None = None,
    *,
    index: LocalIndex | None = None,
    on_found: Callable[[Found], None] | None = None,
) -> list[Found]:
    """The live answer: every match in list order (confirmed or new), then the index's rows
    the service no longer has (gone, and marked so in the index). `on_found` is told of
    each match as its page arrives. `kinds` by their names in the index (all if None)."""
    names = indexed_names()
    kinds = names if kinds is None else kinds
    pattern = name_pattern(query)
    known = {(row.kind, row.id) for row in answer.rows}
    results: list[Found] = []
    for kind in kinds:
        fetch, filtered = _pages(client, kind, query)
        declared = KINDS.by_index_name(kind)
        facet = declared.index if declared is not None else None
        started = time.time()
        seen: set[str] = set()

        def end_of(envelope: dict[str, Any], number: int) -> PageEnd:
            return envelope_end(envelope, number, WALK_PAGE_SIZE)

        record = index is not None and client.index is not index
        try:
            walking = walk_pages(fetch, end_of, budget=client.budget)
            async with aclosing(walking):
                async for _number, envelope in walking:
                    if record and index is not None:  # else the client records every page itself
                        index.record(kind, envelope.get("data") or [])
                    for item in envelope.get("data") or []:
                        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
                            continue
                        name = item.get("name") if isinstance(item.get("name"), str) else ""
                        assert isinstance(name, str)
                        matched = (
                            facet.matches(item, lambda text: bool(pattern.search(text)))
                            if facet is not None
                            else bool(pattern.search(name))
                        )
                        if not filtered and not matched:
                            continue
                        if item["id"] in seen:  # the list shifted between pages
                            continue
                        seen.add(item["id"])
                        state: State = "confirmed" if (kind, item["id"]) in known else "new"
                        found = Found(kind, item["id"], name, state)
                        results.append(found)
                        if on_found is not None:
                            on_found(found)
        except NotOffered as missing:  # a service without the kind holds none of it
            log.info("The service does not offer %s: %s", kind, missing)
            continue
        gone = [row for row in answer.rows if row.kind == kind and row.id not in seen]
        if index is not None:
            index.mark_gone(kind, [row.id for row in gone])
            if not filtered:  # every object of the kind was seen: the others are gone too
                index.sweep(kind, started)
        results += [Found(row.kind, row.id, row.name, "gone") for row in gone]
    order = {kind: n for n, kind in enumerate(names)}
    results.sort(key=lambda found: (order.get(found.kind, 0), found.state == "gone"))
    return results
