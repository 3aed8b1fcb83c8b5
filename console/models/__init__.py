"""Pydantic models of every resource: one source of truth for client, console and service."""

from console.models.applications import (
    TRANSFORMS,
    AccessRule,
    AccessRuleCondition,
    Application,
    ApplicationCreate,
    ApplicationUpdate,
)
from console.models.common import NAME_MAX, Page, Pagination, RequestModel, UtcDateTime
from console.models.errors import FieldErrors, PayloadInvalid, ProblemDetails, field_errors
from console.models.formulas import (
    FormulaConfiguration,
    FormulaRequestParameter,
    ReactorFormula,
    ReactorFormulaCreate,
    ReactorFormulaUpdate,
    decode_icon,
    icon_data_url,
)
from console.models.permissions import (
    APPLICATION_TYPES,
    MANAGEMENT_PERMISSIONS,
    PERMISSIONS,
    PERMISSIONS_BY_TYPE,
    ApplicationType,
    Permission,
    permissions_for,
)
from console.models.proxies import ApplicationRef, Proxy, ProxyCreate, ProxyTransform, ProxyUpdate
from console.models.tenants import (
    Tenant,
    TenantSettings,
    TenantUpdate,
    TokenReport,
    TokenTypeMetrics,
    UsageReport,
)

__all__ = [
    "APPLICATION_TYPES",
    "MANAGEMENT_PERMISSIONS",
    "NAME_MAX",
    "PERMISSIONS",
    "PERMISSIONS_BY_TYPE",
    "TRANSFORMS",
    "AccessRule",
    "AccessRuleCondition",
    "Application",
    "ApplicationCreate",
    "ApplicationRef",
    "ApplicationType",
    "ApplicationUpdate",
    "FieldErrors",
    "FormulaConfiguration",
    "FormulaRequestParameter",
    "Page",
    "Pagination",
    "PayloadInvalid",
    "Permission",
    "ProblemDetails",
    "Proxy",
    "ProxyCreate",
    "ProxyTransform",
    "ProxyUpdate",
    "ReactorFormula",
    "ReactorFormulaCreate",
    "ReactorFormulaUpdate",
    "RequestModel",
    "Tenant",
    "TenantSettings",
    "TenantUpdate",
    "TokenReport",
    "TokenTypeMetrics",
    "UsageReport",
    "UtcDateTime",
    "decode_icon",
    "field_errors",
    "icon_data_url",
    "permissions_for",
]
