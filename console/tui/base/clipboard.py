"""Copying to the clipboard, and saying honestly what was done.

Textual's copy_to_clipboard writes an OSC 52 sequence, which the terminal may ignore (tmux
does by default, macOS Terminal always): nothing confirms it. Where a system clipboard tool
is present (wl-copy, xclip, xsel, pbcopy, clip.exe) and succeeds, the text is known to be
on the clipboard; otherwise the console says it was only sent to the terminal.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from typing import Protocol

log = logging.getLogger(__name__)

TOOL_TIMEOUT = 3.0
OSC52_SENT = "Sent to the terminal's clipboard (OSC 52); your terminal may ignore it"


@dataclass(frozen=True)
class Copied:
    """What a copy did: `confirmed` only when a clipboard tool took the text."""

    confirmed: bool
    message: str


def clipboard_tool() -> list[str] | None:
    """The command of a system clipboard tool that can work here, or None."""
    candidates: list[list[str]] = []
    if sys.platform == "darwin":
        candidates.append(["pbcopy"])
    if os.environ.get("WAYLAND_DISPLAY"):
        candidates.append(["wl-copy"])
    if os.environ.get("DISPLAY"):
        candidates += [["xclip", "-selection", "clipboard"], ["xsel", "--clipboard", "--input"]]
    if sys.platform == "win32" or "microsoft" in _kernel_release():
        candidates.append(["clip.exe"])
    for command in candidates:
        if shutil.which(command[0]):
            return command
    return None


def _kernel_release() -> str:
    try:
        return os.uname().release.lower()
    except AttributeError:  # Windows
        return ""


def copy_with_tool(text: str, command: list[str] | None = None) -> bool:
    """Gives `text` to a clipboard tool; True if it took it. Blocking: call in a thread."""
    command = command or clipboard_tool()
    if command is None:
        return False
    try:
        done = subprocess.run(
            command,
            input=text.encode("utf-8"),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=TOOL_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        log.warning("The clipboard tool %s failed", command[0], exc_info=True)
        return False
    return done.returncode == 0


def osc52_note() -> str:
    """What to say after an OSC 52 copy that nothing confirms."""
    if os.environ.get("TMUX"):
        return f"{OSC52_SENT} (tmux passes it on only with `set -g set-clipboard on`)."
    return f"{OSC52_SENT}."


class ClipboardOwner(Protocol):
    """An app: Textual's `copy_to_clipboard` sends OSC 52 and keeps the app's own copy."""

    def copy_to_clipboard(self, text: str) -> None: ...


async def copy_text(app: ClipboardOwner, text: str) -> Copied:
    """Sends `text` to the terminal (OSC 52; it also becomes the app's own clipboard) and,
    where there is one, to a system clipboard tool; says which of them is sure."""
    app.copy_to_clipboard(text)
    command = clipboard_tool()
    if command is not None and await asyncio.to_thread(copy_with_tool, text, command):
        return Copied(True, f"Copied to the clipboard ({command[0]}).")
    return Copied(False, osc52_note())
