"""Forms that create and edit the five resources; each is a modal screen that dismisses
with the saved object, or None when closed without saving."""

from console.tui.forms.application import ApplicationForm
from console.tui.forms.base import ResourceForm
from console.tui.forms.fields import FormField
from console.tui.forms.formula import FormulaForm
from console.tui.forms.proxy import ProxyForm
from console.tui.forms.reactor import ReactorForm
from console.tui.forms.tenant import TenantForm

__all__ = [
    "ApplicationForm",
    "FormField",
    "FormulaForm",
    "ProxyForm",
    "ReactorForm",
    "ResourceForm",
    "TenantForm",
]
