"""Pydantic models of every resource: one source of truth for client, console and service.

The names load on first use (PEP 562), so that a light module of this package, such as
`console.models.contract`, can be imported without pydantic: the console's first rows come
before pydantic loads.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from console.models.applications import (
        TRANSFORMS,
        AccessRule,
        AccessRuleCondition,
        Application,
        ApplicationCreate,
        ApplicationKey,
        ApplicationUpdate,
        Catalogue,
        RuleView,
    )
    from console.models.common import (
        NAME_MAX,
        LenientModel,
        Page,
        Pagination,
        RequestModel,
        UtcDateTime,
    )
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
    from console.models.logs import Log, LogEntityType
    from console.models.people import (
        Invitation,
        InvitationCreate,
        Member,
        MemberUpdate,
        RoleItem,
        SecurityContact,
        SecurityContactUpdate,
        User,
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
    from console.models.proxies import (
        TRANSFORM_TYPES,
        ApplicationRef,
        Proxy,
        ProxyCreate,
        ProxyPatch,
        ProxyTransform,
        ProxyUpdate,
        TransformView,
    )
    from console.models.reactors import (
        AsyncReactResponse,
        Reactor,
        ReactorCreate,
        ReactorPatch,
        ReactorRuntime,
        ReactorUpdate,
        ReactRequest,
        ReactResponse,
    )
    from console.models.tenants import (
        NAMED_SETTINGS,
        Tenant,
        TenantUpdate,
        TokenReport,
        TokenTypeMetrics,
        UsageReport,
    )

_LAZY: dict[str, str] = {
    "Log": "console.models.logs",
    "LogEntityType": "console.models.logs",
    "Invitation": "console.models.people",
    "InvitationCreate": "console.models.people",
    "Member": "console.models.people",
    "MemberUpdate": "console.models.people",
    "RoleItem": "console.models.people",
    "SecurityContact": "console.models.people",
    "SecurityContactUpdate": "console.models.people",
    "User": "console.models.people",
    "APPLICATION_TYPES": "console.models.permissions",
    "AccessRule": "console.models.applications",
    "AccessRuleCondition": "console.models.applications",
    "Application": "console.models.applications",
    "ApplicationCreate": "console.models.applications",
    "ApplicationKey": "console.models.applications",
    "ApplicationRef": "console.models.proxies",
    "ApplicationType": "console.models.permissions",
    "ApplicationUpdate": "console.models.applications",
    "AsyncReactResponse": "console.models.reactors",
    "Catalogue": "console.models.applications",
    "FieldErrors": "console.models.errors",
    "FormulaConfiguration": "console.models.formulas",
    "FormulaRequestParameter": "console.models.formulas",
    "LenientModel": "console.models.common",
    "MANAGEMENT_PERMISSIONS": "console.models.permissions",
    "NAMED_SETTINGS": "console.models.tenants",
    "NAME_MAX": "console.models.common",
    "PERMISSIONS": "console.models.permissions",
    "PERMISSIONS_BY_TYPE": "console.models.permissions",
    "Page": "console.models.common",
    "Pagination": "console.models.common",
    "PayloadInvalid": "console.models.errors",
    "Permission": "console.models.permissions",
    "ProblemDetails": "console.models.errors",
    "Proxy": "console.models.proxies",
    "ProxyCreate": "console.models.proxies",
    "ProxyPatch": "console.models.proxies",
    "ProxyTransform": "console.models.proxies",
    "ProxyUpdate": "console.models.proxies",
    "ReactRequest": "console.models.reactors",
    "ReactResponse": "console.models.reactors",
    "Reactor": "console.models.reactors",
    "ReactorCreate": "console.models.reactors",
    "ReactorFormula": "console.models.formulas",
    "ReactorFormulaCreate": "console.models.formulas",
    "ReactorFormulaUpdate": "console.models.formulas",
    "ReactorPatch": "console.models.reactors",
    "ReactorRuntime": "console.models.reactors",
    "ReactorUpdate": "console.models.reactors",
    "RequestModel": "console.models.common",
    "RuleView": "console.models.applications",
    "TRANSFORMS": "console.models.applications",
    "TRANSFORM_TYPES": "console.models.proxies",
    "Tenant": "console.models.tenants",
    "TenantUpdate": "console.models.tenants",
    "TokenReport": "console.models.tenants",
    "TokenTypeMetrics": "console.models.tenants",
    "TransformView": "console.models.proxies",
    "UsageReport": "console.models.tenants",
    "UtcDateTime": "console.models.common",
    "decode_icon": "console.models.formulas",
    "field_errors": "console.models.errors",
    "icon_data_url": "console.models.formulas",
    "permissions_for": "console.models.permissions",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'console.models' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "APPLICATION_TYPES",
    "MANAGEMENT_PERMISSIONS",
    "NAMED_SETTINGS",
    "NAME_MAX",
    "PERMISSIONS",
    "PERMISSIONS_BY_TYPE",
    "TRANSFORMS",
    "TRANSFORM_TYPES",
    "AccessRule",
    "AccessRuleCondition",
    "Application",
    "ApplicationCreate",
    "ApplicationKey",
    "ApplicationRef",
    "ApplicationType",
    "ApplicationUpdate",
    "AsyncReactResponse",
    "Catalogue",
    "FieldErrors",
    "FormulaConfiguration",
    "FormulaRequestParameter",
    "Invitation",
    "InvitationCreate",
    "LenientModel",
    "Log",
    "LogEntityType",
    "Member",
    "MemberUpdate",
    "Page",
    "Pagination",
    "PayloadInvalid",
    "Permission",
    "ProblemDetails",
    "Proxy",
    "ProxyCreate",
    "ProxyPatch",
    "ProxyTransform",
    "ProxyUpdate",
    "ReactRequest",
    "ReactResponse",
    "Reactor",
    "ReactorCreate",
    "ReactorFormula",
    "ReactorFormulaCreate",
    "ReactorFormulaUpdate",
    "ReactorPatch",
    "ReactorRuntime",
    "ReactorUpdate",
    "RequestModel",
    "RoleItem",
    "RuleView",
    "SecurityContact",
    "SecurityContactUpdate",
    "Tenant",
    "TenantUpdate",
    "TokenReport",
    "TokenTypeMetrics",
    "TransformView",
    "UsageReport",
    "User",
    "UtcDateTime",
    "decode_icon",
    "field_errors",
    "icon_data_url",
    "permissions_for",
]
