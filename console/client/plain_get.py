"""A GET of JSON over a bare asyncio connection: the console's first page, before httpx loads.

Importing httpx and pydantic costs the console more start-up time than Textual itself, and
the first rows need neither. This reader takes the happy path only: one request, `200` with
a JSON body, or `None`. Anything else (an error status, a redirect, a proxy in the
environment, TLS trouble, a timeout) returns `None`, and the caller asks AdminClient, which
retries where safe and explains every failure. It never raises, logs, or keeps the key.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote, urlsplit

from console import __version__
from console.client.envelope import is_envelope, page_params

KEY_HEADER = "SVC-API-KEY"
MAX_BODY = 16 * 1024 * 1024
"""A list page is a few kilobytes; anything near this is not an answer to read here."""

_PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy")


async def get_json(
    base_url: str,
    api_key: str,
    path: str,
    params: Sequence[tuple[str, str]] = (),
    *,
    timeout: float = 5.0,
) -> Any | None:
    """The decoded JSON of `GET base_url + path?params`, or None if this reader cannot tell."""
    try:
        return await asyncio.wait_for(_get(base_url, api_key, path, params), timeout)
    except asyncio.CancelledError:
        raise
    except Exception:  # any failure: AdminClient will ask again and say what went wrong
        return None


async def get_page(
    base_url: str, api_key: str, path: str, page: int, size: int, *, timeout: float = 5.0
) -> dict[str, Any] | None:
    """One page of a list endpoint, as sent, if its envelope has the API's shape; else None."""
    data = await get_json(base_url, api_key, path, page_params(page, size), timeout=timeout)
    return data if is_envelope(data) else None


def _uses_proxy() -> bool:
    """httpx honours *_PROXY variables; with one set, only httpx may talk to the service."""
    names = {name.lower() for name, value in os.environ.items() if value}
    return any(name in names for name in _PROXY_VARIABLES)


async def _get(
    base_url: str, api_key: str, path: str, params: Sequence[tuple[str, str]]
) -> Any | None:
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.hostname or _uses_proxy():
        return None
    if any(ch < " " or ch == "\x7f" for ch in api_key) or not api_key.isascii():
        return None
    tls = parts.scheme == "https"
    port = parts.port or (443 if tls else 80)
    ssl_context = _verified_context() if tls else None
    target = parts.path.rstrip("/") + path
    if params:
        target += "?" + "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in params)
    host = parts.hostname if parts.port is None else f"{parts.hostname}:{parts.port}"
    if ":" in parts.hostname and not host.startswith("["):  # a bare IPv6 literal
        host = f"[{parts.hostname}]" if parts.port is None else f"[{parts.hostname}]:{port}"
    request = (
        f"GET {target} HTTP/1.1\r\nHost: {host}\r\nAccept: application/json\r\n"
        f"Accept-Encoding: identity\r\nUser-Agent: tenant-console/{__version__}\r\n"
        f"{KEY_HEADER}: {api_key}\r\nConnection: close\r\n\r\n"
    ).encode("ascii")
    reader, writer = await asyncio.open_connection(parts.hostname, port, ssl=ssl_context)
    try:
        writer.write(request)
        await writer.drain()
        return await _read_response(reader)
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()


async def _read_response(reader: asyncio.StreamReader) -> Any | None:
    status_line = await reader.readline()
    fields = status_line.split(None, 2)
    if len(fields) < 2 or not fields[0].startswith(b"HTTP/1.") or fields[1] != b"200":
        return None
    headers: dict[str, str] = {}
    while True:
        line = await reader.readline()
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
        body = await _read_chunked(reader)
    elif "content-length" in headers:
        length = int(headers["content-length"])
        if not 0 <= length <= MAX_BODY:
            return None
        body = await reader.readexactly(length)
    else:
        return None
    return json.loads(body) if body is not None else None


async def _read_chunked(reader: asyncio.StreamReader) -> bytes | None:
    body = bytearray()
    while True:
        size = int((await reader.readline()).split(b";", 1)[0].strip(), 16)
        if size == 0:
            return bytes(body)
        if len(body) + size > MAX_BODY:
            return None
        body += await reader.readexactly(size)
        await reader.readexactly(2)  # the CRLF after each chunk


def _verified_context() -> Any:
    """What httpx verifies with by default: the system's TLS rules and certifi's CAs."""
    import ssl

    import certifi

    return ssl.create_default_context(cafile=certifi.where())
