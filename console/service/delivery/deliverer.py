"""The deliverer: sends the outbox's deliveries, off every request's thread.

One thread of its own runs an asyncio loop with an httpx client: it is woken after a write
that queued deliveries commits (`wake`, what `app.state.wake_deliverer` calls) and looks for
due ones at least every `poll` seconds besides. It uses its own SQLite connection, and takes
the write lock only for the short update that settles an attempt, never while it sends:
a receiver, however slow or unreachable, never slows a request.

A delivery is POSTed as `{"event": <event>, "delivered_at": <now>}`, signed over exactly
that object (console.webhooks.signing). A 2xx answer delivers it; anything else is a failed
attempt, retried with back-off (DeliverySettings). A webhook whose attempts fail
`disable_after` times in a row is disabled, with the reason kept (`disabled_reason`) and an
audit log entry by the system; the hosted service e-mails its `notify_email`, the local
service sends no mail and logs that it would.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from console import __version__
from console.clock import frozen_now, now
from console.service.delivery import outbox
from console.service.delivery.settings import (
    KEEP_FINISHED_PER_WEBHOOK,
    KEEP_FINISHED_SECONDS,
    SWEEP_SECONDS,
    DeliverySettings,
)
from console.service.delivery.signing_key import SigningKeyError
from console.service.timestamps import stamp

if TYPE_CHECKING:
    import httpx

    from console.service.delivery.signing_key import SigningKey
    from console.service.store import Store

log = logging.getLogger("console.service")

USER_AGENT = f"tenant-console-webhooks/{__version__}"
EXCERPT_CHARACTERS = 120
"""At most this much of a failing answer's body is kept in `last_error`."""
STOP_SECONDS = 10.0


def _excerpt(text: str) -> str:
    from console.terminal_text import printable

    text = " ".join(text.split())
    shown = printable(text[:EXCERPT_CHARACTERS])
    return shown + ("…" if len(text) > EXCERPT_CHARACTERS else "")


def _why(exc: BaseException, timeout: float) -> str:
    """A failed attempt without an answer, in a few words (never the request's headers)."""
    import httpx

    if isinstance(exc, httpx.ConnectTimeout):
        return f"no connection within {timeout:g} s"
    if isinstance(exc, httpx.TimeoutException):
        return f"no answer within {timeout:g} s"
    if isinstance(exc, httpx.ConnectError):
        causes = list(_causes(exc))
        if any(isinstance(cause, ConnectionRefusedError) for cause in causes):
            return "connection refused"
        if any(isinstance(cause, socket.gaierror) for cause in causes):
            return "unknown host"
        innermost = causes[-1]
        return (
            _excerpt(f"cannot connect: {innermost.strerror or innermost}")
            if isinstance(innermost, OSError)
            else _excerpt(f"cannot connect: {exc}")
        )
    if isinstance(exc, httpx.RemoteProtocolError):
        return "the receiver closed the connection without an answer"
    return _excerpt(f"{type(exc).__name__}: {exc}")


def _causes(exc: BaseException) -> Iterator[BaseException]:
    """`exc` and the exceptions it was raised from (httpx wraps the socket's error twice)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _failed_reason(status: int | None, error: str, url: str, count: int) -> str:
    """The webhook's `disabled_reason`; its URL without the query string, which may hold a
    receiver's token (the reason is logged, as the access log never shows a query)."""
    last = error or f"HTTP {status}"
    shown = url.split("?", 1)[0]
    return f"Disabled after {count} failed deliveries in a row; the last: {last} ({shown})"


