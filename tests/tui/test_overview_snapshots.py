"""Snapshots of the overview of every profile at 80x24 and 200x60, from the screenshot scene
(the deterministic demo: frozen time, fixed ids, one base URL whatever the port; a rejected
key, a closed port, a locked keyring and a profile without a key beside it)."""

from __future__ import annotations

from typing import Any

import pytest

from console.tui.start.screenshots import SCENES, build_app, deterministic_env, play

OVERVIEW = next(scene for scene in SCENES if scene.name == "overview")


@pytest.mark.parametrize("size", [(80, 24), (200, 60)], ids=["80x24", "200x60"])
def test_overview(
    size: tuple[int, int], demo: Any, snap_compare: Any, tmp_path: Any, monkeypatch: Any
) -> None:
    # A data dir of its own: a log archive another test of this worker wrote for the demo
    # profile would otherwise show in the overview's Log archive column.
    from console.data_dir import DATA_DIR_ENV

    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "console-data"))
    with deterministic_env():
        app = build_app(OVERVIEW, demo.base_url, demo.key)

        async def run_before(pilot: Any) -> None:
            await play(OVERVIEW, pilot)

        assert snap_compare(app, terminal_size=size, run_before=run_before)
