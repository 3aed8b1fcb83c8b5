"""Textual's parsed CSS, kept for the whole test process instead of one app's stylesheet.

Every app Textual starts builds a Stylesheet of its own, and each keeps the rules it parsed
in a cache of its own (`Stylesheet._parse_cache`): every Pilot test, snapshot and form host
parsed console.tcss, later.tcss and the DEFAULT_CSS of every widget it mounted again, about
a fifth of a TUI test's CPU (docs/development/ci.md). Parsing is a function of the text, where
it was read from, its place in the cascade and the theme's variables, so one process may
share what it parsed between apps: `install()` keys Textual's own `_parse_rules` on all of
those. A stylesheet that fails to parse raises as before and is not kept; rules parsed with
errors are kept with them, and `Stylesheet.parse` still refuses them. What an app styles, and
how, does not change: only how often the same text is parsed.
"""

from __future__ import annotations

from typing import Any

_PARSED: dict[tuple[Any, ...], Any] = {}


def install() -> None:
    """Wraps `Stylesheet._parse_rules` once per process (idempotent)."""
    from textual.css.stylesheet import Stylesheet

    parse_rules = Stylesheet._parse_rules
    if getattr(parse_rules, "shared_between_apps", False):
        return

    def shared_parse_rules(
        self: Stylesheet,
        css: str,
        read_from: Any,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> Any:
        key = (
            css,
            read_from,
            is_default_rules,
            tie_breaker,
            scope,
            tuple(sorted(self._variables.items())),
        )
        try:
            return _PARSED[key]
        except KeyError:
            pass
        rules = parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
        _PARSED[key] = rules
        return rules

    shared_parse_rules.shared_between_apps = True  # type: ignore[attr-defined]
    Stylesheet._parse_rules = shared_parse_rules  # type: ignore[method-assign]
