"""A stand-in for the hosted service as it really answers, for the contract tests.

The local service answers exactly as the specification and api-decisions.md say, and must go
on doing so; the hosted service has moved on (../shared/real-world-shapes.md). This serves
recorded, hosted-shaped bodies instead: more tenant settings (one holding a word), a tenant
`type`, applications with key metadata, permissions outside the spec's thirty and types the
spec does not name, a mask transform with no code, proxies with fields the spec lacks, nulls
where the spec has values, a usage report holding only a total, page envelopes without
totals, items that are not objects, and retired routes answered like unknown ones.

It keeps what a PUT sends (so a test can read back exactly what the console wrote) and checks
the key header like the real one. A thread of its own, so sync and async tests can use it.

Application Keys answer as the hosted service's published SDKs read them (basis-theory-js
`applicationKeys`, the Python SDK's `application_keys`, basistheory-go `ApplicationKeysApi`):
a plain array for the list, the new key with its material (`id`, `key`, `version`,
`created_by`, `created_at`) from the POST, which takes no body, 204 from the DELETE, and a key
made here authenticates until it is revoked. A route it does not have is answered with an
empty 404, as the hosted service answers unknown and retired routes.
"""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from console.models import PERMISSIONS

KEY = "hosted-key-0123456789abcdefghij"
OWN_KEY_ID = "1c0ffee0-0000-4000-8000-0000000000aa"
TENANT_ID = "f88da999-b124-4a14-acde-cbc121444f14"
OWN_APP_ID = "0a7e3c1e-0000-4000-8000-000000000001"
RUNNER_ID = "fb124bba-f90d-45f0-9a59-5edca27b3b4a"
CHECKOUT_ID = "5c2d1e0f-0000-4000-8000-000000000002"
SESSION_ID = "5c2d1e0f-0000-4000-8000-000000000003"
MASKING_PROXY_ID = "9e1f2a3b-0000-4000-8000-000000000010"
PLAIN_PROXY_ID = "9e1f2a3b-0000-4000-8000-000000000011"
PRIVATE_FORMULA_ID = "7d6c5b4a-0000-4000-8000-000000000020"
OFFICIAL_FORMULA_ID = "7d6c5b4a-0000-4000-8000-000000000021"
BARE_FORMULA_ID = "7d6c5b4a-0000-4000-8000-000000000022"
REACTOR_ID = "3e4d5c6b-0000-4000-8000-000000000030"
ASYNC_REQUEST_ID = "3e4d5c6b-0000-4000-8000-0000000000a1"

UNLISTED_PERMISSION = "document:read"
"""Held by the Reactor runner, listed in no catalogue: the console must keep it as it is."""

MASK_TRANSFORM = {
    "type": "mask",
    "matcher": "regex",
    "expression": '(?<="card_number":")(\\d+)',  # a mask's expression holds a capture group
    "replacement": "*",
}

TENANT: dict[str, Any] = {
    "id": TENANT_ID,
    "owner_id": "97cec6e8-a143-4fb4-9ab0-cf7e49242d21",
    "name": "My Tenant",
    "type": "production",
    "settings": {
        "fingerprint_tokens": "false",
        "disable_ephemeral_proxy": "false",
        "deduplicate_tokens": "false",
        "deduplication_behaviour": "update_existing",
        "retired_setting": None,
    },
    "region": "eu-west",
    "created_at": "2020-09-15T15:53:00+00:00",
    "created_by": None,
    "modified_at": "2021-03-01T08:23:14+00:00",
    "modified_by": None,
}

OWN_APPLICATION: dict[str, Any] = {
    "id": OWN_APP_ID,
    "tenant_id": TENANT_ID,
    "name": "Console admin",
    "type": "management",
    "permissions": [
        *(p.type for p in PERMISSIONS if "management" in p.application_types),
        "key:read",
    ],
    "keys": [{"id": OWN_KEY_ID, "version": "1"}],
    "created_at": "2020-09-15T15:53:00+00:00",
}

