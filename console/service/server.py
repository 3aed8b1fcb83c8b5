"""Runs the app on uvicorn over a socket bound beforehand, and says when it listens.

Binding first lets `serve` report a port in use as one clear line, and lets `--port 0`
pick a free port whose number the `Listening on` line then tells.
"""

from __future__ import annotations

import socket
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import uvicorn

from console.models.contract import DEFAULT_KEY_HEADER
from console.models.logs import LOG_RETENTION_SECONDS
from console.service.app import create_app
from console.service.connections import (
    ACCEPT_BATCH,
    DEFAULT_MAX_CONNECTIONS,
    DEFAULT_REQUEST_TIMEOUT,
    LISTEN_BACKLOG,
    guarded_protocol,
)
from console.service.provisioning import DEFAULT_PROVISION_DELAY
from console.service.store import Store

if TYPE_CHECKING:
    from console.service.api.docs import ServiceRouter
    from console.service.delivery.settings import DeliverySettings

KEEP_ALIVE_SECONDS = 30
"""How long an idle kept-alive connection stays open: longer than the logs' follow interval
(5 s), so that a poll never goes out on a connection the service is just closing (and is sent
again, counting twice against the request budget); the client lets its own idle connections
go sooner (httpx: 5 s)."""


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on host:port; OSError if the address is taken or unusable."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # Accepted connections inherit this: without it, a response written in two parts
        # waits for the client's delayed ACK, about 40 ms on every keep-alive request.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        sock.listen(LISTEN_BACKLOG)
    except BaseException:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


class _AnnouncingServer(uvicorn.Server):
    """A uvicorn server that prints `Listening on URL` once it accepts connections."""

    def __init__(self, config: uvicorn.Config, url: str) -> None:
        super().__init__(config)
        self.url = url

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        # asyncio listened with `Config.backlog` (ACCEPT_BATCH, which also bounds how many
        # connections it accepts at a time); the kernel's queue may be long again.
        for sock in sockets or ():
            sock.listen(LISTEN_BACKLOG)
        if self.started:
            print(f"Listening on {self.url}", flush=True)


def run(
    store: Store,
    sock: socket.socket,
    *,
    rate_limit: int | None,
    key_header: str = DEFAULT_KEY_HEADER,
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
    max_connections: int = DEFAULT_MAX_CONNECTIONS,
    routers: Sequence[ServiceRouter] = (),
    provision_delay: float = DEFAULT_PROVISION_DELAY,
    allow_unisolated: bool = False,
    log_retention: int = LOG_RETENTION_SECONDS,
    webhook_settings: DeliverySettings | None = None,
) -> None:
    """Serves until interrupted (Ctrl+C or SIGTERM); `routers`, `provision_delay`,
    `allow_unisolated`, `log_retention` and `webhook_settings` as for create_app."""
    app = create_app(
        store,
        rate_limit=rate_limit,
        key_header=key_header,
        routers=routers,
        provision_delay=provision_delay,
        allow_unisolated=allow_unisolated,
        log_retention=log_retention,
        webhook_settings=webhook_settings,
    )
    host, port = sock.getsockname()[:2]
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_protocol(request_timeout, max_connections),
        backlog=ACCEPT_BATCH,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        log_level="info",
        access_log=True,
        server_header=False,
        timeout_graceful_shutdown=5,
        log_config=_log_config(),
    )
    _AnnouncingServer(config, url_of(sock)).run(sockets=[sock])


def _log_config() -> dict[str, Any]:
    """Uvicorn's logging, plus the service's own logger; access lines show paths (without
    query strings), never headers."""
    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = {**LOGGING_CONFIG, "loggers": dict(LOGGING_CONFIG["loggers"])}
    # The access line's request target loses its query string (console/service/access_log.py).
    config["filters"] = {
        **LOGGING_CONFIG.get("filters", {}),
        "path_only": {"()": "console.service.access_log.PathOnly"},
    }
    config["handlers"] = dict(LOGGING_CONFIG["handlers"])
    access = {**LOGGING_CONFIG["handlers"]["access"], "filters": ["path_only"]}
    config["handlers"]["access"] = access
    config["loggers"]["console.service"] = {
        "handlers": ["default"],
        "level": "INFO",
        "propagate": False,
    }
    return config


__all__ = ["bind", "run"]
