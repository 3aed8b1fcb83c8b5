"""What `webhooks listen` prints of each delivery, and the forwarding of it.

A verified delivery is one line on standard output, written and flushed at once (scripts and
the benchmark read it as it comes): the arrival time, the event type, the object (its kind,
id and name), how long after the event it was delivered, the event's id; with `--format
json`, the delivery as received plus `"verified": true`, one JSON object per line. Everything
in it came from outside and is escaped (console.terminal_text) before a terminal sees it. A
refused request is one line on standard error: why, and what was answered; never its body.

`Forwarder` posts each printed delivery, in order and one at a time, to `--forward-to`: the
body verbatim with its signature headers and Content-Type, and says the answer (`→ 200`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Collection
from datetime import UTC, datetime
from typing import IO, TYPE_CHECKING, Any

from console.terminal_text import printable, printable_json

if TYPE_CHECKING:
    import httpx

    from console.webhooks.listen import Arrival, Refusal

log = logging.getLogger(__name__)

FORWARD_TIMEOUT = 10.0
"""Seconds a forward may take (connect, send, answer) before it is given up."""
FORWARD_QUEUE = 100
"""Deliveries waiting for their forward at most; beyond, one is not forwarded (said so)."""


def _clock(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M:%S") + "Z"


def _when(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _span(seconds: float) -> str:
    if seconds < 1:
        return f"{max(seconds, 0) * 1000:.0f} ms"
    if seconds < 120:
        return f"{seconds:.1f} s"
    return f"{seconds / 60:.0f} min"


def event_type_of(document: Any) -> str | None:
    """The event type a delivery claims (`event.type`), or None."""
    event = document.get("event") if isinstance(document, dict) else None
    kind = event.get("type") if isinstance(event, dict) else None
    return kind if isinstance(kind, str) else None


def event_line(document: Any, arrived_at: float) -> str:
    """The text line of one verified delivery (every part of it escaped)."""
    from console.models.webhooks import EVENT_OBJECTS

    event = document.get("event") if isinstance(document, dict) else None
    if not isinstance(event, dict):
        return f"{_clock(arrived_at)}  (a delivery with no event)"
    kind = event.get("type")
    parts = [_clock(arrived_at), printable(kind) if isinstance(kind, str) else "(no type)"]
    found = event.get("data")
    data: dict[str, Any] = found if isinstance(found, dict) else {}
    name = EVENT_OBJECTS.get(kind) if isinstance(kind, str) else None
    if name not in data:
        name = next((k for k in data if k != "actor"), None)
    subject = data.get(name) if name else None
    if isinstance(subject, dict):
        described = printable(str(name))
        if subject.get("id") is not None:
            described += f" {printable(str(subject['id']))}"
        if isinstance(subject.get("name"), str):
            described += f' "{printable(subject["name"])}"'
        parts.append(described)
    sent, happened = _when(document.get("delivered_at")), _when(event.get("timestamp"))
    if sent is not None and happened is not None:
        parts.append(f"delivered {_span((sent - happened).total_seconds())} after the event")
    if event.get("id") is not None:
        parts.append(f"[{printable(str(event['id']))}]")
    return "  ".join(parts)


def json_line(document: Any) -> str:
    """The `--format json` line: the delivery as received plus `"verified": true`."""
    shown = (
        {**document, "verified": True}
        if isinstance(document, dict)
        else {
            "delivery": document,
            "verified": True,
        }
    )
    return printable_json(shown)


class Printer:
    """The receiver's sink: prints what arrived (see the module's docstring), and hands each
    delivery it printed to the forwarder. `events`: print (and forward) only these types."""

    def __init__(
        self,
        *,
        json_format: bool = False,
        events: Collection[str] | None = None,
        out: IO[str],
        err: IO[str],
        forward: Callable[[Arrival, str], object] | None = None,
    ) -> None:
        self.json_format = json_format
        self.events = frozenset(events) if events else None
        self.out = out
        self.err = err
        self.forward = forward
        self.on_reader_gone: Callable[[], None] | None = None
        """Called once standard output's reader went away (`listen | head -1`)."""
        self.printed = 0
        self.refused = 0

    def delivery(self, arrival: Arrival) -> None:
        try:
            document = json.loads(arrival.body)
        except ValueError:  # verified, so it parsed once: cannot happen, yet never crash here
            log.exception("A verified delivery's body did not parse")
            return
        kind = event_type_of(document)
        if self.events is not None and kind not in self.events:
            return
        text = json_line(document) if self.json_format else event_line(document, arrival.arrived_at)
        if not self.line(text):
            return
        self.printed += 1
        if self.forward is not None:
            self.forward(arrival, printable(kind or "(no type)"))

    def line(self, text: str) -> bool:
        """`text` on standard output, flushed; False once its reader went away."""
        try:
            self.out.write(text + "\n")
            self.out.flush()
        except BrokenPipeError:
            if self.on_reader_gone is not None:
                self.on_reader_gone()
            return False
        return True

    def refusal(self, refusal: Refusal) -> None:
        self.refused += 1
        source = f" from {printable(refusal.peer)}" if refusal.peer else ""
        self.err.write(
            f"{_clock(refusal.arrived_at)}  refused a request{source}: "
            f"{printable(refusal.reason)} (answered {refusal.status})\n"
        )
        self.err.flush()

    def note(self, text: str) -> None:
        """A line of the command's own (forward results in JSON mode, status) on stderr."""
        self.err.write(text + "\n")
        self.err.flush()


