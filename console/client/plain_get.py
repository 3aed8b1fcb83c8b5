"""A GET of JSON over a bare socket: the console's first page, before httpx loads.

Importing httpx and pydantic costs the console more start-up time than Textual itself, and
the first rows need neither. This reader takes the happy path only: one request, `200` with
a JSON body, or `None`. Anything else (an error status, a redirect, a proxy in the
environment, TLS trouble, a timeout) returns `None`, and the caller asks AdminClient, which
retries where safe and explains every failure. It never raises, logs, or keeps the key.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any, BinaryIO, TypeVar
from urllib.parse import quote, urlsplit

from console.client.envelope import is_envelope, page_params
from console.client.headers import KEY_HEADER, USER_AGENT, checked_header_name, checked_key

MAX_BODY = 16 * 1024 * 1024
"""A list page is a few kilobytes; anything near this is not an answer to read here."""
MAX_LINE = 64 * 1024

_PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy")

T = TypeVar("T")


def in_thread(read: Callable[[], T]) -> Future[T]:
    """`read()` in a thread of its own: with blocking sockets, the request goes on while the
    event loop is busy composing the screen, and the future is done the moment the answer is
    read (the loop need not run for that). A daemon thread: quitting never waits for a
    service that does not answer. `read` must not raise (read_json and read_page do not)."""
    future: Future[T] = Future()
    thread = threading.Thread(
        target=lambda: future.set_result(read()), name="plain-get", daemon=True
    )
    thread.start()
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
    `timeout` bounds each network step. Blocking: call it in a thread (in_thread)."""
    try:
        return _get(base_url, api_key, path, params, timeout, key_header)
    except Exception:  # any failure: AdminClient will ask again and say what went wrong
        return None


def _uses_proxy() -> bool:
    """httpx honours *_PROXY variables; with one set, only httpx may talk to the service."""
    names = {name.lower() for name, value in os.environ.items() if value}
    return any(name in names for name in _PROXY_VARIABLES)


def _get(
    base_url: str,
    api_key: str,
    path: str,
    params: Sequence[tuple[str, str]],
    timeout: float,
    key_header: str,
) -> Any | None:
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.hostname or _uses_proxy():
        return None
    api_key = checked_key(api_key)  # a key a header cannot carry: None, via read_json
    key_header = checked_header_name(key_header)
    tls = parts.scheme == "https"
    port = parts.port or (443 if tls else 80)
    target = parts.path.rstrip("/") + path
    if params:
        target += "?" + "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in params)
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    if parts.port is not None:
        host += f":{parts.port}"
    request = (
        f"GET {target} HTTP/1.1\r\nHost: {host}\r\nAccept: application/json\r\n"
        f"Accept-Encoding: identity\r\nUser-Agent: {USER_AGENT}\r\n"
        f"{key_header}: {api_key}\r\nConnection: close\r\n\r\n"
    ).encode("ascii")
    with contextlib.ExitStack() as closing:
        sock = closing.enter_context(socket.create_connection((parts.hostname, port), timeout))
        if tls:
            sock = closing.enter_context(
                _verified_context().wrap_socket(sock, server_hostname=parts.hostname)
            )
        sock.sendall(request)
        return _read_response(closing.enter_context(sock.makefile("rb")))


def _read_response(stream: BinaryIO) -> Any | None:
    fields = stream.readline(MAX_LINE).split(None, 2)
    if len(fields) < 2 or not fields[0].startswith(b"HTTP/1.") or fields[1] != b"200":
        return None
    headers: dict[str, str] = {}
    while True:
        line = stream.readline(MAX_LINE)
        if line in (b"\r\n", b"\n", b""):
            break
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    media_type = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media_type != "application/json" and not media_type.endswith("+json"):
        return None
    if headers.get("content-encoding", "identity").lower() != "identity":
        return None
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = _read_chunked(stream)
    elif "content-length" in headers:
        length = int(headers["content-length"])
        body = _read_exactly(stream, length) if 0 <= length <= MAX_BODY else None
    else:
        return None
    return json.loads(body) if body is not None else None


def _read_chunked(stream: BinaryIO) -> bytes | None:
    body = bytearray()
    while True:
        size = int(stream.readline(MAX_LINE).split(b";", 1)[0].strip(), 16)
        if size == 0:
            return bytes(body)
        if len(body) + size > MAX_BODY:
            return None
        chunk = _read_exactly(stream, size + 2)  # with the CRLF after each chunk
        if chunk is None:
            return None
        body += chunk[:-2]


def _read_exactly(stream: BinaryIO, length: int) -> bytes | None:
    data = stream.read(length)
    return data if len(data) == length else None


def _verified_context() -> Any:
    """What httpx verifies with by default: the system's TLS rules and certifi's CAs."""
    import ssl

    import certifi

    return ssl.create_default_context(cafile=certifi.where())
