"""The results of asynchronous reacts, kept for a day: what the background runs write and the
service's start and sweep tidy (the routes are console.service.api.reactions)."""

from __future__ import annotations

import logging

from console.service.provisioning import wall_now
from console.service.reacting import Answer, problem
from console.service.store import Store
from console.service.store import reactors as rows

log = logging.getLogger("console.service")

ABANDONED = problem(
    500,
    "The service stopped before the reactor's run ended.",
    {"error": ["The service stopped before the reactor's run ended."]},
)


def record(store: Store, request_id: str, answer: Answer) -> None:
    """What an asynchronous react answered, for `results/{requestId}` to tell."""
    with store.write() as conn:
        rows.finish_result(
            conn, request_id, http_status=answer.status, response=answer.to_json(), now=wall_now()
        )


def end_abandoned(store: Store) -> None:
    """Results still pending when the service starts: their runs ended with the process that
    ran them, so they fail (500) rather than stay pending for a day."""
    with store.write() as conn:
        count = rows.abandon_pending(conn, ABANDONED.to_json(), wall_now())
    if count:
        log.info("%d asynchronous react(s) had not ended when the service last stopped.", count)


def sweep(store: Store) -> None:
    """Deletes the results older than a day."""
    with store.write() as conn:
        removed = rows.sweep_results(conn, wall_now())
    if removed:
        log.info("Deleted %d asynchronous react result(s) older than a day.", removed)
