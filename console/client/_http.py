"""One HTTP session with the service: headers, timeouts, safe retries, errors as ApiError.

Only GET, PUT and DELETE are retried: repeating a POST could create an object twice or,
for regenerate, lose the key the first call returned. No httpx exception, request or
header ever escapes from here: errors are built from status, path and body text only.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import ssl
import sys
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from email.utils import parsedate_to_datetime
from enum import Enum
from typing import Any
from urllib.parse import urlsplit
from uuid import UUID

import httpx

from console.client.budget import RequestBudget
from console.client.endpoints import feature, is_route_level, required_permission, subject
from console.client.errors import (
    ApiError,
    FieldErrors,
    Forbidden,
    NotFound,
    NotOffered,
    RateLimited,
    ServerError,
    ServiceUnreachable,
    Unauthorized,
    UnexpectedResponse,
    ValidationFailed,
)
from console.client.headers import KEY_HEADER, USER_AGENT, checked_header_name, checked_key
from console.client.paths import check_path
from console.client.recording import WRITE_METHODS, ChangeRecording

log = logging.getLogger("console.client")

DEFAULT_TIMEOUT = httpx.Timeout(20.0, connect=5.0)
"""Five seconds to connect (loopback or a near service answers far sooner), 20 to answer."""

_REDACTED = "***"

Params = Sequence[tuple[str, str]]


@dataclass(frozen=True)
class RetryPolicy:
    """When and how long to wait before repeating an idempotent request.

    Waits grow exponentially from `base_delay` with jitter, follow `Retry-After` when the
    service sends one, and never add up to more than `max_total_wait` seconds: a wait that
    would cross it is not taken and the error is raised at once.
    """

    max_attempts: int = 4
    base_delay: float = 0.5
    max_delay: float = 8.0
    max_total_wait: float = 15.0
    statuses: frozenset[int] = frozenset({429, 502, 503, 504})
    methods: frozenset[str] = frozenset({"GET", "PUT", "DELETE"})
    rate_limited_attempts: int = 100
    """A GET answered 429 is waited out (Retry-After, through the request budget) and sent
    again up to this many times, its waits not counted in `max_total_wait`: the limit slows
    a walk down, it does not fail it. Other methods follow `max_attempts`; POST never repeats."""
    sleep: Callable[[float], Awaitable[Any]] = field(
        default=asyncio.sleep, repr=False, compare=False
    )
    random: Callable[[], float] = field(default=random.random, repr=False, compare=False)

    def retries(self, method: str) -> bool:
        return method.upper() in self.methods and self.max_attempts > 1

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        """The wait before attempt `attempt + 1`: Retry-After plus jitter, else backoff."""
        if retry_after is not None:
            return retry_after + self.random() * min(self.base_delay, 1.0)
        ceiling = min(self.max_delay, self.base_delay * 2 ** (attempt - 1))
        return ceiling * (0.5 + self.random() / 2)


NO_RETRY = RetryPolicy(max_attempts=1)


@dataclass
class _Outcome:
    """What one attempt produced: a decoded body, or an error and whether to retry it."""

    body: Any = None
    error: ApiError | None = None
    retryable: bool = False
    retry_after: float | None = None
    status: int | None = None


class HttpSession:
    """The client's connection to one service with one key."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT,
        transport: httpx.AsyncBaseTransport | None = None,
        retry: RetryPolicy | None = None,
        key_header: str = KEY_HEADER,
        budget: RequestBudget | None = None,
    ) -> None:
        self.base_url = _checked_base_url(base_url)
        self._key = checked_key(api_key)
        self.key_header = checked_header_name(key_header)
        self.retry = retry or RetryPolicy()
        self.budget = budget or RequestBudget(None, sleep=self.retry.sleep)
        """Waited on before every request; None per minute unless a profile sets one."""
        self.page_seen: Callable[[str, list[Any]], None] | None = None
        """Told each list page's path and items as they arrive (the local index)."""
        self.timeout = timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)
        self._client = httpx.AsyncClient(
            base_url=self.base_url,
            headers={"User-Agent": USER_AGENT, "Accept": "application/json"},
            timeout=self.timeout,
            transport=transport,
            follow_redirects=False,
            verify=_tls_verification(self.base_url),
        )
        self.recording: ChangeRecording | None = None
        """Where writes are recorded (the change journal); None: not recorded."""

    def set_key(self, api_key: str) -> None:
        """Sends `api_key` from the next request on (after a regenerate of the caller's own key)."""
        self._key = checked_key(api_key)

    async def aclose(self) -> None:
        await self._client.aclose()

    @property
    def closed(self) -> bool:
        return self._client.is_closed

    def __repr__(self) -> str:
        return f"HttpSession(base_url={self.base_url!r}, api_key={_REDACTED!r})"

    async def get_published(self, url: str, *, limit: int) -> tuple[int, bytes]:
        """A GET of what is published to anyone (the webhook signing key): `url` a path on
        this service, or an absolute URL elsewhere (a CDN), sent WITHOUT the key, once, no
        redirect followed; the status and at most `limit` bytes of the body (more is an
        UnexpectedResponse). ServiceUnreachable when no answer comes."""
        absolute = url.startswith(("https://", "http://"))
        if not absolute:
            check_path("GET", url)
        client = self._client
        if absolute:  # another host: a client of its own, with no header of this service's
            client = httpx.AsyncClient(
                timeout=self.timeout, follow_redirects=False, headers={"User-Agent": USER_AGENT}
            )
        try:
            async with client.stream("GET", url) as response:
                body = b""
                async for chunk in response.aiter_bytes():
                    body += chunk
                    if len(body) > limit:
                        raise UnexpectedResponse(
                            response.status_code,
                            "Unexpected answer",
                            f"The answer of {url} is larger than {limit} bytes",
                            method="GET",
                            path=url,
                        )
                return response.status_code, body
        except httpx.TransportError as exc:
            raise ServiceUnreachable(
                url if absolute else self.base_url, type(exc).__name__, method="GET", path=url
            ) from None
        finally:
            if absolute:
                await client.aclose()

    async def request(
        self,
        method: str,
        path: str,
        *,
        params: Params | None = None,
        body: Any = None,
        content_type: str | None = None,
    ) -> Any:
        """Sends the request, retrying where safe; the decoded JSON, or None for no body.
        `content_type` names the body's type when it is not plain JSON (a merge patch).

        With a change recording (see console.client.recording), a write is recorded before
        it is sent and completed when answered, and what a GET returns is remembered."""
        method = method.upper()
        check_path(method, path)  # before it is recorded or sent
        recording = self.recording
        if recording is None:
            return await self._send(method, path, params, body, content_type)
        if method not in WRITE_METHODS:
            data = await self._send(method, path, params, body)
            recording.remember(path, data)
            return data
        return await recording.around(
            method,
            path,
            body,
            self.base_url,
            (self._key,),
            self._journal_get,
            lambda: self._send(method, path, params, body, content_type),
        )

    async def invoke(
        self, method: str, path: str, body: Any = None, *, params: Params | None = None
    ) -> tuple[int, Any]:
        """A request that changes no object (running a reactor, asking for a run's result):
        sent like any other (a POST never repeated), never journalled; the answer's status
        with its decoded body, for routes whose success statuses mean different things
        (202 pending, 200 done)."""
        method = method.upper()
        check_path(method, path)
        status: list[int] = []
        body = await self._send(method, path, params, body, None, status)
        return (status[0] if status else 200), body

    async def probe(self, method: str, path: str) -> Any:
        """A request that by design changes nothing (a POST to an object that exists nowhere,
        asking whether a route is offered): sent like any other, but never journalled."""
        check_path(method.upper(), path)
        return await self._send(method.upper(), path, None, None)

    async def _journal_get(self, path: str) -> Any:
        """A GET for the journal (`path` may carry a query), remembered like any other."""
        path, _, query = path.partition("?")
        params = [tuple(pair.split("=", 1)) for pair in query.split("&") if "=" in pair]
        data = await self._send("GET", path, params, None)  # type: ignore[arg-type]
        if self.recording is not None:
            self.recording.remember(path, data)
        return data

    async def _send(
        self,
        method: str,
        path: str,
        params: Params | None,
        body: Any,
        content_type: str | None = None,
        status: list[int] | None = None,
    ) -> Any:
        """The decoded answer; `status`, when given, is told the success status."""
        check_path(method, path)  # every path, the journal's own reads too
        policy = self.retry if self.retry.retries(method) else NO_RETRY
        headers = {self.key_header: self._key}
        content: bytes | None = None
        if body is not None:
            content = json.dumps(body, default=_jsonable).encode()
            headers["Content-Type"] = content_type or "application/json"
        waited = 0.0
        attempt = 0
        rate_limited = 0
        while True:
            attempt += 1
            await self.budget.acquire()  # before sending: a wait, never a repeat
            outcome = await self._attempt(method, path, params, content, headers, policy)
            if outcome.error is None:
                if status is not None and outcome.status is not None:
                    status.append(outcome.status)
                return outcome.body
            pause = None
            if outcome.status == 429:  # every request of the profile waits it out
                pause = outcome.retry_after
                if pause is None:
                    pause = policy.delay(rate_limited + 1)
                self.budget.pushback(429, pause)
            elif (outcome.status or 0) >= 500:
                self.budget.pushback(outcome.status)
            if outcome.status == 429 and method == "GET" and self.retry.retries(method):
                rate_limited += 1
                if rate_limited >= policy.rate_limited_attempts:
                    raise outcome.error
                attempt -= 1  # the budget waits it out (see pushback); not a failed attempt
                log.info("%s %s was rate-limited; waiting %.1f s", method, path, pause or 0.0)
                continue
            delay = policy.delay(attempt, outcome.retry_after) if outcome.retryable else None
            if (
                delay is None
                or attempt >= policy.max_attempts
                or waited + delay > policy.max_total_wait
            ):
                raise outcome.error
            log.info(
                "%s %s failed (%s); retrying in %.1f s (attempt %d of %d)",
                method,
                path,
                outcome.error.status or type(outcome.error).__name__,
                delay,
                attempt + 1,
                policy.max_attempts,
            )
            await policy.sleep(delay)
            waited += delay

    async def _attempt(
        self,
        method: str,
        path: str,
        params: Params | None,
        content: bytes | None,
        headers: dict[str, str],
        policy: RetryPolicy,
    ) -> _Outcome:
        """One try, never raising for a failed call: the caller decides about retrying."""
        started = time.monotonic()
        try:
            response = await self._client.request(
                method, path, params=list(params or ()), content=content, headers=headers
            )
        except httpx.TransportError as exc:
            unreachable, retryable = self._unreachable(exc, method, path)
            return _Outcome(error=unreachable, retryable=retryable)
        except httpx.HTTPError:  # an undecodable body, a redirect loop: not the API talking
            return _Outcome(
                error=UnexpectedResponse(
                    None,
                    "Unexpected answer",
                    "The service's answer could not be read: is the URL right?",
                    method=method,
                    path=path,
                )
            )
        log.debug(
            "%s %s -> %d in %.0f ms",
            method,
            path,
            response.status_code,
            (time.monotonic() - started) * 1000,
        )
        if response.is_success:
            body = self._decode(response, method, path)
            if self.page_seen is not None and method == "GET" and params is not None:
                self._tell_page(path, body)
            return _Outcome(body=body, status=response.status_code)
        error = self._error(response, method, path)
        retry_after = _retry_after(response.headers.get("Retry-After"))
        return _Outcome(
            error=error,
            retryable=response.status_code in policy.statuses,
            retry_after=retry_after,
            status=response.status_code,
        )

    def _tell_page(self, path: str, body: Any) -> None:
        """A list page's items to `page_seen`; a failure there never fails the request."""
        if not isinstance(body, Mapping) or not isinstance(body.get("data"), list):
            return
        try:
            assert self.page_seen is not None
            self.page_seen(path, body["data"])
        except Exception:
            log.exception("Recording a page of %s in the local index failed", path)

    def _decode(self, response: httpx.Response, method: str, path: str) -> Any:
        if response.status_code == 204 or not response.content:
            return None
        try:
            return response.json()
        except ValueError:
            pass
        # Raised outside the except block: no chained decoder error holding the body.
        raise UnexpectedResponse(
            response.status_code,
            "Not JSON",
            "The service sent an answer that is not JSON: is the URL right?",
            method=method,
            path=path,
        )

    def _error(self, response: httpx.Response, method: str, path: str) -> ApiError:
        """The ApiError subclass for a failed response, built from its problem details."""
        status = response.status_code
        title, detail, errors = self._problem(response)
        common: dict[str, Any] = {"method": method, "path": path}
        if status == 405 or (status == 404 and is_route_level(path)):
            return NotOffered(status, title, detail, feature=feature(method, path), **common)
        if status == 400 or (status == 422 and errors):
            return ValidationFailed(status, title, detail, errors, **common)
        if status == 401:
            return Unauthorized(status, title, detail, **common)
        if status == 403:
            permission = required_permission(method, path)
            return Forbidden(status, title, detail, permission=permission, **common)
        if status == 404:
            return NotFound(status, title, detail, subject=subject(path), **common)
        if status == 429:
            retry_after = _retry_after(response.headers.get("Retry-After"))
            return RateLimited(status, title, detail, retry_after=retry_after, **common)
        if status >= 500:
            return ServerError(status, title, detail, **common)
        return ApiError(status, title, detail, errors, **common)

    def _problem(self, response: httpx.Response) -> tuple[str, str | None, FieldErrors]:
        """title, detail and errors from an RFC 7807 body, tolerating any other body."""
        title = response.reason_phrase or f"HTTP {response.status_code}"
        try:
            body = response.json()
        except ValueError:
            return self._scrub(title), None, {}
        if not isinstance(body, Mapping):
            return self._scrub(title), None, {}
        if isinstance(body.get("title"), str):
            title = body["title"]
        detail = body.get("detail") if isinstance(body.get("detail"), str) else None
        errors: FieldErrors = {}
        raw = body.get("errors")
        if isinstance(raw, Mapping):
            for path, sentences in raw.items():
                if isinstance(sentences, str):
                    sentences = [sentences]
                if isinstance(sentences, list):
                    errors[self._scrub(str(path))] = [self._scrub(str(s)) for s in sentences]
        return self._scrub(title), self._scrub(detail) if detail else None, errors

    def _scrub(self, text: str) -> str:
        """Whatever the service echoes, the key never reaches an error message."""
        if len(self._key) < 8:  # too short to be a key, and replacing it would garble text
            return text
        return text.replace(self._key, _REDACTED)

    def _unreachable(
        self, exc: httpx.TransportError, method: str, path: str
    ) -> tuple[ServiceUnreachable, bool]:
        """The error for a request that got no answer, and whether it may be retried."""
        timeout = self.timeout
        maybe_sent = False  # whether the service may have acted on the request anyway
        if isinstance(exc, httpx.ConnectTimeout):
            reason, retryable = f"no connection within {_seconds(timeout.connect)}", True
        elif isinstance(exc, httpx.ReadTimeout):
            reason, retryable = f"no answer within {_seconds(timeout.read)}", False
            maybe_sent = True
        elif isinstance(exc, httpx.TimeoutException):
            reason, retryable = "the request timed out", False
            maybe_sent = True
        elif isinstance(exc, httpx.ConnectError):
            reason, retryable = _connect_reason(str(exc)), True
        elif isinstance(exc, httpx.RemoteProtocolError | httpx.ReadError | httpx.WriteError):
            reason, retryable = "the connection was closed before the service answered", True
            maybe_sent = True
        elif isinstance(exc, httpx.UnsupportedProtocol):
            reason, retryable = "the address is not an http:// or https:// URL", False
        else:
            reason, retryable = f"the connection failed ({type(exc).__name__})", False
        if maybe_sent and method != "GET":
            reason += "; the change may or may not have been made"
        return ServiceUnreachable(self.base_url, reason, method=method, path=path), retryable


