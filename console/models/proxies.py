"""Proxies: pre-configured routes with optional transform code."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, field_validator

from console.models.common import Name, RequestModel, ResponseModel, UtcDateTime

DESTINATION_URL_MAX = 400
CODE_MAX = 50_000


class ProxyTransform(BaseModel):
    """Transform code run on a proxy's request or response."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    code: str = Field(min_length=1, max_length=CODE_MAX)


class ApplicationRef(BaseModel):
    """How a proxy payload names its application: `{"id": ...}`."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    id: UUID


class Proxy(ResponseModel):
    id: UUID
    tenant_id: UUID
    key: str | None = None
    name: str
    destination_url: str
    request_transform: ProxyTransform | None = None
    response_transform: ProxyTransform | None = None
    application_id: UUID | None = None
    configuration: dict[str, str] | None = None
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
