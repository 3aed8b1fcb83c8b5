"""The operator's side of the store: open a data dir, bootstrap tenants, set usage, sweep."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import console.service.store.applications as applications
import console.service.store.formulas as formulas
import console.service.store.logs as logs
import console.service.store.tenants as tenants
from console.clock import now
from console.service.db import Database
from console.service.grants import management_grants
from console.service.timestamps import now_stamp, stamp

BOOTSTRAP_APPLICATION_NAME = "Bootstrap management"


@dataclass(frozen=True)
class TenantInfo:
    """A new tenant and its bootstrap management application's key (shown once)."""

    tenant_id: str
    application_id: str
    key: str

    def __repr__(self) -> str:
        return f"TenantInfo(tenant_id={self.tenant_id!r}, application_id={self.application_id!r})"


@dataclass(frozen=True)
class Caller:
    """The application whose key authenticated a request."""

    application_id: str
    tenant_id: str
    type: str
    permissions: frozenset[str]

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> Caller:
        return cls(
            application_id=row["id"],
            tenant_id=row["tenant_id"],
            type=row["type"],
            permissions=frozenset(json.loads(row["permissions"])),
        )


class Store:
    """One data dir. Safe to share between threads; each thread gets its own connection."""

    def __init__(self, data_dir: Path) -> None:
        self.db = Database(data_dir)
        self.data_dir = self.db.data_dir
        self._install_catalogue()

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        with self.db.read() as conn:
            yield conn

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        with self.db.write() as conn:
            yield conn

    def _install_catalogue(self) -> None:
        """Adds the official formulas this release ships that the data dir lacks."""
        from console.service.catalogue import OFFICIAL_FORMULAS

        with self.write() as conn:
            for formula in OFFICIAL_FORMULAS:
                if conn.execute(
                    "SELECT 1 FROM reactor_formulas WHERE id = ?", (formula.id,)
                ).fetchone():
                    continue
                formulas.insert(
                    conn,
                    None,
                    formula.fields,
                    status=formula.status,
                    by=None,
                    at=formula.published_at,
                    formula_id=formula.id,
                )

    def has_tenants(self) -> bool:
        with self.read() as conn:
            return tenants.count(conn) > 0

    def create_tenant(self, name: str) -> TenantInfo:
        """A tenant with a bootstrap management application holding every management grant."""
        with self.write() as conn:
            return bootstrap_tenant(conn, name, at=now_stamp())

    def set_usage(
        self,
        tenant_id: str,
        included: int,
        monthly_active: int,
        metrics: dict[str, tuple[int, datetime | str | None]] | None = None,
    ) -> None:
        """Sets a tenant's usage report figures; for demo data and dashboard tests."""
        stored = {
            kind: (count, stamp(last) if isinstance(last, datetime) else last)
            for kind, (count, last) in (metrics or {}).items()
        }
        with self.write() as conn:
            if tenants.get(conn, tenant_id) is None:
                raise KeyError(f"no tenant {tenant_id}")
            tenants.set_usage(conn, tenant_id, included, monthly_active, stored)

    def sweep_expired(self) -> int:
        """Deletes the applications whose expiry has passed."""
        with self.write() as conn:
            return applications.sweep_expired(conn, now_stamp())

    def sweep_logs(self, retention_seconds: int) -> int:
        """Deletes the audit log entries older than the log retention (by the project clock)."""
        kept_since = stamp(now() - timedelta(seconds=retention_seconds))
        removed = 0
        while True:  # a transaction a batch: writers wait for one batch at most
            with self.write() as conn:
                batch = logs.delete_older(conn, kept_since)
            removed += batch
            if batch < logs.SWEEP_BATCH:
                return removed

    def add_logs(self, changes: Iterable[logs.Change]) -> int:
        """Stores audit log entries as they are given (the demo's history, benchmarks'
        seeding), in one transaction; returns how many."""
        with self.write() as conn:
            return logs.insert_many(conn, changes)

    def close(self) -> None:
        self.db.close()


def bootstrap_tenant(
    conn: sqlite3.Connection,
    name: str,
    *,
    at: str,
    tenant_id: str | None = None,
    application_id: str | None = None,
) -> TenantInfo:
    tenant = tenants.insert(conn, name, at=at, tenant_id=tenant_id)
    row, key = applications.insert(
        conn,
        tenant_id=tenant["id"],
        name=BOOTSTRAP_APPLICATION_NAME,
        type="management",
        permissions=management_grants(),
        rules=[],
        expires_at=None,
        by=tenant["owner_id"],
        at=at,
        app_id=application_id,
    )
    if key is None:  # made with create_key's default: cannot happen
        raise RuntimeError("the bootstrap application was made without a key")
    return TenantInfo(tenant_id=tenant["id"], application_id=row["id"], key=key)
