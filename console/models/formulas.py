"""Reactor formulas: reusable JavaScript with a configuration and request contract."""

from __future__ import annotations

import base64
import re
from typing import Annotated, Any, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from console.models.common import (
    NAME_MAX,
    LenientModel,
    Name,
    RequestModel,
    ResponseModel,
    UtcDateTime,
)
from console.models.errors import FieldErrors, merge

FormulaType = Literal["official", "private"]
FormulaStatus = Literal["verified", "coming_soon"]
ValueType = Literal["string", "boolean", "number"]

DESCRIPTION_MAX = 1000
CODE_MAX = 50_000
CONTRACT_MAX_ITEMS = 25
ICON_TYPES: tuple[str, ...] = ("image/png", "image/jpg", "image/jpeg")
ICON_PATTERN = (
    r"^data:(image/(?:png|jpg|jpeg));base64,"
    r"((?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==))$"
)
"""What an icon is: a PNG or JPEG data URL whose payload is base64 as RFC 4648 writes it
(padded to a multiple of four, not empty). The validator's verdict is this pattern's alone,
so the OpenAPI document says the same (regex syntax Python and ECMA-262 read alike)."""
_ICON = re.compile(ICON_PATTERN[1:-1])
_DATA_URL = re.compile(r"data:image/(?:png|jpg|jpeg);base64,.", re.DOTALL)
"""Only to word the refusal: a data URL of the right type whose payload is not base64."""
CONFIGURATION_NAME_PATTERN = r"^[^.]+$"
"""A configuration name holds no `.` (nesting is unsupported); the validator's own rule."""
_FLAT_NAME = re.compile(CONFIGURATION_NAME_PATTERN[1:-1])


VALUE_TYPES: tuple[str, ...] = ("string", "boolean", "number")


def _value_type(value: str, info: ValidationInfo) -> str:
    """One of the three, or a type of the service's own that the formula already uses
    (`held_value_types` in the parse context): sent back as it was, never typed."""
    if value not in VALUE_TYPES and value not in (info.context or {}).get("held_value_types", ()):
        expected = "'string', 'boolean' or 'number'"
        raise PydanticCustomError("literal_error", "Bad type", {"expected": expected})
    return value


class FormulaConfiguration(BaseModel):
    """A setting every Reactor made from the formula defines once."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    name: str = Field(
        min_length=1,
        max_length=NAME_MAX,
        json_schema_extra={"pattern": CONFIGURATION_NAME_PATTERN},
    )
    description: str | None = Field(default=None, max_length=DESCRIPTION_MAX)
    type: str

    @field_validator("type")
    @classmethod
    def _known_type(cls, value: str, info: ValidationInfo) -> str:
        return _value_type(value, info)

    @field_validator("name")
    @classmethod
    def _flat(cls, value: str) -> str:
        if _FLAT_NAME.fullmatch(value) is None:
            raise ValueError("A configuration name cannot contain '.': nesting is unsupported.")
        return value


class FormulaRequestParameter(BaseModel):
    """An argument supplied on each invocation; dotted names denote nested objects."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    name: str = Field(min_length=1, max_length=NAME_MAX)
    description: str | None = Field(default=None, max_length=DESCRIPTION_MAX)
    type: str
    optional: bool = False

    @field_validator("type")
    @classmethod
    def _known_type(cls, value: str, info: ValidationInfo) -> str:
        return _value_type(value, info)


def decode_icon(value: str) -> tuple[str, bytes]:
    """Splits an icon data URL into its media type and bytes; ValueError if it is not one
    (see ICON_PATTERN)."""
    match = _ICON.fullmatch(value)
    if match is None:
        if _DATA_URL.match(value) is None:
            raise ValueError(
                "The icon must be a data:image/png, image/jpg or image/jpeg base64 URL."
            )
        raise ValueError("The icon's base64 payload does not decode.")
    return match.group(1), base64.b64decode(match.group(2), validate=True)


def icon_data_url(media_type: str, data: bytes) -> str:
    return f"data:{media_type};base64,{base64.b64encode(data).decode('ascii')}"


class ContractItemView(LenientModel):
    """A configuration setting or request parameter as read: nothing required, any type."""

    name: str | None = None
    description: str | None = None
    type: str | None = None
    optional: bool = False


class ReactorFormula(ResponseModel):
    """A formula as read: `type` and `status` are any string (a service may add values)."""

    id: UUID
    name: str
    description: str | None = None
    type: str
    status: str = "verified"
    icon: str | None = None
    code: str | None = None
    configuration: list[ContractItemView] = []
    request_parameters: list[ContractItemView] = []
    created_at: UtcDateTime | None = None
    created_by: UUID | None = None
    modified_at: UtcDateTime | None = None
    modified_by: UUID | None = None


def _duplicate_names(path: str, items: list[Any]) -> list[tuple[str, str]]:
    seen: set[str] = set()
    found = []
    for i, item in enumerate(items):
        if item.name in seen:
            found.append((f"{path}[{i}].name", f"The name {item.name} is declared twice."))
        seen.add(item.name)
    return found


class ReactorFormulaCreate(RequestModel):
    """Body of `POST /reactor-formulas` and `PUT /reactor-formulas/{id}`."""

    name: Name
    description: str | None = Field(default=None, max_length=DESCRIPTION_MAX)
    type: FormulaType
    icon: Annotated[str, Field(json_schema_extra={"pattern": ICON_PATTERN})] | None = None
    code: str = Field(min_length=1, max_length=CODE_MAX)
    configuration: list[FormulaConfiguration] = Field(
        default_factory=list, max_length=CONTRACT_MAX_ITEMS
    )
    request_parameters: list[FormulaRequestParameter] = Field(
        default_factory=list, max_length=CONTRACT_MAX_ITEMS
    )

    @field_validator("icon")
    @classmethod
    def _icon(cls, value: str | None) -> str | None:
        if value is not None:
            decode_icon(value)
        return value

    def rule_errors(self, **context: Any) -> FieldErrors:
        return merge(
            _duplicate_names("configuration", self.configuration),
            _duplicate_names("request_parameters", self.request_parameters),
        )


ReactorFormulaUpdate = ReactorFormulaCreate
