"""Audit logs through the vendor's Python SDK (`basistheoryclient`): `client.logs.list(...)`
with its pager and filters, and `client.logs.get_entity_types()`, every answer read into the
SDK's models (issue 36)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from basis_theory.errors import BadRequestError, ForbiddenError
from basis_theory.types import Log, LogEntityType, LogPaginatedList, Proxy
from sdk_clients import SDK_HEADER, SdkTenant, python_client

from console.kinds import KINDS


@pytest.fixture(scope="module")
def bt(sdk_tenant: SdkTenant) -> Any:
    return python_client(sdk_tenant.base_url, sdk_tenant.management_key)


@pytest.fixture(scope="module")
def proxies(bt: Any) -> list[Proxy]:
    """Three proxies, one of them renamed and one deleted: seven entries beyond the
    module's own setup (its invoker application)."""
    made = [
        bt.proxies.create(name=f"Logged {i}", destination_url="https://echo.example.com")
        for i in range(3)
    ]
    bt.proxies.patch(made[0].id, name="Renamed")
    bt.proxies.delete(made[2].id)
    return made


def test_list_walks_every_entry_newest_first_into_the_sdks_models(
    bt: Any, sdk_tenant: SdkTenant, proxies: list[Proxy]
) -> None:
    entries = list(bt.logs.list(size=2))
    assert all(isinstance(entry, Log) for entry in entries)
    about_proxies = [e for e in entries if e.entity_type == "proxy"]
    assert [e.message for e in about_proxies] == [
        "Proxy deleted",
        "Proxy updated",
        "Proxy created",
        "Proxy created",
        "Proxy created",
    ]
    assert entries.index(about_proxies[-1]) < len(entries) - 1
    assert entries[-1].message == "Application created"  # the invoker, made first
    times = [entry.created_at for entry in entries]
    assert all(moment is not None and moment.tzinfo is not None for moment in times)
    assert times == sorted(times, reverse=True)  # type: ignore[type-var]
    assert {entry.tenant_id for entry in entries} == {sdk_tenant.tenant_id}
    assert {entry.actor_type for entry in entries} == {"application"}
    assert all(entry.id and uuid.UUID(entry.id) for entry in entries)


def test_the_pager_reads_pages_by_number_and_by_cursor(bt: Any, proxies: list[Proxy]) -> None:
    everything = list(bt.logs.list(size=100))
    pager = bt.logs.list(size=3)
    first = pager.response
    assert isinstance(first, LogPaginatedList)
    assert first.pagination is not None and first.pagination.total_items == len(everything)
    pages = [page.items for page in pager.iter_pages()]
    assert [e for page in pages for e in page] == everything
    # By cursor: the pager keeps `start` and counts pages after it, as the hosted service's.
    by_cursor = bt.logs.list(size=3, start="")
    assert by_cursor.response.pagination.after is not None
    assert list(by_cursor) == everything


def test_list_filters_by_entity_and_time(bt: Any, proxies: list[Proxy]) -> None:
    about_first = list(bt.logs.list(entity_id=proxies[0].id))
    assert [(e.operation, e.message) for e in about_first] == [
        ("update", "Proxy updated"),
        ("create", "Proxy created"),
    ]
    assert {e.entity_type for e in bt.logs.list(entity_type="proxy")} == {"proxy"}
    assert len(list(bt.logs.list(entity_type="proxy"))) == 5
    newest = next(iter(bt.logs.list(size=1)))
    assert newest.created_at is not None
    since = list(bt.logs.list(start_date=newest.created_at))
    assert since[0] == newest
    before = list(bt.logs.list(end_date=newest.created_at))
    assert newest not in before and len(before) + len(since) == len(list(bt.logs.list()))
    tomorrow = datetime.now(UTC) + timedelta(days=1)
    assert list(bt.logs.list(start_date=tomorrow)) == []


def test_a_bad_filter_is_a_bad_request_the_sdk_reads(bt: Any) -> None:
    with pytest.raises(BadRequestError) as raised:
        list(bt.logs.list(entity_id="not-a-uuid"))
    assert "entity_id" in (raised.value.body.errors or {})


def test_entity_types_read_into_the_sdks_models(bt: Any) -> None:
    types = bt.logs.get_entity_types()
    assert all(isinstance(item, LogEntityType) for item in types)
    assert LogEntityType(display_name="Proxy", value="proxy") in types
    assert {item.value for item in types} == {k.log_entity for k in KINDS if k.log_entity}


def test_a_key_without_log_read_is_forbidden(sdk_tenant: SdkTenant) -> None:
    import httpx

    made = httpx.post(
        f"{sdk_tenant.base_url}/applications",
        json={"name": "No logs", "type": "management", "permissions": ["proxy:read"]},
        headers={SDK_HEADER: sdk_tenant.management_key},
        timeout=30.0,
    )
    assert made.status_code == 201, made.text
    without = python_client(sdk_tenant.base_url, made.json()["key"])
    with pytest.raises(ForbiddenError):
        list(without.logs.list())
    with pytest.raises(ForbiddenError):
        without.logs.get_entity_types()
