"""client.reactors against a hosted-shaped service that has reactors and no formulas (as the
hosted service is now): read, merge patch, react, react-async and its result, ids checked
before a path, and runs never journalled; and code_surfaces() on it and on the local service."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from client_helpers import FAST_RETRY
from hosted_service import (
    ASYNC_REQUEST_ID,
    FORMULAS_RETIRED,
    KEY,
    REACTED,
    REACTOR_ID,
    RUNNER_ID,
    HostedService,
)

from console.client import AdminClient, NotFound, NotOffered, UnsafePath
from console.journal.store import ChangeJournal
from console.models import ReactorPatch


@pytest.fixture
def hosted() -> Iterator[HostedService]:
    with HostedService.running(retired=FORMULAS_RETIRED) as service:
        yield service


def client_of(hosted: HostedService) -> AdminClient:
    return AdminClient(hosted.base_url, KEY, retry=FAST_RETRY)


async def test_a_reactor_reads_with_its_runtime_and_application(hosted: HostedService) -> None:
    async with client_of(hosted) as client:
        page = await client.reactors.list(name="Card")
        reactor = await client.reactors.get(REACTOR_ID)
        assert client.collection(reactor_kind()) is client.reactors
    assert [r.name for r in page.data] == ["Card enrichment"]
    assert reactor.state == "active"
    assert reactor.runtime is not None and reactor.runtime.permissions == ["token:read"]
    assert reactor.application is not None and str(reactor.application.id) == RUNNER_ID
    assert hosted.requests[0].query == {"page": ["1"], "size": ["20"], "name": ["Card"]}


def reactor_kind():  # type: ignore[no-untyped-def]
    from console.kinds import REACTORS

    return REACTORS


async def test_patch_sends_a_merge_patch_of_only_what_was_given(hosted: HostedService) -> None:
    async with client_of(hosted) as client:
        answer = await client.reactors.patch(
            REACTOR_ID, ReactorPatch(name="Renamed", configuration={"API_KEY": None})
        )
    assert answer is None  # 204, as the SDKs expect
    sent = hosted.requests[-1]
    assert sent.method == "PATCH"
    assert sent.headers["content-type"] == "application/merge-patch+json"
    assert sent.body == {"name": "Renamed", "configuration": {"API_KEY": None}}


async def test_react_answers_what_the_code_returned(hosted: HostedService) -> None:
    async with client_of(hosted) as client:
        response = await client.reactors.react(REACTOR_ID, {"card": "4242"})
    assert response.raw == REACTED["raw"]
    sent = hosted.requests[-1]
    assert (sent.method, sent.path, sent.body) == (
        "POST",
        f"/reactors/{REACTOR_ID}/react",
        {"args": {"card": "4242"}},
    )


async def test_react_async_then_result_pending_then_done(hosted: HostedService) -> None:
    async with client_of(hosted) as client:
        request_id = await client.reactors.react_async(REACTOR_ID, {"n": 1})
        assert request_id == ASYNC_REQUEST_ID
        pending = await client.reactors.result(REACTOR_ID, request_id)
        hosted.results_ready = True
        done = await client.reactors.result(REACTOR_ID, request_id)
    assert pending.pending and not pending.done and pending.response is None
    assert done.done and done.response is not None and done.response.raw == REACTED["raw"]


async def test_ids_are_checked_before_any_path(hosted: HostedService) -> None:
    async with client_of(hosted) as client:
        for call in (
            client.reactors.react("../tenants/self"),
            client.reactors.react_async("a/b"),
            client.reactors.result(REACTOR_ID, ".."),
            client.reactors.patch("..", {"name": "x"}),
        ):
            with pytest.raises(UnsafePath):
                await call
    assert hosted.requests == []


async def test_react_is_never_journalled_nor_repeated(
    hosted: HostedService, tmp_path: Path
) -> None:
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    async with client_of(hosted) as client:
        client.record_changes(journal, profile=None, origin="console")
        await client.reactors.react(REACTOR_ID, {})
        await client.reactors.react_async(REACTOR_ID, {})
        await client.reactors.patch(REACTOR_ID, {"name": "Journalled"})
    assert [(c.kind, c.action) for c in journal.list()] == [("reactors", "update")]
    posts = [r for r in hosted.requests if r.method == "POST"]
    assert len(posts) == 2


async def test_an_unknown_reactor_is_not_found(hosted: HostedService) -> None:
    async with client_of(hosted) as client:
        with pytest.raises(NotFound):
            await client.reactors.react("3e4d5c6b-0000-4000-8000-00000000ffff", {})


async def test_code_surfaces_of_a_service_with_only_reactors(hosted: HostedService) -> None:
    async with client_of(hosted) as client:
        assert await client.code_surfaces() == frozenset({"reactors"})
        asked = len(hosted.requests)
        assert await client.code_surfaces() == frozenset({"reactors"})  # kept
        assert len(hosted.requests) == asked == 2
        with pytest.raises(NotOffered) as missing:
            await client.reactor_formulas.list()
    assert "reactor formulas" in str(missing.value)


async def test_code_surfaces_of_a_service_with_only_formulas() -> None:
    retired = {("GET", "/reactors"), ("POST", "/reactors")}
    with HostedService.running(retired=retired) as hosted:
        async with client_of(hosted) as client:
            assert await client.code_surfaces() == frozenset({"formulas"})


async def test_a_surface_not_decided_is_taken_as_offered_and_asked_again() -> None:
    with HostedService.running() as hosted:
        hosted.keys = {}  # every answer a 401: nothing decided
        async with client_of(hosted) as client:
            assert await client.code_surfaces() == frozenset({"formulas", "reactors"})
            assert await client.code_surfaces() == frozenset({"formulas", "reactors"})
        assert len(hosted.requests) == 4


async def test_code_surfaces_of_the_local_service(client: AdminClient) -> None:
    """The local service has both."""
    assert await client.code_surfaces() == frozenset({"formulas", "reactors"})


async def test_a_reactor_that_throws_is_a_reactor_failure(client: AdminClient) -> None:
    from console.client import ReactorFailed

    reactor = await client.reactors.create(
        {"name": "Thrower", "code": "module.exports = async () => { throw new Error('no'); };"}
    )
    with pytest.raises(ReactorFailed) as failed:
        await client.reactors.react(reactor.id, {})
    assert failed.value.status == 500 and "no" in str(failed.value)
    request_id = await client.reactors.react_async(reactor.id, {})
    for _ in range(200):  # each answer is a request: bounded, no sleep needed for pacing
        result = await client.reactors.result(reactor.id, request_id)
        if result.done:
            break
        await asyncio.sleep(0.05)
    assert result.error is not None and result.error.status == 500
    with pytest.raises(NotFound):
        await client.reactors.result(reactor.id, "5c2d1e0f-0000-4000-8000-0000000000ff")
