"""Waiting for a reactor to be provisioned: after a save answers `creating` or `updating`,
the reactor is read again, at most once a second (each read goes through the client and its
request budget), until it is `active`, `failed`, or the wait's deadline passes. Whoever waits
keeps what it shows on screen meanwhile and is told each state read (`seen`)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from console.models.reactors import Reactor

log = logging.getLogger(__name__)

INTERVAL = 1.0
"""Seconds between two reads of the reactor: never more than one request a second."""
DEADLINE = 120.0
"""Seconds the console waits for a provisioning before it stops asking (the reactor keeps
being provisioned on the service; its list and detail show its state when read again)."""
FAILED_READS = 3
"""Reads that fail in a row before the wait gives up (the last reactor read is kept)."""


async def wait_provisioned(
    read: Callable[[], Awaitable[Reactor]],
    first: Reactor,
    seen: Callable[[Reactor, float], None],
    *,
    interval: float = INTERVAL,
    deadline: float = DEADLINE,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
) -> Reactor:
    """The reactor once no longer being provisioned, or the last one read when the deadline
    passed (still `creating`/`updating`: the caller says so) or reads kept failing.
    `seen(reactor, seconds waited)` after each read."""
    started = clock()
    current = first
    failures = 0
    while current.provisioning:
        waited = clock() - started
        if waited + interval > deadline:
            break
        await sleep(interval)
        try:
            current = await read()
        except Exception:
            failures += 1
            log.warning("Reading the reactor being provisioned failed", exc_info=True)
            if failures >= FAILED_READS:
                break
            continue
        failures = 0
        seen(current, clock() - started)
    return current


def provisioning_sentence(reactor: Reactor) -> str:
    """The failed provisioning's error as the service said it: code and message, plainly."""
    requested = reactor.requested
    code = (requested.error_code if requested else None) or "provisioning_failed"
    message = (requested.error_message if requested else None) or "The service gave no reason."
    if reactor.state == "failed":
        return f"The reactor could not be provisioned ({code}): {message}"
    return (
        f"The change could not be provisioned ({code}): {message} "
        "The previous version keeps serving."
    )
