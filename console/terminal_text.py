"""Text from outside (a tenant's code, the service, a file) made safe to show on a terminal.

A control character reaching the terminal is input to it, not text: ESC starts sequences that
clear the screen, move the cursor or write the clipboard (OSC 52), BEL rings, a C1 control
(U+0080 to U+009F) is ESC on some terminals, CR overwrites a line, and bidirectional overrides
make a line read other than it is. Each is shown escaped instead, so it stays visible data.
So is a lone surrogate (U+D800 to U+DFFF, which JavaScript strings may hold): no encoding
can write it, and printing it would end the command with a traceback.
Used by the command line and the console alike (nothing here imports Textual).
"""

from __future__ import annotations

import json
import re
from typing import Any

_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_SURROGATES = "\ud800-\udfff"
_UNSAFE = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI}{_SURROGATES}\u2028\u2029]")
_UNSAFE_KEEPING_LINES = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}{_SURROGATES}\u2028\u2029]")
_UNSAFE_KEEPING_TABS = re.compile(f"[\x00-\x08\x0a-\x1f\x7f-\x9f{_BIDI}{_SURROGATES}\u2028\u2029]")
_IN_JSON = re.compile(f"[\x7f-\x9f{_BIDI}{_SURROGATES}\u2028\u2029]")
"""What json.dumps(ensure_ascii=False) leaves raw (it escapes the C0 controls itself)."""

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(found: re.Match[str]) -> str:
    character = found.group()
    named = _NAMED.get(character)
    if named is not None:
        return named
    code = ord(character)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(text: str, *, lines: bool = False, tabs: bool = False) -> str:
    """`text` with every control character shown escaped (`\\x1b`, `\\x9b`, `\\u202e`).

    lines: keep line breaks and tabs (a log line, a stack), escaping the rest (CR included).
    tabs: keep tabs only (a line of code in a plan, whose indentation is data).
    """
    pattern = _UNSAFE_KEEPING_LINES if lines else _UNSAFE_KEEPING_TABS if tabs else _UNSAFE
    return pattern.sub(_escaped, text)


def printable_lines(text: str, indent: str) -> str:
    """printable(text, lines=True) with every line after the first indented, so text that
    holds line breaks cannot pass for a line of the tool's own."""
    return printable(text, lines=True).replace("\n", "\n" + indent)


def printable_json(value: Any, *, indent: int | None = None) -> str:
    """JSON text of `value` that is safe on a terminal and still the same JSON: the controls
    json.dumps leaves raw are written as \\u escapes (they can only occur inside strings)."""
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    return _IN_JSON.sub(lambda found: f"\\u{ord(found.group()):04x}", text)
