"""The client's Application Keys methods and its key-feature detection, against the local
service (which has both keys and regenerate)."""

from __future__ import annotations

import logging

import pytest
from client_helpers import FAST_RETRY

from console.client import AdminClient, NotFound, Unauthorized
from console.client.key_features import KeyFeature
from console.models import ApplicationCreate


async def _application(client: AdminClient, permissions: list[str] | None = None):  # type: ignore[no-untyped-def]
    return await client.applications.create(
        ApplicationCreate.parse(
            {"name": "Keyed", "type": "management", "permissions": permissions or ["proxy:read"]}
        )
    )


async def test_typed_methods_create_list_get_revoke(client: AdminClient, service) -> None:  # type: ignore[no-untyped-def]
    app = await _application(client, ["application:read"])
    assert app.keys is not None and len(app.keys) == 1 and app.keys[0].version == "1"
    made = await client.application_keys.create(app.id)
    assert made.key and made.version == "2" and "***" in repr(made) and made.key not in repr(made)
    listed = await client.application_keys.list(app.id)
    assert [k.id for k in listed] == [app.keys[0].id, made.id]
    assert all(k.key is None for k in listed)
    one = await client.application_keys.get(app.id, made.id)
    assert one.id == made.id and one.key is None
    assert [k.id for k in await client.application_keys.list(app.id, ids=[made.id])] == [made.id]

    async with AdminClient(service.base_url, made.key, retry=FAST_RETRY) as with_new:
        assert (await with_new.applications.current()).id == app.id
        await client.application_keys.revoke(app.id, made.id)
        with pytest.raises(Unauthorized):
            await with_new.applications.current()
    with pytest.raises(NotFound, match=r"key .* of application"):
        await client.application_keys.get(app.id, made.id)


async def test_key_features_are_asked_once_per_connection(client: AdminClient, counting) -> None:  # type: ignore[no-untyped-def]
    first = await client.key_features()
    again = await client.key_features()
    assert first is again and first.kind is KeyFeature.BOTH
    assert first.keys is True and first.regenerate is True
    assert counting.total == 4  # two probes and two routes that exist nowhere, once


async def test_the_probes_change_nothing(client: AdminClient) -> None:
    before = [a.model_dump() for a in (await client.applications.list(size=100)).data]
    await client.key_features()
    after = [a.model_dump() for a in (await client.applications.list(size=100)).data]
    assert before == after


async def test_no_key_material_in_the_client_log(client: AdminClient, caplog) -> None:  # type: ignore[no-untyped-def]
    caplog.set_level(logging.DEBUG)
    app = await _application(client)
    made = await client.application_keys.create(app.id)
    await client.application_keys.list(app.id)
    await client.application_keys.revoke(app.id, made.id)
    assert made.key and made.key not in caplog.text
    assert app.key and app.key not in caplog.text
