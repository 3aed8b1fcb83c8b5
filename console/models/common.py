"""Pieces every resource shares: UTC timestamps, the paginated envelope, request parsing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Annotated, Any, ClassVar, Generic, Self, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    PlainSerializer,
    PrivateAttr,
    ValidationError,
    model_validator,
)

from console.models.errors import FieldErrors, PayloadInvalid, field_errors

T = TypeVar("T")

NAME_MAX = 200


def _as_utc(value: datetime) -> datetime:
    """Naive times are taken as UTC; aware ones are converted to it. An offset that carries
    the time past year 1 or 9999 in UTC (`0001-01-01T00:00:00+23:59`) is a field error, not
    an OverflowError: a service would answer it with a 500, a client would crash on it."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise ValueError(
            "The time is outside the range that can be represented: in UTC it must lie "
            "between the years 1 and 9999."
        ) from None


UtcDateTime = Annotated[
    datetime,
    AfterValidator(_as_utc),
    PlainSerializer(lambda v: v.isoformat(), return_type=str, when_used="json"),
]
"""A timestamp held in UTC and written as ISO 8601 with offset (`...+00:00`)."""

NAME_PATTERN = r"^[^\u0000-\u001f\u007f-\u009f]*$"
"""What a name may hold: no control character (Unicode category Cc: C0 such as NUL, tab, line
breaks and ESC; DEL; C1). One pattern for the validator and the OpenAPI document, in regex
syntax Python and ECMA-262 read alike."""

_NAME = re.compile(NAME_PATTERN[1:-1])


def has_control_characters(text: str) -> bool:
    return _NAME.fullmatch(text) is None


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


def _no_null_items(value: Any) -> Any:
    return [item for item in value if item is not None] if isinstance(value, list) else value


Strings = Annotated[list[str], BeforeValidator(_no_null_items)]
"""A list of strings as read: a null item carries nothing and is left out."""


def utc_now() -> datetime:
    """The project clock (see console.clock), so frozen runs validate expiry consistently."""
    from console.clock import now

    return now()


def without_nulls(model: type[BaseModel], data: Any) -> Any:
    """`data` less the nulls sent for fields that have a default, so the default applies.

    An evolving API sends `null` where it used to omit a field (or an empty list): a reader
    takes both as "not given". Required fields keep their null and fail as they should.
    """
    if not isinstance(data, dict):
        return data
    fields = model.model_fields
    return {
        k: v for k, v in data.items() if v is not None or k not in fields or fields[k].is_required()
    }


class LenientModel(BaseModel):
    """Part of an answer: unknown fields are kept (see `model_extra`), nulls mean "not given".

    Kept, not dropped: the console shows what it does not understand and sends it back
    unchanged on an update (see console.models.round_trip).
    """

    model_config = ConfigDict(extra="allow", defer_build=True)

    _as_sent: Any = PrivateAttr(default=None)

    @model_validator(mode="wrap")
    @classmethod
    def _nulls_are_defaults(cls, data: Any, handler: ModelWrapValidatorHandler[Any]) -> Any:
        model = handler(without_nulls(cls, data))
        if isinstance(data, dict) and isinstance(model, LenientModel):
            model._as_sent = data
        return model

    @property
    def unknown_fields(self) -> dict[str, Any]:
        """The fields the service sent that this model does not name."""
        return dict(self.model_extra or {})

    @property
    def as_sent(self) -> Any:
        """The object exactly as the service sent it (nulls included), for the raw JSON view;
        the model's own JSON form if it was not read from an answer."""
        if self._as_sent is not None:
            return self._as_sent
        return self.model_dump(mode="json", exclude_unset=True)


# Every model here sets defer_build: its validator is built on first use instead of at import,
# so the console's start pays only for the models it shows (about -80 ms on a cold start).
class Pagination(LenientModel):
    """The page envelope's numbers. Some services leave the totals out: then only the length
    of a page says whether another follows (see Page.has_more)."""

    total_items: int | None = None
    page_number: int | None = None
    page_size: int | None = None
    total_pages: int | None = None


class Page(BaseModel, Generic[T]):
    """One page of a list endpoint's envelope.

    `unreadable` holds the items (as sent) that did not match the model: one odd object
    never costs the rest of its page.
    """

    model_config = ConfigDict(extra="ignore", defer_build=True)

    pagination: Pagination = Field(default_factory=Pagination)
    data: list[T]
    unreadable: list[Any] = []

    @property
    def has_more(self) -> bool:
        """Whether a later page holds more items: by the totals when the service sent them,
        else by whether this page came back full."""
        p = self.pagination
        if p.page_number is not None and p.total_pages is not None:
            return p.page_number < p.total_pages
        count = len(self.data) + len(self.unreadable)
        if p.page_size is not None:
            return count >= p.page_size > 0
        return count > 0

    def __iter__(self) -> Iterator[T]:  # type: ignore[override]
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


class ResponseModel(LenientModel):
    """A resource as the service returns it: lenient, see LenientModel."""


class RequestModel(BaseModel):
    """A request payload. `parse` applies the field rules and then the cross-field rules.

    Unknown and response-only fields are ignored, as the API decisions say.
    """

    model_config = ConfigDict(extra="ignore", str_strip_whitespace=False, defer_build=True)

    carried_back: ClassVar[tuple[str, ...]] = ()
    """Fields no form nor `push` edits (a proxy's timeout): an update whose payload leaves one
    unset sends it back as the object was read (round_trip.update_body), so that saving never
    resets it on a service that reads a missing field as its default."""
    never_carried: ClassVar[frozenset[str]] = frozenset()
    """Fields an update must never send, even when the object as read holds them (an
    application's `create_key`: an option of creation only)."""

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