APPLICATIONS: list[Any] = [
    OWN_APPLICATION,
    {
        "id": RUNNER_ID,
        "tenant_id": TENANT_ID,
        "name": "Reactor runner",
        "type": "private",
        "keys": [
            {
                "id": "0c5e1f4e-7d2a-4e55-9a4e-0d3c1b2a9f10",
                "version": "1",
                "created_at": "2024-05-01T10:00:00+00:00",
            }
        ],
        "permissions": ["token:create", "reactor:invoke", "webhook:read", UNLISTED_PERMISSION],
        "rules": None,
        "created_at": "2020-09-15T15:53:00+00:00",
    },
    {
        "id": CHECKOUT_ID,
        "tenant_id": TENANT_ID,
        "name": "Checkout web",
        "type": "public",
        "permissions": None,
        "rules": [
            {
                "description": "Cards, masked",
                "rule_id": "r-0001",
                "priority": 1,
                "container": "/pci/",
                "conditions": None,
                "transform": "mask",
                "permissions": ["token:create"],
            },
            {
                "description": "Format-preserving",
                "priority": 2,
                "container": "/general/",
                "transform": "format_preserving",
                "permissions": ["token:create", None],
            },
        ],
        "expires_at": None,
        "state": "active",
        "created_at": "2021-01-10T09:00:00+00:00",
        "modified_by": None,
    },
    {
        "id": SESSION_ID,
        "tenant_id": TENANT_ID,
        "name": "Browser session broker",
        "type": "session",
        "permissions": ["token:create"],
        "created_at": "2022-02-02T12:00:00+00:00",
    },
    {"name": "Half-written application", "type": "private"},
    None,
]

PROXIES: list[Any] = [
    {
        "id": MASKING_PROXY_ID,
        "tenant_id": TENANT_ID,
        "key": "Qm9vT2tLZXkxMjM0NTY3ODkwYWJjZGVm",
        "name": "Card masking",
        "destination_url": "https://api.example.com/cards",
        "request_transform": {
            "type": "code",
            "code": "module.exports = async function (req) {\n  return req.args;\n};\n",
        },
        "response_transform": MASK_TRANSFORM,
        "application_id": RUNNER_ID,
        "configuration": {"REGION": "eu", "OPTIONAL_TOKEN": None},
        "require_auth": None,
        "state": "active",
        "proxy_host": "cards.proxy.example.net",
        "timeout": 30,
        "transforms": [MASK_TRANSFORM],
        "created_at": "2023-03-03T08:00:00+00:00",
    },
    {
        "id": PLAIN_PROXY_ID,
        "name": "Plain forwarder",
        "destination_url": "https://hooks.example.com/in",
    },
]

FORMULAS: list[Any] = [
    {
        "id": OFFICIAL_FORMULA_ID,
        "name": "Card BIN lookup",
        "type": "official",
        "status": "verified",
        "code": "module.exports = async function (req) {\n  return { raw: {} };\n};\n",
        "configuration": [],
        "request_parameters": [],
    },
    {
        "id": PRIVATE_FORMULA_ID,
        "name": "Loyalty enrichment",
        "type": "private",
        "status": "deprecated",
        "description": None,
        "icon": None,
        "code": "module.exports = async function (req) {\n  return { raw: req.args };\n};\n",
        "configuration": None,
        "request_parameters": [
            {"name": "card.number", "type": "string", "optional": None, "validation": "luhn"},
            {"name": "amount", "type": "decimal"},
        ],
        "runtime": "node16",
        "created_at": "2024-01-01T00:00:00+00:00",
    },
    {"id": BARE_FORMULA_ID, "name": "Partner formula", "type": "partner", "code": None},
]

REACTORS: list[Any] = [
    {
        "id": REACTOR_ID,
        "tenant_id": TENANT_ID,
        "name": "Card enrichment",
        "state": "active",
        "code": "module.exports = async function (req) {\n  return { raw: req.args };\n};\n",
        "application": {"id": RUNNER_ID, "name": "Reactor runner", "type": "private"},
        "configuration": {"API_KEY": "partner-secret-0000"},
        "runtime": {"image": "node22", "timeout": 10, "permissions": ["token:read"]},
        "requested": None,
        "created_at": "2025-06-01T00:00:00+00:00",
    }
]
"""As the hosted service reads a reactor (the SDK's `Reactor`)."""

REACTED = {"raw": {"card": "enriched"}, "body": None, "headers": None, "tokens": None}
"""What every react here answers."""

CATALOGUE: list[dict[str, Any]] = [
    # reactor:invoke among them; webhook:read as the hosted service has it (below)
    *(p.model_dump(mode="json") for p in PERMISSIONS if p.type != "webhook:read"),
    {
        "type": "webhook:read",
        "description": "Read webhooks",
        "application_types": ["private", "management"],
    },
    {"type": "key:read", "description": None, "application_types": ["management"]},
    {
        "type": "document:write",
        "description": "Write documents",
        "application_types": ["private", "session"],
    },
]

USAGE: dict[str, Any] = {"total_tokens": 1433}

COLLECTIONS = {
    "/applications": APPLICATIONS,
    "/proxies": PROXIES,
    "/reactor-formulas": FORMULAS,
    "/reactors": REACTORS,
}

