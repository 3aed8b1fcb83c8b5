"""Issue 34's proof, end to end: widgets, a kind that exists only in the tests
(tests/proof_kind: its model, its declaration, its routes and store on the real local
service, its look and form), registered with no other change to the console, are listed in
their section, open in detail and in their form, are found by the palette and by `search`,
are exported, diffed and applied between two tenants, and a delete of one is undone from
History."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from console_support import SIZE, console, go_to, make_app, resource_list, settle
from form_host import screen_is, wait_until
from proof_kind.kind import WIDGETS
from proof_kind.look import WidgetForm
from proof_kind.service import WidgetService
from textual.widgets import DataTable, Input

from console.cli import main
from console.journal.store import ChangeJournal, open_journal
from console.tui.browse.sections import number_key, sections
from console.tui.modals import ConfirmModal
from console.tui.palette.commands import ObjectProvider
from console.tui.screens.console import ConsoleScreen
from console.tui.screens.detail import DetailScreen
from console.tui.screens.history import HistoryScreen, UndoDialog


@pytest.fixture
def journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ChangeJournal:
    monkeypatch.setenv("TENANT_CONSOLE_DATA_DIR", str(tmp_path / "data"))
    return open_journal()


def widgets_of(service: WidgetService, key: str) -> list[dict[str, Any]]:
    response = httpx.get(
        f"{service.base_url}/widgets", headers={service.key_header: key}, timeout=30
    )
    assert response.status_code == 200, response.text
    return sorted(response.json()["data"], key=lambda w: w["name"])


def make_widget(service: WidgetService, key: str, name: str, colour: str | None) -> None:
    response = httpx.post(
        f"{service.base_url}/widgets",
        json={"name": name, "colour": colour},
        headers={service.key_header: key},
        timeout=30,
    )
    assert response.status_code == 201, response.text


async def test_widgets_are_listed_opened_found_deleted_and_undone_from_history(
    widget_service: WidgetService, widgets: None, journal: ChangeJournal
) -> None:
    tenant = widget_service.new_tenant("Widget works")
    make_widget(widget_service, tenant.key, "Flange", "blue")
    make_widget(widget_service, tenant.key, "Sprocket", "red")
    app = make_app(widget_service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await go_to(pilot, WIDGETS.key)
        listed = resource_list(app, WIDGETS.key)
        assert [w["name"] for w in listed.items] == ["Flange", "Sprocket"]
        # Usage stays the last section, and keeps its key (0)
        await pilot.press(number_key(len(sections())))
        assert console(app).current == sections()[-1].key == "usage"
        await go_to(pilot, WIDGETS.key)

        # the palette finds one by name, and opens its detail
        hits = [hit async for hit in ObjectProvider(app.screen).search("Sprock")]
        # from the local index (the list recorded it) and from the service's name filter
        assert {str(h.text) for h in hits} == {"Open widget: Sprocket"}
        hits[0].command()
        await wait_until(pilot, screen_is(app, DetailScreen), what="the widget's detail")
        await settle(pilot)
        detail = app.screen
        assert isinstance(detail, DetailScreen)
        assert detail.fields_view.value_of("Colour") == "red"

        # its form opens on it
        await pilot.press("e")
        await wait_until(pilot, screen_is(app, WidgetForm), what="the widget's form")
        assert app.screen.query_one("#name", Input).value == "Sprocket"
        await pilot.press("escape")
        await wait_until(pilot, screen_is(app, DetailScreen), what="the detail again")
        await pilot.press("escape")
        await wait_until(pilot, screen_is(app, ConsoleScreen), what="the console")
        await settle(pilot)

        # deleted from the list (the cursor on Flange) ...
        assert listed.current_row is not None and listed.current_row["name"] == "Flange"
        await pilot.press("d")
        await wait_until(pilot, screen_is(app, ConfirmModal), what="the delete confirmation")
        await pilot.click("#confirm")
        await wait_until(pilot, screen_is(app, ConsoleScreen), what="the console")
        await settle(pilot)
        assert [w["name"] for w in widgets_of(widget_service, tenant.key)] == ["Sprocket"]
        (deleted,) = journal.list()
        assert (deleted.kind, deleted.action) == (WIDGETS.key, "delete")

        # ... and undone from History: made again, with its colour
        await pilot.press("H")
        await wait_until(pilot, screen_is(app, HistoryScreen), what="history")
        await settle(pilot)
        assert app.screen.query_one(DataTable).row_count == 1
        await pilot.press("u")
        await wait_until(pilot, screen_is(app, UndoDialog), what="the undo dialog")
        await pilot.press("y")
        await wait_until(pilot, screen_is(app, HistoryScreen), what="history again")
        await wait_until(
            pilot,
            lambda: len(journal.list()) == 2 and journal.list()[0].outcome == "ok",
            what="the undo recorded and answered",
        )
    back = widgets_of(widget_service, tenant.key)
    assert [(w["name"], w["colour"]) for w in back] == [("Flange", "blue"), ("Sprocket", "red")]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_widgets_are_searched_exported_diffed_and_applied(
    widget_service: WidgetService,
    widgets: None,
    journal: ChangeJournal,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    staging = widget_service.new_tenant("Staging widgets")
    prod = widget_service.new_tenant("Prod widgets")
    make_widget(widget_service, staging.key, "Sprocket", "red")
    make_widget(widget_service, staging.key, "Flange", None)
    monkeypatch.setenv("TENANT_CONSOLE_BASE_URL", widget_service.base_url)

    monkeypatch.setenv("TENANT_CONSOLE_API_KEY", staging.key)
    code, out, err = run(capsys, "search", "Sprock", "--format", "json")
    assert code == 0, err
    found = json.loads(out)
    assert [(r["kind"], r["name"]) for r in found["results"]] == [("widgets", "Sprocket")]

    exported = tmp_path / "staging.json"
    code, out, err = run(capsys, "export", "-o", str(exported))
    assert code == 0, err
    document = json.loads(exported.read_text())
    assert document["widgets"] == [
        {"name": "Flange", "colour": None},
        {"name": "Sprocket", "colour": "red"},
    ]

    monkeypatch.setenv("TENANT_CONSOLE_API_KEY", prod.key)
    empty = tmp_path / "prod.json"
    assert run(capsys, "export", "-o", str(empty))[0] == 0
    code, out, err = run(capsys, "diff", str(exported), str(empty), "--exit-code")
    assert code == 3, err
    assert "Sprocket" in out and "Flange" in out

    code, out, err = run(capsys, "apply", str(exported), "--yes")
    assert code == 0, err
    assert [(w["name"], w["colour"]) for w in widgets_of(widget_service, prod.key)] == [
        ("Flange", None),
        ("Sprocket", "red"),
    ]
    again = tmp_path / "prod-again.json"
    assert run(capsys, "export", "-o", str(again))[0] == 0
    code, out, err = run(capsys, "diff", str(exported), str(again), "--exit-code")
    assert code == 0, out + err
