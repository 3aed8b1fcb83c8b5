"""A proxy's pipeline steps as the console names them: one line about each step (the
proxy form's step list and the proxy detail say the same) and the steps of one side as a
request sends them (the form's payload, the test-run of a side from the form or the
detail). Here, below the forms and the detail, so that both share it; light at import (the
models load only when a proxy's steps are read)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from console.terminal_text import printable
from console.tui.base.shown import JsonObject

if TYPE_CHECKING:
    from console.models import Proxy

SUMMARY_CHARS = 60


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def _short(text: str, chars: int = SUMMARY_CHARS) -> str:
    text = printable(text)
    return text if len(text) <= chars else text[: chars - 1] + "…"


def step_summary(step: JsonObject) -> str:
    """One line about a step as its payload holds it: what it does, not all of it."""
    kind = str(step.get("type") or "code")
    options = step.get("options") if isinstance(step.get("options"), dict) else {}
    assert isinstance(options, dict)
    value, location = options.get("value"), options.get("location")
    match kind:
        case "code":
            line = _first_line(str(step.get("code") or ""))
            return _short(line) if line else "(no code yet)"
        case "mask":
            matcher = step.get("matcher") or "?"
            if matcher == "regex":
                return _short(f"regex {step.get('expression') or '?'} → {step.get('replacement')}")
            return _short(f"{matcher} → {step.get('replacement')}")
        case "tokenize":
            token = options.get("token")
            token_type = token.get("type") if isinstance(token, dict) else None
            return _short(f"{options.get('identifier') or '?'} ← a {token_type or '?'} token")
        case "append_json":
            return _short(f"{location or '?'} = {json.dumps(value)}")
        case "append_text":
            return _short(f"+ {json.dumps(value)}")
        case "append_header":
            return _short(f"{location or '?'}: {value if value is not None else '?'}")
    return "read-only: a type this console does not know"


def has_pipelines(proxy: Proxy | None) -> bool:
    """Whether a proxy is shown and edited with pipelines: a new proxy, or one read with the
    arrays. A proxy read without them came from a service that has only the single
    transforms of the specification."""
    return proxy is None or (
        proxy.request_transforms is not None or proxy.response_transforms is not None
    )


def pipeline_of(proxy: Proxy | None, side: str) -> list[JsonObject]:
    """The steps of one side (`request`, `response`) as requests send them (none for a new
    proxy)."""
    from console.models.as_request import transform_request

    if proxy is None:
        return []
    steps = getattr(proxy, f"{side}_transforms") or []
    found = (transform_request(step) for step in steps)
    return [{k: v for k, v in step.items() if v is not None} for step in found if step is not None]
