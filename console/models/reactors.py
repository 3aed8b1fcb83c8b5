"""Reactors: the tenant's code plus the runtime it runs in, invoked on the service.

The hosted service replaced reactor formulas with these (the vendor's SDKs describe them:
`Reactor`, `ReactorRuntime`, `RequestedReactor`, `ReactResponse`). Read leniently (any image,
any state, fields this project does not know kept); what a person types is checked strictly:
the runtime options here are the ones the SDK's models allow.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal
from uuid import UUID

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    field_validator,
    model_serializer,
)

from console.models.common import LenientModel, Name, RequestModel, ResponseModel, UtcDateTime
from console.models.errors import FieldErrors
from console.models.proxies import ApplicationRef, whole_number

CODE_MAX = 50_000

RuntimeImage = Literal["node-bt", "node22"]
IMAGES: tuple[str, ...] = ("node-bt", "node22")
"""`node-bt`: the runtime reactors always had (the service's own packages, no dependencies of
their own); `node22`: Node.js 22 with the reactor's own `dependencies`."""

RuntimeResources = Literal["standard", "large", "xlarge"]
RESOURCES: tuple[str, ...] = ("standard", "large", "xlarge")

TIMEOUT_MIN = 1
TIMEOUT_MAX = 30
"""Seconds a react may run, as the runtime's `timeout` allows."""
WARM_CONCURRENCY_MAX = 10

ReactorState = Literal["creating", "updating", "active", "failed", "outdated"]
STATES: tuple[str, ...] = ("creating", "updating", "active", "failed", "outdated")
"""What `state` says: provisioned (`active`), being provisioned (`creating` for a new reactor,
`updating` for a change, while the active version keeps serving), or not (`failed`)."""

PACKAGE_NAME_PATTERN = r"^(?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$"
"""An npm package name (scoped or not), as a runtime's `dependencies` key."""
_PACKAGE_NAME = re.compile(PACKAGE_NAME_PATTERN[1:-1])


WarmConcurrency = Annotated[
    int, Field(ge=0, le=WARM_CONCURRENCY_MAX), BeforeValidator(whole_number)
]
RuntimeSeconds = Annotated[
    int, Field(ge=TIMEOUT_MIN, le=TIMEOUT_MAX), BeforeValidator(whole_number)
]
"""Whole numbers, `4.0` among them (JSON does not tell it from 4)."""


class RuntimeLogOptions(LenientModel):
    """`runtime.logs`, kept as given (the SDK's RuntimeLogOptions)."""


class ReactorRuntime(BaseModel):
    """A reactor's runtime as a request sends it (the SDK's `ReactorRuntime`)."""

    model_config = ConfigDict(
        extra="forbid", defer_build=True, populate_by_name=True, serialize_by_alias=True
    )

    image: RuntimeImage = "node-bt"
    dependencies: dict[str, str] | None = None
    """npm package name -> version range; only the `node22` image installs its own."""
    resolutions: dict[str, str] | None = None
    warm_concurrency: WarmConcurrency | None = None
    timeout: RuntimeSeconds | None = None
    resources: RuntimeResources | None = None
    permissions: list[str] | None = None
    """Permissions the runtime's own `bt` client holds (`token:read`, ...)."""
    async_: bool | None = Field(default=None, alias="async")
    logs: dict[str, Any] | None = None

    @field_validator("dependencies", "resolutions")
    @classmethod
    def _package_names(cls, value: dict[str, str] | None) -> dict[str, str] | None:
        for name, version in (value or {}).items():
            if _PACKAGE_NAME.fullmatch(name) is None:
                raise ValueError(f"{name!r} is not an npm package name.")
            if not version:  # as the document states it (minLength 1)
                raise ValueError(f"The version of {name} is empty.")
        return value

    @model_serializer(mode="wrap")
    def _as_sent(self, handler: Any) -> Any:
        """Only the options given (`async` by its name on the wire)."""
        data = handler(self)
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if v is not None}
        return data


