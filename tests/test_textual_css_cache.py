"""The test process's shared CSS parsing (tests/textual_css_cache.py): in place, and parsing
to the same rules as a stylesheet of Textual's own, theme variables and all. A Textual upgrade
that renames what it wraps fails here, by name."""

from __future__ import annotations

from pathlib import Path

import pytest
import textual_css_cache
from textual.app import App
from textual.css.stylesheet import Stylesheet, StylesheetParseError

import console.tui

CONSOLE_CSS = Path(console.tui.__file__).with_name("console.tcss")


def test_the_cache_is_installed_in_the_test_process() -> None:
    assert getattr(Stylesheet._parse_rules, "shared_between_apps", False)


def _parsed(variables: dict[str, str], *, read_again: bool) -> str:
    stylesheet = Stylesheet(variables=variables)
    stylesheet.read(CONSOLE_CSS)
    if read_again:  # a second app's stylesheet: the rules come from the cache
        stylesheet.parse()
        stylesheet = Stylesheet(variables=variables)
        stylesheet.read(CONSOLE_CSS)
    stylesheet.parse()
    return stylesheet.css


def test_shared_rules_are_the_rules_textual_parses() -> None:
    dark = App().get_css_variables()
    light = {**dark, "background": "#ffffff", "foreground": "#000000"}
    textual_css_cache._PARSED.clear()
    first = _parsed(dark, read_again=False)
    assert _parsed(dark, read_again=True) == first
    assert _parsed(light, read_again=True) != first  # the variables are part of the key


def test_a_stylesheet_with_errors_is_still_refused_every_time() -> None:
    for _ in range(2):
        stylesheet = Stylesheet()
        stylesheet.add_source("Screen { colour: red; }", read_from=("broken.tcss", ""))
        with pytest.raises(StylesheetParseError):
            stylesheet.parse()
