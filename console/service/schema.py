"""The SQLite schema and its migrations, versioned with `PRAGMA user_version`.

Each entry of MIGRATIONS moves a data dir from version i to i + 1. A later release appends
to the list; an older data dir is brought forward when it is opened, inside one transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

_V1 = """
CREATE TABLE tenants (
    id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL,
    name TEXT NOT NULL,
    fingerprint_tokens TEXT NOT NULL DEFAULT 'true',
    deduplicate_tokens TEXT NOT NULL DEFAULT 'true',
    included_monthly_active_tokens INTEGER NOT NULL DEFAULT 10000,
    monthly_active_tokens INTEGER NOT NULL DEFAULT 0,
    created_by TEXT,
    created_at TEXT NOT NULL,
    modified_by TEXT,
    modified_at TEXT
);

CREATE TABLE applications (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    permissions TEXT NOT NULL,
    rules TEXT NOT NULL,
    expires_at TEXT,
    key_hash TEXT NOT NULL UNIQUE,
    created_by TEXT,
    created_at TEXT NOT NULL,
    modified_by TEXT,
    modified_at TEXT
);
CREATE INDEX applications_page ON applications (tenant_id, created_at, id, expires_at);
CREATE INDEX applications_expiry ON applications (expires_at) WHERE expires_at IS NOT NULL;

CREATE TABLE proxies (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    key TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    name_folded TEXT NOT NULL,
    destination_url TEXT NOT NULL,
    request_transform TEXT,
    response_transform TEXT,
    application_id TEXT REFERENCES applications(id) ON DELETE SET NULL,
    configuration TEXT,
    require_auth INTEGER NOT NULL,
    created_by TEXT,
    created_at TEXT NOT NULL,
    modified_by TEXT,
    modified_at TEXT
);
CREATE INDEX proxies_page ON proxies (tenant_id, created_at, id);
CREATE INDEX proxies_application ON proxies (application_id);

