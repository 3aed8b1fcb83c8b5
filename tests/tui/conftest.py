"""Fixtures for every console test."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def no_system_clipboard(monkeypatch: pytest.MonkeyPatch) -> None:
    """Copies never reach the developer's real clipboard (xclip, pbcopy ...): only OSC 52,
    which a headless test run sends nowhere. A test that wants a tool patches in its own."""
    monkeypatch.setattr("console.tui.clipboard.clipboard_tool", lambda: None)
