"""The frozen moment of the service tests' demo (`serve --demo-data` with its clock stopped),
importable by name: the tests compare the demo's dates with it, and `conftest` is not
importable by name when several test folders have one."""

from __future__ import annotations

FROZEN = "2026-11-22T10:00:00+00:00"
"""The demo service's now: its expiries and ages are counted from it, the same every run."""
