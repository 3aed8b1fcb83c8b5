"""Pieces every resource shares: UTC timestamps, the paginated envelope, request parsing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Annotated, Any, Generic, Self, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    ValidationError,
)

from console.models.errors import FieldErrors, PayloadInvalid, field_errors

T = TypeVar("T")

NAME_MAX = 200


def _as_utc(value: datetime) -> datetime:
    """Naive times are taken as UTC; aware ones are converted to it."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


UtcDateTime = Annotated[
    datetime,
    AfterValidator(_as_utc),
    PlainSerializer(lambda v: v.isoformat(), return_type=str, when_used="json"),
]
"""A timestamp held in UTC and written as ISO 8601 with offset (`...+00:00`)."""

CONTROL_CHARACTERS = "\x00-\x1f\x7f-\x9f"
"""Unicode category Cc: C0 (NUL, tab, line breaks, ESC...), DEL and C1, as a regex range."""

NAME_PATTERN = r"^[^\u0000-\u001f\u007f-\u009f]*$"
"""The same rule for the OpenAPI document (ECMA-262 and Python read it alike)."""

_CONTROL = re.compile(f"[{CONTROL_CHARACTERS}]")


def has_control_characters(text: str) -> bool:
    return _CONTROL.search(text) is not None


def _no_control_characters(value: str) -> str:
    """A name is one line of text a person reads: a NUL, a tab or an escape sequence in it
    would be cut, misaligned or run by a terminal; and SQLite's LIKE stops at a NUL."""
    if has_control_characters(value):
        raise ValueError(
            "The name must not contain control characters (such as NUL, a tab or a line break)."
        )
    return value


Name = Annotated[
    str,
    Field(min_length=1, max_length=NAME_MAX, json_schema_extra={"pattern": NAME_PATTERN}),
    AfterValidator(_no_control_characters),
]


def utc_now() -> datetime:
    """The project clock (see console.clock), so frozen runs validate expiry consistently."""
    from console.clock import now

    return now()


# Every model here sets defer_build: its validator is built on first use instead of at import,
# so the console's start pays only for the models it shows (about -80 ms on a cold start).
class Pagination(BaseModel):
    model_config = ConfigDict(extra="ignore", defer_build=True)

    total_items: int
    page_number: int
    page_size: int
    total_pages: int


class Page(BaseModel, Generic[T]):
    """One page of a list endpoint's envelope."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    pagination: Pagination
    data: list[T]

    @property
    def has_more(self) -> bool:
        """Whether a later page holds more items."""
        return self.pagination.page_number < self.pagination.total_pages

    def __iter__(self) -> Iterator[T]:  # type: ignore[override]
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


class ResponseModel(BaseModel):
    """A resource as the service returns it; unknown fields are tolerated."""

    model_config = ConfigDict(extra="ignore", defer_build=True)


class RequestModel(BaseModel):
    """A request payload. `parse` applies the field rules and then the cross-field rules.

    Unknown and response-only fields are ignored, as the API decisions say.
    """

    model_config = ConfigDict(extra="ignore", str_strip_whitespace=False, defer_build=True)

    @classmethod
    def parse(cls, data: Any, **context: Any) -> Self:
        """Validates `data` (a dict or model); raises PayloadInvalid with every error found."""
        if isinstance(data, BaseModel):
            data = data.model_dump(mode="json", exclude_unset=True)
        if not isinstance(data, dict):
            raise PayloadInvalid({"": ["The body must be a JSON object."]})
        try:
            model = cls.model_validate(data, context=context)
        except ValidationError as exc:
            raise PayloadInvalid(field_errors(exc)) from None
        errors = model.rule_errors(**context)
        if errors:
            raise PayloadInvalid(errors)
        return model

    def rule_errors(self, **context: Any) -> FieldErrors:
        """Cross-field rules that pydantic's field checks cannot express."""
        return {}

    def to_json(self) -> dict[str, Any]:
        """The payload as the service expects it on the wire."""
        return self.model_dump(mode="json", exclude_unset=False)
