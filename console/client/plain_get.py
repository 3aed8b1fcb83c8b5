"""A GET of JSON with the standard library: the console's first page, before httpx loads.

Importing httpx and pydantic costs the console more start-up time than Textual itself, and
the first rows need neither. This reader takes the happy path only: one request, `200` with
a JSON body, or `None`. Anything else (an error status, a redirect, a proxy httpx would use,
TLS trouble, a timeout) returns `None`, and the caller asks AdminClient, which retries where
safe and explains every failure. It never raises, logs, or keeps the key.

http.client does the HTTP; the proxy decision, the CA bundle (SSL_CERT_FILE, SSL_CERT_DIR,
else certifi's) and TLS verification are the ones httpx makes, so both readers reach the
service the same way or this one steps aside.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import quote, urlsplit

from console.client.envelope import is_envelope, page_params
from console.client.headers import KEY_HEADER, USER_AGENT, checked_header_name, checked_key

if TYPE_CHECKING:
    import http.client

MAX_BODY = 16 * 1024 * 1024
"""A list page is a few kilobytes; anything near this is not an answer to read here."""

T = TypeVar("T")


def in_thread(read: Callable[[], T]) -> Future[T]:
    """`read()` in a thread of its own: with blocking sockets, the request goes on while the
    event loop is busy composing the screen, and the future is done the moment the answer is
    read (the loop need not run for that). A daemon thread: quitting never waits for a
    service that does not answer. If `read` raises, the future holds the exception."""
    future: Future[T] = Future()

    def run() -> None:
        try:
            future.set_result(read())
        except BaseException as exc:  # a reader that raises still completes its future
            future.set_exception(exc)

    threading.Thread(target=run, name="plain-get", daemon=True).start()
    return future


def read_page(
    base_url: str,
    api_key: str,
    path: str,
    page: int,
    size: int,
    *,
    timeout: float = 5.0,
    key_header: str = KEY_HEADER,
) -> dict[str, Any] | None:
    """One page of a list endpoint, as sent, if its envelope has the API's shape; else None."""
    params = page_params(page, size)
    data = read_json(base_url, api_key, path, params, timeout=timeout, key_header=key_header)
    return data if is_envelope(data) else None


def read_json(
    base_url: str,
    api_key: str,
    path: str,
    params: Sequence[tuple[str, str]] = (),
    *,
    timeout: float = 5.0,
    key_header: str = KEY_HEADER,
) -> Any | None:
    """The decoded JSON of `GET base_url + path?params`, or None if this reader cannot tell;
    `timeout` bounds the whole exchange. Blocking: call it in a thread (in_thread)."""
    try:
        return _get(base_url, api_key, path, params, timeout, key_header)
    except Exception:  # any failure: AdminClient will ask again and say what went wrong
        return None


def uses_proxy(scheme: str, host: str) -> bool:
    """Whether httpx would send this request through a proxy: `urllib`'s proxies (the
    environment's *_PROXY, and the system's on macOS and Windows) for the scheme or `all`,
    unless NO_PROXY (or the system's bypass list) exempts the host.

    Where only the environment can name a proxy (not macOS or Windows) and it names none,
    urllib.request is not even imported: this runs on the console's start-up path."""
    if sys.platform not in ("darwin", "win32") and not any(
        name.lower().endswith("_proxy") and value for name, value in os.environ.items()
    ):
        return False
    import urllib.request

    proxies = urllib.request.getproxies()
    if not (proxies.get(scheme) or proxies.get("all")):
        return False
    return not urllib.request.proxy_bypass(host)


def _get(
    base_url: str,
    api_key: str,
    path: str,
    params: Sequence[tuple[str, str]],
    timeout: float,
    key_header: str,
) -> Any | None:
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    if uses_proxy(parts.scheme, parts.hostname):
        return None
    api_key = checked_key(api_key)  # a key a header cannot carry: None, via read_json
    key_header = checked_header_name(key_header)
    import http.client  # in the reader's thread, beside Textual's import on the main one

    target = parts.path.rstrip("/") + path
    if params:
        target += "?" + "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in params)
    if parts.scheme == "https":
        connection: http.client.HTTPConnection = http.client.HTTPSConnection(
            parts.hostname, parts.port, timeout=timeout, context=_verified_context()
        )
    else:
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    # The whole exchange, not only each socket step, ends at the deadline: shutting the
    # socket down from the timer's thread fails whatever read or write is blocked.
    deadline = threading.Timer(timeout, _abort, (connection,))
    deadline.daemon = True
    deadline.start()
    started = time.monotonic()
    try:
        connection.request(
            "GET",
            target,
            headers={
                "Accept": "application/json",
                "Accept-Encoding": "identity",
                "User-Agent": USER_AGENT,
                key_header: api_key,
                "Connection": "close",
            },
        )
        response = connection.getresponse()
        body = _body_of(response)
    finally:
        deadline.cancel()
        connection.close()
    if body is None or time.monotonic() - started > timeout:
        return None
    return json.loads(body)


def _abort(connection: http.client.HTTPConnection) -> None:
    sock = connection.sock
    if sock is not None:
        with contextlib.suppress(OSError):  # already closed: nothing is blocked on it
            sock.shutdown(socket.SHUT_RDWR)


def _body_of(response: http.client.HTTPResponse) -> bytes | None:
    """The body of a clean `200` JSON answer, read whole; None for anything else."""
    if response.status != 200:
        return None
    media_type = (response.getheader("Content-Type") or "").split(";", 1)[0].strip().lower()
    if media_type != "application/json" and not media_type.endswith("+json"):
        return None
    if (response.getheader("Content-Encoding") or "identity").lower() != "identity":
        return None
    length = response.getheader("Content-Length")
    if length is not None and not (length.isdigit() and int(length) <= MAX_BODY):
        return None
    body = response.read(MAX_BODY + 1)
    if len(body) > MAX_BODY or (length is not None and len(body) != int(length)):
        return None
    return body


def _verified_context() -> Any:
    """What httpx verifies with by default: SSL_CERT_FILE, else SSL_CERT_DIR, else
    certifi's CAs, under the system's TLS rules."""
    import ssl

    if os.environ.get("SSL_CERT_FILE"):
        return ssl.create_default_context(cafile=os.environ["SSL_CERT_FILE"])
    if os.environ.get("SSL_CERT_DIR"):
        return ssl.create_default_context(capath=os.environ["SSL_CERT_DIR"])
    import certifi

    return ssl.create_default_context(cafile=certifi.where())
