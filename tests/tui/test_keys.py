"""Issue 26 in the console, against the real local service (and the hosted stand-in for the
services that have only one of keys and regenerate): the keys panel on an application's
detail, a new key shown once (copied or written to a 0600 file), revoking a key (the
session's own key needs the name typed and is swapped in the keyring first), the guided
rotation remembered across a restart, and no key material in the log."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

import keyring
import pytest
from console_support import MemoryKeyring, make_app, notifications, settle
from form_host import SIZE, screen_is, wait_until
from hosted_service import KEY as HOSTED_KEY
from hosted_service import RUNNER_ID, HostedService
from textual.widgets import Checkbox, Input, OptionList

from console.client import AdminClient, Unauthorized
from console.keys.rotation import load_rotations
from console.tui.base.connection import Connection
from console.tui.base.logs import LOG_DIR_ENV, configure_logging, stop_logging
from console.tui.browse.kinds import APPLICATIONS
from console.tui.modals import ConfirmModal, KeyRevealModal, RegenerateConfirm, TypeToConfirmModal
from console.tui.modals.key_choice import KeyChoiceModal
from console.tui.screens.detail import DetailScreen
from console.tui.screens.rotation import RotationScreen
from console.tui.widgets.keys_panel import KeysPanel, short_id
from console.tui.widgets.path_prompt import PathPrompt


@pytest.fixture(autouse=True)
def own_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path / "data"
    monkeypatch.setenv("TENANT_CONSOLE_DATA_DIR", str(data))
    return data


@pytest.fixture
def memory_keyring() -> Any:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture
def log_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The console's log file, written during the test; read it with log_text()."""
    monkeypatch.setenv(LOG_DIR_ENV, str(tmp_path / "logs"))
    stop_logging()
    path = configure_logging()
    assert path is not None
    yield lambda: path.read_text(encoding="utf-8")
    stop_logging()


def working_app(service: Any, key: str, profile: str = "work") -> Any:
    return (
        make_app(service.base_url, key) if profile is None else _profile_app(service, key, profile)
    )


def _profile_app(service: Any, key: str, profile: str) -> Any:
    from console.tui.app import TenantConsoleApp

    return TenantConsoleApp(connection=Connection(profile, service.base_url, key, "keyring"))


async def open_application(pilot: Any, app: Any, application_id: str) -> DetailScreen:
    await settle(pilot)
    item = await app.client.applications.get(application_id)
    detail = DetailScreen(APPLICATIONS, item)
    await app.push_screen(detail)
    await wait_until(pilot, lambda: detail.query_one(KeysPanel).keys is not None, what="keys")
    return detail


def panel_text(detail: DetailScreen) -> str:
    return detail.query_one(KeysPanel).plain_text()


async def close_reveal(pilot: Any, app: Any) -> str:
    """Shows the key (so the reveal may close), reads it, Done."""
    await wait_until(pilot, screen_is(app, KeyRevealModal))
    await pilot.press("v")
    key = str(app.screen.query_one("#key").content)
    await pilot.press("o")
    return key


