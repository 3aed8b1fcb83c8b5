"""The benchmark's bulk seeding of reactors writes exactly what `POST /reactors` would."""

from __future__ import annotations

import httpx
from local_service import RunningService

from .reactor_seeding import check_seeded_like_api, seed_reactors


def test_seeded_reactors_read_back_like_created_ones(service: RunningService) -> None:
    tenant = service.new_tenant("Reactor seeding")
    check_seeded_like_api(
        service.base_url, tenant.key, service.data_dir, tenant.tenant_id, tenant.application_id
    )


def test_seeded_reactors_are_listed_in_order_with_the_right_total(
    service: RunningService,
) -> None:
    tenant = service.new_tenant("Reactor seeding order")
    ids = seed_reactors(service.data_dir, tenant.tenant_id, tenant.application_id, 120)
    headers = {"SVC-API-KEY": tenant.key}
    page = httpx.get(
        f"{service.base_url}/reactors", params={"page": 2, "size": 50}, headers=headers
    ).json()
    assert page["pagination"]["total_items"] == 120
    assert [item["id"] for item in page["data"]] == ids[50:100]
    assert page["data"][0]["name"] == "Reactor 00051"
    assert {item["state"] for item in page["data"]} == {"active"}
