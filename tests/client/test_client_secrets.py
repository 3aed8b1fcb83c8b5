"""The API key travels in SVC-API-KEY and nowhere else: no str, repr, traceback or log line."""

from __future__ import annotations

import logging
import traceback
import uuid

import httpx
import pytest
from client_helpers import FAST_RETRY, closed_port_url, proxy_payload
from client_stub import Drop, Hang, Respond, problem

from console import __version__
from console.client import AdminClient, ApiError


def leaks(secret: str, error: BaseException) -> list[str]:
    """Every text view of `error` (and of what it chains) that shows `secret`."""
    views = {
        "str": str(error),
        "repr": repr(error),
        "args": repr(error.args),
        "traceback": "".join(traceback.format_exception(error)),
        "vars": repr(vars(error)),
    }
    found = [name for name, text in views.items() if secret in text]
    for linked in (error.__cause__, error.__context__):
        if linked is not None:
            found += [f"chained {name}" for name in leaks(secret, linked)]
    return found


async def raised(call) -> ApiError:  # type: ignore[no-untyped-def]
    with pytest.raises(ApiError) as caught:
        await call
    return caught.value


async def test_no_error_from_the_service_shows_the_key(service, tenant) -> None:  # type: ignore[no-untyped-def]
    errors: list[tuple[str, ApiError]] = []
    async with AdminClient(service.base_url, tenant.key, retry=FAST_RETRY) as c:
        errors.append(("400", await raised(c.proxies.create({"name": ""}))))
        errors.append(("404", await raised(c.proxies.get(uuid.uuid4()))))
        errors.append(("404", await raised(c.applications.delete(uuid.uuid4()))))
    limited = service.new_key(["proxy:read"], tenant_key=tenant.key)
    async with AdminClient(service.base_url, limited, retry=FAST_RETRY) as c:
        errors.append(("403", await raised(c.proxies.create(proxy_payload()))))
        errors.append(("403 on the tenant", await raised(c.tenant.get())))
    for status, error in errors:
        assert leaks(tenant.key, error) == [], status
        assert leaks(limited, error) == [], status
    wrong = "wrong-" + uuid.uuid4().hex
    async with AdminClient(service.base_url, wrong, retry=FAST_RETRY) as c:
        error = await raised(c.tenant.get())
        assert error.status == 401
        assert leaks(wrong, error) == []


async def test_no_error_without_an_answer_shows_the_key(stub) -> None:  # type: ignore[no-untyped-def]
    key = "secret-" + uuid.uuid4().hex
    hang = await stub(Hang())
    drop = await stub(Drop())
    fast = httpx.Timeout(0.3, connect=2.0)
    cases = [
        (closed_port_url(), None),
        ("http://no-such-host.invalid", None),
        (hang.base_url, fast),
        (drop.base_url, None),
    ]
    for base_url, timeout in cases:
        options = {"timeout": timeout} if timeout else {}
        async with AdminClient(base_url, key, retry=FAST_RETRY, **options) as c:
            for call in (c.proxies.list(), c.proxies.create(proxy_payload())):
                error = await raised(call)
                assert error.status is None
                assert leaks(key, error) == [], base_url


async def test_a_key_echoed_by_the_service_is_masked(stub) -> None:  # type: ignore[no-untyped-def]
    key = "secret-" + uuid.uuid4().hex
    echo = problem(400, "Bad Request", f"Bad header {key}.")
    echo["errors"] = {"name": [f"{key} is not a name."]}
    server = await stub(Respond(400, echo))
    async with AdminClient(server.base_url, key, retry=FAST_RETRY) as c:
        error = await raised(c.tenant.update({"name": "x"}))
    assert leaks(key, error) == []
    assert error.errors == {"name": ["*** is not a name."]}
    assert error.detail == "Bad header ***."


async def test_a_key_in_an_unexpected_answer_is_not_shown(stub) -> None:  # type: ignore[no-untyped-def]
    # An application-like body of the wrong shape that holds a fresh key: not in the error.
    other_key = "created-" + uuid.uuid4().hex
    server = await stub(Respond(201, {"id": "not-a-uuid", "key": other_key, "type": "x"}))
    async with AdminClient(server.base_url, "k" * 32, retry=FAST_RETRY) as c:
        error = await raised(c.applications.create({"name": "x"}))
    assert leaks(other_key, error) == []


async def test_the_key_goes_in_its_header_with_the_user_agent(stub) -> None:  # type: ignore[no-untyped-def]
    key = "secret-" + uuid.uuid4().hex
    server = await stub(Respond(200, []))
    async with AdminClient(server.base_url, key) as c:
        assert await c.permissions.list() == []
    seen = server.requests[0]
    assert seen.headers["svc-api-key"] == key
    assert seen.headers["user-agent"] == f"tenant-console/{__version__}"
    others = {name: value for name, value in seen.headers.items() if name != "svc-api-key"}
    assert key not in repr(others)
    assert key not in seen.target


async def test_repr_and_str_of_the_client_mask_the_key(service, tenant) -> None:  # type: ignore[no-untyped-def]
    async with AdminClient(service.base_url, tenant.key) as c:
        for text in (repr(c), str(c), repr(c.applications), repr(c._session), repr(c.retry)):
            assert tenant.key not in text
        assert repr(c) == f"AdminClient(base_url={service.base_url!r}, api_key='***')"
        created = await c.applications.create(
            {"name": "Shown once", "type": "management", "permissions": ["proxy:read"]}
        )
    assert created.key
    assert created.key not in repr(created)
    assert created.key not in str(created)


async def test_no_log_line_shows_the_key(service, tenant, stub, caplog) -> None:  # type: ignore[no-untyped-def]
    caplog.set_level(logging.DEBUG)
    server = await stub(Respond(503, problem(503, "Service Unavailable", "x")))
    async with AdminClient(service.base_url, tenant.key, retry=FAST_RETRY) as c:
        await c.tenant.get()
        await raised(c.proxies.get(uuid.uuid4()))
    async with AdminClient(server.base_url, tenant.key, retry=FAST_RETRY) as c:
        await raised(c.proxies.list())
    assert "retrying" in caplog.text, "the retries were logged"
    assert tenant.key not in caplog.text


@pytest.mark.parametrize("key", ["line\nbreak-secret-123", "caf\u00e9-secret-123"])
def test_a_malformed_key_is_refused_without_echoing_it(key: str) -> None:
    with pytest.raises(ValueError) as caught:
        AdminClient("http://127.0.0.1:1", key)
    assert "secret" not in str(caught.value)
    assert caught.value.__context__ is None
