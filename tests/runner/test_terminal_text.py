"""console.terminal_text: what a terminal would take as input is shown escaped, and escaped
JSON is still the same JSON."""

from __future__ import annotations

import json

import pytest

from console.terminal_text import printable, printable_json, printable_lines

SEQUENCES = {
    "osc52-clipboard": ("\x1b]52;c;ZXZpbA==\x07", "\\x1b]52;c;ZXZpbA==\\x07"),
    "clear-screen": ("\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H"),
    "c1-csi": ("\x9b31m", "\\x9b31m"),
    "c1-osc": ("\x9d0;title\x9c", "\\x9d0;title\\x9c"),
    "bell-backspace-del": ("\x07\x08\x7f", "\\x07\\x08\\x7f"),
    "carriage-return": ("ok\rno", "ok\\rno"),
    "bidi-override": ("a\u202eb\u2066c", "a\\u202eb\\u2066c"),
    "nul": ("\x00", "\\x00"),
    "lone-surrogates": ("a\ud800b\udfff", "a\\ud800b\\udfff"),
}


@pytest.mark.parametrize(("raw", "shown"), SEQUENCES.values(), ids=SEQUENCES.keys())
def test_control_characters_are_shown_escaped(raw: str, shown: str) -> None:
    assert printable(raw) == shown
    assert printable(raw, lines=True) == shown


def test_line_breaks_are_kept_only_when_asked_and_then_indented() -> None:
    assert printable("a\nb\tc") == "a\\nb\\tc"
    assert printable("a\nb\tc", lines=True) == "a\nb\tc"
    assert printable_lines("one\nok: two\x1b[2J", "    ") == "one\n    ok: two\\x1b[2J"


def test_text_without_controls_is_unchanged() -> None:
    text = "Grüße, 東京 — “quoted” \\x1b stays a backslash"
    assert printable(text) == text


def test_escaped_json_is_the_same_json() -> None:
    value = {"k\x1b[2J": ["\x9b\x7f\u202e", "é", 1, None], "n": {"\u2028": "\x07"}}
    text = printable_json(value, indent=2)
    assert not any(ch in text for ch in "\x1b\x07\x9b\x7f\u202e\u2028")
    assert "é" in text
    assert json.loads(text) == value


def test_tabs_alone_are_kept_when_asked_for_a_line_of_code() -> None:
    assert printable("\tif (x) {\n\x1b[2J", tabs=True) == "\tif (x) {\\n\\x1b[2J"
    assert printable("\t", tabs=False) == "\\t"


def test_lone_surrogates_are_escaped_and_the_json_stays_the_same() -> None:
    """A JavaScript string may hold a lone surrogate; no encoding can write one."""
    value = {"key\udc00": ["value\ud800", "😀"]}
    text = printable_json(value, indent=2)
    text.encode("utf-8")  # no UnicodeEncodeError
    assert json.loads(text) == value
    assert "😀" in text
    for lines in (True, False):
        printable("x\ud800\n", lines=lines).encode("utf-8")
