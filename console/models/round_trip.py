"""Writing back what the console did not understand.

An update (`PUT`) replaces the whole object. Fields the service added after the specification
are kept by the response models as `unknown_fields`; an update body carries them back
unchanged, so saving never resets what the console did not show. Fields the models know but
no form edits (a proxy's `timeout` and `disable_detokenization`) are carried back the same
way, named by the request model (`carried_back`); what the service only reports (a proxy's
`state`, `requested`, `proxy_host`) is a field of the response model and never sent.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from console.models.common import LenientModel, RequestModel


def update_body(
    original: BaseModel | None, payload: RequestModel | dict[str, Any]
) -> dict[str, Any]:
    """The JSON body of an update: `payload`'s fields, plus every unknown top-level field of
    `original` (the object as read) that the payload does not set itself, plus the fields
    the payload's model carries back (`RequestModel.carried_back`) that it leaves unset;
    never a field the model says an update must not send (`never_carried`)."""
    body = payload.to_json() if isinstance(payload, RequestModel) else dict(payload)
    if isinstance(original, LenientModel):
        for name, value in original.unknown_fields.items():
            body.setdefault(name, value)
    if isinstance(payload, RequestModel):
        for name in payload.carried_back:
            held = getattr(original, name, None)
            if body.get(name) is None and held is not None:
                body[name] = to_jsonable_python(held)
        for name in payload.never_carried:
            body.pop(name, None)
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