class RuntimeView(LenientModel):
    """A runtime as read: any image, any field kept."""

    model_config = ConfigDict(extra="allow", defer_build=True, populate_by_name=True)

    image: str | None = None
    dependencies: dict[str, str | None] | None = None
    resolutions: dict[str, str | None] | None = None
    warm_concurrency: int | None = None
    timeout: int | None = None
    resources: str | None = None
    permissions: list[str] | None = None
    async_: bool | None = Field(default=None, alias="async")


class PendingReactor(LenientModel):
    """What a change asked for while it is provisioned (`requested.reactor`)."""

    code: str | None = None
    runtime: RuntimeView | None = None
    configuration: dict[str, str | None] | None = None


class RequestedReactor(LenientModel):
    """The change being provisioned, or the one that failed and why."""

    reactor: PendingReactor | None = None
    error_code: str | None = None
    error_message: str | None = None
    error_details: dict[str, Any] | None = None


class ApplicationView(LenientModel):
    """The reactor's application as read (the service may send the whole application)."""

    id: UUID | None = None
    name: str | None = None
    type: str | None = None


class Reactor(ResponseModel):
    """A reactor as read."""

    id: UUID
    tenant_id: UUID | None = None
    name: str
    code: str | None = None
    state: str | None = None
    """None from services that provision nothing (a reactor made from a formula)."""
    application: ApplicationView | None = None
    configuration: dict[str, str | None] | None = None
    runtime: RuntimeView | None = None
    requested: RequestedReactor | None = None
    formula: dict[str, Any] | None = None
    """A reactor made from a formula (services before Reactors had code of their own)."""
    created_by: UUID | None = None
    created_at: UtcDateTime | None = None
    modified_by: UUID | None = None
    modified_at: UtcDateTime | None = None

    @property
    def image(self) -> str:
        return (self.runtime.image if self.runtime else None) or "node-bt"

    @property
    def provisioning(self) -> bool:
        return self.state in ("creating", "updating")

    @property
    def failed(self) -> bool:
        return self.state == "failed" or bool(self.requested and self.requested.error_code)


class ReactorCreate(RequestModel):
    """Body of `POST /reactors` and `PUT /reactors/{id}`."""

    name: Name
    code: str = Field(min_length=1, max_length=CODE_MAX)
    application: ApplicationRef | None = None
    configuration: dict[str, str] = Field(default_factory=dict)
    runtime: ReactorRuntime | None = None

    def rule_errors(self, **context: Any) -> FieldErrors:
        return {}


ReactorUpdate = ReactorCreate


class ReactorPatch(RequestModel):
    """Body of `PATCH /reactors/{id}` (application/merge-patch+json): what is given changes;
    `configuration` and `runtime` merge key by key, a null removes a key."""

    name: Name | None = None
    code: str | None = Field(default=None, min_length=1, max_length=CODE_MAX)
    application: ApplicationRef | None = None
    configuration: dict[str, str | None] | None = None
    runtime: dict[str, Any] | None = None

    def rule_errors(self, **context: Any) -> FieldErrors:
        return {}


class ReactRequest(LenientModel):
    """Body of `POST /reactors/{id}/react` and `react-async`: `args` for the code."""

    args: Any = None
    callback_url: str | None = None


class ReactResponse(LenientModel):
    """What a react answers: what the code returned (`raw`, `body`, `headers`) and the tokens
    its `tokenize` made."""

    tokens: Any = None
    raw: Any = None
    body: Any = None
    headers: Any = None


class AsyncReactResponse(LenientModel):
    """What `react-async` answers: the id to ask `results/{request_id}` with."""

    model_config = ConfigDict(extra="allow", defer_build=True, populate_by_name=True)

    async_reactor_request_id: str | None = Field(default=None, alias="asyncReactorRequestId")


AsyncStatus = Literal["pending", "completed", "failed"]
