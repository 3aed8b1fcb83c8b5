"""Issue #14, point 8: the validator and the OpenAPI document say the same about
`destination_url`, checked against one table of examples (destination_urls.py)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import jsonschema_rs
import pytest
from destination_urls import INVALID, VALID
from service_http import Caller, assert_invalid, describe, http_client, proxy_body

from console.models import PayloadInvalid, ProxyCreate

CASES = [pytest.param(url, True, id=f"valid:{url[:60]!r}") for url in VALID] + [
    pytest.param(url, False, id=f"invalid({why}):{url[:60]!r}") for url, why in INVALID
]


@pytest.fixture(scope="module")
def client(service) -> httpx.Client:
    with http_client(service.base_url) as c:
        yield c


@pytest.fixture(scope="module")
def owner(service, client) -> Caller:
    return Caller(client, service.new_tenant("Destination URLs").key)


@pytest.fixture(scope="module")
def url_schema(client) -> dict[str, Any]:
    """The `destination_url` schema of the served OpenAPI document."""
    document = client.get("/openapi.json").json()
    return document["components"]["schemas"]["ProxyCreate"]["properties"]["destination_url"]


@pytest.mark.parametrize(("url", "valid"), CASES)
def test_the_validator_follows_the_table(url: str, valid: bool) -> None:
    body = {"name": "Table", "destination_url": url}
    if valid:
        assert ProxyCreate.parse(body).destination_url == url
    else:
        with pytest.raises(PayloadInvalid) as caught:
            ProxyCreate.parse(body)
        assert "destination_url" in caught.value.errors


@pytest.mark.parametrize(("url", "valid"), CASES)
def test_the_service_follows_the_table(owner: Caller, url: str, valid: bool) -> None:
    response = owner.post("/proxies", json=proxy_body(destination_url=url))
    if valid:
        assert response.status_code == 201, describe(response)
        assert response.json()["destination_url"] == url
    else:
        assert_invalid(response, "destination_url")


@pytest.mark.parametrize(("url", "valid"), CASES)
def test_the_openapi_document_follows_the_table(
    url_schema: dict[str, Any], url: str, valid: bool
) -> None:
    # As a JSON Schema validator reads it (ECMA-262 regex semantics)...
    assert jsonschema_rs.is_valid(url_schema, url) is valid, url_schema
    # ...and as a generator such as schemathesis reads the pattern (Python's re, whole string).
    pattern = url_schema["pattern"]
    assert pattern.startswith("^") and pattern.endswith("$")
    within = url_schema["minLength"] <= len(url) <= url_schema["maxLength"]
    assert (within and re.fullmatch(pattern[1:-1], url) is not None) is valid


def test_a_refused_url_is_told_why() -> None:
    reasons = {
        "https://user:secret@example.com/": "user info",
        "https://example.com:99999/": "port",
        "https://exa mple.com/": "space",
        "http://example.com": "https://",
        "https://example.com/#top": "fragment",
    }
    for url, reason in reasons.items():
        with pytest.raises(PayloadInvalid) as caught:
            ProxyCreate.parse({"name": "Why", "destination_url": url})
        assert reason in " ".join(caught.value.errors["destination_url"]), (url, caught.value)
