"""The command-line reference (docs/reference/cli.md), written from the argument parsers.

Generated, not written by hand, so that the reference cannot drift from the parsers; a test
compares the committed page with this output. Run `python -m console.cli_reference` to rewrite it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from console.cli import build_parser

WIDTH = 100
PAGE = Path(__file__).resolve().parents[1] / "docs" / "reference" / "cli.md"


def _fixed_width(prog: str) -> argparse.HelpFormatter:
    return argparse.HelpFormatter(prog, width=WIDTH, max_help_position=32)


def commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every parser under `parser`, depth first, in the order they were declared."""
    parser.formatter_class = _fixed_width
    yield path, parser
    for action in parser._actions:  # argparse offers no public walk of its sub-parsers
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from commands(sub, (*path, name))


def reference() -> str:
    lines = [
        "# Command-line reference",
        "",
        "Every command and option, as `--help` prints them. This page is generated from the",
        "argument parsers by `python -m console.cli_reference`; a test keeps it in step.",
        "",
        "Every command ends quietly, with exit status 141 (128 + SIGPIPE, as a shell reports a",
        "process a closed pipe ended), when the reader of its output goes away, as `head -1`",
        "does: what it had yet to print is dropped, and it stops there.",
        "",
    ]
    for path, parser in commands(build_parser()):
        title = " ".join(("tenant-console", *path))
        lines += [f"## `{title}`", "", "```text", parser.format_help().rstrip(), "```", ""]
    return "\n".join(lines)


def main() -> int:
    PAGE.write_text(reference(), encoding="utf-8")
    sys.stdout.write(f"wrote {PAGE}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
