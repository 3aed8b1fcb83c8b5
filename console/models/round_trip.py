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


def keep_item_fields(
    items: list[dict[str, Any]], originals: list[Any], key: str
) -> list[dict[str, Any]]:
    """`items` (a list in an update body) with the unknown fields of the original item they
    match by `key` (a contract item's name, a rule's priority) added back where not set."""
    by_key = {getattr(o, key, None): o for o in originals if isinstance(o, LenientModel)}
    kept = []
    for item in items:
        original = by_key.get(item.get(key))
        if original is not None:
            item = {**original.unknown_fields, **item}
        kept.append(item)
    return kept