class Deliverer:
    """The service's deliverer (see the module): `start()`, `wake()`, `stop()`."""

    def __init__(self, store: Store, key: SigningKey, settings: DeliverySettings) -> None:
        self.store = store
        self.key = key
        self.settings = settings
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._woken: asyncio.Event | None = None
        self._stopping = False
        self._ready = threading.Event()
        self._in_flight: dict[str, asyncio.Task[None]] = {}
        """Webhook id -> its delivery being sent (one at a time per webhook)."""
        self._started = time.monotonic()
        self._frozen = frozen_now()
        self._key_refused = False
        """The signing key could not be used (a link in its place...): deliveries wait, and
        the deliverer looks again at each poll, not in a loop."""

    # -- control, from any thread ------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="webhook-deliverer", daemon=True)
        self._thread.start()
        self._ready.wait(STOP_SECONDS)

    def wake(self) -> None:
        """Deliveries were committed: look for due ones now (cheap; safe from any thread)."""
        loop, woken = self._loop, self._woken
        if loop is None or woken is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop just closed: nothing to wake
            loop.call_soon_threadsafe(woken.set)

    def stop(self) -> None:
        """Stops sending; deliveries in flight are abandoned and stay pending (sent again
        when the service next runs: receivers are told to expect duplicates)."""
        self._stopping = True
        self.wake()
        thread = self._thread
        if thread is not None:
            thread.join(STOP_SECONDS)
            if thread.is_alive():
                log.warning("The webhook deliverer did not stop within %g s.", STOP_SECONDS)

    # -- the deliverer's thread --------------------------------------------------------------

    def _schedule_now(self) -> datetime:
        """The clock deliveries are due by: the project's, which runs on from a frozen time
        (TENANT_CONSOLE_FROZEN_NOW) so that retries still come due in a frozen demo."""
        if self._frozen is None:
            return datetime.now(UTC)
        return self._frozen + timedelta(seconds=time.monotonic() - self._started)

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(self._serve(loop))
        except Exception:
            log.exception("The webhook deliverer stopped on an unexpected error.")
        finally:
            self._ready.set()
            with contextlib.suppress(Exception):
                loop.run_until_complete(loop.shutdown_asyncgens())
            self._loop = None
            loop.close()
            self.store.close()  # this thread's connection

    async def _serve(self, loop: asyncio.AbstractEventLoop) -> None:
        import httpx

        self._woken = asyncio.Event()
        self._loop = loop
        self._ready.set()
        timeout = httpx.Timeout(self.settings.timeout)
        limits = httpx.Limits(max_connections=self.settings.max_in_flight * 2)
        last_sweep = -SWEEP_SECONDS
        async with httpx.AsyncClient(
            timeout=timeout, limits=limits, follow_redirects=False, trust_env=False
        ) as client:
            while not self._stopping:
                self._woken.clear()
                if time.monotonic() - last_sweep >= SWEEP_SECONDS:
                    last_sweep = time.monotonic()
                    self._guarded(self._sweep)
                self._guarded(lambda: self._dispatch(client))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._woken.wait(), self._wait_seconds())
            for task in list(self._in_flight.values()):
                task.cancel()
            if self._in_flight:
                await asyncio.gather(*self._in_flight.values(), return_exceptions=True)

    def _guarded(self, step: Any) -> None:
        try:
            step()
        except Exception:  # a failed round must not stop the deliverer; the next one retries
            log.exception("The webhook deliverer's round failed.")

    def _wait_seconds(self) -> float:
        """Until the next poll, or sooner when a retry comes due before it (for a webhook
        with nothing in flight: one that has is looked at again when its delivery ends)."""
        wait = self.settings.poll
        if self._key_refused or len(self._in_flight) >= self.settings.max_in_flight:
            return wait
        with self.store.read() as conn:
            upcoming = outbox.next_due(conn, self._in_flight)
        if upcoming is not None:
            due_in = (datetime.fromisoformat(upcoming) - self._schedule_now()).total_seconds()
            wait = min(wait, max(due_in, 0.0))
        return max(wait, 0.005)

    def _dispatch(self, client: httpx.AsyncClient) -> None:
        free = self.settings.max_in_flight - len(self._in_flight)
        if free <= 0:
            return
        with self.store.read() as conn:
            found = outbox.due(conn, stamp(self._schedule_now()), self._in_flight, free)
        if not found:
            return
        try:
            self.key.private()  # made here, when first needed
        except SigningKeyError as exc:  # the service's own fault: deliveries wait for a fix
            if not self._key_refused:
                log.error("Webhook deliveries wait: %s", exc)
            self._key_refused = True
            return
        self._key_refused = False
        for delivery in found:
            task = asyncio.ensure_future(self._deliver(client, delivery))
            self._in_flight[delivery.webhook_id] = task

    async def _deliver(self, client: httpx.AsyncClient, delivery: outbox.Due) -> None:
        status: int | None = None
        error = ""
        try:
            status, error = await self._send(client, delivery)
            self._settle(delivery, status, error)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("Sending or settling webhook delivery %d failed.", delivery.seq)
        finally:
            self._in_flight.pop(delivery.webhook_id, None)
            if self._woken is not None:
                self._woken.set()  # a slot is free, and this webhook may have more to send

    async def _send(
        self, client: httpx.AsyncClient, delivery: outbox.Due
    ) -> tuple[int | None, str]:
        """One attempt: its answer's status (None without one) and, if it failed, why."""
        import httpx

        from console.models.webhooks import (
            SIGNATURE_HEADER,
            SIGNATURE_VERSION,
            SIGNATURE_VERSION_HEADER,
        )
        from console.webhooks.signing import sign, stable_json

        body = {"event": delivery.event, "delivered_at": stamp(now())}
        headers = {
            SIGNATURE_HEADER: sign(self.key.private(), body),
            SIGNATURE_VERSION_HEADER: SIGNATURE_VERSION,
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
        }
        try:
            async with client.stream(
                "POST", delivery.url, content=stable_json(body), headers=headers
            ) as response:
                if 200 <= response.status_code < 300:
                    return response.status_code, ""
                excerpt = b""
                async for chunk in response.aiter_bytes():
                    excerpt += chunk
                    if len(excerpt) >= EXCERPT_CHARACTERS * 4:
                        break
                text = _excerpt(excerpt.decode("utf-8", errors="replace"))
                shown = f"HTTP {response.status_code}" + (f": {text}" if text else "")
                return response.status_code, shown
        except httpx.HTTPError as exc:
            return None, _why(exc, self.settings.timeout)

    def _settle(self, delivery: outbox.Due, status: int | None, error: str) -> None:
        at = stamp(now())
        if not error and status is not None:
            with self.store.write() as conn:
                outbox.delivered(conn, delivery.seq, delivery.webhook_id, status, at)
            return
        retry_at = self._schedule_now() + timedelta(
            seconds=self.settings.backoff(delivery.attempts + 1)
        )
        disabled = None
        with self.store.write() as conn:
            failed = outbox.failed_attempt(
                conn,
                delivery.seq,
                delivery.webhook_id,
                status=status,
                error=error,
                at=at,
                retry_at=stamp(retry_at),
                max_attempts=self.settings.max_attempts,
            )
            count = failed.failures or 0
            if failed.enabled and count >= self.settings.disable_after:
                reason = _failed_reason(status, error, delivery.url, count)
                disabled = outbox.disable(conn, delivery.webhook_id, reason, at)
                if disabled is not None:
                    _record_disabled(conn, delivery.webhook_id, disabled, count, at)
        if disabled is not None:
            self._announce(delivery.webhook_id, disabled, reason)
        elif failed.given_up:
            log.warning(
                "Webhook delivery %d to webhook %s failed %d times; given up: %s",
                delivery.seq,
                delivery.webhook_id,
                failed.attempts,
                error,
            )

    def _announce(self, webhook_id: str, disabled: outbox.Disabled, reason: str) -> None:
        log.warning("Webhook %s disabled. %s", webhook_id, reason)
        if disabled.notify_email:
            log.warning(
                "The hosted service would now e-mail %s that webhook %s was disabled; "
                "the local service sends no mail.",
                disabled.notify_email,
                webhook_id,
            )

    def _sweep(self) -> None:
        kept_since = stamp(self._schedule_now() - timedelta(seconds=KEEP_FINISHED_SECONDS))
        at = stamp(now())
        with self.store.write() as conn:
            dropped = outbox.drop_pending(conn, at)
            removed = outbox.sweep(conn, kept_since, KEEP_FINISHED_PER_WEBHOOK)
        if dropped:
            log.info("Dropped %d pending webhook deliveries of disabled webhooks.", dropped)
        if removed:
            log.info("Deleted %d finished webhook deliveries.", removed)


def _record_disabled(
    conn: Any, webhook_id: str, disabled: outbox.Disabled, count: int, at: str
) -> None:
    """The audit log entry of a webhook the service disabled (by the system)."""
    from console.kinds import WEBHOOKS
    from console.service.changes import ACTOR_SYSTEM, Actor, Change, record

    entity = WEBHOOKS.log_entity or WEBHOOKS.key
    message = f"Webhook disabled after {count} failed deliveries in a row"
    change = Change(
        disabled.tenant_id, entity, webhook_id, "update", message, Actor(None, ACTOR_SYSTEM), at
    )
    record(conn, change)


__all__ = ["USER_AGENT", "Deliverer"]
