"""`tenant-console serve` and `tenant-console new-tenant`.

Imports stay inside the functions: parsing arguments and `--help` must not pay for FastAPI
or uvicorn. Every failure a person can cause ends as one line on stderr and exit code 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from console.service.api.docs import ServiceRouter

DEFAULT_TENANT_NAME = "Local tenant"
MAX_LOG_RETENTION_SECONDS = 10 * 366 * 86_400
"""Ten years: far beyond any hosted plan's, and well inside the calendar's range."""


def _fail(command: str, message: str) -> int:
    print(f"tenant-console {command}: {message}", file=sys.stderr, flush=True)
    return 1


def default_data_dir() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("tenant-console"))


def _open_store(command: str, data_dir: Path):  # -> Store | int
    from console.service.db import DataDirError, open_to_others
    from console.service.schema import NewerDataDir
    from console.service.store import Store

    try:
        store = Store(data_dir)
    except (DataDirError, NewerDataDir) as exc:
        return _fail(command, str(exc))
    warning = open_to_others(data_dir)
    if warning:
        print(f"tenant-console {command}: {warning}", file=sys.stderr, flush=True)
    return store


def serve(args: argparse.Namespace, routers: Sequence[ServiceRouter] = ()) -> int:
    """Opens (or creates) the data dir, bootstraps a tenant if none exists, then serves.

    `routers` serve routes beyond the specification's: only code passes them (a test's own
    kind, tests/proof_kind/serve.py), never the command line."""
    if not 0 <= args.port <= 65535:
        return _fail("serve", f"--port must be between 0 and 65535, not {args.port}.")
    if args.rate_limit is not None and args.rate_limit < 1:
        return _fail("serve", f"--rate-limit must be at least 1, not {args.rate_limit}.")
    from console.models.contract import checked_header_name

    try:
        key_header = checked_header_name(args.key_header)
    except ValueError as exc:
        return _fail("serve", f"--key-header: {exc}")
    if not 0 < args.request_timeout <= 3600:
        shown = args.request_timeout
        return _fail("serve", f"--request-timeout must be above 0 and at most 3600, not {shown}.")
    if args.max_connections < 1:
        return _fail("serve", f"--max-connections must be at least 1, not {args.max_connections}.")
    delay = args.provision_delay
    if not 0 <= delay <= 3600:
        return _fail("serve", f"--provision-delay must be from 0 to 3600, not {delay}.")
    from console.models.logs import LOG_RETENTION_SECONDS

    retention = getattr(args, "log_retention", None)
    retention = LOG_RETENTION_SECONDS if retention is None else retention
    if not 1 <= retention <= MAX_LOG_RETENTION_SECONDS:
        shown = retention
        top = MAX_LOG_RETENTION_SECONDS
        return _fail("serve", f"--log-retention must be from 1 to {top} seconds, not {shown}.")
    data_dir = Path(args.data_dir).expanduser() if args.data_dir else default_data_dir()
    store = _open_store("serve", data_dir)
    if isinstance(store, int):
        return store
    from console.service.server import bind

    try:
        sock = bind(args.host, args.port)
    except OSError as exc:
        reason = "is already in use" if exc.errno in (98, 48, 10048) else f"failed: {exc.strerror}"
        return _fail("serve", f"binding {args.host} port {args.port} {reason}.")

    if not store.has_tenants():
        if args.demo_data:
            from console.service.demo import seed_demo_tenant

            info, name = seed_demo_tenant(store), None
        else:
            info, name = store.create_tenant(DEFAULT_TENANT_NAME), DEFAULT_TENANT_NAME
        _announce_bootstrap(info, name or "the demo tenant", data_dir)
    elif args.demo_data:
        print(f"The data dir {data_dir} already holds tenants: no demo data added.", flush=True)

    from console.service.connections import fit_to_open_file_limit
    from console.service.server import run

    max_connections, lowered = fit_to_open_file_limit(args.max_connections)
    if lowered:
        print(f"tenant-console serve: warning: {lowered}", file=sys.stderr, flush=True)
    print(f"Data dir: {data_dir}", flush=True)
    run(
        store,
        sock,
        rate_limit=args.rate_limit,
        key_header=key_header,
        request_timeout=args.request_timeout,
        max_connections=max_connections,
        routers=routers,
        provision_delay=delay,
        allow_unisolated=args.allow_unisolated,
        log_retention=retention,
    )
    return 0


def _announce_bootstrap(info, tenant_name: str, data_dir: Path) -> None:
    print(
        f"Created {tenant_name} in {data_dir}, with a management application holding every "
        "management permission.\n"
        f"  Tenant id: {info.tenant_id}\n"
        f"  Application id: {info.application_id}\n"
        f"  API key: {info.key}\n"
        "This key is shown only once: store it now, for example with "
        "`tenant-console profile add NAME --base-url URL --key-stdin`.",
        flush=True,
    )


def new_tenant(args: argparse.Namespace) -> int:
    """Creates a tenant and its bootstrap management application; prints one JSON line."""
    name = args.name.strip()
    if not name or len(name) > 200:
        return _fail("new-tenant", "the tenant name must be 1 to 200 characters.")
    from console.models.common import has_control_characters

    if has_control_characters(name):
        return _fail("new-tenant", "the tenant name must not contain control characters.")
    data_dir = Path(args.data_dir).expanduser() if args.data_dir else default_data_dir()
    store = _open_store("new-tenant", data_dir)
    if isinstance(store, int):
        return store
    if args.demo_data:
        import sqlite3

        from console.service.demo import seed_demo_tenant

        try:
            info = seed_demo_tenant(store, staging_name=name)
        except sqlite3.IntegrityError:  # its ids come from its name: seeded once per data dir
            return _fail("new-tenant", f"the data dir already holds a demo tenant named {name!r}.")
    else:
        info = store.create_tenant(name)
    print(
        json.dumps(
            {"tenant_id": info.tenant_id, "application_id": info.application_id, "key": info.key}
        ),
        flush=True,
    )
    return 0
