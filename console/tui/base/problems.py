"""Turns any failure into a short, human message for an error panel; never a traceback."""

from __future__ import annotations

import logging
from dataclasses import dataclass

log = logging.getLogger(__name__)

UNREACHABLE = "The service is unreachable"
SERVICE_FAILED = "The service failed (5xx)"


@dataclass(frozen=True)
class ConsoleProblem:
    """What went wrong, said for a person, and what they can do about it."""

    title: str
    message: str
    status: int | None = None
    unauthorized: bool = False
    hint: str = "Press r to retry."
    not_offered: bool = False
    """The service has no such route at all: the section or action is marked unavailable."""

    @property
    def outage(self) -> bool:
        """The service did not answer at all or failed (unreachable, 5xx), as opposed to
        refusing this request (4xx): what was loaded before may be out of date."""
        if self.unauthorized:
            return False
        return self.title in (UNREACHABLE, SERVICE_FAILED) or (self.status or 0) >= 500


def _client_errors() -> dict[str, type[BaseException]]:
    try:
        import console.client as client
    except Exception:
        log.warning("The client's errors could not be loaded", exc_info=True)
        return {}
    names = (
        "Unauthorized",
        "Forbidden",
        "NotFound",
        "NotOffered",
        "RateLimited",
        "ServerError",
        "ServiceUnreachable",
        "ValidationFailed",
        "ApiError",
    )
    return {n: getattr(client, n) for n in names if hasattr(client, n)}


def _is(exc: BaseException, name: str, errors: dict[str, type[BaseException]]) -> bool:
    kind = errors.get(name)
    return kind is not None and isinstance(exc, kind)


def describe(
    exc: BaseException, *, permission: str | None = None, what: str = ""
) -> ConsoleProblem:
    """A ConsoleProblem for `exc`, naming the permission a 403 is about when known."""
    errors = _client_errors()
    status = getattr(exc, "status", None)
    text = _sentence(exc)
    if _is(exc, "Unauthorized", errors) or status == 401:
        return ConsoleProblem(
            "The service rejected this key (401)",
            text,
            401,
            unauthorized=True,
            hint="Press K to enter a new key for this profile, r to retry.",
        )
    if _is(exc, "NotOffered", errors):
        return ConsoleProblem(
            f"Not offered by this service{_for(what)}",
            text,
            status,
            hint="The service in use has no such endpoint; it is marked unavailable here.",
            not_offered=True,
        )
    if _is(exc, "Forbidden", errors) or status == 403:
        named = getattr(exc, "permission", None)
        if named and named in text:
            message = text
        else:
            lacks = f"This key lacks {permission}." if permission else "This key lacks a grant."
            message = f"{lacks} {text}".strip()
        needed = named or permission
        hint = (
            f"Retrying will not help: this needs a key with {needed}. "
            "Use another profile (p) or key that has it."
            if needed
            else "Retrying will not help: this needs a key with more permissions. "
            "Use another profile (p) or key."
        )
        return ConsoleProblem(f"Not permitted (403){_for(what)}", message, 403, hint=hint)
    if _is(exc, "NotFound", errors) or status == 404:
        return ConsoleProblem(f"Not found (404){_for(what)}", text, 404)
    if _is(exc, "RateLimited", errors) or status == 429:
        after = getattr(exc, "retry_after", None)
        wait = f" Try again in {after:g} s." if isinstance(after, int | float) else ""
        return ConsoleProblem("Rate limited (429)", f"{text}{wait}", 429)
    if _is(exc, "ServerError", errors) or (isinstance(status, int) and status >= 500):
        return ConsoleProblem(f"The service failed ({status or '5xx'})", text, status)
    if _is(exc, "ServiceUnreachable", errors):
        return ConsoleProblem(UNREACHABLE, text)
    if _is(exc, "ApiError", errors):
        return ConsoleProblem(f"Request failed{f' ({status})' if status else ''}", text, status)
    if isinstance(exc, OSError | TimeoutError):
        return ConsoleProblem(UNREACHABLE, text)
    return ConsoleProblem("Something went wrong", f"{type(exc).__name__}: {text}")


def _for(what: str) -> str:
    return f": {what}" if what else ""


def _sentence(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text if text.endswith((".", "!", "?")) else f"{text}."
