"""Tenants, their settings and their usage figures."""

from __future__ import annotations

import json
import sqlite3
import uuid
from datetime import datetime
from typing import Any

from console.models.tenants import NAMED_SETTINGS
from console.service.timestamps import shown

DEFAULT_INCLUDED_MONTHLY_ACTIVE_TOKENS = 10_000


def view(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": row["id"],
        "owner_id": row["owner_id"],
        "name": row["name"],
        "settings": {
            "fingerprint_tokens": row["fingerprint_tokens"],
            "deduplicate_tokens": row["deduplicate_tokens"],
            **json.loads(row["other_settings"]),
        },
        "created_by": row["created_by"],
        "created_at": shown(row["created_at"]),
        "modified_by": row["modified_by"],
        "modified_at": shown(row["modified_at"]),
    }


def get(conn: sqlite3.Connection, tenant_id: str) -> sqlite3.Row | None:
    return conn.execute("SELECT * FROM tenants WHERE id = ?", (tenant_id,)).fetchone()


def count(conn: sqlite3.Connection) -> int:
    return conn.execute("SELECT count(*) FROM tenants").fetchone()[0]


def insert(
    conn: sqlite3.Connection,
    name: str,
    *,
    at: str,
    tenant_id: str | None = None,
    owner_id: str | None = None,
) -> sqlite3.Row:
    """A new tenant owned by the user `owner_id` (console.service.store.users); without
    one, an id made up that no user has (the tenant then has no owner member)."""
    tenant_id = tenant_id or str(uuid.uuid4())
    owner_id = owner_id or str(uuid.uuid4())
    conn.execute(
        "INSERT INTO tenants (id, owner_id, name, created_by, created_at, modified_by,"
        " modified_at, included_monthly_active_tokens) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            tenant_id,
            owner_id,
            name,
            owner_id,
            at,
            owner_id,
            at,
            DEFAULT_INCLUDED_MONTHLY_ACTIVE_TOKENS,
        ),
    )
    return get(conn, tenant_id)  # type: ignore[return-value]


def update(
    conn: sqlite3.Connection,
    tenant_id: str,
    *,
    name: str,
    settings: dict[str, str] | None,
    by: str,
    at: str,
) -> sqlite3.Row:
    if settings is None:
        conn.execute(
            "UPDATE tenants SET name = ?, modified_by = ?, modified_at = ? WHERE id = ?",
            (name, by, at, tenant_id),
        )
    else:
        # The map replaces the stored one; the two named settings keep their value if omitted.
        others = {k: v for k, v in settings.items() if k not in NAMED_SETTINGS}
        conn.execute(
            "UPDATE tenants SET name = ?,"
            " fingerprint_tokens = coalesce(?, fingerprint_tokens),"
            " deduplicate_tokens = coalesce(?, deduplicate_tokens),"
            " other_settings = ?, modified_by = ?, modified_at = ? WHERE id = ?",
            (
                name,
                settings.get("fingerprint_tokens"),
                settings.get("deduplicate_tokens"),
                json.dumps(others, ensure_ascii=False),
                by,
                at,
                tenant_id,
            ),
        )
    return get(conn, tenant_id)  # type: ignore[return-value]


def delete(conn: sqlite3.Connection, tenant_id: str) -> None:
    """Deletes the tenant; foreign keys cascade to everything it owns."""
    conn.execute("DELETE FROM tenants WHERE id = ?", (tenant_id,))


def usage_report(
    conn: sqlite3.Connection, tenant: sqlite3.Row, at: datetime | None = None
) -> dict[str, Any]:
    """The tenant's report: its stored figures, or, for a tenant whose usage grows through
    the month (the demo's), the figures of its curve at `at` (the request's time). Beside
    the specification's `token_report`, `total_tokens` (all of its types' counts) as the
    hosted service's smaller report has it, which the vendor's SDKs read."""
    rows = conn.execute(
        "SELECT token_type, count, last_created_at FROM token_metrics WHERE tenant_id = ?"
        " ORDER BY token_type",
        (tenant["id"],),
    ).fetchall()
    counts = {row["token_type"]: row["count"] for row in rows}
    included = tenant["included_monthly_active_tokens"]
    active = tenant["monthly_active_tokens"]
    growth = conn.execute(
        "SELECT curve FROM usage_growth WHERE tenant_id = ?", (tenant["id"],)
    ).fetchone()
    if growth is not None and growth["curve"] == "demo" and at is not None:
        from console.usage_history import demo_curve

        active = demo_curve.monthly_active(at)
        counts.update({k: v for k, v in demo_curve.counts(at).items() if k in counts})
    return {
        "token_report": {
            "metrics_by_type": {
                row["token_type"]: {
                    "count": counts[row["token_type"]],
                    "last_created_at": shown(row["last_created_at"]),
                }
                for row in rows
            },
            "included_monthly_active_tokens": included,
            "monthly_active_tokens": active,
        },
        "total_tokens": sum(counts.values()),
    }


def grow_usage(conn: sqlite3.Connection, tenant_id: str, curve: str = "demo") -> None:
    """From now on the tenant's usage follows `curve` through the month (the demo's)."""
    conn.execute(
        "INSERT OR REPLACE INTO usage_growth (tenant_id, curve) VALUES (?, ?)", (tenant_id, curve)
    )


def set_usage(
    conn: sqlite3.Connection,
    tenant_id: str,
    included: int,
    monthly_active: int,
    metrics: dict[str, tuple[int, str | None]],
) -> None:
    """Replaces the tenant's usage figures (the local service has no token endpoints); they
    stay as set (a curve the tenant followed is dropped)."""
    conn.execute("DELETE FROM usage_growth WHERE tenant_id = ?", (tenant_id,))
    conn.execute(
        "UPDATE tenants SET included_monthly_active_tokens = ?, monthly_active_tokens = ?"
        " WHERE id = ?",
        (included, monthly_active, tenant_id),
    )
    conn.execute("DELETE FROM token_metrics WHERE tenant_id = ?", (tenant_id,))
    conn.executemany(
        "INSERT INTO token_metrics (tenant_id, token_type, count, last_created_at)"
        " VALUES (?, ?, ?, ?)",
        [(tenant_id, kind, count, last) for kind, (count, last) in metrics.items()],
    )