CREATE TABLE reactor_formulas (
    id TEXT PRIMARY KEY,
    tenant_id TEXT REFERENCES tenants(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    name_folded TEXT NOT NULL,
    description TEXT,
    type TEXT NOT NULL,
    status TEXT NOT NULL,
    icon TEXT,
    code TEXT NOT NULL,
    configuration TEXT NOT NULL,
    request_parameters TEXT NOT NULL,
    created_by TEXT,
    created_at TEXT NOT NULL,
    modified_by TEXT,
    modified_at TEXT
);
CREATE INDEX reactor_formulas_page ON reactor_formulas (tenant_id, created_at, id);

CREATE TABLE token_metrics (
    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    token_type TEXT NOT NULL,
    count INTEGER NOT NULL,
    last_created_at TEXT,
    PRIMARY KEY (tenant_id, token_type)
);
"""


def _v1(conn: sqlite3.Connection) -> None:
    for statement in _V1.split(";"):
        if statement.strip():
            conn.execute(statement)


def _v2(conn: sqlite3.Connection) -> None:
    """Tenant settings beyond the two named ones, as a JSON object of string to string."""
    conn.execute("ALTER TABLE tenants ADD COLUMN other_settings TEXT NOT NULL DEFAULT '{}'")


KEYS_TABLE = """
CREATE TABLE application_keys (
    id TEXT PRIMARY KEY,
    application_id TEXT NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    created_by TEXT,
    created_at TEXT NOT NULL
);
CREATE INDEX application_keys_application ON application_keys (application_id, created_at, id)
"""

MOVED_KEY_PREFIX = "keys-table:"
"""`applications.key_hash` after v3: a placeholder no SHA-256 hex digest can equal (the
column stays NOT NULL UNIQUE; SQLite cannot drop it); the keys live in application_keys."""


def _v3(conn: sqlite3.Connection) -> None:
    """Application Keys: several keys per application. Each existing key becomes the
    application's first key (version 1), created when the application was."""
    import uuid

    for statement in KEYS_TABLE.split(";"):
        if statement.strip():
            conn.execute(statement)
    rows = conn.execute("SELECT id, key_hash, created_by, created_at FROM applications").fetchall()
    for app_id, key_hash, created_by, created_at in rows:
        conn.execute(
            "INSERT INTO application_keys (id, application_id, version, key_hash, created_by,"
            " created_at) VALUES (?, ?, 1, ?, ?, ?)",
            (str(uuid.uuid4()), app_id, key_hash, created_by, created_at),
        )
        conn.execute(
            "UPDATE applications SET key_hash = ? WHERE id = ?", (MOVED_KEY_PREFIX + app_id, app_id)
        )


def _v4(conn: sqlite3.Connection) -> None:
    """Tenants whose usage follows a curve through the month instead of stored figures (the
    demo tenant's grows, issue 28); `curve` names it (only "demo" so far)."""
    conn.execute(
        "CREATE TABLE usage_growth (tenant_id TEXT PRIMARY KEY REFERENCES tenants(id)"
        " ON DELETE CASCADE, curve TEXT NOT NULL)"
    )


REACTORS_TABLES = """
CREATE TABLE reactors (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    name_folded TEXT NOT NULL,
    code TEXT NOT NULL,
    configuration TEXT NOT NULL,
    runtime TEXT,
    application_id TEXT REFERENCES applications(id) ON DELETE SET NULL,
    state TEXT NOT NULL,
    requested TEXT,
    ready_at TEXT,
    created_by TEXT,
    created_at TEXT NOT NULL,
    modified_by TEXT,
    modified_at TEXT
);
CREATE INDEX reactors_page ON reactors (tenant_id, created_at, id);
CREATE INDEX reactors_application ON reactors (application_id);

CREATE TABLE reactor_results (
    request_id TEXT PRIMARY KEY,
    reactor_id TEXT NOT NULL REFERENCES reactors(id) ON DELETE CASCADE,
    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    status TEXT NOT NULL,
    http_status INTEGER,
    response TEXT,
    created_at TEXT NOT NULL,
    completed_at TEXT
);
CREATE INDEX reactor_results_age ON reactor_results (created_at)
"""


def _v5(conn: sqlite3.Connection) -> None:
    """Reactors (issue 35): code plus runtime, provisioned and invoked on the service.

    `code`, `configuration` (a JSON object) and `runtime` (JSON, NULL for a legacy reactor)
    are the version that serves; `requested` (JSON) the change being provisioned or the one
    that failed, `ready_at` the wall-clock time its provisioning ends (NULL when none runs).
    `reactor_results` keeps what asynchronous reacts answered (`react-async`) for 24 hours:
    `status` pending, completed or failed, `http_status` and `response` (the react's JSON
    answer or its problem) once done."""
    for statement in REACTORS_TABLES.split(";"):
        if statement.strip():
            conn.execute(statement)


def _v6(conn: sqlite3.Connection) -> None:
    """Proxies as the hosted service has them now (issue 35): transform pipelines (JSON
    arrays of steps; an existing single transform becomes a one-step pipeline and the single
    columns go), `disable_detokenization`, `timeout` (seconds, null: the service's default)
    and `state` (always "active" here: a proxy is provisioned at once)."""
    import json

    for side in ("request", "response"):
        conn.execute(f"ALTER TABLE proxies ADD COLUMN {side}_transforms TEXT NOT NULL DEFAULT '[]'")
        rows = conn.execute(
            f"SELECT id, {side}_transform FROM proxies WHERE {side}_transform IS NOT NULL"
        ).fetchall()
        for proxy_id, single in rows:
            conn.execute(
                f"UPDATE proxies SET {side}_transforms = ? WHERE id = ?",
                (json.dumps([json.loads(single)]), proxy_id),
            )
        conn.execute(f"ALTER TABLE proxies DROP COLUMN {side}_transform")
    conn.execute("ALTER TABLE proxies ADD COLUMN disable_detokenization INTEGER NOT NULL DEFAULT 0")
    conn.execute("ALTER TABLE proxies ADD COLUMN timeout INTEGER")
    conn.execute("ALTER TABLE proxies ADD COLUMN state TEXT NOT NULL DEFAULT 'active'")


LOGS_TABLE = """
CREATE TABLE logs (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    tenant_id TEXT NOT NULL,
    actor_id TEXT,
    actor_type TEXT NOT NULL,
    entity_type TEXT NOT NULL,
    entity_id TEXT NOT NULL,
    operation TEXT NOT NULL,
    message TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX logs_by_time ON logs (tenant_id, created_at, seq);
CREATE INDEX logs_by_entity ON logs (tenant_id, entity_type, entity_id, created_at)
"""


def _v7(conn: sqlite3.Connection) -> None:
    """Audit logs (issue 36): one row per management write, as the hosted service logs it.
    `seq` orders entries written in the same microsecond; entries older than the service's
    log retention are removed (`serve --log-retention`)."""
    for statement in LOGS_TABLE.split(";"):
        if statement.strip():
            conn.execute(statement)


PEOPLE_TABLES = """
CREATE TABLE users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE COLLATE NOCASE,
    first_name TEXT,
    last_name TEXT,
    mfa_enrolled INTEGER NOT NULL DEFAULT 0,
    provider TEXT
);

CREATE TABLE members (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id),
    role TEXT NOT NULL,
    created_by TEXT,
    created_at TEXT NOT NULL,
    modified_by TEXT,
    modified_at TEXT,
    UNIQUE (tenant_id, user_id)
);
CREATE INDEX members_page ON members (tenant_id, created_at, id);
CREATE INDEX members_user ON members (user_id);

CREATE VIEW member_rows AS
SELECT members.*, users.email AS email, users.first_name AS first_name,
    users.last_name AS last_name, users.mfa_enrolled AS mfa_enrolled,
    users.provider AS provider
FROM members JOIN users ON users.id = members.user_id;

CREATE TABLE invitations (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    email TEXT NOT NULL COLLATE NOCASE,
    role TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    created_by TEXT,
    created_at TEXT NOT NULL,
    modified_by TEXT,
    modified_at TEXT
);
CREATE INDEX invitations_page ON invitations (tenant_id, created_at, id);
CREATE INDEX invitations_email ON invitations (tenant_id, email);

CREATE TABLE security_contacts (
    tenant_id TEXT PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
    email TEXT NOT NULL
)
"""


def _v8(conn: sqlite3.Connection) -> None:
    """The tenant's people (issue 36): users (one a person, across tenants; an email is one
    user whatever its letter case), members (a user's role in a tenant), invitations (their
    status is computed when read: EXPIRED once `expires_at` has passed) and the tenant's
    security contact. The tenant's `owner_id` is its owner's user id; a tenant made before
    has no member until one is added (its owner_id stays the id made up then)."""
    for statement in PEOPLE_TABLES.split(";"):
        if statement.strip():
            conn.execute(statement)


WEBHOOK_TABLES = """
CREATE TABLE webhooks (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    url TEXT NOT NULL,
    notify_email TEXT,
    events TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'enabled',
    disabled_reason TEXT,
    failures INTEGER NOT NULL DEFAULT 0,
    created_by TEXT,
    created_at TEXT NOT NULL,
    modified_by TEXT,
    modified_at TEXT
);
CREATE INDEX webhooks_page ON webhooks (tenant_id, created_at, id);

CREATE TABLE webhook_events (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    type TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE webhook_deliveries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
    webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    state TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at TEXT NOT NULL,
    last_status INTEGER,
    last_error TEXT,
    finished_at TEXT
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_at);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id)
"""


def _v9(conn: sqlite3.Connection) -> None:
    """Webhooks (issue 37): a tenant's webhooks (`events` a JSON array of event types;
    `failures` the attempts failed in a row, `disabled_reason` why the service disabled one),
    the events of the changes made (`body` the event as sent, without `delivered_at`) and
    one delivery per event and subscribed webhook, the outbox the deliverer sends from
    (`state` pending, delivered or failed; `next_at` when its next attempt is due)."""
    for statement in WEBHOOK_TABLES.split(";"):
        if statement.strip():
            conn.execute(statement)


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [
    _v1,
    _v2,
    _v3,
    _v4,
    _v5,
    _v6,
    _v7,
    _v8,
    _v9,
]
"""MIGRATIONS[i] upgrades a data dir from version i to version i + 1."""

SCHEMA_VERSION = len(MIGRATIONS)


class NewerDataDir(RuntimeError):
    """The data dir was written by a newer release than this one."""


def migrate(conn: sqlite3.Connection) -> int:
    """Brings the open database to SCHEMA_VERSION; returns the version it found.

    The connection must be in autocommit mode; the upgrade runs in one IMMEDIATE transaction
    so two processes opening the same fresh data dir do not both create the tables.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        found = conn.execute("PRAGMA user_version").fetchone()[0]
        if found > SCHEMA_VERSION:
            raise NewerDataDir(
                f"the data dir has schema version {found}, newer than this release's "
                f"{SCHEMA_VERSION}"
            )
        for version in range(found, SCHEMA_VERSION):
            MIGRATIONS[version](conn)
        if found != SCHEMA_VERSION:
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return found
