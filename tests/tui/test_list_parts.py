"""The parts of a list (console.tui.widgets.list_*) without a screen: the pages it keeps, the
order its rows show in, where its cursor goes back to, and the local index's name of its kind,
taken from the registry when asked (a kind registered later is known at once)."""

from __future__ import annotations

from typing import Any

from console.kinds import KINDS, IndexFacet, Kind, Models, Nouns
from console.tui.base.columns import Column
from console.tui.browse.kinds import REACTOR_FORMULAS, Fetched
from console.tui.browse.looks import ListLook
from console.tui.widgets.list_cursor import ListCursor, Place
from console.tui.widgets.list_order import LOADED_ROWS_ONLY, RowOrder
from console.tui.widgets.list_pages import ListPages
from console.tui.widgets.list_search import index_name


def _no_models() -> Models:
    raise AssertionError("the list parts never load a kind's models")


GADGETS_KIND = Kind(
    key="gadgets_of_the_list_tests",
    path="/gadgets",
    nouns=Nouns("gadget", "gadgets"),
    load_models=_no_models,
    index=IndexFacet(name="gizmos"),
)
"""A kind only these tests know, not registered (the last test registers it)."""


class GadgetsLook(ListLook):
    """How the gadgets look: a name and a count of rules."""

    columns = (
        Column("name", "Name", lambda item: str(item["name"])),
        Column("rules", "Rules", lambda item: f"{item['rules']} rules"),
    )


GADGETS = GadgetsLook(GADGETS_KIND)


def gadget(name: str, rules: int = 0) -> dict[str, Any]:
    return {"id": f"id-{name}", "name": name, "rules": rules}


def names(items: list[dict[str, Any]]) -> list[str]:
    return [item["name"] for item in items]


def test_pages_keep_each_object_once_in_the_order_it_came() -> None:
    a, b, c = gadget("Alpha"), gadget("Beta"), gadget("Gamma")
    pages = ListPages(GADGETS, 2, None)
    pages.add(1, Fetched([a, b], total=3, page=1, has_more=True))
    new, rows = pages.add(2, Fetched([b, c], total=3, page=2, has_more=False))  # b shifted
    assert new == [c] and [str(row[0]) for row in rows] == ["Gamma"]
    assert names(pages.items) == ["Alpha", "Beta", "Gamma"] and pages.pages_fetched == [1, 2]
    assert pages.next_page == 3 and not pages.has_more and pages.total == 3

    order = RowOrder(GADGETS)
    order.reverse()  # descending by the first column
    pages.put(order.sorted(pages.pairs()))
    assert names(pages.items) == ["Gamma", "Beta", "Alpha"]
    assert [str(row[0]) for row in pages.rows] == ["Gamma", "Beta", "Alpha"]
    pages.put(order.server_order(pages.pairs(), pages.arrived))
    assert names(pages.items) == ["Alpha", "Beta", "Gamma"]

    pages.replace([Fetched([a, c], total=2, page=1, has_more=False)], order)
    assert names(pages.items) == ["Gamma", "Alpha"] and names(pages.arrived) == ["Alpha", "Gamma"]
    assert pages.pages_fetched == [1] and pages.total == 2


def test_a_sort_reads_numbers_by_value_and_says_which_rows_it_covers() -> None:
    order = RowOrder(GADGETS)
    order.next_column()
    order.next_column()  # by Rules, ascending
    pairs = [(gadget("x", 10), ("x", "10 rules")), (gadget("y", 9), ("y", "9 rules"))]
    assert [item["name"] for item, _row in order.sorted(pairs)] == ["y", "x"]
    assert order.description(matches=None, loaded=50, has_more=True) == (
        "by Rules ↑ (the 50 loaded rows)"
    )
    assert order.description(matches=4, loaded=50, has_more=True) == (
        "by Rules ↑ (the 4 matches found)"
    )
    assert order.note(matches=None, loaded=50, total=200, has_more=True) == (
        f"Sorted by Rules ↑ · {LOADED_ROWS_ONLY} (50 of 200; ctrl+g loads all, then sorts)."
    )
    order.next_column()  # after the last column: the server's order again
    assert order.sort is None
    assert order.note(matches=None, loaded=50, total=200, has_more=True) == "Sorted server order."


def test_the_cursor_goes_back_to_its_object_then_its_neighbour_then_its_row() -> None:
    a, b, c = gadget("Alpha"), gadget("Beta"), gadget("Gamma")
    cursor = ListCursor(GADGETS)
    place = cursor.place([a, b, c], 1, None)
    assert place == Place(("id-Beta", "id-Gamma", "id-Alpha"), 1)
    assert cursor.row_in([c, dict(b)], None, place) == 1  # its object, read again
    assert cursor.row_in([a, c], None, place) == 1  # deleted: the one below takes its place
    assert cursor.row_in([gadget("x")] * 4, None, place) == 1  # none there: its row
    assert cursor.row_in([gadget("x")], None, Place(("gone",), 3)) == 0  # within the rows
    assert cursor.place([a, b, c], 0, "id-Gamma").ids[0] == "id-Gamma"  # the one just saved
    assert cursor.row_in([a, b, c], c, None) == 2  # the same object, where it shows now


def test_the_index_name_of_a_list_comes_from_the_registry_when_asked() -> None:
    assert index_name(REACTOR_FORMULAS) == "formulas"  # as indexes on disk hold it
    assert index_name(GADGETS) is None  # not registered: not in the index
    with KINDS.registered(GADGETS_KIND):
        assert index_name(GADGETS) == "gizmos"
    assert index_name(GADGETS) is None
