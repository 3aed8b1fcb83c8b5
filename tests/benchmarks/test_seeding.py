"""The benchmark's bulk seeding writes exactly what `POST /applications` would."""

from __future__ import annotations

import httpx
from local_service import RunningService

from .seeding import check_seeded_like_api, seed_applications


def test_seeded_applications_read_back_like_created_ones(service: RunningService) -> None:
    tenant = service.new_tenant("Seeding")
    check_seeded_like_api(
        service.base_url, tenant.key, service.data_dir, tenant.tenant_id, tenant.application_id
    )


def test_seeded_applications_are_listed_in_order_with_the_right_total(
    service: RunningService,
) -> None:
    tenant = service.new_tenant("Seeding order")
    ids = seed_applications(service.data_dir, tenant.tenant_id, tenant.application_id, 120)
    headers = {"SVC-API-KEY": tenant.key}
    page = httpx.get(
        f"{service.base_url}/applications", params={"page": 2, "size": 50}, headers=headers
    ).json()
    assert page["pagination"]["total_items"] == 121  # and the bootstrap application
    assert [item["id"] for item in page["data"]] == ids[50:100]
    assert page["data"][0]["name"] == "Application 00051"
