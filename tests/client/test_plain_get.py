"""The console's first-page reader: the happy path against the real service, None for the rest.

Everything that is not a clean `200` with a JSON page must come back as None (never raise),
so the console asks AdminClient, which explains the failure.
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest
from client_stub import Drop, Hang, Respond

from console.client import AdminClient, plain_get


async def get_json(*args: Any, **kwargs: Any) -> Any:
    """read_json in a thread: the stub servers answer from this test's event loop."""
    return await asyncio.to_thread(plain_get.read_json, *args, **kwargs)


async def get_page(*args: Any, **kwargs: Any) -> Any:
    return await asyncio.to_thread(plain_get.read_page, *args, **kwargs)


async def test_a_page_reads_as_the_typed_client_sees_it(service: Any, tenant: Any) -> None:
    page = await get_page(service.base_url, tenant.key, "/applications", 1, 20)
    assert page is not None
    async with AdminClient(service.base_url, tenant.key) as client:
        typed = await client.applications.list(page=1, size=20)
        as_sent = await client.applications.page_json(page=1, size=20)
    assert page == as_sent
    assert [item["id"] for item in page["data"]] == [str(a.id) for a in typed.data]
    assert page["pagination"]["total_items"] == typed.pagination.total_items


async def test_query_values_are_encoded(service: Any, tenant: Any) -> None:
    params = [("application_type", "public")]
    found = await get_json(service.base_url, tenant.key, "/permissions", params)
    assert found and all("public" in p["application_types"] for p in found)
    odd = [("name", "a b&c=d*")]
    page = await get_json(service.base_url, tenant.key, "/proxies", odd)
    assert page is not None and page["data"] == []


@pytest.mark.parametrize(
    ("path", "key"),
    [
        ("/applications", "not-the-key-at-all-0123456789"),  # 401
        ("/nowhere", None),  # 404
    ],
)
async def test_an_error_status_is_none(service: Any, tenant: Any, path: str, key: Any) -> None:
    assert await get_json(service.base_url, key or tenant.key, path) is None


async def test_a_refused_connection_is_none() -> None:
    with socket.socket() as probe:  # a port that nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert await get_json(f"http://127.0.0.1:{port}", "k" * 20, "/permissions") is None


@pytest.mark.parametrize(
    "action",
    [
        Drop(),
        Respond(200, None),  # no body
        Respond(200, {"pagination": {}}),  # not a page envelope (for read_page)
        Respond(200, "text", headers={"Content-Type": "text/html"}),
        Respond(200, {"data": [], "pagination": {}}, headers={"Content-Encoding": "gzip"}),
        Respond(302, None, headers={"Location": "https://elsewhere.example/"}),
    ],
)
async def test_anything_else_is_none(stub: Any, action: Any) -> None:
    server = await stub(action)
    assert await get_page(server.base_url, "k" * 20, "/applications", 1, 50) is None


async def test_a_silent_service_is_none_after_the_timeout(stub: Any) -> None:
    server = await stub(Hang())
    found = await get_json(server.base_url, "k" * 20, "/permissions", timeout=0.2)
    assert found is None


async def test_the_request_carries_the_key_and_no_more(stub: Any) -> None:
    envelope = {
        "data": [{"id": "x"}],
        "pagination": {"page_number": 1, "page_size": 50, "total_pages": 1, "total_items": 1},
    }
    server = await stub(Respond(200, envelope))
    page = await get_page(server.base_url + "/base/", "k" * 20, "/proxies", 2, 50)
    assert page == envelope
    (seen,) = server.requests
    assert (seen.method, seen.target) == ("GET", "/base/proxies?page=2&size=50")
    assert seen.headers["svc-api-key"] == "k" * 20
    assert seen.headers["accept"] == "application/json"


async def test_in_thread_is_done_without_the_event_loop(service: Any, tenant: Any) -> None:
    future = plain_get.in_thread(
        lambda: plain_get.read_page(service.base_url, tenant.key, "/applications", 1, 5)
    )
    page = future.result(timeout=30)  # blocks this loop: the thread needs none of it
    assert page is not None and page["pagination"]["page_size"] == 5


async def test_a_chunked_answer_is_read(unused_port_server: Any) -> None:
    body = b'{"data": [], "pagination": '
    rest = b'{"page_number": 1, "page_size": 5, "total_pages": 0, "total_items": 0}}'
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in (body, rest))
    answer = (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n" + chunks + b"0\r\n\r\n"
    )
    base_url = await unused_port_server(answer)
    page = await get_page(base_url, "k" * 20, "/applications", 1, 5)
    assert page is not None and page["pagination"]["page_size"] == 5


@pytest.mark.parametrize("variable", ["HTTP_PROXY", "ALL_PROXY", "all_proxy"])
async def test_a_proxy_httpx_would_use_leaves_it_to_httpx(
    service: Any, tenant: Any, monkeypatch: pytest.MonkeyPatch, variable: str
) -> None:
    monkeypatch.setenv(variable, "http://proxy.invalid:3128")
    assert await get_json(service.base_url, tenant.key, "/permissions") is None


@pytest.mark.parametrize(
    "environment",
    [
        {"HTTPS_PROXY": "http://proxy.invalid:3128"},  # for https only: httpx goes direct
        {"HTTP_PROXY": "http://proxy.invalid:3128", "NO_PROXY": "127.0.0.1"},
        {"ALL_PROXY": "http://proxy.invalid:3128", "no_proxy": "*"},
    ],
)
async def test_a_proxy_httpx_would_not_use_is_not_used_here_either(
    service: Any, tenant: Any, monkeypatch: pytest.MonkeyPatch, environment: dict[str, str]
) -> None:
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert await get_json(service.base_url, tenant.key, "/permissions") is not None


def test_the_deadline_covers_the_whole_exchange() -> None:
    """A service that trickles bytes never lets one socket step time out; the deadline holds."""
    import socket
    import threading
    import time

    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def trickle() -> None:
        connection, _ = listener.accept()
        connection.recv(65536)
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n")
        while not stop.is_set():
            connection.sendall(b"X-Slow: 1\r\n")
            stop.wait(0.1)
        connection.close()

    threading.Thread(target=trickle, daemon=True).start()
    base_url = f"http://127.0.0.1:{listener.getsockname()[1]}"
    started = time.monotonic()
    try:
        assert plain_get.read_json(base_url, "k" * 20, "/permissions", timeout=0.5) is None
        assert time.monotonic() - started < 3
    finally:
        stop.set()
        listener.close()


def test_a_reader_that_raises_still_completes_its_future() -> None:
    def broken() -> None:
        raise RuntimeError("boom")

    future = plain_get.in_thread(broken)
    with pytest.raises(RuntimeError, match="boom"):
        future.result(timeout=10)


@pytest.fixture
async def unused_port_server() -> Any:
    """A server that answers every connection with the given raw bytes."""
    servers: list[asyncio.Server] = []

    async def start(answer: bytes) -> str:
        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.readuntil(b"\r\n\r\n")
            writer.write(answer)
            await writer.drain()
            writer.close()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        servers.append(server)
        host, port = server.sockets[0].getsockname()[:2]
        return f"http://{host}:{port}"

    yield start
    for server in servers:
        server.close()
        await server.wait_closed()
