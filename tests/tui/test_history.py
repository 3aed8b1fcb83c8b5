"""The change journal from the console (issue 23): the console's and a promotion's changes
are recorded; History lists them and undoes one; the delete dialog says it can be restored.
Snapshots of the History screen and of an undo's diff, on the deterministic demo."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from console_support import JS, Seeder, make_app, notifications, settle, two_profile_app
from form_host import screen_is, wait_until
from textual.widgets import DataTable, Input

from console.journal.store import ChangeJournal, open_journal
from console.tui.forms import ProxyForm
from console.tui.modals import ConfirmModal, KeyRevealModal
from console.tui.modals.target_profile import TargetProfilePicker
from console.tui.screens.estate import PlanScreen
from console.tui.screens.history import HistoryScreen, UndoDialog

SIZE = (120, 40)


@pytest.fixture
def journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ChangeJournal:
    monkeypatch.setenv("TENANT_CONSOLE_DATA_DIR", str(tmp_path / "data"))
    return open_journal()


def proxies_of(base_url: str, key: str) -> list[dict[str, Any]]:
    response = httpx.get(f"{base_url}/proxies", headers={"SVC-API-KEY": key}, timeout=30)
    return response.json()["data"]


async def back_on_console(pilot: Any, app: Any) -> None:
    from console.tui.screens.console import ConsoleScreen

    await wait_until(pilot, screen_is(app, ConsoleScreen), what="the console")
    await settle(pilot)


async def test_console_changes_are_recorded_and_a_delete_is_undone_from_history(
    service, journal
) -> None:
    tenant = service.new_tenant("History tenant")
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("n")
        await wait_until(pilot, screen_is(app, ProxyForm), what="proxy form")
        form = app.screen
        await pilot.click("#name")
        await pilot.press(*"Card intake")
        form.query_one("#destination-url", Input).value = "https://cards.example.com"
        await pilot.press("ctrl+s")
        await back_on_console(pilot, app)

        await pilot.press("d")
        await wait_until(pilot, screen_is(app, ConfirmModal))
        assert "restored from History (H)" in app.screen.body_text
        await pilot.click("#confirm")
        await back_on_console(pilot, app)
        assert proxies_of(service.base_url, tenant.key) == []

        deleted, created = journal.list()
        assert [(c.action, c.kind, c.origin, c.profile) for c in (deleted, created)] == [
            ("delete", "proxies", "console", "test"),
            ("create", "proxies", "console", "test"),
        ]
        assert deleted.before["destination_url"] == "https://cards.example.com"

        await pilot.press("H")
        await wait_until(pilot, screen_is(app, HistoryScreen), what="history")
        screen = app.screen
        assert screen.query_one(DataTable).row_count == 2
        assert screen.current.id == deleted.id  # newest first
        await pilot.press("u")
        await wait_until(pilot, screen_is(app, UndoDialog), what="the undo dialog")
        assert "Create proxy" in app.screen.plan.question
        await pilot.press("y")
        await wait_until(pilot, screen_is(app, HistoryScreen), what="history again")
        await settle(pilot)
        await wait_until(  # answered, not only recorded: the journal has it before it is sent
            pilot,
            lambda: [c.outcome for c in journal.list()][:1] == ["ok"] and len(journal.list()) == 3,
            what="the undo recorded and answered",
        )
        (back,) = proxies_of(service.base_url, tenant.key)
        assert back["name"] == "Card intake" and back["id"] != deleted.object_id
        undone = journal.list()[0]
        assert (undone.origin, undone.undoes, undone.action) == ("undo", deleted.id, "create")
        assert any("Undid change" in n for n in notifications(app))


async def test_undoing_an_application_delete_shows_the_new_key_once_and_relinks(
    service, journal
) -> None:
    tenant = service.new_tenant("History application")
    seeder = Seeder(service.base_url, tenant.key)
    web = seeder.application("Web")
    seeder.proxy("Checkout", application={"id": web["id"]}, request_transform={"code": JS})
    seeder.close()
    from console.client import AdminClient

    async with AdminClient(service.base_url, tenant.key) as client:
        client.record_changes(journal, profile="test")
        await client.applications.delete(web["id"])
    assert proxies_of(service.base_url, tenant.key)[0]["application_id"] is None
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("H")
        await wait_until(pilot, screen_is(app, HistoryScreen), what="history")
        await pilot.press("u")
        await wait_until(pilot, screen_is(app, UndoDialog), what="the undo dialog")
        assert "with a new key" in app.screen.plan.question
        assert app.screen.plan.notes == ["1 proxy used it: Checkout"]
        await pilot.press("y")
        await wait_until(pilot, screen_is(app, ConfirmModal), what="the re-link question")
        assert "Checkout" in app.screen.body_text
        await pilot.click("#confirm")
        await wait_until(pilot, screen_is(app, KeyRevealModal), what="the new key, shown once")
        await pilot.press("v", "o")
        await wait_until(pilot, screen_is(app, HistoryScreen), what="history again")
        await settle(pilot)
    (checkout,) = proxies_of(service.base_url, tenant.key)
    undo_create = next(c for c in journal.list() if c.kind == "applications" and c.undoes)
    assert checkout["application_id"] == undo_create.after["id"] != web["id"]
    assert "key" not in undo_create.after


async def test_a_key_regenerated_in_the_console_is_recorded_without_the_key(
    service, journal
) -> None:
    from console.tui.modals import RegenerateConfirm
    from console.tui.screens.detail import DetailScreen

    tenant = service.new_tenant("History regenerate")
    seeder = Seeder(service.base_url, tenant.key)
    seeder.application("Batch")
    seeder.close()
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("down", "enter")
        await wait_until(pilot, screen_is(app, DetailScreen))
        await settle(pilot)
        await pilot.press("R")
        await wait_until(pilot, screen_is(app, RegenerateConfirm))
        await pilot.click("#confirm")
        await wait_until(pilot, screen_is(app, KeyRevealModal))
        await pilot.press("v")
        new_key = str(app.screen.query_one("#key").content)
        await pilot.click("#done")
        await wait_until(pilot, screen_is(app, DetailScreen))
    (change,) = journal.list()
    assert (change.action, change.kind, change.name, change.origin) == (
        "regenerate",
        "applications",
        "Batch",
        "console",
    )
    assert len(new_key) > 16
    journal.close()
    stored = b"".join(p.read_bytes() for p in journal.path.parent.iterdir())
    assert new_key.encode() not in stored and tenant.key.encode() not in stored


async def test_read_only_mode_refuses_undo(service, journal) -> None:
    tenant = service.new_tenant("History read-only")
    Seeder(service.base_url, tenant.key).close()
    from console.client import AdminClient

    async with AdminClient(service.base_url, tenant.key) as client:
        client.record_changes(journal, profile="test")
        await client.reactor_formulas.create(
            {"name": "F", "type": "private", "code": JS, "configuration": []}
        )
    app = make_app(service.base_url, tenant.key, read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("H")
        await wait_until(pilot, screen_is(app, HistoryScreen), what="history")
        await pilot.press("u")
        await settle(pilot)
        assert not isinstance(app.screen, UndoDialog)
        assert any("Read-only" in n for n in notifications(app)), notifications(app)
    assert len(journal.list()) == 1


async def test_undo_is_dimmed_without_the_permission_its_request_needs(service, journal) -> None:
    """Undoing a proxy's delete creates one: a key without proxy:create sees `u` dimmed."""
    tenant = service.new_tenant("History permissions")
    seeder = Seeder(service.base_url, tenant.key)
    proxy = seeder.proxy("Edge", request_transform={"code": JS})
    limited = seeder.post(
        "/applications",
        {
            "name": "Deleter",
            "type": "management",
            "permissions": ["proxy:read", "proxy:delete", "application:read"],
        },
    )
    seeder.close()
    from console.client import AdminClient

    async with AdminClient(service.base_url, limited["key"]) as client:
        client.record_changes(journal, profile="test")
        await client.proxies.get(proxy["id"])
        await client.proxies.delete(proxy["id"])
    app = make_app(service.base_url, limited["key"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("H")
        await wait_until(pilot, screen_is(app, HistoryScreen), what="history")
        screen = app.screen
        await wait_until(pilot, lambda: screen.check_action("undo", ()) is None, what="undo dimmed")
        await pilot.press("u")
        await settle(pilot)
        assert not isinstance(app.screen, UndoDialog)
    assert proxies_of(service.base_url, tenant.key) == []


async def test_a_promotion_is_recorded_on_the_target_profile(service, journal) -> None:
    staging, prod = service.new_tenant("Staging"), service.new_tenant("Prod")
    seeder = Seeder(service.base_url, staging.key)
    seeder.proxy("Checkout", request_transform={"code": JS}, configuration={"T": "v"})
    seeder.close()
    base_url = service.base_url
    app = two_profile_app(("staging", base_url, staging.key), ("prod", base_url, prod.key))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("c")
        await wait_until(pilot, screen_is(app, TargetProfilePicker), what="the profile picker")
        await pilot.press("enter")
        await wait_until(pilot, screen_is(app, PlanScreen), what="the plan")
        screen = app.screen
        await wait_until(pilot, lambda: screen.plan is not None, what="the plan computed")
        await pilot.press("y")
        await wait_until(pilot, lambda: not isinstance(app.screen, PlanScreen))
        await settle(pilot)
        if isinstance(app.screen, KeyRevealModal):
            await pilot.press("v", "o")
    (change,) = journal.list()
    assert (change.kind, change.action, change.name) == ("proxies", "create", "Checkout")
    assert (change.origin, change.profile, change.tenant) == ("promote", "prod", "Prod")
    assert change.after["request_transform"] == {"code": JS}


# ---- snapshots ------------------------------------------------------------------------


def _fixed_times(journal: ChangeJournal) -> None:
    journal.close()
    with sqlite3.connect(journal.path) as db:
        db.execute(
            "UPDATE changes SET started_at = '2026-11-22T09:0' || id || ':00+00:00', "
            "completed_at = '2026-11-22T09:0' || id || ':01+00:00'"
        )


async def _seed_journal(journal: ChangeJournal, demo: Any) -> None:
    """Three changes of the demo tenant's formula "Card check"-like first private formula:
    a create that failed, an update of its code, and a regenerate (which cannot be undone)."""
    from console.client import AdminClient
    from console.client.recording import PendingChange

    async with AdminClient(demo.base_url, demo.key) as client:
        page = await client._session.request("GET", "/reactor-formulas", params=[("size", "100")])
    formula = next(f for f in page["data"] if f["type"] == "private")
    old_code = formula["code"].replace("return", "// the old version\n  return", 1)

    def add(action: str, outcome: str, before: Any, after: Any, kind: str = "reactor_formulas"):
        change_id = journal.record(
            PendingChange(
                "PUT",
                f"/reactor-formulas/{formula['id']}",
                kind,
                action,
                formula["id"],
                formula["name"],
                before,
                None,
                "demo",
                demo.base_url,
                "Demo tenant",
                "console",
            )
        )
        journal.complete(change_id, outcome=outcome, after=after)

    add("create", "failed", None, None)
    add("update", "ok", {**formula, "code": old_code, "description": "Before"}, formula)
    add("regenerate", "ok", None, None, kind="applications")
    _fixed_times(journal)


def _snapshot_app(demo: Any) -> Any:
    from console.tui.app import TenantConsoleApp
    from console.tui.base.connection import Connection
    from console.tui.start.screenshots import SNAPSHOT_PORT

    shown = f"http://127.0.0.1:{SNAPSHOT_PORT}"
    return TenantConsoleApp(
        connection=Connection("demo", demo.base_url, demo.key, display_url=shown)
    )


async def _open_history(pilot: Any) -> None:
    await settle(pilot)
    await pilot.press("H")
    await wait_until(pilot, screen_is(pilot.app, HistoryScreen), what="history")
    await pilot.press("down")  # the update, with its diff
    await settle(pilot)


@pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=["120x40", "80x24"])
def test_snapshot_history(demo, frozen, journal, snap_compare, size) -> None:
    import asyncio

    asyncio.run(_seed_journal(journal, demo))
    assert snap_compare(_snapshot_app(demo), terminal_size=size, run_before=_open_history)


@pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=["120x40", "80x24"])
def test_snapshot_undo_diff(demo, frozen, journal, snap_compare, size) -> None:
    import asyncio

    asyncio.run(_seed_journal(journal, demo))

    async def run_before(pilot: Any) -> None:
        await _open_history(pilot)
        await pilot.press("u")
        await wait_until(pilot, screen_is(pilot.app, UndoDialog), what="the undo dialog")
        await pilot.pause()  # the undo's worker waits on the dialog: no settle

    assert snap_compare(_snapshot_app(demo), terminal_size=size, run_before=run_before)


