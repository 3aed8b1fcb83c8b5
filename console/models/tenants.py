"""The tenant, its settings, and its usage report."""

from __future__ import annotations

from typing import Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict

from console.models.common import Name, RequestModel, ResponseModel, UtcDateTime

BoolString = Literal["true", "false"]


class TenantSettings(BaseModel):
    """Both settings are the strings "true" or "false", as the API carries them."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    fingerprint_tokens: BoolString = "true"
    deduplicate_tokens: BoolString = "true"


class Tenant(ResponseModel):
    id: UUID
    owner_id: UUID
    name: str
    settings: TenantSettings
    created_by: UUID | None = None
    created_at: UtcDateTime | None = None
    modified_by: UUID | None = None
    modified_at: UtcDateTime | None = None


class TenantUpdate(RequestModel):
    """Body of `PUT /tenants/self`; without `settings` they stay as they are."""

    name: Name
    settings: TenantSettings | None = None

    def to_json(self) -> dict:
        body = super().to_json()
        if self.settings is None:
            body.pop("settings")
        return body


class TokenTypeMetrics(ResponseModel):
    count: int
    last_created_at: UtcDateTime | None = None


class TokenReport(ResponseModel):
    metrics_by_type: dict[str, TokenTypeMetrics] = {}
    included_monthly_active_tokens: int
    monthly_active_tokens: int

    @property
    def total_tokens(self) -> int:
        return sum(m.count for m in self.metrics_by_type.values())

    @property
    def plan_share(self) -> float:
        """Monthly active tokens as a fraction of the plan's included amount."""
        included = self.included_monthly_active_tokens
        return self.monthly_active_tokens / included if included else 0.0


class UsageReport(ResponseModel):
    token_report: TokenReport


__all__ = [
    "BoolString",
    "Tenant",
    "TenantSettings",
    "TenantUpdate",
    "TokenReport",
    "TokenTypeMetrics",
    "UsageReport",
]
