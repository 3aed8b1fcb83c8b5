"""An object as read, in the shape of the request that would write it back.

The forms compare these shapes to tell whether someone else changed an object (the lost-update
guard), and `tenant-console push` builds its update from them with only the code replaced: one
definition, so the command line and the forms judge a concurrent change alike.
"""

from __future__ import annotations

from typing import Any

from console.models.formulas import ReactorFormula
from console.models.proxies import Proxy, TransformView


def transform_request(transform: TransformView | None) -> dict[str, Any] | None:
    """A transform as a request sends it: `{"code": ...}`, or every field of another kind."""
    if transform is None:
        return None
    if transform.is_code:
        return {"code": transform.code}
    data = transform.model_dump()
    return {k: v for k, v in data.items() if not (k in ("type", "code") and v is None)}


def formula_request(formula: ReactorFormula) -> dict[str, Any]:
    """The fields of `ReactorFormulaCreate`, as the formula holds them."""
    return {
        "name": formula.name,
        "description": formula.description,
        "type": formula.type,
        "icon": formula.icon,
        "code": formula.code,
        "configuration": [c.model_dump() for c in formula.configuration],
        "request_parameters": [p.model_dump() for p in formula.request_parameters],
    }


def proxy_request(proxy: Proxy) -> dict[str, Any]:
    """The fields of `ProxyCreate`, as the proxy holds them."""
    return {
        "name": proxy.name,
        "destination_url": proxy.destination_url,
        "require_auth": proxy.require_auth,
        "application": {"id": str(proxy.application_id)} if proxy.application_id else None,
        "configuration": proxy.configuration or None,
        "request_transform": transform_request(proxy.request_transform),
        "response_transform": transform_request(proxy.response_transform),
        # Beyond the specification (None from a service without them: then not sent); kept
        # so that saving a proxy never resets them (an update replaces the whole object).
        "disable_detokenization": proxy.disable_detokenization,
        "timeout": proxy.timeout,
    }
