"""`/reactors/{id}/react`, `/react-async` and `/results/{requestId}`: invoking a reactor.

The code runs in the runner's sandbox (console.service.reacting), in a thread, never on the
event loop, and never more than a few at once: a react runs on its handler's worker thread,
SYNC_RUNS at a time; an asynchronous one in a thread of its own when its turn comes,
ASYNC_RUNS at a time, waiting on the event loop meanwhile. Each handler is a plain one with
the one preamble (`serving`): the request is authorized and the reactor read in one short
transaction, which has ended before the run starts; an asynchronous react's result is
written when it ends (console.service.react_results), and kept for a day.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import sqlite3
import threading
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import anyio
from fastapi import Depends, FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool

from console.kinds.builtin import REACTORS
from console.models.errors import field_errors
from console.models.reactors import AsyncReactResponse, ReactRequest, ReactResponse
from console.service import react_results
from console.service.api.common import found_or_404, not_found, raw_body
from console.service.api.docs import (
    AUTH,
    PATH_ID,
    RequestBody,
    ServiceRouter,
    item_route,
    route,
    tag_of,
)
from console.service.api.problems import PROBLEM_JSON, Problem, invalid
from console.service.api.serving import Served, serving
from console.service.provisioning import wall_now
from console.service.reacting import Answer, Reaction, prepare_next, problem, run
from console.service.store import Store
from console.service.store import reactors as rows

log = logging.getLogger("console.service")

SYNC_RUNS = 4
"""Reacts answered at once that run together; more wait their turn (holding their request's
worker thread, as any handler does while it works)."""
ASYNC_RUNS = 2
"""Asynchronous reacts that run together; more wait their turn without holding a thread."""
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
RESULT_NOT_FOUND = "asynchronous react result"


@dataclass
class Reactions:
    """The app's runs: their bounds, and the background ones still under way."""

    sync: threading.BoundedSemaphore = field(
        default_factory=lambda: threading.BoundedSemaphore(SYNC_RUNS)
    )
    background: anyio.CapacityLimiter | None = None
    """Made on the event loop, when the first background run starts."""
    tasks: set[asyncio.Task[None]] = field(default_factory=set)


async def _sweep_forever(store: Store) -> None:
    while True:
        try:
            await run_in_threadpool(react_results.sweep, store)
        except Exception:  # a failed sweep must not stop the service; the next one retries
            log.exception("The sweep of react results failed.")
        await asyncio.sleep(RESULTS_SWEEP_SECONDS)


@contextlib.asynccontextmanager
async def _reacting(app: FastAPI) -> AsyncIterator[None]:
    """The runs' bounds, the results of a previous run's unfinished reacts ended, and the
    daily sweep of old results, for as long as the app serves."""
    reactions = app.state.reactions = Reactions()
    store: Store = app.state.store
    await run_in_threadpool(react_results.end_abandoned, store)
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


def _reactions(app: FastAPI) -> Reactions:
    found = getattr(app.state, "reactions", None)
    if found is None:  # an app whose lifespan did not run
        found = app.state.reactions = Reactions()
    return found


def _invoker(served: Served) -> None:
    """403 unless the key holds `reactor:invoke` (or `token:use`)."""
    if not set(INVOKE_PERMISSIONS) & served.caller.permissions:
        raise Problem(403, f"The application lacks the {INVOKE_PERMISSIONS[0]} permission.")


def _reactor(served: Served) -> sqlite3.Row:
    row = rows.get(served.conn, served.tenant_id, served.path_id, served.clock.text)
    return found_or_404(row, REACTORS.nouns.singular)


def _reaction(served: Served) -> tuple[sqlite3.Row, Reaction]:
    """The caller's right to invoke, the reactor the path names and what its active version
    runs with the body's args: 409 if no version of it is active yet."""
    _invoker(served)
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
    if not isinstance(served.body, dict):  # (415 or 400 first for what is not JSON)
        raise invalid({"": ["The body must be a JSON object."]})
    try:
        body = ReactRequest.model_validate_json(served.raw, strict=True)
    except ValidationError as exc:
        raise invalid(field_errors(exc)) from None
    version = provisioning.serving
    reaction = Reaction.of(version.code, version.configuration, version.runtime, body.args)
    return row, reaction


def _respond(answer: Answer, background: BackgroundTask | None = None) -> JSONResponse:
    media_type = PROBLEM_JSON if answer.problem else "application/json"
    return JSONResponse(
        answer.body,
        status_code=answer.status,
        headers=answer.headers,
        media_type=media_type,
        background=background,
    )


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
def react(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    with serving(request, raw=raw, permission=None) as served:
        reaction = _reaction(served)[1]
    # The transaction has ended: the run holds nothing of the store.
    with _reactions(request.app).sync:
        answer = run(reaction, allow_unisolated=request.app.state.allow_unisolated)
    # The next react's engine process starts once this answer has been sent.
    return _respond(answer, BackgroundTask(prepare_next, reaction, answer))


def _run_in_background(store: Store, request_id: str, reaction: Reaction, allow: bool) -> None:
    try:
        answer = run(reaction, allow_unisolated=allow)
    except Exception:
        log.exception("An asynchronous react failed unexpectedly.")
        answer = problem(500, "The reactor could not be run; see the service's log.")
    react_results.record(store, request_id, answer)
    prepare_next(reaction, answer)


def _start_in_background(app: FastAPI, request_id: str, reaction: Reaction) -> None:
    """On the event loop: a task that runs the reaction in a thread when its turn comes."""
    reactions = _reactions(app)
    if reactions.background is None:
        reactions.background = anyio.CapacityLimiter(ASYNC_RUNS)
    work = functools.partial(
        _run_in_background, app.state.store, request_id, reaction, app.state.allow_unisolated
    )
    task = asyncio.get_running_loop().create_task(
        anyio.to_thread.run_sync(work, limiter=reactions.background)
    )
    reactions.tasks.add(task)
    task.add_done_callback(reactions.tasks.discard)


@router.post(
    REACT_ASYNC,
    **item_route(
        202,
        AsyncReactResponse,
        body=BODY,
        more_errors=(409,),
        summary="Invoke a reactor in the background",
    ),
)
def react_async(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    with serving(request, write=True, raw=raw, permission=None) as served:
        row, reaction = _reaction(served)
        request_id = rows.add_pending_result(served.conn, served.tenant_id, row["id"], wall_now())
    # Committed: the result's row exists before the run that writes it can start.
    anyio.from_thread.run_sync(_start_in_background, request.app, request_id, reaction)
    return JSONResponse({"asyncReactorRequestId": request_id}, status_code=202)


def _request_id(request: Request) -> str:
    """The path's `{requestId}`, canonical; one that is not a UUID is simply not found."""
    try:
        return str(uuid.UUID(request.path_params["requestId"]))
    except ValueError:
        raise not_found(RESULT_NOT_FOUND) from None


@router.get(
    RESULT,
    **item_route(
        200,
        ReactResponse,
        more_params=(REQUEST_ID,),
        summary="The result of an asynchronous react (202 while it runs)",
    ),
)
def get_result(request: Request) -> JSONResponse:
    with serving(request, permission=None) as served:
        _invoker(served)
        row = _reactor(served)
        found = rows.get_result(
            served.conn, served.tenant_id, row["id"], _request_id(request), wall_now()
        )
    if found is None:
        raise not_found(RESULT_NOT_FOUND)
    if found["status"] == "pending":
        return _respond(Answer(202, {"status": "pending"}))
    return _respond(Answer.from_json(json.loads(found["response"])))
