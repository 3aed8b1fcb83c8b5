"""Bulk seeding of applications straight through the service's storage layer.

Ten thousand POSTs would take a minute; one write transaction takes about a second. Each
application goes through the same steps as `POST /applications`: the request body is
validated by `ApplicationCreate.parse`, its rules are stored by the handler's own `_rules`,
and the row is written by the store's `applications.insert`, so a GET returns exactly what
the API would have returned had it created them. `check_seeded_like_api` proves it.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from console.clock import now
from console.models import ApplicationCreate
from console.service.api.applications import _rules
from console.service.store import Store
from console.service.store import applications as rows
from console.service.timestamps import stamp

_RULE = {
    "description": "Read customer cards, masked",
    "priority": 1,
    "container": "/pci/customers/",
    "transform": "mask",
    "permissions": ["token:read"],
}


def application_body(index: int, moment: datetime) -> dict[str, Any]:
    """A realistic `POST /applications` body; types, grants, rules and expiry vary by index
    (an expiry is a year after `moment`)."""
    kind = ("private", "public", "private", "management")[index % 4]
    body: dict[str, Any] = {"name": f"Application {index:05d}", "type": kind}
    if kind == "private":
        body["permissions"] = ["token:create", "token:read", "token:search"]
        if index % 3 == 0:
            body["rules"] = [_RULE]
    elif kind == "public":
        body["permissions"] = ["token:create"]
    else:
        body["permissions"] = ["application:read", "proxy:read"]
    if index % 10 == 0:
        body["expires_at"] = stamp(moment.replace(microsecond=0) + timedelta(days=365))
    return body


def seed_applications(
    data_dir: Path,
    tenant_id: str,
    created_by: str,
    count: int,
    *,
    first: int = 1,
    moment: datetime | None = None,
) -> list[str]:
    """Writes `count` applications in one transaction; returns their ids in list order.

    Creation times are one second apart, ending a few seconds before now, so the API lists
    them in index order (it orders by creation time, then id).
    """
    moment = moment or now()
    start = moment - timedelta(seconds=count + 5)
    store = Store(data_dir)
    ids: list[str] = []
    try:
        with store.write() as conn:
            for offset in range(count):
                index = first + offset
                body = application_body(index, moment)
                payload = ApplicationCreate.parse(body, now=moment)
                row, _key = rows.insert(
                    conn,
                    tenant_id=tenant_id,
                    name=payload.name,
                    type=payload.type,
                    permissions=payload.permissions,
                    rules=_rules(payload),
                    expires_at=stamp(payload.expires_at) if payload.expires_at else None,
                    by=created_by,
                    at=stamp(start + timedelta(seconds=offset)),
                )
                ids.append(row["id"])
    finally:
        store.close()
    return ids


_VARYING = ("id", "created_at", "modified_at", "key")
"""What two creations of the same body may differ in."""


def check_seeded_like_api(
    base_url: str, key: str, data_dir: Path, tenant_id: str, created_by: str
) -> None:
    """Seeds a few applications and POSTs the same bodies; their GETs must be equal.

    Raises AssertionError naming the first difference. Leaves the created objects behind
    (run it on a tenant of its own).
    """
    indexes = range(9_990_001, 9_990_013)  # every type, rules, expiry
    moment = now()
    seeded = seed_applications(
        data_dir, tenant_id, created_by, len(indexes), first=indexes[0], moment=moment
    )
    headers = {"SVC-API-KEY": key}
    with httpx.Client(base_url=base_url, headers=headers, timeout=30) as http:
        for index, seeded_id in zip(indexes, seeded, strict=True):
            created = http.post("/applications", json=application_body(index, moment))
            assert created.status_code == 201, created.text
            via_api = http.get(f"/applications/{created.json()['id']}").json()
            via_store = http.get(f"/applications/{seeded_id}").json()
            for field in _VARYING:
                via_api.pop(field, None)
                via_store.pop(field, None)
            for body in (via_api, via_store):  # each has its first key: its id and time vary
                body["keys"] = [
                    {k: v for k, v in key.items() if k not in ("id", "created_at")}
                    for key in body.get("keys", [])
                ]
            assert via_store == via_api, f"seeded {via_store} != created {via_api}"
        listed = http.get("/applications", params={"id": seeded[0]}).json()["data"]
        assert [item["id"] for item in listed] == [seeded[0]]
