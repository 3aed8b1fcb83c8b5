"""The types of what the console shows, named once: an object as the service sent it, or
the typed model made from it.

Lists hold objects as sent (no pydantic before the first rows); details, forms and flows
hold models where the object matched the API. The models are imported for the type checker
only, so naming these types costs nothing at start-up (see tests/test_import_hygiene.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from console.models import Application, Permission, Proxy, Reactor, ReactorFormula, Tenant
    from console.models.people import Invitation, Member
    from console.models.webhooks import Webhook

JsonObject: TypeAlias = dict[str, Any]
"""An object as the service sent it (decoded JSON). Its values are whatever the service put
there (the hosted service adds fields and shapes the specification lacks), so each reader
checks what it reads: the one place the console holds values of no fixed type."""

Model: TypeAlias = (
    "Application | Proxy | ReactorFormula | Reactor | Permission | Tenant | Member | Invitation"
    " | Webhook"
)
"""An object the console has read into its model (console.models)."""

Editable: TypeAlias = "Application | Proxy | ReactorFormula | Reactor | Tenant | Webhook"
"""An object a form edits: each has a name and the time it was last modified."""

Shown: TypeAlias = "Model | JsonObject"
"""What a row, a detail or a change flow holds: the model, or the object as sent where it
has not been (or could not be) read into one."""

Query: TypeAlias = dict[str, Any]
"""Filter parameters for a client group's `page_json` (ids, name, application type): each
kind makes its own, and its group's keyword arguments check them."""
