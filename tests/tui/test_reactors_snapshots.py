"""Snapshots of the Reactors section, a reactor's detail, its form and the React screen, at
80x24 and 200x60, on the deterministic demo (frozen time, fixed ids): the demo's reactors,
with React's request and the test-run's sample the demo keeps for each."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from scene_snapshots import IDS, SIZES, scene_checker

from console.tui.start.screenshots import settle


@pytest.fixture
def samples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo's kept samples (React's requests among them), in a data dir of the test's."""
    from console.data_dir import DATA_DIR_ENV
    from console.models.demo import demo_samples
    from console.runner.samples import save_sample

    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "data"))
    monkeypatch.setattr("console.tui.screens.test_run.SHOW_TIMINGS", False)
    for key, text in demo_samples().items():
        save_sample(key, text)


_check = scene_checker("reactors", "Reactors")


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_reactors_section(demo, frozen, samples, snap_compare, size):
    assert _check(demo, snap_compare, size, ("4",))


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_reactor_detail(demo, frozen, samples, snap_compare, size):
    assert _check(demo, snap_compare, size, ("4", "enter"))


async def _form_loaded(pilot: Any) -> None:
    from console.tui.forms.proxy import ApplicationPicker

    picker = pilot.app.screen.query_one("#application", ApplicationPicker)
    while not picker.loaded:
        await pilot.pause(0.05)
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_reactor_form(demo, frozen, samples, snap_compare, size):
    assert _check(demo, snap_compare, size, ("4", "e"), _form_loaded)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_reactor_form_runtime(demo, frozen, samples, snap_compare, size):
    assert _check(demo, snap_compare, size, ("4", "e"), _runtime_part)


async def _runtime_part(pilot: Any) -> None:
    await _form_loaded(pilot)
    await pilot.press("f7")
    await settle(pilot)


async def _reacted(pilot: Any) -> None:
    """Sent, and both answers in: the service's and the test-run's."""
    screen = pilot.app.screen
    await pilot.press("ctrl+l")
    while screen.sending or screen.answer is None or screen.local is None:
        await pilot.pause(0.05)
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_react_screen(demo, frozen, samples, snap_compare, size):
    assert _check(demo, snap_compare, size, ("4", "ctrl+l"), _reacted)
