"""The receiver of `tenant-console webhooks listen`: deliveries in, checked, handed on.

`Receiver` is a bare ASGI application: it reads a POST's body (at most MAX_BODY bytes, else
413), checks `BT-SIGNATURE-VERSION` (v1) and `BT-SIGNATURE` against the service's public key
(console.webhooks.signing.verify), answers 400 to a delivery that does not verify (so the
sender sees it failed, and the service retries it) and 200 at once to one that does, and only
then hands it to its sink (`on_delivery`, or `on_refusal` for what it refused). It knows
nothing of profiles, registration or printing: a test drives it with a key pair of its own.

Why uvicorn with a bare ASGI callable rather than a server of our own on asyncio: uvicorn is
already a dependency (the local service runs on it), and its h11 protocol parses HTTP/1.1
strictly (request heads capped, chunked bodies, keep-alive, so the service's deliverer reuses
one connection), so no hand-written parser faces whatever reaches the port. Without FastAPI
(no routing, middleware or models before the answer) the path from a delivery's arrival to
its printed line is a few function calls, well inside the 100 ms the benchmark allows.
uvicorn's own signal handling is turned off (`ListenServer`): the command handles SIGINT and
SIGTERM itself, so that it removes the webhook it registered before it exits.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import time
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from console.models.webhooks import (
    SIGNATURE_HEADER,
    SIGNATURE_VERSION,
    SIGNATURE_VERSION_HEADER,
)
from console.webhooks import signing

if TYPE_CHECKING:
    import uvicorn
    from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey

log = logging.getLogger(__name__)

MAX_BODY = 1024 * 1024
"""The largest delivery taken (1 MiB; the service's events are a few hundred bytes)."""

FORWARDED_HEADERS = (SIGNATURE_HEADER, SIGNATURE_VERSION_HEADER, "Content-Type")
"""What a forward carries of the delivery's headers, besides its body verbatim."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


@dataclass(frozen=True)
class Arrival:
    """One verified delivery as it arrived: its bytes, the headers a forward carries (by
    their names in FORWARDED_HEADERS) and when it arrived (time.time())."""

    body: bytes
    headers: dict[str, str]
    arrived_at: float
    peer: str = ""


@dataclass(frozen=True)
class Refusal:
    """A request the receiver did not take: why (one sentence of our own, the sender's text
    in it escaped by the printer) and the status it answered."""

    reason: str
    status: int
    arrived_at: float
    peer: str = ""


def signature_problem(key: RSAPublicKey, headers: dict[str, list[str]], body: bytes) -> str | None:
    """Why the delivery (`headers` by lower-case name, `body` as received) is not one the
    service signed, or None when its signature verifies."""
    versions = headers.get(SIGNATURE_VERSION_HEADER.lower(), [])
    signatures = headers.get(SIGNATURE_HEADER.lower(), [])
    if not versions:
        return f"it has no {SIGNATURE_VERSION_HEADER} header"
    if len(versions) > 1 or len(signatures) > 1:
        return "it has more than one signature header"
    if versions[0] != SIGNATURE_VERSION:
        return f"its {SIGNATURE_VERSION_HEADER} is {versions[0]!r}, not {SIGNATURE_VERSION}"
    if not signatures:
        return f"it has no {SIGNATURE_HEADER} header"
    if not signing.verify(key, body, signatures[0]):
        return f"its {SIGNATURE_HEADER} does not verify with the service's public key"
    return None


def _peer(scope: Scope) -> str:
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else ""


class Receiver:
    """The ASGI application: see the module's docstring. `on_delivery` and `on_refusal` run
    on the event loop right after the answer is sent; they must be quick (print, queue)."""

    def __init__(
        self,
        key: RSAPublicKey,
        on_delivery: Callable[[Arrival], None],
        on_refusal: Callable[[Refusal], None],
        *,
        max_body: int = MAX_BODY,
    ) -> None:
        self.key = key
        self.on_delivery = on_delivery
        self.on_refusal = on_refusal
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # lifespan is off; websockets are not served
            return
        arrived_at = time.time()
        peer = _peer(scope)
        headers: dict[str, list[str]] = {}
        for name, value in scope.get("headers", []):
            headers.setdefault(name.decode("latin-1").lower(), []).append(value.decode("latin-1"))
        if scope.get("method") != "POST":
            await _answer(send, 405, b"POST a webhook delivery here.\n", [(b"allow", b"POST")])
            self.on_refusal(
                Refusal(f"it was a {scope.get('method')}, not a POST", 405, arrived_at, peer)
            )
            return
        body = await self._body(headers, receive)
        if body is None:
            await _answer(send, 413, b"The delivery is too large.\n")
            self.on_refusal(
                Refusal(f"its body is over {self.max_body} bytes", 413, arrived_at, peer)
            )
            return
        problem = signature_problem(self.key, headers, body)
        if problem is not None:
            await _answer(send, 400, b"The delivery's signature does not verify.\n")
            self.on_refusal(Refusal(problem, 400, arrived_at, peer))
            return
        await _answer(send, 200, b"")
        kept = {
            name: headers[name.lower()][0] for name in FORWARDED_HEADERS if name.lower() in headers
        }
        self.on_delivery(Arrival(body, kept, arrived_at, peer))

    async def _body(self, headers: dict[str, list[str]], receive: Receive) -> bytes | None:
        """The request's body, or None once it is over max_body (the rest is not read)."""
        declared = headers.get("content-length", [])
        if declared and declared[0].isdigit() and int(declared[0]) > self.max_body:
            return None
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the sender went away
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)


async def _answer(
    send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on `host` (an address or name) and `port` (0: a free one); OSError
    if it cannot be had. Bound before anything is registered, so its port can be."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


def listen_server(app: Receiver) -> uvicorn.Server:
    """A uvicorn server for `app` that leaves the signals to the command (serve it with
    `await server.serve(sockets=[bind(...)])`; set `server.should_exit` to stop it)."""
    import uvicorn

    class ListenServer(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            """uvicorn catches SIGINT and SIGTERM and raises them again once it stopped;
            the command's own handlers stop it instead (and remove the webhook first)."""
            yield

    config = uvicorn.Config(
        app,
        http="h11",
        ws="none",
        lifespan="off",
        log_config=None,
        access_log=False,
        server_header=False,
        timeout_graceful_shutdown=2,
    )
    return ListenServer(config)


@dataclass
class ServedReceiver:
    """What `serve_receiver` started: the server, its task and where it listens."""

    server: uvicorn.Server
    task: Any
    host: str
    port: int
    sockets: list[socket.socket] = field(default_factory=list)

    async def stop(self) -> None:
        """Stops accepting, lets answers in progress finish (at most 2 s), then returns."""
        self.server.should_exit = True
        try:
            await self.task
        except Exception:
            log.exception("The webhook receiver failed while stopping")


async def serve_receiver(app: Receiver, sock: socket.socket) -> ServedReceiver:
    """Starts serving `app` on the bound `sock` (connections already wait in its backlog)."""
    import asyncio

    server = listen_server(app)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    host, port = sock.getsockname()[:2]
    return ServedReceiver(server, task, host, port, [sock])
