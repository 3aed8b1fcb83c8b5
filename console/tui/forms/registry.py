"""Which form edits which kind of object, as functions the type checker follows.

Each function imports its form when first called (forms are not loaded at start), and lives
here rather than on the kinds (console.tui.browse.kinds) because every form imports its kind:
a kind that imported its form, even inside a function, would close an import cycle.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from console.tui.browse.kinds import APPLICATIONS, PROXIES, REACTOR_FORMULAS, TENANT

if TYPE_CHECKING:
    from console.tui.browse.kinds import Kind
    from console.tui.forms.base import ResourceForm

FormClass = type["ResourceForm[Any, Any]"]
"""A form screen class: (client, object or None, read_only=...) -> the form."""

__all__ = ["FORMS", "FormClass", "form_class"]


def application_form() -> FormClass:
    from console.tui.forms.application import ApplicationForm

    return ApplicationForm


def proxy_form() -> FormClass:
    from console.tui.forms.proxy import ProxyForm

    return ProxyForm


def formula_form() -> FormClass:
    from console.tui.forms.formula import FormulaForm

    return FormulaForm


def tenant_form() -> FormClass:
    from console.tui.forms.tenant import TenantForm

    return TenantForm


FORMS: dict[str, Callable[[], FormClass]] = {
    APPLICATIONS.key: application_form,
    PROXIES.key: proxy_form,
    REACTOR_FORMULAS.key: formula_form,
    TENANT.key: tenant_form,
}
"""The form of each changeable kind, by the kind's key (permissions have none)."""


def form_class(kind: Kind) -> FormClass:
    """The form screen class of `kind`; imported now. KeyError for a kind without a form."""
    return FORMS[kind.key]()
