"""Messages every section posts to the console screen, whatever it shows."""

from __future__ import annotations

from typing import Any

from textual.message import Message

from console.tui.problems import ConsoleProblem


class StatusChanged(Message):
    """The section's line in the footer ("50 of 250 loaded") changed."""

    def __init__(self, section: Any, text: str) -> None:
        super().__init__()
        self.section = section
        self.text = text


class SectionFailed(Message):
    """A fetch failed; the section shows it in place, the screen notifies."""

    def __init__(self, section: Any, problem: ConsoleProblem) -> None:
        super().__init__()
        self.section = section
        self.problem = problem
