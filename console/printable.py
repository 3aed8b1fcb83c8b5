"""Text from a file or a service made safe to print: control characters shown, not obeyed.

A name or a value may hold an escape sequence (clear the screen, write the clipboard through
OSC 52) or a line break that forges a line of a plan; printed raw, the terminal would run it.
Each is shown as a Python-style escape instead (`\\x1b`, `\\n`, `\\u202e`), so what is there is
visible and nothing is run. Nothing here imports Textual: the command line uses it too.
"""

from __future__ import annotations

import re

_CONTROL = re.compile("[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]")
"""C0 and C1 controls, DEL, and the bidirectional overrides that reorder what a line shows."""
_CONTROL_BUT_TAB = re.compile("[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]")

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escaped(text: str, *, keep_tabs: bool = False) -> str:
    """`text` with every control character written as an escape; `keep_tabs` leaves tabs
    (indentation in a line of code)."""
    pattern = _CONTROL_BUT_TAB if keep_tabs else _CONTROL
    return pattern.sub(_escape, text)


def has_controls(text: str) -> bool:
    return _CONTROL.search(text) is not None


__all__ = ["escaped", "has_controls"]
