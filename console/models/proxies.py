"""Proxies: pre-configured routes with optional transform code."""

from __future__ import annotations

import re
from typing import Any
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

# What a destination URL is: an absolute https URL (RFC 3986, no fragment) whose host is a
# DNS name (RFC 1123 labels, the last one starting with a letter) or an IPv4 address, with
# an optional port from 1 to 65535, no user info, and only URL characters (the rest
# percent-encoded, so no whitespace or control characters). One pattern, written in the
# subset of regex syntax that Python and ECMA-262 (JSON Schema) read alike: the validator
# and the OpenAPI document cannot disagree.
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_LAST_LABEL = r"[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
_HOST = rf"(?:(?:{_LABEL}\.)*{_LAST_LABEL}|{_OCTET}(?:\.{_OCTET}){{3}})"
_PORT = r"(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3})"
_PCHAR = r"(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})"
DESTINATION_URL_PATTERN = rf"^https://{_HOST}(?::{_PORT})?(?:/{_PCHAR}*)*(?:\?(?:{_PCHAR}|[/?])*)?$"
_DESTINATION_URL = re.compile(DESTINATION_URL_PATTERN[1:-1])
_AUTHORITY = re.compile(r"https://([^/?#]*)")


def destination_url_problem(value: str) -> str | None:
    """Why `value` is not a destination URL (one sentence), or None if it is one.

    The verdict is the pattern's alone; the rest only picks the sentence that helps most.
    """
    if _DESTINATION_URL.fullmatch(value):
        return None
    if not value.startswith("https://"):
        return "The destination URL must be an absolute URL starting with https://."
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in value):
        return "The destination URL must not contain spaces or control characters."
    if "#" in value:
        return "The destination URL must not have a fragment (#...)."
    authority = _AUTHORITY.match(value)
    host = authority.group(1) if authority else ""
    if "@" in host:
        return "The destination URL must not contain user info (name or password before @)."
    host, colon, port = host.rpartition(":") if ":" in host else (host, "", "")
    if colon and not re.fullmatch(_PORT, port):
        return "The port of the destination URL must be a number from 1 to 65535."
    if not re.fullmatch(_HOST, host):
        return "The host of the destination URL must be a DNS name or an IPv4 address."
    return (
        "The destination URL may only hold URL characters: percent-encode the others "
        "(%20 for a space)."
    )


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
    destination_url: str = Field(
        min_length=1,
        max_length=DESTINATION_URL_MAX,
        json_schema_extra={"pattern": DESTINATION_URL_PATTERN},
    )
    request_transform: ProxyTransform | None = None
    response_transform: ProxyTransform | None = None
    application: ApplicationRef | None = None
    configuration: dict[str, str] | None = None
    require_auth: bool = True

    @field_validator("destination_url")
    @classmethod
    def _a_destination_url(cls, value: str, info: ValidationInfo) -> str:
        """A URL as this project defines one; a proxy's own URL sent back unchanged
        (`kept_destination_url` in the parse context) is the service's to judge."""
        if value == (info.context or {}).get("kept_destination_url"):
            return value
        problem = destination_url_problem(value)
        if problem is not None:
            raise ValueError(problem)
        return value

    def rule_errors(self, **context: Any) -> dict[str, list[str]]:
        return {}


ProxyUpdate = ProxyCreate
