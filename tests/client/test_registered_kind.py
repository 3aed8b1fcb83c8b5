"""A kind registered in a test reaches the client's tables with no other change: its endpoint
words, permissions, 404 subjects and journal actions (console.kinds.endpoints,
console.client.endpoints, console.client.recording), the local index and `search --kind`,
and a resource group of its own (`client.collection(kind)`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from client_helpers import FAST_RETRY, closed_port_url, proxy_payload, unique

from console.cli import build_parser
from console.client import AdminClient
from console.client.endpoints import (
    feature,
    feature_by_endpoint,
    is_route_level,
    path_template,
    required_permission,
    subject,
)
from console.client.find import from_index
from console.client.index import LocalIndex, indexed_names
from console.client.recording import classify
from console.client.resources import Collection
from console.kinds import (
    APPLICATIONS,
    KINDS,
    PERMISSIONS,
    PROXIES,
    REACTOR_FORMULAS,
    TENANT,
    Features,
    IndexFacet,
    Kind,
    Models,
    Nouns,
)
from console.kinds.endpoints import permission_by_endpoint
from console.kinds.routes import Route, Routes
from console.search_cli import kind_word


def _models() -> Models:
    from console.models import Proxy

    return Models(Proxy)


ALERTS = Kind(
    key="alerts",
    path="/alerts",
    nouns=Nouns("alert", "alerts"),
    load_models=_models,
    permission="alert",
    features=Features(patch=True),
    name_filter=True,
    routes=Routes(
        (
            Route(
                "POST",
                "/{id}/deliveries/{deliveryId}",
                "update",
                "redelivering alerts",
                subject="delivery {deliveryId} of alert {id}",
                action="redeliver",
            ),
        )
    ),
    index=IndexFacet(name="alert-list"),
)
"""A kind only this test has; the local service does not serve it (the tables need not)."""


@pytest.fixture
def alerts() -> Iterator[Kind]:
    with KINDS.registered(ALERTS) as kind:
        yield kind


def test_its_standard_routes_come_from_its_path_permission_and_features(alerts: Kind) -> None:
    table = permission_by_endpoint()
    assert {route: p for route, p in table.items() if route[1].startswith("/alerts")} == {
        ("GET", "/alerts"): "alert:read",
        ("POST", "/alerts"): "alert:create",
        ("GET", "/alerts/{id}"): "alert:read",
        ("PUT", "/alerts/{id}"): "alert:update",
        ("PATCH", "/alerts/{id}"): "alert:update",
        ("DELETE", "/alerts/{id}"): "alert:delete",
        ("POST", "/alerts/{id}/deliveries/{deliveryId}"): "alert:update",
    }
    assert required_permission("patch", "/alerts/3f2c") == "alert:update"
    assert required_permission("POST", "/alerts/3f2c/deliveries/d1") == "alert:update"


def test_its_words_come_from_its_nouns(alerts: Kind) -> None:
    assert feature("GET", "/alerts?page=2") == "alerts"
    assert feature("POST", "/alerts") == "creating alerts"
    assert feature("POST", "/alerts/w1/deliveries/d1") == "redelivering alerts"
    assert feature("GET", "/alerts/w1") == "GET /alerts/{id}"
    assert feature_by_endpoint()[("POST", "/alerts")] == "creating alerts"
    assert path_template("/alerts/w1/deliveries/d1/") == "/alerts/{id}/deliveries/{deliveryId}"
    assert is_route_level("/alerts") and not is_route_level("/alerts/w1")
    assert subject("/alerts/w1") == "alert w1"
    assert subject("/alerts/w1/deliveries/d1") == "delivery d1 of alert w1"
    assert subject("/alerts") is None


def test_its_writes_are_classified_for_the_journal(alerts: Kind) -> None:
    assert classify("DELETE", "/alerts/w1") == ("alerts", "delete", "w1")
    assert classify("PATCH", "/alerts/w1") == ("alerts", "update", "w1")
    assert classify("POST", "/alerts/w1/deliveries/d1") == ("alerts", "redeliver", "w1")


def test_the_index_records_and_search_offers_it(
    alerts: Kind, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TENANT_CONSOLE_CACHE_DIR", str(tmp_path))
    assert indexed_names() == (
        "applications",
        "proxies",
        "formulas",
        "reactors",
        "webhooks",
        "alert-list",
    )
    index = LocalIndex.for_profile("p", "http://x")
    try:
        index.record_page("/alerts", [{"id": "w1", "name": "Orders hook"}])
        index.record_page("/proxies", [{"id": "p1", "name": "Orders proxy"}])
        assert [(r.kind, r.id) for r in index.search("orders")] == [
            ("proxies", "p1"),
            ("alert-list", "w1"),
        ]
        assert [r.kind for r in from_index(index, "orders", ["alert-list"]).rows] == ["alert-list"]
    finally:
        index.close()
    assert kind_word("alert-list") == "alert"
    args = build_parser().parse_args(["search", "orders", "--kind", "alert-list"])
    assert args.kind == "alert-list"


def test_its_tables_forget_it_when_it_goes() -> None:
    with KINDS.registered(ALERTS):
        assert ("GET", "/alerts") in permission_by_endpoint()
    assert ("GET", "/alerts") not in permission_by_endpoint()
    assert subject("/alerts/w1") is None
    assert "alert-list" not in indexed_names()
    assert classify("DELETE", "/alerts/w1") == ("alerts", "delete", "w1")


async def test_a_kind_without_a_typed_group_is_served_from_its_declaration(
    client: AdminClient,
) -> None:
    """A copy of the proxies' declaration (not the one `client.proxies` serves) gets a
    Collection of its own that lists, filters, creates, reads, updates and deletes."""
    assert client.collection(PROXIES) is client.proxies
    copy = dataclasses.replace(PROXIES, key="proxies_again")
    group = client.collection(copy)
    assert type(group) is Collection and group is client.collection(copy)
    name = unique("Generic")
    created = await group.create(proxy_payload(name=name))
    assert (await group.get(created.id)).name == name
    page = await group.list(name=name)
    assert [p.id for p in page.data] == [created.id]
    assert (await group.page_json(name=name))["data"][0]["id"] == str(created.id)
    assert [p.id async for p in group.iterate(ids=[created.id])] == [created.id]
    updated = await group.update(created.id, proxy_payload(name=name + " renamed"))
    assert updated.name == name + " renamed"
    await group.delete(created.id)
    assert (await group.list(name=name)).data == []


async def test_filters_and_changes_a_kind_lacks_are_refused_before_sending() -> None:
    """Nothing is sent (the service is a closed port): the declaration says no."""
    read_only = dataclasses.replace(PROXIES, features=Features(create=False, delete=False))
    async with AdminClient(closed_port_url(), "k", retry=FAST_RETRY) as client:
        with pytest.raises(ValueError, match="does not filter reactor formulas by id"):
            await client.collection(REACTOR_FORMULAS).page_json(ids=["3f2c"])
        with pytest.raises(ValueError, match="does not filter applications by name"):
            await client.collection(APPLICATIONS).list(name="x")
        with pytest.raises(ValueError, match="is not a paged collection"):
            client.collection(TENANT)
        with pytest.raises(ValueError, match="is not a paged collection"):
            client.collection(PERMISSIONS)
        group = client.collection(read_only)
        with pytest.raises(ValueError, match="does not create proxies"):
            await group.create(proxy_payload())
        with pytest.raises(ValueError, match="does not delete proxies"):
            await group.delete("3f2c")
