"""Issue 33: `apply` waits out a 429 on a create and completes. A 429 means the service
refused the request without acting on it, so the create is sent again after Retry-After
(the one case a POST is repeated); no real time is waited (an injected sleep)."""

from __future__ import annotations

import http.server
import json
import threading

import httpx
from estate_helpers import Tenant

from console.cli import main
from console.client import AdminClient, RetryPolicy
from console.client.budget import RequestBudget
from console.estate.apply import apply_plan
from console.estate.document import FORMAT, checked
from console.estate.plan import compute_plan
from console.estate.tenant import read_tenant


class RefusesCreates(httpx.AsyncBaseTransport):
    """The real local service behind it; the first `refusals` POSTs to /applications are
    answered 429 with Retry-After and never reach the service (that is what a 429 is)."""

    def __init__(self, refusals: int, retry_after: str) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.refusals = refusals
        self.retry_after = retry_after
        self.posts: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            self.posts.append(request.url.path)
            if request.url.path == "/applications" and self.refusals > 0:
                self.refusals -= 1
                return httpx.Response(
                    429,
                    headers={"Retry-After": self.retry_after},
                    json={"title": "Too Many Requests", "status": 429},
                )
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


async def test_apply_waits_out_a_429_on_a_create_and_completes(service) -> None:
    prod_info = service.new_tenant("Prod")
    prod = Tenant(service.base_url, prod_info.key)
    waits: list[float] = []
    now = [1000.0]

    async def sleep(seconds: float) -> None:  # the budget's wait: recorded, and no real time
        waits.append(seconds)
        now[0] += seconds

    transport = RefusesCreates(refusals=2, retry_after="7")
    apps = [
        {"name": "Auditor", "type": "private", "permissions": ["token:read"]},
        {"name": "Web", "type": "private", "permissions": ["token:create"]},
    ]
    source = checked({"format": FORMAT, "applications": apps}, "the file")
    client = AdminClient(
        service.base_url,
        prod_info.key,
        transport=transport,
        budget=RequestBudget(None, clock=lambda: now[0], sleep=sleep),
    )
    try:
        async with client:
            plan = compute_plan(source, await read_tenant(client))
            result = await apply_plan(client, plan)
            assert result.complete, result.error
            assert result.done == ["created application Auditor", "created application Web"]
            assert [k.application for k in result.new_keys] == ["Auditor", "Web"]
        # Refused twice, then sent again: three POSTs for Auditor, one for Web; each
        # application created exactly once, after the service's Retry-After was waited out.
        assert transport.posts == ["/applications"] * 4
        assert [len(prod.named("/applications", n)) for n in ("Auditor", "Web")] == [1, 1]
        assert waits == [7.0, 7.0]  # each Retry-After waited out, before the create again
    finally:
        prod.close()


async def test_a_create_refused_429_every_time_stops_after_its_tries(service, monkeypatch):
    from console.estate import apply as apply_module

    monkeypatch.setattr(apply_module, "RATE_LIMITED_TRIES", 3)
    prod_info = service.new_tenant("Prod")

    async def sleep(seconds: float) -> None:
        return None

    transport = RefusesCreates(refusals=1000, retry_after="0")
    source = checked(
        {
            "format": FORMAT,
            "applications": [{"name": "A", "type": "private", "permissions": ["token:read"]}],
        },
        "the file",
    )
    client = AdminClient(
        service.base_url, prod_info.key, transport=transport, retry=RetryPolicy(sleep=sleep)
    )
    async with client:
        plan = compute_plan(source, await read_tenant(client))
        result = await apply_plan(client, plan)
    assert not result.complete
    assert "Too many requests" in result.error
    assert transport.posts == ["/applications"] * 3


class _Refusing(http.server.BaseHTTPRequestHandler):
    """Forwards to the local service; answers the first POST /applications 429 itself."""

    service_url = ""
    refusals: list[int] = []
    posts: list[str] = []

    def _forward(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        if self.command == "POST":
            self.posts.append(self.path)
            if self.path == "/applications" and self.refusals:
                self.refusals.pop()
                self.send_response(429)
                self.send_header("Retry-After", "0")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host",)}
        answer = httpx.request(
            self.command, self.service_url + self.path, headers=headers, content=body, timeout=30
        )
        self.send_response(answer.status_code)
        for name in ("Content-Type", "Retry-After"):
            if name in answer.headers:
                self.send_header(name, answer.headers[name])
        self.send_header("Content-Length", str(len(answer.content)))
        self.end_headers()
        self.wfile.write(answer.content)

    do_GET = do_POST = do_PUT = do_DELETE = _forward

    def log_message(self, format: str, *args: object) -> None:
        return None


def test_the_apply_command_waits_out_a_429_on_a_create(service, add_profile, tmp_path, capsys):
    prod_info = service.new_tenant("Prod")
    handler = type("Refusing", (_Refusing,), {})
    handler.service_url, handler.refusals, handler.posts = service.base_url, [1], []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        add_profile("limited", f"http://127.0.0.1:{server.server_address[1]}", prod_info.key)
        source = tmp_path / "apps.json"
        apps = [{"name": "Auditor", "type": "private", "permissions": ["token:read"]}]
        source.write_text(json.dumps({"format": FORMAT, "applications": apps}))
        code = main(["apply", str(source), "--profile", "limited", "--yes"])
        out, err = capsys.readouterr()
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
    assert code == 0, (out, err)
    assert "done: created application Auditor" in out and "Applied: 1 steps." in out
    assert handler.posts == ["/applications", "/applications"]  # refused once, sent again
    prod = Tenant(service.base_url, prod_info.key)
    try:
        assert len(prod.named("/applications", "Auditor")) == 1
    finally:
        prod.close()
