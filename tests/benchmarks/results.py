"""Figures, their baselines and targets, and the one table the benchmark prints."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def median(values: list[float]) -> float:
    return statistics.median(values)


@dataclass(frozen=True)
class Row:
    """One line of the table. `limit` is the target ratio (or absolute bound when
    `absolute`); None means the figure is reported, not judged."""

    measure: str
    value: float
    baseline: float | None
    unit: str
    target: str
    limit: float | None = None
    absolute: bool = False
    higher_is_better: bool = False

    @property
    def ratio(self) -> float | None:
        if self.baseline in (None, 0):
            return None
        return self.value / self.baseline  # type: ignore[operator]

    @property
    def met(self) -> bool | None:
        if self.limit is None:
            return None
        judged = self.value if self.absolute else self.ratio
        if judged is None:
            return None
        return judged >= self.limit if self.higher_is_better else judged <= self.limit


def _figure(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "s":
        return f"{value * 1000:,.0f} ms" if value >= 0.1 else f"{value * 1000:.1f} ms"
    if unit == "ms":
        return f"{value:.2f} ms"
    if unit == "MiB":
        return f"{value:.1f} MiB"
    if unit == "req/s":
        return f"{value:,.0f} req/s"
    if unit == "pages":
        return f"{value:.0f} pages"
    return f"{value:g} {unit}".strip()


def table(rows: list[Row]) -> str:
    """A markdown table: measure | value | baseline | ratio | target | met?"""
    lines = [
        "| measure | value | baseline | ratio | target | met? |",
        "|---|---:|---:|---:|---|:---:|",
    ]
    for row in rows:
        ratio = row.ratio
        met = {True: "yes", False: "**no**", None: "—"}[row.met]
        lines.append(
            f"| {row.measure} | {_figure(row.value, row.unit)} | "
            f"{_figure(row.baseline, row.unit)} | "
            f"{'—' if ratio is None else f'{ratio:.2f}x'} | {row.target} | {met} |"
        )
    return "\n".join(lines)
