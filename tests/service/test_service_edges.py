"""Issue 22, the local service's edges: timestamps past the representable range are a 400 on
their field, a 500 never leaves a keep-alive client writing into a closed socket, and a key in
a query string never reaches the access log."""

from __future__ import annotations

import json
import socket
import sqlite3
import uuid
from typing import Any

import httpx
import pytest
from pydantic import ValidationError
from service_http import Caller, application_body, assert_invalid, http_client, proxy_body

from console.models import Application
from console.models.errors import field_errors
from console.service.db import DB_FILE

OUT_OF_RANGE = ["0001-01-01T00:00:00+23:59", "9999-12-31T23:59:59-23:59"]
"""Valid ISO 8601 text whose offset carries the time before year 1 or after 9999 in UTC."""


@pytest.fixture(scope="module")
def owner(service) -> Any:
    with http_client(service.base_url) as client:
        yield Caller(client, service.new_tenant("Edges").key)


# ---- timestamps ---------------------------------------------------------------------------


@pytest.mark.parametrize("moment", OUT_OF_RANGE)
def test_an_offset_past_the_representable_range_is_a_400_on_the_field(
    owner: Caller, moment: str
) -> None:
    response = owner.post("/applications", json=application_body(expires_at=moment))
    errors = assert_invalid(response, "expires_at")
    assert "between the years 1 and 9999" in " ".join(errors["expires_at"])


@pytest.mark.parametrize("moment", OUT_OF_RANGE)
def test_no_body_answers_such_a_timestamp_with_a_500(owner: Caller, moment: str) -> None:
    """Every timestamp field a body may carry (the response-only ones are ignored when sent
    back), on every kind of write: a 4xx or a success, never a 500."""
    stamps = {"created_at": moment, "modified_at": moment, "expires_at": moment}
    proxy = owner.created("/proxies", proxy_body())
    application = owner.created("/applications", application_body())
    tenant = owner.get("/tenants/self").json()
    writes = [
        ("POST", "/proxies", proxy_body(**stamps)),
        ("PUT", f"/proxies/{proxy['id']}", proxy_body(**stamps)),
        ("POST", "/applications", application_body(**stamps)),
        ("PUT", f"/applications/{application['id']}", {"name": "A", **stamps}),
        ("PUT", "/tenants/self", {"name": tenant["name"], **stamps}),
    ]
    for method, path, body in writes:
        response = owner.request(method, path, json=body)
        assert response.status_code < 500, (method, path, response.text)


@pytest.mark.parametrize("moment", OUT_OF_RANGE)
def test_a_client_reading_such_a_timestamp_gets_a_field_error_not_an_overflow(
    moment: str,
) -> None:
    """The same model reads the hosted service's answers: an OverflowError there would crash
    a list; a field error is reported like any other unreadable answer."""
    answer = {"id": str(uuid.uuid4()), "name": "A", "type": "private", "created_at": moment}
    with pytest.raises(ValidationError) as raised:
        Application.model_validate(answer)
    assert field_errors(raised.value) == {
        "created_at": [
            "The time is outside the range that can be represented: in UTC it must lie "
            "between the years 1 and 9999."
        ]
    }


# ---- a 500 on a kept-alive connection -------------------------------------------------------


def _request(path: str, method: str = "GET", body: bytes = b"", key: str = "") -> bytes:
    head = [
        f"{method} {path} HTTP/1.1",
        "Host: 127.0.0.1",
        "Connection: keep-alive",
        f"SVC-API-KEY: {key}",
        f"Content-Length: {len(body)}",
    ]
    if body:
        head.append("Content-Type: application/json")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def _read_response(sock: socket.socket) -> tuple[int, dict[str, str], bytes] | None:
    """One whole response (status, lower-cased headers, body), or None if the connection
    was closed before a response began."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        rest += chunk
    return status, headers, rest[:length]


def test_a_500_on_a_kept_alive_connection_says_close_or_keeps_it_usable(fresh_service) -> None:
    """A fault the service cannot foresee (its database refuses every new proxy), over a raw
    HTTP/1.1 keep-alive connection: after the 500, either the response said `Connection:
    close` (and the connection is closed), or the next request on it is answered."""
    database = sqlite3.connect(fresh_service.data_dir / DB_FILE)
    try:
        database.execute(
            "CREATE TRIGGER injected_fault BEFORE INSERT ON proxies "
            "BEGIN SELECT RAISE(ABORT, 'injected fault'); END"
        )
        database.commit()
    finally:
        database.close()
    host, port = fresh_service.base_url.removeprefix("http://").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        body = json.dumps(proxy_body()).encode()
        sock.sendall(_request("/proxies", "POST", body, fresh_service.key))
        answer = _read_response(sock)
        assert answer is not None, "the connection was dropped without any response"
        status, headers, payload = answer
        assert status == 500
        assert json.loads(payload)["status"] == 500
        if headers.get("connection", "").lower() == "close":
            sock.settimeout(10)
            assert sock.recv(1) == b"", "said Connection: close, yet kept the connection open"
            return
        sock.sendall(_request("/proxies", key=fresh_service.key))
        follow_up = _read_response(sock)
        assert follow_up is not None, "after a 500 without Connection: close, the next request "
        "on the kept-alive connection found it closed"
        assert follow_up[0] == 200


def test_the_500_response_itself_says_connection_close(fresh_service) -> None:
    """Through an ordinary client too: the header is on the problem response."""
    database = sqlite3.connect(fresh_service.data_dir / DB_FILE)
    try:
        database.execute(
            "CREATE TRIGGER injected_fault BEFORE INSERT ON applications "
            "BEGIN SELECT RAISE(ABORT, 'injected fault'); END"
        )
        database.commit()
    finally:
        database.close()
    with http_client(fresh_service.base_url) as client:
        response = Caller(client, fresh_service.key).post("/applications", json=application_body())
        assert response.status_code == 500
        assert response.headers.get("connection", "").lower() == "close"
        # the client opens a new connection and goes on
        assert Caller(client, fresh_service.key).get("/applications").status_code == 200


# ---- the access log ------------------------------------------------------------------------


def test_a_key_sent_in_a_query_string_never_reaches_the_access_log(fresh_service) -> None:
    key = fresh_service.key
    with http_client(fresh_service.base_url) as client:
        caller = Caller(client, key)
        marker = caller.get("/proxies", params={"api_key": key, "name": "logged-filter"})
        assert marker.status_code == 200
        caller.get("/applications/not-a-uuid", params={"key": key})
        httpx.get(f"{fresh_service.base_url}/tenants/self?SVC-API-KEY={key}", timeout=30)
    fresh_service.stop()  # flushes and closes the log
    out, err = fresh_service.logs()
    access = [line for line in (out + err).splitlines() if '"GET /' in line]
    assert any('"GET /proxies HTTP/1.1" 200' in line for line in access), access
    assert any('"GET /tenants/self HTTP/1.1" 401' in line for line in access), access
    # the bootstrap block prints the key once, when the tenant is made; nothing else may
    assert [line.strip() for line in out.splitlines() if key in line] == [f"API key: {key}"]
    assert key not in err
    assert not any("?" in line for line in access), access
