"""`/reactors/{id}/react`, `/react-async` and `/results/{requestId}`: invoking a reactor.

The code runs in the runner's sandbox (console.service.reacting), in a thread: never on the
event loop, and never more than a few at once (SYNC_RUNS for reacts answered at once,
ASYNC_RUNS for those run in the background), waiting their turn without holding a thread.
The request is authorized and the reactor read in one short transaction before the run; an
asynchronous react's result is written when it ends, and kept for a day.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import sqlite3
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import anyio
from fastapi import Depends, FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from console.kinds.builtin import REACTORS
from console.models.reactors import AsyncReactResponse, ReactRequest, ReactResponse
from console.service.api.common import found_or_404, not_found, raw_body
from console.service.api.docs import AUTH, PATH_ID, RequestBody, ServiceRouter, route, tag_of
from console.service.api.problems import PROBLEM_JSON, Problem, invalid
from console.service.api.serving import Served, serving
from console.service.provisioning import wall_now
from console.service.reacting import Answer, Reaction, problem, run
from console.service.store import Store
from console.service.store import reactors as rows

log = logging.getLogger("console.service")

SYNC_RUNS = 4
"""Reacts answered at once that run together; more wait their turn."""
ASYNC_RUNS = 2
"""Asynchronous reacts that run together (the brief's bound); more wait their turn."""
RESULTS_SWEEP_SECONDS = 3600.0

INVOKE_PERMISSIONS = ("reactor:invoke", "token:use")
"""Either lets a key invoke reactors (`token:use` as the hosted service still accepts)."""

BODY = RequestBody(ReactRequest)
REACT = REACTORS.item_path("{id}") + "/react"
REACT_ASYNC = REACTORS.item_path("{id}") + "/react-async"
RESULT = REACTORS.item_path("{id}") + "/results/{requestId}"
REQUEST_ID = {
    "name": "requestId",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "format": "uuid"},
}
RUN_ERRORS = (*AUTH, 404, 409, 422, 500, 503)

ABANDONED = problem(
    500,
    "The service stopped before the reactor's run ended.",
    {"error": ["The service stopped before the reactor's run ended."]},
).to_json()


@dataclass
class Reactions:
    """The app's runs: their bounds, and the background ones still under way."""

    sync: anyio.CapacityLimiter = field(default_factory=lambda: anyio.CapacityLimiter(SYNC_RUNS))
    background: anyio.CapacityLimiter = field(
        default_factory=lambda: anyio.CapacityLimiter(ASYNC_RUNS)
    )
    tasks: set[asyncio.Task[None]] = field(default_factory=set)


def _reactions(app: FastAPI) -> Reactions:
    found = getattr(app.state, "reactions", None)
    if found is None:  # an app whose lifespan did not run (made in a test)
        found = app.state.reactions = Reactions()
    return found


def _end_abandoned(store: Store) -> None:
    with store.write() as conn:
        count = rows.abandon_pending(conn, ABANDONED, wall_now())
    if count:
        log.info("%d asynchronous react(s) had not ended when the service last stopped.", count)


def _sweep_results(store: Store) -> None:
    with store.write() as conn:
        removed = rows.sweep_results(conn, wall_now())
    if removed:
        log.info("Deleted %d asynchronous react result(s) older than a day.", removed)


async def _sweep_forever(store: Store) -> None:
    while True:
        try:
            await run_in_threadpool(_sweep_results, store)
        except Exception:  # a failed sweep must not stop the service; the next one retries
            log.exception("The sweep of react results failed.")
        await asyncio.sleep(RESULTS_SWEEP_SECONDS)


@contextlib.asynccontextmanager
async def _reacting(app: FastAPI) -> AsyncIterator[None]:
    """The runs' bounds, the results of a previous run's unfinished reacts ended, and the
    daily sweep of old results, for as long as the app serves."""
    reactions = app.state.reactions = Reactions()
    store: Store = app.state.store
    await run_in_threadpool(_end_abandoned, store)
    sweeper = asyncio.create_task(_sweep_forever(store))
    try:
        yield
    finally:
        sweeper.cancel()
        for task in list(reactions.tasks):
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sweeper


router = ServiceRouter(tags=[tag_of(REACTORS)], lifespan=_reacting, bodies=(BODY,))


def _invoker(served: Served) -> None:
    """403 unless the key holds `reactor:invoke` (or `token:use`)."""
    if not set(INVOKE_PERMISSIONS) & served.caller.permissions:
        raise Problem(403, f"The application lacks the {INVOKE_PERMISSIONS[0]} permission.")


def _reactor(served: Served) -> sqlite3.Row:
    row = rows.get(served.conn, served.tenant_id, served.path_id, served.clock.text)
    return found_or_404(row, REACTORS.nouns.singular)


