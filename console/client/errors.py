"""Every way a call can fail, as one exception hierarchy whose str() a person can read.

This module imports neither httpx nor pydantic, so screens can catch these cheaply.
An error never holds the API key, the request or the response: only what it says.
"""

from __future__ import annotations

FieldErrors = dict[str, list[str]]


class ApiError(Exception):
    """A call to the administration API failed; `str(error)` is a sentence for a person.

    `status` is the HTTP status (None when no answer came), `title` and `detail` come from
    the service's problem details, `errors` maps JSON paths to sentences (400 only).
    """

    def __init__(
        self,
        status: int | None = None,
        title: str = "",
        detail: str | None = None,
        errors: FieldErrors | None = None,
        *,
        method: str | None = None,
        path: str | None = None,
    ) -> None:
        self.status = status
        self.title = title
        self.detail = detail
        self.errors: FieldErrors = dict(errors or {})
        self.method = method
        self.path = path
        super().__init__(self.sentence())

    def sentence(self) -> str:
        """The one-line explanation that str() returns."""
        what = self.detail or self.title or "The service refused the request."
        return _with_status(what, self.status)

    def __str__(self) -> str:
        return self.sentence()

    def __repr__(self) -> str:
        where = f" {self.method} {self.path}" if self.method else ""
        return f"{type(self).__name__}({self.status}{where}: {self.sentence()!r})"


class ValidationFailed(ApiError):
    """400: the service refused the input; `errors` says which field and why."""

    def sentence(self) -> str:
        if self.errors:
            path, sentences = next(iter(self.errors.items()))
            first = sentences[0] if sentences else "The value is invalid."
            problems = sum(max(len(s), 1) for s in self.errors.values())
            more = ""
            if problems > 1:
                more = "; 1 more problem" if problems == 2 else f"; {problems - 1} more problems"
            status = self.status or 400
            return _with_status(f"Invalid {path or 'input'}: {_bare(first)}{more}", status)
        detail = self.detail or "the input is invalid"
        return _with_status(
            f"The service refused the request: {_lower_first(detail)}", self.status or 400
        )


class Unauthorized(ApiError):
    """401: the key is missing, unknown, expired, or was regenerated away."""

    def sentence(self) -> str:
        return _with_status(
            "The API key was not accepted: it is unknown, expired or was regenerated", 401
        )


class Forbidden(ApiError):
    """403: the key is valid but may not do this.

    `permission` is the one the endpoint requires. The sentence names it as lacking unless
    the service gave another reason (an official formula is read-only for every key).
    """

    def __init__(self, *args: object, permission: str | None = None, **kwargs: object) -> None:
        self.permission = permission
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def sentence(self) -> str:
        detail = self.detail or ""
        if self.permission and (not detail or self.permission in detail):
            return _with_status(f"This key lacks the permission {self.permission}", 403)
        if detail:
            return _with_status(detail, 403)
        return _with_status("This key is not allowed to do this", 403)


class NotFound(ApiError):
    """404: no such object in this tenant (other tenants' objects look the same)."""

    def __init__(self, *args: object, subject: str | None = None, **kwargs: object) -> None:
        self.subject = subject
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def sentence(self) -> str:
        if self.subject:
            return _with_status(f"The {self.subject} does not exist in this tenant", 404)
        return _with_status(self.detail or "Not found", 404)


class NotOffered(ApiError):
    """404 or 405 for a route, not an object: this service does not have the endpoint at all
    (it retired it, or never had it). `feature` names what is missing, in words."""

    def __init__(self, *args: object, feature: str = "this", **kwargs: object) -> None:
        self.feature = feature
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def sentence(self) -> str:
        return _with_status(f"This service does not offer {self.feature}", self.status)


class RateLimited(ApiError):
    """429: too many requests for this key; `retry_after` is the wait the service asked for."""

    def __init__(self, *args: object, retry_after: float | None = None, **kwargs: object) -> None:
        self.retry_after = retry_after
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def sentence(self) -> str:
        if self.retry_after is not None:
            seconds = max(1, round(self.retry_after))
            unit = "second" if seconds == 1 else "seconds"
            wait = f"try again in {seconds} {unit}"
        else:
            wait = "try again shortly"
        return _with_status(f"Too many requests with this key: {wait}", 429)


class ServerError(ApiError):
    """5xx: the service failed; nothing the caller sent is to blame."""

    def sentence(self) -> str:
        status = self.status or 500
        if status in (502, 503, 504):
            return _with_status("The service is unavailable at the moment: try again later", status)
        return _with_status("The service failed with an internal error", status)


class ServiceUnreachable(ApiError):
    """No answer: connection refused, host not found, timed out or dropped."""

    def __init__(self, base_url: str, reason: str, **kwargs: object) -> None:
        self.base_url = base_url
        self.reason = reason
        super().__init__(None, "Service unreachable", reason, **kwargs)  # type: ignore[arg-type]

    def sentence(self) -> str:
        return f"Cannot reach the service at {self.base_url}: {self.reason}"


class UnexpectedResponse(ApiError):
    """The answer was not what the API sends (wrong URL? a proxy in between?)."""

    def sentence(self) -> str:
        return _with_status(
            self.detail or "The service sent an answer this console does not understand",
            self.status,
        )


class UnsafePath(ApiError):
    """Refused before sending: an id cannot be one segment of a request path (it is `..`,
    holds `/`, ...). Nothing was recorded or sent (console.client.paths)."""

    def __init__(self, segment: str, problem: str, **kwargs: object) -> None:
        self.segment = segment
        self.problem = problem
        super().__init__(None, "Refused", **kwargs)  # type: ignore[arg-type]

    def sentence(self) -> str:
        shown = repr(self.segment[:80])  # repr: a control character shows as an escape
        return f"Refused {shown} as part of a request path ({self.problem}): nothing was sent"


class ReactorFailed(ApiError):
    """A reactor run failed on the service: it is not active (409), its code is not a
    function (422), it threw or broke a limit (500, or the status its error carried), or its
    args were refused (400). `title` and `errors` are the reactor's own (a thrown error's
    message is in `errors["error"]`)."""

    def sentence(self) -> str:
        messages = [m for sentences in self.errors.values() for m in sentences]
        what = self.detail or (messages[0] if messages else "")
        if self.detail and messages and messages[0] not in self.detail:
            what = f"{_bare(self.detail)}: {messages[0]}"
        title = self.title or "The reactor failed"
        return _with_status(f"{_bare(title)}: {what}" if what else title, self.status)


def _bare(text: str) -> str:
    """A sentence without its final full stop, so that a status can follow it."""
    return text.rstrip().rstrip(".")


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text


def _with_status(text: str, status: int | None) -> str:
    text = _bare(text)
    return f"{text} ({status})" if status is not None else text


__all__ = [
    "ApiError",
    "FieldErrors",
    "Forbidden",
    "NotFound",
    "NotOffered",
    "RateLimited",
    "ReactorFailed",
    "ServerError",
    "ServiceUnreachable",
    "Unauthorized",
    "UnexpectedResponse",
    "UnsafePath",
    "ValidationFailed",
]
