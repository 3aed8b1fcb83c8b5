"""The numbers behind the usage dashboard, kept free of Textual so they are cheap to test.

Percentages, plan thresholds and shares by token type the dashboard and the header summary
show (their times come from console.tui.base.formatting). "Now" always comes from
`console.clock.now()`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from console.models.tenants import TokenReport, UsageReport

GaugeState = Literal["normal", "warning", "over"]

STATE_LABELS: dict[str, str] = {
    "normal": "Within plan",
    "warning": "Nearing plan limit",
    "over": "Over plan",
}


def _token_report(report: UsageReport | TokenReport) -> TokenReport:
    return report.token_report if isinstance(report, UsageReport) else report


def gauge_state(used: int, included: int) -> GaugeState:
    """normal below 80% of the plan, warning from 80% up to the plan, over past it."""
    if used > included:
        return "over"
    # Integer arithmetic: 80% exactly is a warning, with no float rounding at the edge.
    if included and used * 5 >= included * 4:
        return "warning"
    return "normal"


def plan_figures(report: UsageReport | TokenReport) -> tuple[int, int] | None:
    """(monthly active, included) when the service reported both; None otherwise."""
    tokens = _token_report(report)
    used, included = tokens.monthly_active_tokens, tokens.included_monthly_active_tokens
    return None if used is None or included is None else (used, included)


def usage_state(report: UsageReport | TokenReport) -> GaugeState:
    """The report's gauge state: "normal", "warning" (from 80%) or "over" (past 100%);
    "normal" when the service did not report the plan figures (nothing to warn about)."""
    figures = plan_figures(report)
    return gauge_state(*figures) if figures else "normal"


def over_by(report: UsageReport | TokenReport) -> int:
    """How many monthly active tokens lie past the plan's included amount (0 within plan)."""
    figures = plan_figures(report)
    return max(0, figures[0] - figures[1]) if figures else 0


def format_count(value: int) -> str:
    """A count with thousands separators: 12,345."""
    return f"{value:,}"


def format_plan_percent(report: UsageReport | TokenReport) -> str:
    """The share of the plan as a whole percentage that never misstates which side of 100% it is.

    Within plan it rounds down (99.7% shows 99%, not a misleading 100%); over plan it rounds up
    (100.2% shows 101%). A tiny non-zero use shows "<1%". Without an included amount, "n/a".
    """
    figures = plan_figures(report)
    if figures is None or not figures[1]:
        return "n/a"
    used, included = figures
    if used == 0:
        return "0%"
    if used < included:
        percent = (used * 100) // included
        return f"{percent}%" if percent else "<1%"
    if used == included:
        return "100%"
    return f"{-((-used * 100) // included)}%"


def usage_summary(report: UsageReport | TokenReport) -> str:
    """One short line for the header or the Tenant section: "MAT 8,712 / 10,000 (87%)"; with
    a partial report, what it has ("1,433 tokens, no plan figures")."""
    tokens = _token_report(report)
    figures = plan_figures(tokens)
    if figures is None:
        if tokens.token_total is None:
            return "usage not reported"
        return f"{format_count(tokens.token_total)} tokens, no plan figures"
    used, included = (format_count(n) for n in figures)
    return f"MAT {used} / {included} ({format_plan_percent(tokens)})"


STATE_VARIABLES: dict[str, str] = {"normal": "$success", "warning": "$warning", "over": "$error"}
"""The theme variable that colours each gauge state."""


def usage_summary_markup(report: UsageReport | TokenReport) -> str:
    """The summary as Textual content markup, coloured by state with theme variables."""
    if plan_figures(report) is None:
        return f"[dim]{usage_summary(report)}[/]"
    state = usage_state(report)
    return f"[{STATE_VARIABLES[state]}]{usage_summary(report)}[/]"


def plan_status_text(report: UsageReport | TokenReport) -> str:
    """The sentence beside the gauge: "87% of plan — warning", "130% — 3,000 over plan"."""
    tokens = _token_report(report)
    figures = plan_figures(tokens)
    if figures is None:
        return "Not reported by this service"
    percent = format_plan_percent(tokens)
    state = usage_state(tokens)
    if not figures[1]:
        if state == "over":
            return f"No tokens included in plan — {format_count(over_by(tokens))} over plan"
        return "No tokens included in plan"
    if state == "over":
        return f"{percent} — {format_count(over_by(tokens))} over plan"
    return f"{percent} of plan — {format_count(figures[1] - figures[0])} left"


@dataclass(frozen=True)
class TokenTypeRow:
    """One token type as the table and the bar chart show it."""

    name: str
    count: int
    share: float
    """Fraction of all tokens, 0..1."""
    last_created_at: datetime | None


def token_type_rows(report: UsageReport | TokenReport) -> list[TokenTypeRow]:
    """Token types by count, largest first (ties by name), with each one's share of all tokens."""
    tokens = _token_report(report)
    total = tokens.token_total
    rows = [
        TokenTypeRow(
            name=name,
            count=metrics.count or 0,
            share=(metrics.count or 0) / total if total else 0.0,
            last_created_at=metrics.last_created_at,
        )
        for name, metrics in tokens.metrics.items()
    ]
    rows.sort(key=lambda row: (-row.count, row.name))
    return rows


def is_empty(report: UsageReport | TokenReport) -> bool:
    """No tokens yet: no token types, or only types that count zero (False when the service
    did not say how many tokens there are)."""
    return _token_report(report).token_total == 0


def format_share(share: float) -> str:
    """A share with one decimal: 48.1%; a tiny non-zero share shows "<0.1%"."""
    if share <= 0:
        return "0.0%"
    if share < 0.001:
        return "<0.1%"
    return f"{share * 100:.1f}%"


__all__ = [
    "STATE_LABELS",
    "STATE_VARIABLES",
    "GaugeState",
    "TokenTypeRow",
    "format_count",
    "format_plan_percent",
    "format_share",
    "gauge_state",
    "is_empty",
    "over_by",
    "plan_figures",
    "plan_status_text",
    "token_type_rows",
    "usage_state",
    "usage_summary",
    "usage_summary_markup",
]
