"""Applications and their access rules."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime
from typing import Any, ClassVar, Literal
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

from console.models.common import (
    LenientModel,
    Name,
    RequestModel,
    ResponseModel,
    Strings,
    UtcDateTime,
    utc_now,
)
from console.models.errors import FieldErrors, merge
from console.models.permissions import PERMISSIONS_BY_TYPE, ApplicationType

Catalogue = Mapping[str, Collection[str]]
"""Permission type -> the application types that may hold it (from `GET /permissions`)."""

BUILT_IN_CATALOGUE: Catalogue = {p.type: p.application_types for p in PERMISSIONS_BY_TYPE.values()}

Transform = Literal["redact", "mask", "reveal"]
TRANSFORMS: tuple[str, ...] = ("redact", "mask", "reveal")


class AccessRuleCondition(BaseModel):
    """A session-only condition on a token attribute."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    attribute: Literal["id", "container"]
    operator: Literal["starts_with", "equals"]
    value: str


class AccessRule(BaseModel):
    """A scoped grant: permissions on a container's tokens, with a transform."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    description: str = Field(min_length=1, max_length=1000)
    priority: int = Field(ge=1)
    container: str | None = None
    conditions: list[AccessRuleCondition] | None = None
    transform: str
    permissions: list[str] = Field(min_length=1)

    @field_validator("transform")
    @classmethod
    def _known_transform(cls, value: str, info: ValidationInfo) -> str:
        """One of the three, or one the application's rules already use (`held_transforms`
        in the parse context): a service's own value is sent back, never typed."""
        if value not in TRANSFORMS and value not in (info.context or {}).get("held_transforms", ()):
            expected = "'redact', 'mask' or 'reveal'"
            raise PydanticCustomError("literal_error", "Bad transform", {"expected": expected})
        return value


class RuleView(LenientModel):
    """An access rule as the service returns it: nothing required, unknown values kept."""

    description: str | None = None
    priority: int | None = None
    container: str | None = None
    conditions: list[Any] | None = None
    transform: str | None = None
    permissions: Strings = []


class ApplicationKey(LenientModel):
    """One of an application's keys (Application Keys, the hosted service's replacement for
    regenerate). `key`, the material, is present only in the answer that created it.

    `version` is text as the hosted service's SDKs read it; a number is taken as its text."""

    id: UUID
    key: str | None = None
    version: str | None = None
    created_by: UUID | None = None
    created_at: UtcDateTime | None = None

    @field_validator("version", mode="before")
    @classmethod
    def _version_text(cls, value: Any) -> Any:
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else value

    def __repr__(self) -> str:
        shown = "'***'" if self.key else "None"
        return f"ApplicationKey(id={self.id!s}, version={self.version!r}, key={shown})"

    __str__ = __repr__


class Application(ResponseModel):
    """An application as read. `type` is any string: a service may add types."""

    id: UUID
    tenant_id: UUID | None = None
    name: str
    key: str | None = None
    type: str
    permissions: Strings = []
    rules: list[RuleView] = []
    keys: list[ApplicationKey] | None = None
    """Its Application Keys (no material); None where the service does not list them."""
    expires_at: UtcDateTime | None = None
    created_by: UUID | None = None
    created_at: UtcDateTime | None = None
    modified_by: UUID | None = None
    modified_at: UtcDateTime | None = None

    def __repr__(self) -> str:
        shown = "'***'" if self.key else "None"
        return f"Application(id={self.id!s}, name={self.name!r}, type={self.type}, key={shown})"

    __str__ = __repr__

    @property
    def held_permissions(self) -> set[str]:
        """Every permission the application holds, directly or through a rule."""
        return {*self.permissions, *(p for rule in self.rules for p in rule.permissions)}


