"""The command-line reference in the docs is the parsers' own help, regenerated."""

from __future__ import annotations

import sys

import pytest

from console import cli_reference


@pytest.mark.skipif(
    sys.version_info[:2] != (3, 11),
    reason="argparse's help layout changes between Python versions; the page is made on 3.11",
)
def test_the_committed_reference_matches_the_parsers() -> None:
    committed = cli_reference.PAGE.read_text(encoding="utf-8")
    assert committed == cli_reference.reference(), (
        "docs/reference/cli.md is out of date: run `python -m console.cli_reference`"
    )


def test_the_reference_names_every_command_and_sub_command() -> None:
    page = cli_reference.reference()
    paths = [path for path, _ in cli_reference.commands(cli_reference.build_parser())]
    assert ("profile", "add") in paths and ("run",) in paths
    for path in paths:
        assert f"## `{' '.join(('tenant-console', *path))}`" in page