ROUTES = {
    ("GET", "/permissions"),
    ("GET", "/tenants/self"),
    ("PUT", "/tenants/self"),
    ("DELETE", "/tenants/self"),
    ("GET", "/tenants/self/reports/usage"),
    ("GET", "/applications/key"),
    ("POST", "/applications/{id}/regenerate"),
    ("POST", "/applications/{id}/keys"),
    ("GET", "/applications/{id}/keys"),
    ("GET", "/applications/{id}/keys/{id}"),
    ("DELETE", "/applications/{id}/keys/{id}"),
    *((m, base) for base in COLLECTIONS for m in ("GET", "POST")),
    *((m, f"{base}/{{id}}") for base in COLLECTIONS for m in ("GET", "PUT", "DELETE")),
    ("PATCH", "/reactors/{id}"),
    ("POST", "/reactors/{id}/react"),
    ("POST", "/reactors/{id}/react-async"),
    ("GET", "/reactors/{id}/results/{id}"),
}
"""The routes the stand-in has; any other is answered like a retired one."""

FORMULAS_RETIRED = frozenset(
    {
        *(("GET", "/reactor-formulas"), ("POST", "/reactor-formulas")),
        *((m, "/reactor-formulas/{id}") for m in ("GET", "PUT", "DELETE")),
    }
)
"""Reactor formulas as the hosted service has them now: gone (pass as `retired`)."""


@dataclass
class Seen:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any