def _permission_errors(
    path: str,
    permissions: list[str],
    application_type: str,
    catalogue: Catalogue | None = None,
    held: Collection[str] = (),
) -> list[tuple[str, str]]:
    """Each permission must exist in the catalogue and suit the type; one the application
    already holds is kept as it is, even where this catalogue does not list it."""
    known_types = BUILT_IN_CATALOGUE if catalogue is None else catalogue
    found: list[tuple[str, str]] = []
    for i, name in enumerate(permissions):
        if name in held:
            continue
        allowed = known_types.get(name)
        if allowed is None:
            found.append((f"{path}[{i}]", f"The permission {name} does not exist."))
        elif application_type not in allowed:
            found.append(
                (
                    f"{path}[{i}]",
                    f"The permission {name} is not allowed for {application_type} applications.",
                )
            )
    return found


def _grant_errors(
    permissions: list[str],
    rules: list[AccessRule],
    application_type: str,
    catalogue: Catalogue | None = None,
    held: Collection[str] = (),
) -> FieldErrors:
    """The rules shared by create and update, given the application's type.

    `catalogue` is the permission catalogue of the service in use (the built-in one when
    None, as in the local service); `held` are permissions the application already has.
    """
    found: list[tuple[str, str]] = []
    if not permissions and not rules:
        found.append(("permissions", "Either permissions or rules must be non-empty."))
    found += _permission_errors("permissions", permissions, application_type, catalogue, held)
    seen: dict[int, int] = {}
    for i, rule in enumerate(rules):
        at = f"rules[{i}]"
        if rule.priority in seen:
            other = seen[rule.priority]
            sentence = f"The priority {rule.priority} is already used by rules[{other}]."
            found.append((f"{at}.priority", sentence))
        else:
            seen[rule.priority] = i
        if application_type == "management":
            if rule.container is not None:
                found.append(
                    (f"{at}.container", "A container is not allowed for management applications.")
                )
        elif not rule.container:
            found.append(
                (
                    f"{at}.container",
                    f"A container is required for {application_type} applications.",
                )
            )
        if rule.conditions is not None:
            found.append(
                (
                    f"{at}.conditions",
                    "Conditions apply only to sessions and are not allowed on an application.",
                )
            )
        found += _permission_errors(
            f"{at}.permissions", rule.permissions, application_type, catalogue, held
        )
    return merge(found)


class ApplicationCreate(RequestModel):
    """Body of `POST /applications`; `catalogue=` checks against a service's own catalogue."""

    name: Name
    type: ApplicationType
    permissions: list[str] = []
    rules: list[AccessRule] = []
    expires_at: UtcDateTime | None = None
    create_key: bool | None = None
    """False: the application is made without a key (the hosted service's option; keys come
    later from Application Keys). Left out of the body when None, as a spec-era body."""

    @model_serializer(mode="wrap")
    def _as_sent(self, handler: Any) -> Any:
        data = handler(self)
        if isinstance(data, dict) and data.get("create_key") is None:
            data.pop("create_key", None)
        return data

    def rule_errors(self, **context: Any) -> FieldErrors:
        errors = _grant_errors(self.permissions, self.rules, self.type, context.get("catalogue"))
        now: datetime = context.get("now") or utc_now()
        if self.expires_at is not None and self.expires_at <= now:
            errors.setdefault("expires_at", []).append("The expiry time must lie in the future.")
        return errors


class ApplicationUpdate(RequestModel):
    """Body of `PUT /applications/{id}`; parse with `application_type=` of the stored one
    (and, in the console, `catalogue=` of the service in use and `held=` its permissions).

    `type` is declared only so that sending it can be refused: a type never changes.
    """

    name: Name
    permissions: list[str] = []
    rules: list[AccessRule] = []
    type: Any = Field(default=None, exclude=True)

    never_carried: ClassVar[frozenset[str]] = frozenset({"create_key"})

    def rule_errors(self, **context: Any) -> FieldErrors:
        application_type = context.get("application_type")
        errors: FieldErrors = {}
        if "type" in self.model_fields_set:
            errors["type"] = ["The type of an application cannot be changed."]
        if application_type is None:
            raise TypeError("ApplicationUpdate.parse needs application_type=")
        grants = _grant_errors(
            self.permissions,
            self.rules,
            application_type,
            context.get("catalogue"),
            context.get("held", ()),
        )
        for path, sentences in grants.items():
            errors.setdefault(path, []).extend(sentences)
        return errors
