"""The usage report and its history as text: a table for a person, JSON and CSV for tools.

CSV cells that a spreadsheet would run as a formula (a token type named "=...") are quoted
with a leading apostrophe; control characters from the service never reach a terminal.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime

from console.usage_history.forecast import Forecast
from console.usage_history.store import Snapshot

DEMO_LABEL = "demo data"
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def clean(text: str) -> str:
    """Control characters shown as `\\xNN`: a name from the service cannot drive a terminal."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _count(value: int | None) -> str:
    return f"{value:,}" if value is not None else "n/a"


def _time(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def _percent(snapshot: Snapshot) -> str:
    used, included = snapshot.monthly_active, snapshot.included
    if used is None or not included:
        return ""
    share = used * 100 // included if used <= included else -((-used * 100) // included)
    return f" ({share}%)"


def report_table(snapshot: Snapshot) -> str:
    """The current report: the plan line, the total, then each token type."""
    lines = [
        f"Monthly active tokens  {_count(snapshot.monthly_active)} of "
        f"{_count(snapshot.included)} included{_percent(snapshot)}",
        f"Total tokens           {_count(snapshot.total)}",
    ]
    if snapshot.by_type:
        width = max(len(clean(name)) for name in snapshot.by_type)
        lines.append("")
        lines.append(f"{'TYPE'.ljust(width)}  COUNT")
        for name, count in sorted(snapshot.by_type.items(), key=lambda kv: (-kv[1], kv[0])):
            lines.append(f"{clean(name).ljust(width)}  {count:,}")
    return "\n".join(lines)


def history_table(snapshots: Sequence[Snapshot], result: Forecast) -> str:
    """Every snapshot, oldest first, then the forecast."""
    lines: list[str] = []
    if not snapshots:
        lines.append("No usage recorded yet for this tenant.")
    else:
        rows = [("TIME", "MAT", "PLAN", "TOTAL", "READ BY")]
        for s in snapshots:
            reader = f"{s.reader} ({DEMO_LABEL})" if s.demo else s.reader
            rows.append(
                (_time(s.at), _count(s.monthly_active), _count(s.included), _count(s.total), reader)
            )
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        for row in rows:
            cells = [
                cell.rjust(w) if 0 < i < 4 else cell.ljust(w)
                for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            ]
            lines.append("  ".join(cells).rstrip())
    lines.append("")
    label = f" ({DEMO_LABEL})" if result.demo else ""
    lines.append(f"Forecast for {result.now.astimezone(UTC):%B %Y}{label}")
    lines.extend(f"  {line}" for line in result.summary().splitlines())
    return "\n".join(lines)


def history_json(
    snapshots: Sequence[Snapshot], result: Forecast, *, about: dict[str, object]
) -> str:
    """One object: who it is about, the snapshots (oldest first) and the forecast."""
    document = {
        **about,
        "snapshots": [s.to_json() for s in snapshots],
        "forecast": result.to_json(),
    }
    return json.dumps(document, indent=2, ensure_ascii=False)


def report_json(snapshot: Snapshot, *, about: dict[str, object]) -> str:
    return json.dumps({**about, **snapshot.to_json()}, indent=2, ensure_ascii=False)


def _safe_cell(value: object) -> str:
    text = "" if value is None else str(value)
    if text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + text
    return text


def history_csv(snapshots: Sequence[Snapshot]) -> str:
    """One row per snapshot, oldest first, a column per token type ever seen."""
    types = sorted({name for s in snapshots for name in (s.by_type or {})})
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [
            "time",
            "monthly_active_tokens",
            "included_monthly_active_tokens",
            "total_tokens",
            "reader",
            "demo",
            *(_safe_cell(name) for name in types),
        ]
    )
    for s in snapshots:
        counts = s.by_type or {}
        writer.writerow(
            [
                s.to_json()["at"],
                _safe_cell(s.monthly_active),
                _safe_cell(s.included),
                _safe_cell(s.total),
                s.reader,
                "true" if s.demo else "false",
                *(_safe_cell(counts.get(name)) for name in types),
            ]
        )
    return out.getvalue()
