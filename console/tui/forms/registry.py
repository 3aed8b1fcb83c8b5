"""Which form edits which kind of object: the form is registered with the kind's look
(`LOOKS.register(look, form=...)`), a function that imports the form when first called
(forms are not loaded at start).

The built-in looks' forms are attached here rather than where the looks are registered
(console.tui.browse.kinds) because every form imports its look: a look module that
imported its form, even inside a function, would close an import cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from console.tui.browse.kinds import (
    APPLICATIONS,
    LOOKS,
    PROXIES,
    REACTOR_FORMULAS,
    REACTORS,
    TENANT,
    WEBHOOKS,
)

if TYPE_CHECKING:
    from console.tui.browse.looks import Look
    from console.tui.forms.base import ResourceForm

FormClass = type["ResourceForm[Any, Any]"]
"""A form screen class: (client, object or None, read_only=...) -> the form."""

__all__ = ["FormClass", "form_class"]


def application_form() -> FormClass:
    from console.tui.forms.application import ApplicationForm

    return ApplicationForm


def proxy_form() -> FormClass:
    from console.tui.forms.proxy import ProxyForm

    return ProxyForm


def formula_form() -> FormClass:
    from console.tui.forms.formula import FormulaForm

    return FormulaForm


def reactor_form() -> FormClass:
    from console.tui.forms.reactor import ReactorForm

    return ReactorForm


def tenant_form() -> FormClass:
    from console.tui.forms.tenant import TenantForm

    return TenantForm


def webhook_form() -> FormClass:
    from console.tui.forms.webhook import WebhookForm

    return WebhookForm


LOOKS.attach_form(APPLICATIONS, application_form)
LOOKS.attach_form(PROXIES, proxy_form)
LOOKS.attach_form(REACTOR_FORMULAS, formula_form)
LOOKS.attach_form(REACTORS, reactor_form)
LOOKS.attach_form(TENANT, tenant_form)
LOOKS.attach_form(WEBHOOKS, webhook_form)


def form_class(look: Look) -> FormClass:
    """The form screen class of `look`'s kind; imported now. KeyError for a kind without one."""
    loader = LOOKS.form_of(look)
    if loader is None:
        raise KeyError(look.key)
    form: FormClass = loader()
    return form
