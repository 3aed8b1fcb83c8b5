"""A kind registered only here (its declaration, and a look with two columns and a form)
reaches every table of kinds the console derives from the registry, with no other change:
its section, the lists, the forms registry, promotion, the palette's section commands and
the detail screen (issue 34). Then the proof's widgets (tests/proof_kind), served by the real
local service: listed in their section, opened in detail and found by the palette."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from console_support import SIZE, console, go_to, make_app, resource_list, settle
from form_host import screen_is, wait_until
from proof_kind.kind import WIDGETS
from proof_kind.look import WidgetForm
from textual.widgets import Input

from console.kinds import KINDS, Features, Kind, Models, Nouns
from console.models.common import LenientModel
from console.tui.actions.promote import PROMOTABLE_KINDS, promotable
from console.tui.base.columns import Column
from console.tui.browse.kinds import KINDS_BY_KEY, LIST_KINDS, LOOKS
from console.tui.browse.looks import ListLook
from console.tui.browse.sections import SECTIONS, SECTIONS_BY_KEY, sections
from console.tui.forms.registry import form_class
from console.tui.palette.commands import ObjectProvider
from console.tui.screens.detail import DetailScreen


class Gadget(LenientModel):
    id: str
    name: str
    size: int


def _gadget_models() -> Models:
    return Models(Gadget)


GADGETS = Kind(
    key="gadgets",
    path="/gadgets",
    nouns=Nouns("gadget", "gadgets"),
    load_models=_gadget_models,
    permission="gadget",
    features=Features(),
    estate=WIDGETS.estate,  # it travels as the proof's widgets do
)


class GadgetsLook(ListLook):
    """Two columns and the detail's rows: all a look adds to its declaration."""

    short_title = "Gadg"
    columns = (
        Column("name", "Name", lambda g: g["name"], min_width=16, grow=True),
        Column("size", "Size", lambda g: str(g["size"])),
    )

    def fields(self, item: Gadget, labels: Any = None) -> list[tuple[str, Any]]:
        return [("Id", item.id), ("Name", item.name), ("Size", str(item.size))]


LOOK = GadgetsLook(GADGETS)


class GadgetForm:
    """Stands for a form screen: the registry hands back whatever the look declared."""

    kind = LOOK


@pytest.fixture
def gadgets() -> Iterator[GadgetsLook]:
    with KINDS.registered(GADGETS), LOOKS.registered(LOOK, form=lambda: GadgetForm):
        yield LOOK


def test_a_kind_registered_later_has_its_section_list_form_and_promotion(gadgets) -> None:
    keys = [s.key for s in SECTIONS]
    assert keys[:6] == [
        "applications",
        "proxies",
        "reactor_formulas",
        "reactors",
        "permissions",
        "tenant",
    ]
    assert keys[-2:] == ["gadgets", "usage"]  # after every built-in kind's (Logs, People)
    section = SECTIONS_BY_KEY["gadgets"]
    assert (section.number, section.title, section.short) == (len(keys) - 1, "Gadgets", "Gadg")
    assert SECTIONS[-1].number == len(keys)  # Usage stays last, and keeps its key
    assert SECTIONS[-1].hotkey == "0"
    # past the ninth kind's section, no number key: the palette goes there
    assert section.hotkey == ("" if section.number > 9 else str(section.number))
    assert KINDS_BY_KEY["gadgets"] is gadgets and LIST_KINDS[-1] is gadgets
    assert LOOKS.find("gadgets") is gadgets and LOOKS.of(GADGETS) is gadgets
    assert form_class(gadgets) is GadgetForm
    # the declaration's nouns and permissions, the look's columns
    assert (gadgets.title, gadgets.a_noun, gadgets.permission) == (
        "Gadgets",
        "a gadget",
        "gadget:read",
    )
    assert gadgets.change_permission("edit") == "gadget:update"
    row = gadgets.row_cells({"id": "g1", "name": "Sprocket", "size": 3}, {})
    assert row == ("Sprocket", "3")
    # it travels (an estate facet): it is copied to another profile like the others
    assert "gadgets" in PROMOTABLE_KINDS
    assert promotable(gadgets, {"id": "g1", "name": "Sprocket", "size": 3})


def test_a_kind_unregistered_is_gone_from_every_table(gadgets) -> None:
    before = len(SECTIONS)
    LOOKS.unregister(gadgets)
    KINDS.unregister(GADGETS)
    assert "gadgets" not in SECTIONS_BY_KEY and "gadgets" not in KINDS_BY_KEY
    assert [s.title for s in sections()][-1] == "Usage" and len(SECTIONS) == before - 1
    with pytest.raises(KeyError):
        form_class(gadgets)


def test_a_look_without_its_kind_registered_is_not_shown() -> None:
    """The registry of kinds decides what exists: a look alone adds no section."""
    with LOOKS.registered(LOOK):
        assert "gadgets" not in SECTIONS_BY_KEY and LOOKS.find("gadgets") is None


async def test_the_palette_offers_its_section_and_a_detail_shows_it(service: Any, gadgets) -> None:
    info = service.new_tenant("Gadget Corp")
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Go to Gadgets" in titles
        assert titles.index("Go to Tenant") < titles.index("Go to Gadgets")
        assert titles.index("Go to Gadgets") < titles.index("Go to Usage")
        app.open_detail(gadgets, {"id": "g1", "name": "Sprocket", "size": 3})
        await settle(pilot)
        assert isinstance(app.screen, DetailScreen) and app.screen.kind is gadgets
        assert app.screen.fields_view.value_of("Size") == "3"


# ----- the proof's widgets, served live ---------------------------------------------------


async def test_widgets_are_listed_opened_found_and_edited(widget_service, widgets) -> None:
    info = widget_service.new_tenant("Widget Corp")
    headers = {widget_service.key_header: info.key}
    for name, colour in (("Sprocket", "red"), ("Flange", "blue")):
        response = httpx.post(
            widget_service.base_url + "/widgets",
            json={"name": name, "colour": colour},
            headers=headers,
            timeout=30,
        )
        assert response.status_code == 201, response.text
    app = make_app(widget_service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await go_to(pilot, widgets.key)
        assert console(app).current == "widgets"
        rows = resource_list(app, "widgets")
        assert sorted(w["name"] for w in rows.items) == ["Flange", "Sprocket"]
        hits = [hit async for hit in ObjectProvider(app.screen).search("Sprock")]
        # from the local index (the list recorded it) and from the server's name filter
        assert {str(h.text) for h in hits} == {"Open widget: Sprocket"}
        hits[0].command()
        await settle(pilot)
        detail = app.screen
        assert isinstance(detail, DetailScreen) and detail.kind is widgets
        assert detail.fields_view.value_of("Colour") == "red"
        await pilot.press("e")
        await wait_until(pilot, screen_is(app, WidgetForm))
        form = app.screen
        assert isinstance(form, WidgetForm) and form.query_one("#name", Input).value == "Sprocket"
        form.query_one("#colour", Input).value = "green"
        await pilot.press("ctrl+s")
        await wait_until(pilot, screen_is(app, DetailScreen))
        await settle(pilot)
        assert detail.fields_view.value_of("Colour") == "green"
