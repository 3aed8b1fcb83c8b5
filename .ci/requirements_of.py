"""Prints the requirements of the project's optional extras, one a line, for `pip install -r`.

.ci/run installs the `lint` and `docs` extras into a virtualenv of their own, beside the suite,
without installing the project again: the extras are read from pyproject.toml, so the list is
kept in one place. Usage: `python3 .ci/requirements_of.py lint docs`.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def requirements_of(extras: list[str]) -> list[str]:
    optional = tomllib.loads(PYPROJECT.read_text())["project"]["optional-dependencies"]
    unknown = [extra for extra in extras if extra not in optional]
    if unknown:
        raise SystemExit(f"no such extra in pyproject.toml: {', '.join(unknown)}")
    return [requirement for extra in extras for requirement in optional[extra]]


if __name__ == "__main__":
    print("\n".join(requirements_of(sys.argv[1:])))
