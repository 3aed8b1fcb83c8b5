"""Key material out of everything the journal keeps: fields that hold keys are dropped, and
any known key value left elsewhere (inside code, say) is replaced by ***. Configuration values
are concealed first (console.journal.sealed): the markers in a configuration map are kept."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from console.journal.sealed import CONFIGURATION, is_marker

KEY_FIELDS = frozenset(
    {"key", "api_key", "apikey", "api-key", "secret", "client_secret", "private_key", "password"}
)
"""Field names whose values are keys (an application's and a proxy's `key`, and the like)."""

MASK = "***"
MIN_SECRET_LENGTH = 8
"""Shorter values are not masked elsewhere: "true" must not become *** everywhere."""


def without_keys(value: Any, secrets: Iterable[str] = ()) -> Any:
    """`value` without key fields at any depth, and without any of `secrets` (nor the values
    of the key fields it dropped) inside other strings."""
    found: set[str] = {s for s in secrets if isinstance(s, str) and len(s) >= MIN_SECRET_LENGTH}
    stripped = _strip(value, found)
    return _mask(stripped, sorted(found, key=len, reverse=True)) if found else stripped


def _strip(value: Any, found: set[str]) -> Any:
    if isinstance(value, dict):
        kept = {}
        for name, item in value.items():
            if name == CONFIGURATION and isinstance(item, dict):
                kept[name] = {k: v if is_marker(v) else _strip(v, found) for k, v in item.items()}
                continue
            if isinstance(name, str) and name.lower() in KEY_FIELDS:
                if isinstance(item, str) and len(item) >= MIN_SECRET_LENGTH:
                    found.add(item)
                continue
            kept[name] = _strip(item, found)
        return kept
    if isinstance(value, list):
        return [_strip(item, found) for item in value]
    return value


def _mask(value: Any, secrets: list[str]) -> Any:
    if isinstance(value, str):
        for secret in secrets:
            if secret in value:
                value = value.replace(secret, MASK)
        return value
    if isinstance(value, dict):
        return {
            name: _kept_markers(item, secrets) if name == CONFIGURATION else _mask(item, secrets)
            for name, item in value.items()
        }
    if isinstance(value, list):
        return [_mask(item, secrets) for item in value]
    return value


def _kept_markers(configuration: Any, secrets: list[str]) -> Any:
    """A configuration map's markers as they are (their tokens are not text to mask)."""
    if not isinstance(configuration, dict):
        return _mask(configuration, secrets)
    return {k: v if is_marker(v) else _mask(v, secrets) for k, v in configuration.items()}
