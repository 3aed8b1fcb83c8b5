"""The tenant, its settings, and its usage report."""

from __future__ import annotations

from typing import Any, Literal
from uuid import UUID

from pydantic import Field, model_validator

from console.models.common import LenientModel, Name, RequestModel, ResponseModel, UtcDateTime
from console.models.errors import FieldErrors, merge

BoolString = Literal["true", "false"]

NAMED_SETTINGS: tuple[str, ...] = ("fingerprint_tokens", "deduplicate_tokens")
"""The settings the specification names: each the string "true" or "false"."""
OTHER_SETTINGS_MAX = 20
SETTING_NAME_MAX = 100
SETTING_VALUE_MAX = 1000


def setting_errors(settings: dict[str, Any], kept: dict[str, Any] | None = None) -> FieldErrors:
    """The rules of a settings map: the named ones "true"/"false", bounded other names.

    Shared by the service (what it stores) and the console's tenant form (what it sends).
    `kept` are settings as the service sent them: one sent back unchanged is not judged here
    (the service that sent it is), since no person typed it.
    """
    kept = kept or {}
    found: list[tuple[str, str]] = []
    others = [n for n in settings if n not in NAMED_SETTINGS]
    if len(others) > OTHER_SETTINGS_MAX and len(others) > len(set(others) & set(kept)):
        found.append(("settings", f"At most {OTHER_SETTINGS_MAX} other settings are allowed."))
    changed = {k: v for k, v in settings.items() if k not in kept or kept[k] != v}
    for name in NAMED_SETTINGS:
        if name in changed and changed[name] not in ("true", "false"):
            found.append((f"settings.{name}", 'The setting must be "true" or "false".'))
    for name in others:
        if name not in changed:
            continue
        at = f"settings.{name}"
        value = changed[name]
        if not name or len(name) > SETTING_NAME_MAX:
            found.append((at, f"A setting name must be 1 to {SETTING_NAME_MAX} characters."))
        if not isinstance(value, str):
            found.append((at, "A setting's value must be a string."))
        elif len(value) > SETTING_VALUE_MAX:
            found.append((at, f"A setting's value must be at most {SETTING_VALUE_MAX} characters."))
    return merge(found)


class Tenant(ResponseModel):
    """`settings` is a map of string to string: the two named in the specification and any
    others the service has (their values need not be booleans, and may be null)."""

    id: UUID
    owner_id: UUID | None = None
    name: str
    settings: dict[str, Any] = {}
    created_by: UUID | None = None
    created_at: UtcDateTime | None = None
    modified_by: UUID | None = None
    modified_at: UtcDateTime | None = None

    def setting(self, name: str) -> Any:
        return self.settings.get(name)


class TenantUpdate(RequestModel):
    """Body of `PUT /tenants/self`; without `settings` they stay as they are. With them, the
    map replaces the stored one (the two named settings keep their value when omitted)."""

    name: Name
    settings: dict[str, str] | None = None

    def rule_errors(self, **context: Any) -> FieldErrors:
        if self.settings is None:
            return {}
        return setting_errors(self.settings, context.get("kept_settings"))

    def to_json(self) -> dict:
        body = super().to_json()
        if self.settings is None:
            body.pop("settings")
        return body


class TokenTypeMetrics(LenientModel):
    count: int | None = None
    last_created_at: UtcDateTime | None = None


class TokenReport(LenientModel):
    """The usage figures. Each part may be missing: some versions of the service send less."""

    metrics_by_type: dict[str, TokenTypeMetrics | None] | None = None
    included_monthly_active_tokens: int | None = None
    monthly_active_tokens: int | None = None
    total_tokens: int | None = None
    """A total sent without the breakdown (the smaller report); not part of the spec's shape."""

    @property
    def metrics(self) -> dict[str, TokenTypeMetrics]:
        """The per-type figures that were sent (nulls left out)."""
        return {k: v for k, v in (self.metrics_by_type or {}).items() if v is not None}

    @property
    def token_total(self) -> int | None:
        """All tokens: the sum of the breakdown, else the total the service sent, else None."""
        if self.metrics_by_type is not None:
            return sum(m.count or 0 for m in self.metrics.values())
        return self.total_tokens

    @property
    def plan_share(self) -> float | None:
        """Monthly active tokens as a fraction of the plan's included amount; None when the
        service did not report both."""
        included, active = self.included_monthly_active_tokens, self.monthly_active_tokens
        if included is None or active is None:
            return None
        return active / included if included else 0.0

    @property
    def missing(self) -> list[str]:
        """What the service did not report, in words, for the dashboard to say so."""
        gaps = []
        if self.metrics_by_type is None:
            gaps.append("the breakdown by token type")
        if self.monthly_active_tokens is None:
            gaps.append("the monthly active tokens")
        if self.included_monthly_active_tokens is None:
            gaps.append("the plan's included tokens")
        return gaps


class UsageReport(LenientModel):
    """`token_report` as the spec has it; the smaller shape (`{"total_tokens": N}` at the top)
    is read into the same TokenReport, so every view has one thing to look at."""

    token_report: TokenReport = Field(default_factory=TokenReport)

    @model_validator(mode="after")
    def _top_level_total(self) -> UsageReport:
        total = self.unknown_fields.get("total_tokens")
        if self.token_report.total_tokens is None and type(total) is int:
            self.token_report.total_tokens = total
        return self


__all__ = [
    "NAMED_SETTINGS",
    "BoolString",
    "Tenant",
    "TenantUpdate",
    "TokenReport",
    "TokenTypeMetrics",
    "UsageReport",
    "setting_errors",
]
