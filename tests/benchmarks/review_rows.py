"""The access review's rows of the benchmark table (see access_review.py for what is timed)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.benchmarks.results import Row, median

JsonFrom = Callable[..., Any]
"""run.py's `_json_from`: a module run in a process of its own, its last line as JSON."""


def review_rows(base_url: str, key: str, runs: int, json_from: JsonFrom) -> list[Row]:
    data = [
        json_from("tests.benchmarks.access_review", base_url, env={"BENCH_API_KEY": key})
        for _ in range(runs)
    ]

    def values(name: str) -> list[float]:
        return [value for run in data for value in run[name]]

    rows = data[-1]["rows"]
    return [
        Row(
            f"Access review: open until first rows ({rows:,} apps, 100 a page)",
            median(values("first_rows_s")),
            median(values("walk_first_s")),
            "s",
            "reported; baseline: the client's own request for page 1",
        ),
        Row(
            "Access review: the whole tenant read, flagged and in the table",
            median(values("complete_s")),
            median(values("walk_complete_s")),
            "s",
            "reported (the issue sets no bound); baseline: the client walking the same pages",
        ),
    ]
