"""The theme and the usage auto-refresh survive a restart (preferences.toml, mode 0600)."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

import pytest
from console_support import SIZE, USAGE_KEY, make_app, settle

from console.profiles.preferences import load_preferences, preferences_path
from console.tui.palette.usage_commands import auto_refresh_setter
from console.tui.widgets.usage_dashboard import UsageDashboard


@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "config"
    monkeypatch.setenv("TENANT_CONSOLE_CONFIG_DIR", str(directory))
    return directory


async def test_theme_and_usage_auto_refresh_survive_a_restart(
    service: Any, config_dir: Path
) -> None:
    info = service.new_tenant("Preferred")
    app = make_app(service.base_url, info.key, persist_preferences=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.theme != "nord"
        app.theme = "nord"
        await pilot.press(USAGE_KEY)
        await settle(pilot)
        auto_refresh_setter(app.screen.query_one(UsageDashboard), 60)()
        await settle(pilot)
    saved = load_preferences()
    assert (saved.theme, saved.usage_auto_refresh) == ("nord", 60)
    assert stat.S_IMODE(preferences_path().stat().st_mode) == 0o600

    again = make_app(service.base_url, info.key, persist_preferences=True)
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert again.theme == "nord"
        await pilot.press(USAGE_KEY)
        await settle(pilot)
        assert again.screen.query_one(UsageDashboard).auto_refresh_seconds == 60


async def test_a_damaged_preferences_file_means_the_defaults(
    service: Any, config_dir: Path
) -> None:
    config_dir.mkdir(parents=True)
    preferences_path().write_text("theme = [unclosed\n")
    info = service.new_tenant("Damaged Prefs")
    app = make_app(service.base_url, info.key, persist_preferences=True)
    default_theme = app.theme
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.theme == default_theme
        assert app.console_screen is not None
