"""`y` says what it did: "Copied" only when a clipboard tool took the text; otherwise that it
was sent to the terminal (OSC 52), which may ignore it (tmux does by default)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from console_support import SIZE, make_app, notifications, settle

from console.tui.base.clipboard import copy_with_tool


async def test_copying_an_id_without_a_clipboard_tool_does_not_claim_it_is_copied(
    service: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = service.new_tenant("Honest Copy")
    monkeypatch.setattr("console.tui.base.clipboard.clipboard_tool", lambda: None)
    monkeypatch.setenv("TMUX", "/tmp/tmux-1000/default,1,0")
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        said = notifications(app)[-1]
        assert "OSC 52" in said and "may ignore it" in said and "set-clipboard on" in said
        assert "Copied" not in said
        assert app.clipboard == info.application_id


async def test_copying_an_id_through_a_clipboard_tool_says_copied(
    service: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    info = service.new_tenant("Tool Copy")
    target = tmp_path / "clipboard.txt"
    tool = [sys.executable, "-c", f"import sys; open({str(target)!r}, 'w').write(sys.stdin.read())"]
    monkeypatch.setattr("console.tui.base.clipboard.clipboard_tool", lambda: tool)
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert target.read_text() == info.application_id
        assert notifications(app)[-1].startswith(f"Copied {info.application_id}:")


def test_a_failing_tool_is_not_a_copy() -> None:
    assert not copy_with_tool("x", [sys.executable, "-c", "raise SystemExit(1)"])
    assert not copy_with_tool("x", ["/nonexistent/clipboard-tool"])