class HostedService:
    """The stand-in: `with HostedService.running() as hosted: hosted.base_url`.

    `totals=False` leaves the totals out of page envelopes; `retired` holds
    `(method, template)` routes answered like unknown ones (`retired_status`, empty body);
    `FORMULAS_RETIRED` leaves only reactors, as the hosted service has them now. A reactor's
    react answers REACTED; its asynchronous result is pending until `results_ready`.
    """

    def __init__(
        self,
        *,
        totals: bool = True,
        retired: set[tuple[str, str]] | frozenset[tuple[str, str]] = frozenset(),
        retired_status: int = 404,
        key_header: str = "SVC-API-KEY",
        usage: Any = None,
    ) -> None:
        self.totals = totals
        self.retired = set(retired)
        self.retired_status = retired_status
        self.key_header = key_header
        self.usage = copy.deepcopy(USAGE if usage is None else usage)
        self.tenant = copy.deepcopy(TENANT)
        self.collections = {path: copy.deepcopy(items) for path, items in COLLECTIONS.items()}
        self.requests: list[Seen] = []
        self.keys: dict[str, tuple[str, str]] = {KEY: (OWN_APP_ID, OWN_KEY_ID)}
        """Key material -> (application id, key id): the keys that authenticate."""
        self._made = 0
        self.results_ready = False
        self._server: ThreadingHTTPServer | None = None

    @classmethod
    @contextmanager
    def running(cls, **options: Any) -> Iterator[HostedService]:
        service = cls(**options)
        service.start()
        try:
            yield service
        finally:
            service.stop()

    @property
    def base_url(self) -> str:
        assert self._server is not None
        host, port = self._server.socket.getsockname()[:2]  # what server_address holds, typed
        return f"http://{host}:{port}"

    def start(self) -> None:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # quiet: a test reads `requests`
                pass

            def do_GET(self) -> None:
                owner._handle(self, "GET")

            def do_PUT(self) -> None:
                owner._handle(self, "PUT")

            def do_POST(self) -> None:
                owner._handle(self, "POST")

            def do_DELETE(self) -> None:
                owner._handle(self, "DELETE")

            def do_PATCH(self) -> None:
                owner._handle(self, "PATCH")

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def puts(self, path: str) -> list[Any]:
        """The bodies of every PUT to `path`, in order."""
        return [r.body for r in self.requests if r.method == "PUT" and r.path == path]

    # -- answering -------------------------------------------------------------------------

    def _handle(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        parts = urlsplit(handler.path)
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        body = json.loads(raw) if raw else None
        headers = {k.lower(): v for k, v in handler.headers.items()}
        self.requests.append(Seen(method, parts.path, parse_qs(parts.query), headers, body))
        status, answer = self._answer(method, parts.path, parse_qs(parts.query), headers, body)
        payload = b"" if answer is None else json.dumps(answer).encode()
        handler.send_response(status)
        if answer is not None:
            kind = "application/json" if status < 400 else "application/problem+json"
            handler.send_header("Content-Type", kind)
        handler.send_header("Content-Length", str(len(payload)))
        handler.end_headers()
        handler.wfile.write(payload)

    def _answer(
        self,
        method: str,
        path: str,
        query: dict[str, list[str]],
        headers: dict[str, str],
        body: Any,
    ) -> tuple[int, Any]:
        template = _template(path)
        if (method, template) in self.retired or (method, template) not in ROUTES:
            return self.retired_status, None  # like an unknown route: no body at all
        if headers.get(self.key_header.lower()) not in self.keys:
            return 401, {"title": "Unauthorized", "status": 401, "instance": path}
        if "/keys" in template:
            return self._keys(method, path, headers)
        if (method, template) == ("GET", "/permissions"):
            wanted = query.get("application_type", [None])[0]
            return 200, [p for p in CATALOGUE if wanted is None or wanted in p["application_types"]]
        if template == "/tenants/self":
            if method == "PUT":
                self.tenant = {**self.tenant, **body}
            return 200, self.tenant
        if (method, template) == ("GET", "/tenants/self/reports/usage"):
            return 200, self.usage
        if (method, template) == ("GET", "/applications/key"):
            return 200, OWN_APPLICATION
        base = "/" + path.strip("/").split("/")[0]
        items = self.collections.get(base)
        if items is None:
            return 404, {"title": "Not Found", "status": 404}
        if template == base and method == "GET":
            return 200, self._page(items, query)
        found = next(
            (i for i in items if isinstance(i, dict) and i.get("id") == path.split("/")[2]), None
        )
        if found is None:
            return 404, {"title": "Not Found", "status": 404, "detail": "No such object."}
        if method == "PUT":
            found.update({k: v for k, v in body.items() if k not in ("id", "tenant_id", "type")})
        if method == "POST" and path.endswith("/regenerate"):
            return 200, {**found, "key": "regenerated-hosted-key-000000000000"}
        if method == "DELETE":
            items.remove(found)
            return 204, None
        if base == "/reactors" and template != base + "/{id}":
            return self._react(method, template)
        if method == "PATCH":
            found.update({k: v for k, v in body.items() if k not in ("id", "tenant_id")})
            return 204, None
        return 200, found

    def _react(self, method: str, template: str) -> tuple[int, Any]:
        if template.endswith("/react"):
            return 200, REACTED
        if template.endswith("/react-async"):
            return 202, {"asyncReactorRequestId": ASYNC_REQUEST_ID}
        if not self.results_ready:
            return 202, {"status": "pending"}
        return 200, REACTED

    def _keys(self, method: str, path: str, headers: dict[str, str]) -> tuple[int, Any]:
        """Application Keys, as the SDKs call them."""
        parts = [p for p in path.split("/") if p]
        application = next(
            (
                a
                for a in self.collections["/applications"]
                if isinstance(a, dict) and a.get("id") == parts[1]
            ),
            None,
        )
        if application is None:
            return 404, {"title": "Not Found", "status": 404, "detail": "No such application."}
        keys: list[dict[str, Any]] = application.setdefault("keys", [])
        if len(parts) == 3 and method == "GET":
            return 200, keys
        if len(parts) == 3 and method == "POST":
            self._made += 1
            material = f"hosted-made-key-{self._made:04d}-0123456789abcdef"
            entry = {
                "id": f"2c0ffee0-0000-4000-8000-{self._made:012d}",
                "version": str(len(keys) + 1),
                "created_by": self.keys[headers[self.key_header.lower()]][0],
                "created_at": "2026-11-20T10:00:00+00:00",
            }
            keys.append(entry)
            self.keys[material] = (application["id"], entry["id"])
            return 201, {**entry, "key": material}
        found = next((k for k in keys if k.get("id") == parts[3]), None)
        if found is None:
            return 404, {"title": "Not Found", "status": 404, "detail": "No such key."}
        if method == "DELETE":
            keys.remove(found)
            self.keys = {m: ids for m, ids in self.keys.items() if ids[1] != found["id"]}
            return 204, None
        return 200, found

    def _page(self, items: list[Any], query: dict[str, list[str]]) -> dict[str, Any]:
        page = int(query.get("page", ["1"])[0])
        size = int(query.get("size", ["20"])[0])
        ids = set(query.get("id", []))
        if ids:
            items = [i for i in items if isinstance(i, dict) and i.get("id") in ids]
        data = items[(page - 1) * size : page * size]
        pagination: dict[str, Any] = {"page_number": page, "page_size": size}
        if self.totals:
            pagination["total_items"] = len(items)
            pagination["total_pages"] = -(-len(items) // size)
        return {"pagination": pagination, "data": data}


def _template(path: str) -> str:
    parts = [p for p in path.split("/") if p]
    literal = {"self", "key", "reports", "usage", "regenerate", "permissions", "keys"}
    literal |= {"react", "react-async", "results"}
    return "/" + "/".join(p if i == 0 or p in literal else "{id}" for i, p in enumerate(parts))
