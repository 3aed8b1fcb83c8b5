"""Which of its application's keys a session uses. The service does not say (a request only
carries the key), so the console remembers the id of every key it stores for a profile, in
the user data directory (`session-keys.json`, 0600: ids only, never material). Where nothing
was remembered, an application with a single key uses that one; otherwise it is not known,
and every key of the session's application is guarded as if it were the session's.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from pathlib import Path

log = logging.getLogger(__name__)

SESSION_KEYS_FILE = "session-keys.json"


def _path() -> Path:
    from console.data_dir import data_dir

    return data_dir() / SESSION_KEYS_FILE


def _load() -> dict[str, dict[str, str]]:
    try:
        data = json.loads(_path().read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        log.warning("The session keys file could not be read", exc_info=True)
        return {}
    if not isinstance(data, dict):
        return {}
    return {
        str(scope): {str(k): str(v) for k, v in entry.items()}
        for scope, entry in data.items()
        if isinstance(entry, dict)
    }


def remember_session_key(scope: str, application_id: str, key_id: str) -> None:
    """The session of `scope` (a profile) now uses key `key_id` of `application_id`.
    A failure is logged: the console then guards every key of the application."""
    from console.profiles.config import _write_atomically

    try:
        known = _load()
        known[scope] = {"application_id": str(application_id), "key_id": str(key_id)}
        _write_atomically(_path(), json.dumps(known, indent=2, sort_keys=True) + "\n")
    except OSError:
        log.warning("Could not remember which key the session uses", exc_info=True)


def session_key_id(scope: str, application_id: str, key_ids: Iterable[str]) -> str | None:
    """The id of the key the session of `scope` uses among `key_ids` (the keys of its own
    application `application_id`), or None when it cannot be told."""
    ids = [str(k) for k in key_ids]
    entry = _load().get(scope)
    if entry and entry.get("application_id") == str(application_id) and entry.get("key_id") in ids:
        return entry["key_id"]
    return ids[0] if len(ids) == 1 else None
