"""`client.logs` against the local service: a page as sent, every entry newest first by
cursor, the service's filters, the entity types."""

from __future__ import annotations

from typing import Any

from audit_helpers import ago

from console.models.logs import Log, LogEntityType


async def test_iterate_follows_the_cursor_newest_first(client, seed, counting) -> None:
    times = [ago(minutes=n) for n in range(1, 251)]
    ids = seed(times)
    entries = [e async for e in client.logs.iterate()]
    assert all(isinstance(e, Log) for e in entries)
    assert [e.entity_id for e in entries] == ids  # seeded newest first
    assert len({e.identity for e in entries}) == 250
    pages = counting.logs_requests()
    assert len(pages) == 3  # 100 + 100 + 50: the last page's `after` is null
    assert all(r.url.params["size"] == "100" for r in pages)
    assert pages[0].url.params["start"] == ""


async def test_a_page_is_the_envelope_as_sent(client, seed) -> None:
    seed([ago(minutes=3), ago(minutes=2), ago(minutes=1)])
    numbered = await client.logs.page(size=2)
    assert numbered["pagination"]["total_items"] == 3 and len(numbered["data"]) == 2
    by_cursor = await client.logs.page(size=2, start="")
    assert by_cursor["pagination"]["after"] and len(by_cursor["data"]) == 2
    rest = await client.logs.page(size=2, start=by_cursor["pagination"]["after"])
    assert len(rest["data"]) == 1 and rest["pagination"]["after"] is None


async def test_the_services_filters(client, seed) -> None:
    (proxy,) = seed([ago(hours=3)])
    seed([ago(hours=2)], entity_type="application")
    seed([ago(minutes=30)], entity_type="proxy")

    async def ids(**filters: Any) -> list[str | None]:
        return [e.entity_id async for e in client.logs.iterate(**filters)]

    assert len(await ids(entity_type="proxy")) == 2
    assert await ids(entity_id=proxy) == [proxy]
    assert len(await ids(start_date=ago(hours=2, minutes=30))) == 2
    assert await ids(end_date=ago(hours=2, minutes=30)) == [proxy]
    # A date-time as text goes as given.
    since = ago(hours=1).isoformat()
    assert len(await ids(start_date=since)) == 1


async def test_entity_types_name_the_registrys_kinds(client) -> None:
    types = await client.logs.entity_types()
    assert all(isinstance(t, LogEntityType) for t in types)
    values = {t.value: t.display_name for t in types}
    assert values["proxy"] == "Proxy" and "application" in values
