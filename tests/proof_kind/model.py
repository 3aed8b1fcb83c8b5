"""A widget as read and as sent: the smallest resource the console can hold."""

from __future__ import annotations

from uuid import UUID

from pydantic import Field

from console.models.common import Name, RequestModel, ResponseModel, UtcDateTime

COLOUR_MAX = 40


class Widget(ResponseModel):
    """A widget as the service returns it (lenient, like every answer's model)."""

    id: UUID
    name: str
    colour: str | None = None
    created_at: UtcDateTime | None = None
    modified_at: UtcDateTime | None = None


class WidgetCreate(RequestModel):
    """Body of `POST /widgets` and `PUT /widgets/{id}` (same fields and rules)."""

    name: Name
    colour: str | None = Field(default=None, max_length=COLOUR_MAX)


WidgetUpdate = WidgetCreate
