"""Plain-httpx helpers for the service test matrices.

The service tests talk HTTP with httpx directly, not through the project's client, so a bug
in the client cannot hide one in the service. Every API key a response carries is recorded in
`SEEN_KEYS`, so the data-dir scan can look for all of them.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

KEY_HEADER = "SVC-API-KEY"
PROBLEM_JSON = "application/problem+json"

SEEN_KEYS: set[str] = set()
"""Every API key a test of this package has been handed (create, regenerate, bootstrap)."""


def remember_key(key: str | None) -> str | None:
    if key:
        SEEN_KEYS.add(key)
    return key


def auth(key: str | None) -> dict[str, str]:
    """The authentication header for `key`, or none at all."""
    return {} if key is None else {KEY_HEADER: key}


def http_client(base_url: str, **kwargs: Any) -> httpx.Client:
    return httpx.Client(base_url=base_url, timeout=30.0, **kwargs)


class Caller:
    """One API key against one service: `caller.get("/proxies")`."""

    def __init__(self, client: httpx.Client, key: str | None) -> None:
        self.client = client
        self.key = remember_key(key)

    def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        headers = {**auth(self.key), **kwargs.pop("headers", {})}
        response = self.client.request(method, path, headers=headers, **kwargs)
        _remember_keys_in(response)
        return response

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("POST", path, **kwargs)

    def put(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("PUT", path, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("DELETE", path, **kwargs)

    def created(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """POSTs `body` and returns the created object; fails the test unless 201."""
        response = self.post(path, json=body)
        assert response.status_code == 201, describe(response)
        return response.json()

    def list_all(self, path: str, **params: Any) -> list[dict[str, Any]]:
        """Every item of a paginated list, page by page."""
        items: list[dict[str, Any]] = []
        page = 1
        while True:
            response = self.get(path, params={**params, "page": page, "size": 100})
            assert response.status_code == 200, describe(response)
            body = response.json()
            items += body["data"]
            if not body["data"] or page >= body["pagination"]["total_pages"]:
                return items
            page += 1


def _remember_keys_in(response: httpx.Response) -> None:
    if not response.headers.get("content-type", "").startswith("application/json"):
        return
    try:
        body = response.json()
    except ValueError:
        return
    if isinstance(body, dict) and "type" in body and "permissions" in body:
        remember_key(body.get("key"))
    if isinstance(body, dict) and "version" in body:  # an Application Key, just created
        remember_key(body.get("key"))


def describe(response: httpx.Response) -> str:
    """A failure message naming the request and showing the response."""
    request = response.request
    return (
        f"{request.method} {request.url.raw_path.decode()} -> {response.status_code} "
        f"{response.headers.get('content-type', '')}: {response.text[:800]}"
    )


def assert_problem(response: httpx.Response, status: int) -> dict[str, Any]:
    """The response is an RFC 7807 problem with this status; returns its body."""
    assert response.status_code == status, describe(response)
    content_type = response.headers.get("content-type", "")
    assert content_type.split(";")[0].strip() == PROBLEM_JSON, describe(response)
    body = response.json()
    assert body.get("status") == status, describe(response)
    assert isinstance(body.get("title"), str) and body["title"], describe(response)
    return body


def assert_invalid(response: httpx.Response, *paths: str) -> dict[str, list[str]]:
    """A 400 validation problem whose `errors` names at least one of `paths`."""
    body = assert_problem(response, 400)
    errors = body.get("errors")
    assert isinstance(errors, dict) and errors, describe(response)
    for key, sentences in errors.items():
        assert isinstance(key, str), describe(response)
        assert isinstance(sentences, list) and sentences, describe(response)
        assert all(isinstance(s, str) and s.strip() for s in sentences), describe(response)
    assert any(path in errors for path in paths), (
        f"expected an error at {' or '.join(paths)}; got {sorted(errors)}: {describe(response)}"
    )
    return errors


def unique(prefix: str) -> str:
    return f"{prefix} {uuid.uuid4().hex[:8]}"


def future(seconds: float) -> str:
    """An ISO 8601 time `seconds` from the machine's now, in UTC, in whole seconds."""
    moment = datetime.now(UTC) + timedelta(seconds=seconds)
    return moment.replace(microsecond=0).isoformat()


# Sample valid bodies, one per resource.


def formula_body(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": unique("Formula"),
        "description": "Adds one.",
        "type": "private",
        "code": "module.exports = async (req) => ({ raw: { n: req.args.n + 1 } });",
        "configuration": [{"name": "SECRET", "type": "string"}],
        "request_parameters": [{"name": "n", "type": "number"}],
    }
    return {**body, **overrides}


def proxy_body(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": unique("Proxy"),
        "destination_url": "https://echo.example.com/post",
        "require_auth": True,
    }
    return {**body, **overrides}


def reactor_body(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": unique("Reactor"),
        "code": "module.exports = async (req) => ({ raw: { n: req.args.n + 1 } });",
        "configuration": {"SECRET": "s3cret"},
    }
    return {**body, **overrides}


def application_body(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": unique("App"),
        "type": "management",
        "permissions": ["proxy:read"],
    }
    return {**body, **overrides}


def private_application_body(**overrides: Any) -> dict[str, Any]:
    return application_body(
        **{"type": "private", "permissions": ["token:read", "token:use"], **overrides}
    )


def masked_cards_rules() -> list[dict[str, Any]]:
    """A private application's one access rule (its cards masked), new on each call: a test
    compares what the service answers with the rules it sent."""
    return [
        {
            "description": "Masked cards",
            "priority": 1,
            "container": "/pci/",
            "transform": "mask",
            "permissions": ["token:read"],
        }
    ]


def webhook_body(**overrides: Any) -> dict[str, Any]:
    """A webhook that nothing delivers to (a closed port on loopback)."""
    body: dict[str, Any] = {
        "name": unique("Webhook"),
        "url": "http://127.0.0.1:9/webhooks",
        "notify_email": "ops@example.com",
        "events": ["application.created", "proxy.updated"],
    }
    return {**body, **overrides}


def tenant_body(**overrides: Any) -> dict[str, Any]:
    return {"name": unique("Tenant"), **overrides}


def ids(items: Iterable[dict[str, Any]]) -> set[str]:
    return {item["id"] for item in items}


def unknown_id() -> str:
    return str(uuid.uuid4())


def chunked(items: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
