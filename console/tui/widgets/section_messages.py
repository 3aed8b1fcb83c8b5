"""Messages every section posts to the console screen, whatever it shows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

from console.tui.base.problems import ConsoleProblem

if TYPE_CHECKING:
    from console.tui.widgets.section_loader import SectionLoader


class StatusChanged(Message):
    """The section's line in the footer ("50 of 250 loaded") changed."""

    def __init__(self, section: SectionLoader, text: str) -> None:
        super().__init__()
        self.section = section
        self.text = text


class SectionFailed(Message):
    """A fetch failed; the section shows it in place, the screen notifies."""

    def __init__(self, section: SectionLoader, problem: ConsoleProblem) -> None:
        super().__init__()
        self.section = section
        self.problem = problem
