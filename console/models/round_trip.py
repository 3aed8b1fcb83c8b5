"""Writing back what the console did not understand.

An update (`PUT`) replaces the whole object. Fields the service added after the specification
(a proxy's state or timeout, say) are kept by the response models as `unknown_fields`; an
update body carries them back unchanged, so saving never resets what the console did not show.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from console.models.common import LenientModel, RequestModel


def update_body(
    original: BaseModel | None, payload: RequestModel | dict[str, Any]
) -> dict[str, Any]:
    """The JSON body of an update: `payload`'s fields, plus every unknown top-level field of
    `original` (the object as read) that the payload does not set itself."""
    body = payload.to_json() if isinstance(payload, RequestModel) else dict(payload)
    if isinstance(original, LenientModel):
        for name, value in original.unknown_fields.items():
            body.setdefault(name, value)
    return body
