"""`tenant-console serve`, `tenant-console new-tenant` and `tenant-console accept-invitation`.

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
    webhook_settings = _webhook_settings(args)
    problem = webhook_settings.problem()
    if problem:
        return _fail("serve", problem)
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
        webhook_settings=webhook_settings,
    )
    return 0


def _webhook_settings(args: argparse.Namespace):  # -> DeliverySettings
    """The deliverer's settings from `serve`'s options (a launcher of a test's own may
    parse fewer: what it leaves out keeps its default)."""
    from dataclasses import replace

    from console.service.delivery.settings import DeliverySettings

    options = {
        "timeout": "webhook_timeout",
        "retry_base": "webhook_retry_base",
        "retry_cap": "webhook_retry_cap",
        "max_attempts": "webhook_max_attempts",
        "disable_after": "webhook_disable_after",
    }
    given = {
        field: getattr(args, option)
        for field, option in options.items()
        if getattr(args, option, None) is not None
    }
    settings = DeliverySettings()
    if "retry_base" in given and "retry_cap" not in given:
        given["retry_cap"] = max(settings.retry_cap, given["retry_base"])
    return replace(settings, **given)


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
    owner = getattr(args, "owner", None)
    if owner is not None:
        problem = _email_problem(owner)
        if problem:
            return _fail("new-tenant", f"--owner: {problem}")
        if args.demo_data:
            return _fail(
                "new-tenant", "--owner and --demo-data: the demo tenant has its own owner."
            )
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
        info = store.create_tenant(name, owner_email=owner)
    made: dict[str, str | None] = {
        "tenant_id": info.tenant_id,
        "application_id": info.application_id,
        "key": info.key,
    }
    if info.owner_id is not None:
        made |= {"owner_id": info.owner_id, "owner_member_id": info.owner_member_id}
    print(json.dumps(made), flush=True)
    return 0


def _email_problem(value: str) -> str | None:
    """Why `value` is not an email the service takes (one sentence), or None."""
    from pydantic import TypeAdapter, ValidationError

    from console.models.people import Email

    try:
        TypeAdapter(Email).validate_python(value)
    except ValidationError as exc:
        error = exc.errors()[0]
        return str((error.get("ctx") or {}).get("error", error["msg"]))
    return None


_NAME_MAX = 100


def _person_name_problem(option: str, value: str | None) -> str | None:
    from console.models.common import has_control_characters

    if value is None:
        return None
    if not value.strip() or len(value) > _NAME_MAX:
        return f"{option} must be 1 to {_NAME_MAX} characters."
    if has_control_characters(value):
        return f"{option} must not contain control characters."
    return None


def accept_invitation(args: argparse.Namespace) -> int:
    """Local service only: the operator accepts an invitation for its invitee, who becomes a
    member with the invitation's role (the user made if the data dir has none with its email).
    Logged as done by that user. Prints one JSON line: the member's and user's ids."""
    import uuid

    try:
        invitation_id = str(uuid.UUID(args.id))
    except ValueError:
        _fail("accept-invitation", f"the invitation id must be a UUID, not {args.id!r}.")
        return 2
    for option, value in (("--first-name", args.first_name), ("--last-name", args.last_name)):
        problem = _person_name_problem(option, value)
        if problem:
            return _fail("accept-invitation", problem)
    data_dir = Path(args.data_dir).expanduser() if args.data_dir else default_data_dir()
    from console.service.db import DB_FILE

    if not (data_dir / DB_FILE).is_file():  # never make a data dir only to find nothing in it
        return _fail("accept-invitation", f"{data_dir} holds no data of the local service.")
    store = _open_store("accept-invitation", data_dir)
    if isinstance(store, int):
        return store
    from console.service.store.acceptance import InvitationNotFound, InvitationRefused

    try:
        accepted = store.accept_invitation(
            invitation_id,
            first_name=args.first_name,
            last_name=args.last_name,
            mfa_enrolled=not args.no_mfa,
        )
    except InvitationNotFound as exc:
        _fail("accept-invitation", str(exc))
        return 3
    except InvitationRefused as exc:
        return _fail("accept-invitation", str(exc))
    finally:
        store.close()
    print(
        json.dumps(
            {
                "tenant_id": accepted.tenant_id,
                "member_id": accepted.member_id,
                "user_id": accepted.user_id,
                "role": accepted.role,
            }
        ),
        flush=True,
    )
    return 0