def _connect_reason(message: str) -> str:
    text = message.lower()
    if "refused" in text or "errno 111" in text or "all connection attempts failed" in text:
        return "connection refused"
    names = ("name or service not known", "nodename nor servname", "getaddrinfo", "name resolution")
    if any(n in text for n in names) or "no address associated" in text:
        return "the host name could not be resolved"
    if "ssl" in text or "certificate" in text:
        return "the TLS handshake failed"
    if "unreachable" in text:
        return "the network is unreachable"
    return "the connection failed"


def _seconds(value: float | None) -> str:
    if value is None:
        return "the time allowed"
    return f"{value:g} seconds"


def _retry_after(value: str | None) -> float | None:
    """Retry-After as seconds to wait: delta-seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def _jsonable(value: Any) -> Any:
    """json.dumps fallback, so plain-dict payloads may hold UUIDs, times and models."""
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Enum):
        return value.value
    pydantic = sys.modules.get("pydantic")  # loaded if any model exists; not loaded for one
    if pydantic is not None and isinstance(value, pydantic.BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    raise TypeError(f"A payload value of type {type(value).__name__} cannot be sent as JSON.")


def _checked_base_url(base_url: str) -> str:
    parts = urlsplit(str(base_url).strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"The base URL must be an http:// or https:// URL, not {base_url!r}.")
    return str(base_url).strip().rstrip("/")


def _tls_verification(base_url: str) -> ssl.SSLContext | bool:
    """httpx's default (verified, certifi's CAs) for https. An http:// service never uses TLS,
    and loading the CA bundle costs tens of ms of the console's start-up, so it gets a
    context that still verifies everything but trusts no CA: any TLS use would fail closed."""
    if base_url.startswith("https://"):
        return True
    return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