async def test_the_detail_lists_the_keys_and_the_one_this_session_uses(service) -> None:
    tenant = service.new_tenant("Keys panel")
    app = working_app(service, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        own = await app.client.applications.current()
        await app.client.application_keys.create(own.id)
        detail = await open_application(pilot, app, str(own.id))
        text = panel_text(detail)
        assert detail.query_one(KeysPanel).border_title == "Keys (2)"
        assert short_id(own.keys[0].id) in text
        # Two keys and nothing remembered: the console cannot tell which; it says so.
        assert "this session uses one of these" in text
        assert detail.check_action("new_key", ()) and detail.check_action("rotate_key", ())


async def test_a_new_key_is_shown_once_and_can_be_written_to_a_0600_file(
    service, tmp_path, log_text
) -> None:
    tenant = service.new_tenant("New key")
    app = working_app(service, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        other = await app.client.applications.create(
            {"name": "Worker", "type": "private", "permissions": ["token:read"]}
        )
        detail = await open_application(pilot, app, str(other.id))
        await pilot.press("N")
        await wait_until(pilot, screen_is(app, ConfirmModal))
        await pilot.click("#confirm")
        await wait_until(pilot, screen_is(app, KeyRevealModal))
        reveal = app.screen
        await pilot.press("o")  # not yet: nothing stored, and the dialog says so
        assert app.screen is reveal and "Not closed (o)" in reveal.status_text
        await pilot.press("w")
        await wait_until(pilot, screen_is(app, PathPrompt))
        # The example is a key file named after the application, not the code editor's.
        assert app.screen.query_one(Input).placeholder == "e.g. ~/worker.key"
        target = tmp_path / "worker.key"
        app.screen.query_one(Input).value = str(target)
        await pilot.press("enter")
        await wait_until(pilot, lambda: reveal.written_to is not None)
        await pilot.press("o")
        await wait_until(pilot, screen_is(app, DetailScreen))
        await wait_until(pilot, lambda: detail.query_one(KeysPanel).border_title == "Keys (2)")
    key = target.read_text().strip()
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    async with AdminClient(service.base_url, key) as worker:
        assert await worker.permissions.list()
    assert key not in log_text()


async def test_revoking_another_applications_key_asks_and_names_its_proxies(service) -> None:
    tenant = service.new_tenant("Revoke other")
    app = working_app(service, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        other = await app.client.applications.create(
            {"name": "Worker", "type": "private", "permissions": ["token:read"]}
        )
        await app.client.proxies.create(
            {
                "name": "Cards in",
                "destination_url": "https://x.example.com",
                "application": {"id": str(other.id)},
            }
        )
        assert other.key
        await open_application(pilot, app, str(other.id))
        await pilot.press("x")
        await wait_until(pilot, screen_is(app, KeyChoiceModal))
        await pilot.press("enter")
        await wait_until(pilot, screen_is(app, ConfirmModal))
        body = app.screen.body_text
        assert "stops working at once" in body and '"Cards in"' in body
        assert "only key" in body
        await pilot.click("#confirm")
        await wait_until(pilot, screen_is(app, DetailScreen))
        await settle(pilot)
        assert await app.client.application_keys.list(other.id) == []
    async with AdminClient(service.base_url, other.key) as revoked:
        with pytest.raises(Unauthorized):
            await revoked.permissions.list()


async def test_revoking_the_sessions_own_key_needs_the_name_and_swaps_the_keyring_first(
    service, memory_keyring, log_text
) -> None:
    tenant = service.new_tenant("Own revoke")
    memory_keyring.set_password("tenant-console", "work", tenant.key)
    app = working_app(service, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        own = await app.client.applications.current()
        await open_application(pilot, app, str(own.id))
        await pilot.press("x")
        await wait_until(pilot, screen_is(app, KeyChoiceModal))
        assert "this session" in str(app.screen.query_one(OptionList).get_option_at_index(0).prompt)
        await pilot.press("enter")
        await wait_until(pilot, screen_is(app, TypeToConfirmModal))
        modal = app.screen
        assert "the key this console uses" in modal.body_text
        modal.query_one(Input).value = "Bootstrap"
        await pilot.press("enter")
        assert app.screen is modal, "only the exact name confirms"
        modal.query_one(Input).value = "Bootstrap management"
        await pilot.press("enter")
        new_key = await close_reveal(pilot, app)
        await wait_until(pilot, screen_is(app, DetailScreen))
        await settle(pilot)
        assert (await app.client.tenant.get()).name == "Own revoke"  # the session goes on
        keys = await app.client.application_keys.list(own.id)
        assert [str(k.id) for k in keys] != [str(own.keys[0].id)] and len(keys) == 1
    assert app.profiles.resolve("work").key == new_key  # the profile's stored key
    async with AdminClient(service.base_url, tenant.key) as old:
        with pytest.raises(Unauthorized):
            await old.tenant.get()
    log = log_text()
    assert new_key not in log and tenant.key not in log


def journal_bytes() -> bytes:
    """The change journal's file as anyone could read it (with SQLite's side files)."""
    from console.journal.store import open_journal

    journal = open_journal()
    journal.close()
    return b"".join(p.read_bytes() for p in journal.path.parent.glob(journal.path.name + "*"))


async def test_a_rotation_survives_a_restart_and_finishes(
    service, memory_keyring, own_data_dir
) -> None:
    """The rotation is a row of the change journal (no file of its own, no key in it), shown
    again after a restart, and marked finished once the old key is revoked."""
    from console.journal.store import open_journal

    tenant = service.new_tenant("Rotation")
    memory_keyring.set_password("tenant-console", "work", tenant.key)
    seed = AdminClient(service.base_url, tenant.key)
    other = await seed.applications.create(
        {"name": "Batch", "type": "private", "permissions": ["token:read"]}
    )
    await seed.aclose()
    old_key_id = str(other.keys[0].id)

    first = working_app(service, tenant.key)
    async with first.run_test(size=SIZE) as pilot:
        await open_application(pilot, first, str(other.id))
        await pilot.press("o")
        await wait_until(pilot, screen_is(first, ConfirmModal))
        await pilot.click("#confirm")
        new_key = await close_reveal(pilot, first)
        await wait_until(pilot, screen_is(first, RotationScreen))
        await pilot.press("r")  # not ticked: refused
        assert isinstance(first.screen, RotationScreen)
        await pilot.press("escape")  # later
        await wait_until(pilot, screen_is(first, DetailScreen))
    (rotation,) = open_journal().rotations_in_progress("work", str(other.id))
    assert rotation.old_key_ids == [old_key_id] and rotation.application_name == "Batch"
    assert (rotation.profile, rotation.base_url, rotation.tenant) == (
        "work",
        service.base_url,
        "Rotation",
    )
    assert not (own_data_dir / "key-rotations.json").exists()
    assert new_key.encode() not in journal_bytes()
    async with AdminClient(service.base_url, new_key) as fresh:
        assert await fresh.permissions.list()  # both keys work meanwhile
    async with AdminClient(service.base_url, other.key) as old:
        assert await old.permissions.list()

    again = working_app(service, tenant.key)
    async with again.run_test(size=SIZE) as pilot:
        detail = await open_application(pilot, again, str(other.id))
        assert "Rotation in progress" in panel_text(detail)
        assert "to revoke" in panel_text(detail)
        await pilot.press("o")
        await wait_until(pilot, screen_is(again, RotationScreen))
        again.screen.query_one("#deployed", Checkbox).value = True
        await pilot.pause()
        await pilot.press("r")
        await wait_until(pilot, screen_is(again, DetailScreen))
        await settle(pilot)
        assert any("rotation is done" in n for n in notifications(again))
        assert "Rotation in progress" not in panel_text(detail)
    assert load_rotations() == []
    (ended,) = open_journal().rotations()
    assert ended.id == rotation.id and ended.finished_at and ended.cancelled_at is None
    assert new_key.encode() not in journal_bytes()
    async with AdminClient(service.base_url, other.key) as old:
        with pytest.raises(Unauthorized):
            await old.permissions.list()


async def test_rotating_the_sessions_own_key_stores_the_new_key_before_revoking(
    service, memory_keyring
) -> None:
    tenant = service.new_tenant("Own rotation")
    memory_keyring.set_password("tenant-console", "work", tenant.key)
    app = working_app(service, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        own = await app.client.applications.current()
        await open_application(pilot, app, str(own.id))
        await pilot.press("o")
        await wait_until(pilot, screen_is(app, ConfirmModal))
        await pilot.click("#confirm")
        new_key = await close_reveal(pilot, app)
        assert app.profiles.resolve("work").key == new_key  # the profile's stored key
        await wait_until(pilot, screen_is(app, RotationScreen))
        app.screen.query_one("#deployed", Checkbox).value = True
        await pilot.pause()
        await pilot.press("r")
        await wait_until(pilot, screen_is(app, DetailScreen))
        await settle(pilot)
        assert (await app.client.tenant.get()).name == "Own rotation"
    async with AdminClient(service.base_url, tenant.key) as old:
        with pytest.raises(Unauthorized):
            await old.tenant.get()


KEYS_ROUTES = {
    ("GET", "/applications/{id}/keys"),
    ("POST", "/applications/{id}/keys"),
    ("GET", "/applications/{id}/keys/{id}"),
    ("DELETE", "/applications/{id}/keys/{id}"),
}


def hosted_app(hosted: HostedService) -> Any:
    from console.tui.app import TenantConsoleApp

    return TenantConsoleApp(connection=Connection("hosted", hosted.base_url, HOSTED_KEY))


async def test_a_regenerate_only_service_says_the_old_key_stops_and_names_the_proxies() -> None:
    with HostedService.running(retired=KEYS_ROUTES) as hosted:
        app = hosted_app(hosted)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            runner = await app.client.applications.get(RUNNER_ID)
            runner = runner.model_copy(update={"keys": None})  # as a service without keys
            detail = DetailScreen(APPLICATIONS, runner)
            await app.push_screen(detail)
            await wait_until(pilot, lambda: detail.query_one(KeysPanel).note != "")
            assert "no Application Keys" in panel_text(detail)
            assert not detail.check_action("new_key", ())
            await pilot.press("R")
            await wait_until(pilot, screen_is(app, RegenerateConfirm))
            warning = app.screen.warning_text or ""
            assert "stops at once" in warning and '"Card masking"' in warning
            assert "stops working at once" in app.screen.body_text


async def test_a_keys_only_service_hides_regenerate_and_offers_rotation() -> None:
    with HostedService.running(retired={("POST", "/applications/{id}/regenerate")}) as hosted:
        app = hosted_app(hosted)
        async with app.run_test(size=SIZE) as pilot:
            detail = await open_application(pilot, app, RUNNER_ID)
            await wait_until(pilot, lambda: "regenerate" in app.unavailable, what="detection")
            assert not detail.check_action("regenerate", ())
            assert detail.check_action("rotate_key", ())
            assert "0c5e1f4e" in panel_text(detail)


def deploying_rotation() -> Any:
    from console.keys.rotation import DEPLOYING, Rotation

    return Rotation(
        scope="work",
        application_id="fb124bba-f90d-45f0-9a59-5edca27b3b4a",
        application_name="Payments API",
        new_key_id="2c0ffee0-0000-4000-8000-000000000001",
        old_key_ids=["0c5e1f4e-7d2a-4e55-9a4e-0d3c1b2a9f10"],
        started_at="2026-11-20T10:00:00+00:00",
        stage=DEPLOYING,
    )


async def test_the_rotation_dialog_says_why_it_refuses_and_its_box_has_a_key() -> None:
    from form_host import FormHost

    screen = RotationScreen(deploying_rotation())
    app = FormHost(lambda _client: screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: screen.is_mounted)
        box = screen.query_one("#deployed", Checkbox)
        assert "(t)" in str(box.label)
        await pilot.press("r")  # not ticked: refused, and why, in the dialog
        await pilot.pause()
        assert not app.dismissed and "Not revoked" in screen.status_text
        assert "(t)" in screen.status_text and app.focused is box
        await pilot.press("q")  # q does not close it either, and says what does
        await pilot.pause()
        assert not app.dismissed and "escape leaves the rotation for later" in screen.status_text
        assert not app.notes  # said in the dialog, not in a toast
        screen.query_one("#later").focus()
        await pilot.press("t")  # ticks the box wherever the focus is
        assert box.value and "Not revoked" not in screen.status_text
        await pilot.press("r")
        await wait_until(pilot, lambda: app.dismissed)
        assert app.result == "revoke"


def test_the_keys_table_stays_compact_during_a_rotation() -> None:
    """The rotation's line and the note stand above and below the table: the ID column is
    the short id's width (8), not the line's (it took 83 of 140 cells)."""
    from console.models import ApplicationKey

    rotation = deploying_rotation()
    keys = [
        ApplicationKey(id=rotation.old_key_ids[0], version="1"),
        ApplicationKey(id=rotation.new_key_id, version="2"),
    ]
    panel = KeysPanel()
    panel.show_keys(keys, rotation=rotation, note="A note below the keys, as long as it is.")
    lines = panel.plain_text(width=140).splitlines()
    header = next(line for line in lines if line.startswith("ID"))
    assert header.index("VER") == len(short_id(keys[0].id)) + 2
    assert lines[0].startswith("Rotation in progress: new key 2c0ffee0")
    assert any(line.startswith("0c5e1f4e  1") and "to revoke" in line for line in lines)
    assert lines[-1].startswith("A note below the keys")
    assert max(len(line.rstrip()) for line in lines) < 100


@pytest.mark.parametrize("size", [(80, 24), (200, 60)], ids=["80x24", "200x60"])
def test_snapshot_rotation_screen(snap_compare: Any, size: tuple[int, int]) -> None:
    from form_host import FormHost

    from console.keys.rotation import DEPLOYING, Rotation

    rotation = Rotation(
        scope="work",
        application_id="fb124bba-f90d-45f0-9a59-5edca27b3b4a",
        application_name="Payments API",
        new_key_id="2c0ffee0-0000-4000-8000-000000000001",
        old_key_ids=["0c5e1f4e-7d2a-4e55-9a4e-0d3c1b2a9f10"],
        started_at="2026-11-20T10:00:00+00:00",
        stage=DEPLOYING,
    )
    screen = RotationScreen(
        rotation,
        consequences='Proxies using this application (their transforms get its key): "Cards in".',
    )
    assert snap_compare(FormHost(lambda _client: screen), terminal_size=size)


async def test_a_cancelled_rotation_is_forgotten_and_every_key_stays_valid(service) -> None:
    from console.journal.store import open_journal

    tenant = service.new_tenant("Cancelled rotation")
    app = working_app(service, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        other = await app.client.applications.create(
            {"name": "Nightly", "type": "private", "permissions": ["token:read"]}
        )
        detail = await open_application(pilot, app, str(other.id))
        await pilot.press("o")
        await wait_until(pilot, screen_is(app, ConfirmModal))
        await pilot.click("#confirm")
        new_key = await close_reveal(pilot, app)
        await wait_until(pilot, screen_is(app, RotationScreen))
        assert len(load_rotations()) == 1
        await pilot.press("c")
        await wait_until(pilot, screen_is(app, ConfirmModal))
        await pilot.click("#confirm")
        await wait_until(pilot, screen_is(app, DetailScreen))
        await settle(pilot)
        assert load_rotations() == []
        assert "Rotation in progress" not in panel_text(detail)
        (ended,) = open_journal().rotations()
        assert ended.cancelled_at and ended.finished_at is None
        assert len(await app.client.application_keys.list(other.id)) == 2
    for key in (new_key, other.key):
        async with AdminClient(service.base_url, key) as still:
            assert await still.permissions.list()
