"""Validation errors as the API reports them: JSON paths mapped to human sentences.

Service, client and console forms all turn a failed validation into this one shape, so a
message seen at a form field is the message the service would have sent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

FieldErrors = dict[str, list[str]]


class ProblemDetails(BaseModel):
    """An RFC 7807 error body; `errors` is present only on 400 validation failures."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    type: str = "about:blank"
    title: str
    status: int
    detail: str | None = None
    errors: FieldErrors | None = None


class PayloadInvalid(ValueError):
    """A request payload broke one or more rules; `errors` is keyed by JSON path."""

    def __init__(self, errors: FieldErrors) -> None:
        self.errors = errors
        first = next(iter(errors.items()), ("", ["invalid"]))
        super().__init__(f"{first[0] or 'body'}: {first[1][0]}")


def json_path(loc: Sequence[str | int]) -> str:
    """`("rules", 0, "container")` -> `"rules[0].container"`."""
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else str(part)
    return path


_ACRONYMS = {"url": "URL", "id": "ID", "api": "API", "ip": "IP", "uuid": "UUID"}


def _label(loc: Sequence[str | int]) -> str:
    """`destination_url` -> `destination URL`: the field's name as a sentence spells it."""
    names = [p for p in loc if isinstance(p, str)]
    if not names:
        return "value"
    return " ".join(_ACRONYMS.get(word, word) for word in names[-1].split("_"))


def _sentence(error: Mapping[str, Any]) -> str:
    """One pydantic error as a sentence a person can act on."""
    kind = error["type"]
    label = _label(error["loc"])
    ctx = error.get("ctx") or {}
    if kind == "missing":
        return f"The {label} is required."
    if kind == "string_too_long":
        return f"The {label} must be at most {ctx.get('max_length')} characters."
    if kind == "string_too_short":
        least = ctx.get("min_length", 1)
        if least > 1 and error.get("input"):
            return f"The {label} must be at least {least} characters."
        return f"The {label} must not be empty."
    if kind == "too_long":
        return f"The {label} may hold at most {ctx.get('max_length')} items."
    if kind == "too_short":
        least = ctx.get("min_length", 1)
        return f"The {label} must hold at least {least} item{'' if least == 1 else 's'}."
    if kind == "literal_error":
        return f"The {label} must be one of {ctx.get('expected')}."
    if kind in ("greater_than_equal", "greater_than"):
        limit = ctx.get("ge", ctx.get("gt"))
        return f"The {label} must be at least {limit}."
    if kind in ("string_type", "int_type", "int_parsing", "bool_type", "bool_parsing"):
        wanted = {"string_type": "a string", "bool_type": "true or false"}.get(
            kind, "a whole number" if kind.startswith("int") else "true or false"
        )
        return f"The {label} must be {wanted}."
    if kind in ("list_type", "dict_type", "model_type", "model_attributes_type"):
        wanted = "a list" if kind == "list_type" else "an object"
        return f"The {label} must be {wanted}."
    if kind.startswith("datetime"):
        return f"The {label} must be an ISO 8601 date-time."
    if kind.startswith("uuid"):
        return f"The {label} must be a UUID."
    if kind == "extra_forbidden":
        return f"The field {label} is not allowed here."
    if kind == "value_error":
        # Our own validators raise ValueError with a finished sentence.
        return str(ctx.get("error", error["msg"]))
    return f"The {label} is invalid: {error['msg']}."


def field_errors(exc: ValidationError) -> FieldErrors:
    """A pydantic ValidationError as `{json path: [sentences]}`."""
    errors: FieldErrors = {}
    for error in exc.errors(include_url=False):
        errors.setdefault(json_path(error["loc"]), []).append(_sentence(error))
    return errors


def merge(*parts: Iterable[tuple[str, str]]) -> FieldErrors:
    """Collects `(path, sentence)` pairs into the API's error map."""
    errors: FieldErrors = {}
    for part in parts:
        for path, sentence in part:
            errors.setdefault(path, []).append(sentence)
    return errors