def forward_outcome(status: int | None, error: BaseException | None) -> str:
    """`→ 200`, `→ connection refused`, `→ timed out`..."""
    if status is not None:
        return f"→ {status}"
    import httpx

    if isinstance(error, httpx.ConnectError):
        if _refused(error):
            return "→ connection refused"
        return f"→ could not connect ({printable(str(error)) or type(error).__name__})"
    if isinstance(error, httpx.TimeoutException):
        return f"→ timed out after {FORWARD_TIMEOUT:.0f} s"
    return f"→ failed ({type(error).__name__}: {printable(str(error))})"


def _refused(error: BaseException) -> bool:
    """Whether a ConnectionRefusedError is among the causes of `error` (httpx says only "All
    connection attempts failed")."""
    seen: set[int] = set()
    found: BaseException | None = error
    while found is not None and id(found) not in seen:
        if isinstance(found, ConnectionRefusedError):
            return True
        seen.add(id(found))
        found = found.__cause__ or found.__context__
    return False


class Forwarder:
    """Posts deliveries to `url` one at a time, in the order they arrived (a queue of at
    most FORWARD_QUEUE), each within FORWARD_TIMEOUT; `report` gets each outcome's line.
    Start it inside the running loop; `close()` stops it (what still waits is not sent)."""

    def __init__(
        self,
        url: str,
        report: Callable[[str], object],
        *,
        timeout: float = FORWARD_TIMEOUT,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        import httpx

        self.url = url
        self.report = report
        """Says one outcome's line (Printer.line on stdout, or Printer.note on stderr)."""
        self._client = client or httpx.AsyncClient(timeout=timeout, follow_redirects=False)
        self._queue: asyncio.Queue[tuple[Arrival, str]] = asyncio.Queue(FORWARD_QUEUE)
        self._task = asyncio.create_task(self._work())

    def submit(self, arrival: Arrival, label: str) -> None:
        try:
            self._queue.put_nowait((arrival, label))
        except asyncio.QueueFull:
            self.report(f"  {label} → not forwarded: {FORWARD_QUEUE} deliveries already wait")

    async def _work(self) -> None:
        while True:
            arrival, label = await self._queue.get()
            status: int | None = None
            error: BaseException | None = None
            try:
                response = await self._client.post(
                    self.url, content=arrival.body, headers=arrival.headers
                )
                status = response.status_code
            except Exception as failed:  # any failure of a forward is said, then the next goes
                log.info("Forwarding to %s failed", self.url, exc_info=True)
                error = failed
            self.report(f"  {label} {forward_outcome(status, error)}")

    async def close(self) -> None:
        waiting = self._queue.qsize()
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):  # the cancel just made
            await self._task
        await self._client.aclose()
        if waiting:
            self.report(f"{waiting} deliveries were not forwarded: listen stopped first")