async def test_a_hostile_name_is_shown_as_text(service, journal) -> None:
    """A name from the service is neither markup nor terminal control in History."""
    from console.client.recording import PendingChange

    tenant = service.new_tenant("History hostile")
    name = "[/bogus][bold]x\x1b[2J"
    change_id = journal.record(
        PendingChange(
            "DELETE",
            "/proxies/1",
            "proxies",
            "delete",
            "1",
            name,
            {"name": name},
            None,
            "test",
            service.base_url,
            "T",
            "console",
        )
    )
    journal.complete(change_id, outcome="ok")
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("H")
        await wait_until(pilot, screen_is(app, HistoryScreen), what="history")
        cell = app.screen.query_one(DataTable).get_cell_at((0, 4))
        assert str(cell) == 'delete proxy "[/bogus][bold]x\\x1b[2J"'
        detail = str(app.screen.query_one("#history-detail-text").content)
        assert "\x1b" not in detail and "[/bogus]" in detail


async def test_pending_changes_are_checked_at_start_and_history_shows_what_is_unknown(
    service, journal
) -> None:
    """A change a killed console left pending is checked when the console starts (off the
    UI thread) and said; one that cannot be checked and a corrupt row show as such."""
    from console.client.recording import PendingChange

    tenant = service.new_tenant("History pending")

    def left_pending(method: str, path: str, action: str, object_id: str, tenant_name: str) -> int:
        change_id = journal.record(
            PendingChange(
                method,
                path,
                "proxies",
                action,
                object_id,
                "Left",
                None,
                None,
                "test",
                service.base_url,
                tenant_name,
                "apply",
            )
        )
        with sqlite3.connect(journal.path) as db:
            db.execute(
                "UPDATE changes SET started_at = '2026-01-01T00:00:00+00:00' WHERE id = ?",
                (change_id,),
            )
        return change_id

    missing = "00000000-0000-4000-8000-00000000dead"
    done = left_pending("DELETE", f"/proxies/{missing}", "delete", missing, "")
    unknown = left_pending("POST", f"/proxies/{missing}/x", "post x", missing, "")
    with sqlite3.connect(journal.path) as db:
        db.execute(
            "INSERT INTO changes (started_at, profile, base_url, kind, action, origin, method, "
            "path, before, outcome) VALUES ('2026-01-01', 'test', '', 'proxies', 'update', "
            "'console', 'PUT', '/proxies/1', '{broken', 'ok')"
        )
        (broken,) = db.execute("SELECT MAX(id) FROM changes").fetchone()

    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await wait_until(
            pilot,
            lambda: any(f"Change {done}" in n for n in notifications(app)),
            what="the check's notification",
        )
        assert any("marked done" in n for n in notifications(app)), notifications(app)
        assert journal.get(done).outcome == "ok"
        assert journal.get(unknown).outcome == "pending"
        await pilot.press("H")
        await wait_until(pilot, screen_is(app, HistoryScreen), what="history")
        table = app.screen.query_one(DataTable)
        outcomes = {
            str(table.get_row_at(n)[0]): str(table.get_row_at(n)[2]) for n in range(table.row_count)
        }
        assert outcomes[str(unknown)] == "unknown — check"
        assert outcomes[str(broken)] == "unreadable"
        assert outcomes[str(done)] == "ok"


async def test_a_symlinked_journal_is_said_on_the_history_screen(
    service, journal, tmp_path
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious\n")
    journal.path.parent.mkdir(parents=True, exist_ok=True)
    journal.path.symlink_to(victim)
    tenant = service.new_tenant("History link")
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert any("symbolic link" in n for n in notifications(app)), notifications(app)
        await pilot.press("H")
        await wait_until(pilot, screen_is(app, HistoryScreen), what="history")
        shown = str(app.screen.query_one("#history-empty").render())
        assert "symbolic link" in shown and str(journal.path) in shown
    assert victim.read_bytes() == b"precious\n"
