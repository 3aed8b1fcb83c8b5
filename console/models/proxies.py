"""Proxies: pre-configured routes with optional transform code."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit
from uuid import UUID

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_serializer,
)
from pydantic_core import PydanticCustomError

from console.models.common import LenientModel, Name, RequestModel, ResponseModel, UtcDateTime

DESTINATION_URL_MAX = 400
CODE_MAX = 50_000


class ProxyTransform(BaseModel):
    """A transform on a proxy's request or response, as a request sends it.

    The specification's transforms are code. The hosted service also has transforms of other
    kinds (`{"type": "mask", "matcher": ..., ...}`, no `code`): those are carried through with
    every field as given, so that saving a proxy never destroys one the console cannot edit.
    """

    model_config = ConfigDict(extra="allow", defer_build=True)

    type: str | None = None
    code: str | None = Field(default=None, min_length=1, max_length=CODE_MAX, validate_default=True)

    @property
    def is_code(self) -> bool:
        return self.type in (None, "code")

    @field_validator("code")
    @classmethod
    def _code_needs_code(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None and info.data.get("type") in (None, "code"):
            raise PydanticCustomError("missing", "Field required")
        return value

    @model_serializer(mode="wrap")
    def _as_sent(self, handler: Any) -> Any:
        """Only the fields given: a code transform stays `{"code": ...}`, a mask has no code."""
        data = handler(self)
        if isinstance(data, dict):
            for name in ("type", "code"):
                if data.get(name) is None:
                    data.pop(name, None)
        return data


class TransformView(LenientModel):
    """A transform as the service returns it: code, or another kind (see ProxyTransform)."""

    type: str | None = None
    code: str | None = None

    @property
    def is_code(self) -> bool:
        return self.type in (None, "code") and self.code is not None

    @property
    def kind(self) -> str:
        return self.type or "code"


class ApplicationRef(BaseModel):
    """How a proxy payload names its application: `{"id": ...}`."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    id: UUID


class Proxy(ResponseModel):
    id: UUID
    tenant_id: UUID | None = None
    key: str | None = None
    name: str
    destination_url: str | None = None
    request_transform: TransformView | None = None
    response_transform: TransformView | None = None
    application_id: UUID | None = None
    configuration: dict[str, str | None] | None = None
    require_auth: bool = True
    created_by: UUID | None = None
    created_at: UtcDateTime | None = None
    modified_by: UUID | None = None
    modified_at: UtcDateTime | None = None


class ProxyCreate(RequestModel):
    """Body of `POST /proxies` and `PUT /proxies/{id}` (same fields and rules)."""

    name: Name
    destination_url: str = Field(min_length=1, max_length=DESTINATION_URL_MAX)
    request_transform: ProxyTransform | None = None
    response_transform: ProxyTransform | None = None
    application: ApplicationRef | None = None
    configuration: dict[str, str] | None = None
    require_auth: bool = True

    @field_validator("destination_url")
    @classmethod
    def _https_only(cls, value: str) -> str:
        parts = urlsplit(value)
        if parts.scheme != "https" or not parts.hostname:
            raise ValueError("The destination URL must be an absolute https:// URL.")
        return value

    def rule_errors(self, **context: Any) -> dict[str, list[str]]:
        return {}


ProxyUpdate = ProxyCreate
