"""Bulk seeding of reactors straight through the service's storage layer, as seeding.py does
for applications.

A thousand POSTs would each wait out a provisioning; one write transaction takes a fraction
of a second. Each reactor goes through the same steps as `POST /reactors`: the body is
validated by `ReactorCreate.parse`, its version made (runtime permissions checked against
the catalogue) by the handler's own `_version`, and the row written by the store's
`reactors.insert`, provisioned (`active`), as a created reactor is once its provisioning
delay has passed. `check_seeded_like_api` proves a GET returns exactly what the API's would.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from console.clock import now
from console.models import ReactorCreate
from console.service.api.reactors import _version
from console.service.provisioning import Provisioning
from console.service.store import Store
from console.service.store import reactors as rows
from console.service.timestamps import stamp

CODE = """\
module.exports = async function (req) {
  const { args, configuration } = req;
  return { raw: { bin: String(args.card_number).slice(0, 8), region: configuration.REGION } };
};
"""


def reactor_body(index: int) -> dict[str, Any]:
    """A realistic `POST /reactors` body; the runtime varies by index (none, node-bt, node22
    with options)."""
    body: dict[str, Any] = {
        "name": f"Reactor {index:05d}",
        "code": CODE,
        "configuration": {"REGION": ("EU", "US", "APAC")[index % 3]},
    }
    match index % 3:
        case 1:
            body["runtime"] = {"image": "node-bt"}
        case 2:
            body["runtime"] = {
                "image": "node22",
                "timeout": 10,
                "resources": "standard",
                "permissions": ["token:read"],
            }
    return body


def seed_reactors(
    data_dir: Path,
    tenant_id: str,
    created_by: str,
    count: int,
    *,
    first: int = 1,
    moment: datetime | None = None,
) -> list[str]:
    """Writes `count` active reactors in one transaction; returns their ids in list order
    (creation times one second apart, ending a few seconds before now)."""
    moment = moment or now()
    start = moment - timedelta(seconds=count + 5)
    store = Store(data_dir)
    ids: list[str] = []
    try:
        with store.write() as conn:
            for offset in range(count):
                payload = ReactorCreate.parse(reactor_body(first + offset))
                row = rows.insert(
                    conn,
                    tenant_id,
                    name=payload.name,
                    application_id=None,
                    provisioning=Provisioning("active", _version(payload)),
                    by=created_by,
                    at=stamp(start + timedelta(seconds=offset)),
                )
                ids.append(row["id"])
    finally:
        store.close()
    return ids


_VARYING = ("id", "created_at", "modified_at")
"""What two creations of the same body may differ in."""


def check_seeded_like_api(
    base_url: str, key: str, data_dir: Path, tenant_id: str, created_by: str
) -> None:
    """Seeds a few reactors and POSTs the same bodies; once the created ones are provisioned,
    their GETs must be equal. Raises AssertionError naming the first difference."""
    indexes = range(9_990_001, 9_990_004)  # no runtime, node-bt, node22 with options
    seeded = seed_reactors(data_dir, tenant_id, created_by, len(indexes), first=indexes[0])
    with httpx.Client(base_url=base_url, headers={"SVC-API-KEY": key}, timeout=30) as http:
        for index, seeded_id in zip(indexes, seeded, strict=True):
            created = http.post("/reactors", json=reactor_body(index))
            assert created.status_code == 201, created.text
            via_api = _once_active(http, created.json()["id"])
            via_store = http.get(f"/reactors/{seeded_id}").json()
            for field in _VARYING:
                via_api.pop(field, None)
                via_store.pop(field, None)
            assert via_store == via_api, f"seeded {via_store} != created {via_api}"


def _once_active(http: httpx.Client, reactor_id: str, timeout: float = 30) -> dict[str, Any]:
    """The reactor once its provisioning ended (polled with a deadline)."""
    deadline = time.monotonic() + timeout
    while True:
        body: dict[str, Any] = http.get(f"/reactors/{reactor_id}").json()
        if body["state"] not in ("creating", "updating"):
            return body
        if time.monotonic() > deadline:
            raise AssertionError(f"the reactor stayed {body['state']}")
        time.sleep(0.05)  # polling the service with a deadline, not synchronising
