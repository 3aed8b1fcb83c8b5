"""A tenant of a few hundred applications for the access review's tests, made in about a
second: the unflagged fillers are written in one transaction through the service's own store
(as tests/benchmarks/seeding.py does), the applications the tests look at are created over
HTTP after them, so they are on the last page of the walk."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import httpx
from local_service import RunningService, TenantInfo

from console.clock import now
from console.models import ApplicationCreate
from console.service.api.applications import _rules
from console.service.store import Store
from console.service.store import applications as rows
from console.service.timestamps import stamp

FILLERS = 289
"""Unflagged private applications besides the interesting ones: 300 in all, three pages of 100."""

LATER = "2099-01-01T00:00:00+00:00"
PRIVATE_PERMISSIONS = (
    "token:create",
    "token:update",
    "token:read",
    "token:search",
    "token:delete",
    "token:use",
    "reactor:invoke",  # issue 35: the catalogue lets private applications invoke reactors
)


def _rule(transform: str, *permissions: str, priority: int = 1, container: str = "/pci/") -> Any:
    return {
        "description": f"{transform.capitalize()} {container}",
        "priority": priority,
        "container": container,
        "transform": transform,
        "permissions": list(permissions),
    }


SPECIAL: dict[str, dict[str, Any]] = {
    "Mgmt writer": {"type": "management", "permissions": ["proxy:read", "proxy:delete"]},
    "Mgmt reader": {"type": "management", "permissions": ["proxy:read", "application:read"]},
    "Key changer": {"type": "management", "permissions": ["application:update"]},
    "Revealer": {
        "type": "private",
        "permissions": ["token:create"],
        "rules": [_rule("reveal", "token:read", container="/bank/")],
    },
    "Masker": {
        "type": "private",
        "permissions": ["token:create"],
        "rules": [_rule("mask", "token:read"), _rule("redact", "token:search", priority=2)],
    },
    "Forever": {"type": "private", "permissions": ["token:read"], "expires_at": None},
    "Public all": {"type": "public", "permissions": ["token:create", "token:update"]},
    "Public some": {"type": "public", "permissions": ["token:create"]},
    "Private all": {
        "type": "private",
        "permissions": list(PRIVATE_PERMISSIONS[:3]),
        "rules": [_rule("redact", *PRIVATE_PERMISSIONS[3:])],
    },
    "Private most": {"type": "private", "permissions": list(PRIVATE_PERMISSIONS[:5])},
}
"""The applications the tests check, by name; each expires (in 2099) unless it says not."""

EXPECTED_FLAGS: dict[str, tuple[str, ...]] = {
    "Bootstrap management": ("management-write", "never-expires", "changes-keys"),
    "Mgmt writer": ("management-write",),
    "Mgmt reader": (),
    "Key changer": ("management-write", "changes-keys"),
    "Revealer": ("reveal",),
    "Masker": (),
    "Forever": ("never-expires",),
    "Public all": ("every-permission",),
    "Public some": (),
    "Private all": ("every-permission",),
    "Private most": (),
}


@dataclass(frozen=True)
class ReviewTenant:
    info: TenantInfo
    keys: list[str] = field(repr=False)
    """Every key the tenant's applications were created with (none may be shown)."""
    total: int = 0


def make_review_tenant(service: RunningService) -> ReviewTenant:
    info = service.new_tenant("Review tenant")
    moment = now()
    store = Store(service.data_dir)
    try:
        with store.write() as conn:
            for index in range(FILLERS):
                body = {
                    "name": f"Filler {index:03d}",
                    "type": "private",
                    "permissions": ["token:create"],
                    "expires_at": LATER,
                }
                payload = ApplicationCreate.parse(body, now=moment)
                rows.insert(
                    conn,
                    tenant_id=info.tenant_id,
                    name=payload.name,
                    type=payload.type,
                    permissions=payload.permissions,
                    rules=_rules(payload),
                    expires_at=LATER,
                    by=info.application_id,
                    at=stamp(moment - timedelta(seconds=FILLERS + 5 - index)),
                )
    finally:
        store.close()
    keys = [info.key]
    with httpx.Client(base_url=service.base_url, headers={"SVC-API-KEY": info.key}) as http:
        for name, fields in SPECIAL.items():
            body = {"name": name, "expires_at": LATER, **fields}
            if body["expires_at"] is None:
                del body["expires_at"]
            created = http.post("/applications", json=body)
            assert created.status_code == 201, created.text
            keys.append(created.json()["key"])
    return ReviewTenant(info, keys, 1 + FILLERS + len(SPECIAL))