def _reaction(served: Served) -> tuple[sqlite3.Row, Reaction]:
    """The reactor the path names and what its active version runs with the body's args:
    409 if no version of it is active yet."""
    row = _reactor(served)
    provisioning = rows.provisioning_of(row)
    if not provisioning.has_served:
        why = ""
        error = (provisioning.requested or {}).get("error_message")
        if error:
            why = f" Its provisioning failed: {error}"
        raise Problem(
            409,
            f"The reactor is not active (state {provisioning.state}): there is no version of "
            f"it to run yet.{why}",
        )
    body = served.body
    if not isinstance(body, dict):
        raise invalid({"": ["The body must be a JSON object."]})
    serving_version = provisioning.serving
    reaction = Reaction.of(
        serving_version.code,
        serving_version.configuration,
        serving_version.runtime,
        body.get("args"),
    )
    return row, reaction


def _respond(answer: Answer) -> JSONResponse:
    media_type = PROBLEM_JSON if answer.problem else "application/json"
    return JSONResponse(
        answer.body, status_code=answer.status, headers=answer.headers, media_type=media_type
    )


def _prepare_sync(request: Request, raw: bytes) -> Reaction:
    with serving(request, raw=raw, permission=None) as served:
        _invoker(served)
        return _reaction(served)[1]


@router.post(
    REACT,
    **route(
        200,
        ReactResponse,
        body=BODY,
        params=(PATH_ID,),
        errors=RUN_ERRORS,
        summary="Invoke a reactor and wait for its answer",
    ),
)
async def react(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    reaction = await run_in_threadpool(_prepare_sync, request, raw)
    allow = request.app.state.allow_unisolated
    answer = await anyio.to_thread.run_sync(
        functools.partial(run, reaction, allow_unisolated=allow),
        limiter=_reactions(request.app).sync,
    )
    return _respond(answer)


def _prepare_async(request: Request, raw: bytes) -> tuple[str, Reaction]:
    with serving(request, write=True, raw=raw, permission=None) as served:
        _invoker(served)
        row, reaction = _reaction(served)
        request_id = rows.add_pending_result(served.conn, served.tenant_id, row["id"], wall_now())
        return request_id, reaction


def _run_in_background(store: Store, request_id: str, reaction: Reaction, allow: bool) -> None:
    try:
        answer = run(reaction, allow_unisolated=allow)
    except Exception:
        log.exception("An asynchronous react failed unexpectedly.")
        answer = problem(500, "The reactor could not be run; see the service's log.")
    with store.write() as conn:
        rows.finish_result(
            conn,
            request_id,
            http_status=answer.status,
            response=answer.to_json(),
            now=wall_now(),
        )


@router.post(
    REACT_ASYNC,
    **route(
        202,
        AsyncReactResponse,
        body=BODY,
        params=(PATH_ID,),
        errors=(*AUTH, 404, 409),
        summary="Invoke a reactor in the background",
    ),
)
async def react_async(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    request_id, reaction = await run_in_threadpool(_prepare_async, request, raw)
    app = request.app
    reactions = _reactions(app)
    work = (app.state.store, request_id, reaction, app.state.allow_unisolated)
    task = asyncio.create_task(
        anyio.to_thread.run_sync(_run_in_background, *work, limiter=reactions.background)
    )
    reactions.tasks.add(task)
    task.add_done_callback(reactions.tasks.discard)
    return JSONResponse({"asyncReactorRequestId": request_id}, status_code=202)


def _result(request: Request) -> Answer:
    with serving(request, permission=None) as served:
        _invoker(served)
        row = _reactor(served)
        found = rows.get_result(
            served.conn,
            served.tenant_id,
            row["id"],
            _request_id(request),
            wall_now(),
        )
        if found is None:
            raise not_found("asynchronous react result")
        if found["status"] == "pending":
            return Answer(202, {"status": "pending"})
        return Answer.from_json(_loaded(found["response"]))


def _request_id(request: Request) -> str:
    """The path's `{requestId}`, canonical; one that is not a UUID is simply not found."""
    try:
        return str(uuid.UUID(request.path_params["requestId"]))
    except ValueError:
        raise not_found("asynchronous react result") from None


def _loaded(text: str) -> dict[str, Any]:
    return json.loads(text)


@router.get(
    RESULT,
    **route(
        200,
        ReactResponse,
        params=(PATH_ID, REQUEST_ID),
        errors=(*AUTH, 404),
        summary="The result of an asynchronous react (202 while it runs)",
    ),
)
def get_result(request: Request) -> JSONResponse:
    return _respond(_result(request))
