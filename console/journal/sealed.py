"""Configuration values in the journal: never in clear. A proxy's (or a reactor's)
`configuration` holds a downstream service's credentials, so every value is a secret.

Each value is replaced by a marker: `{"concealed": "2", "sealed": "<Fernet token>"}` where
the OS keyring holds the console's own journal key (undo opens the token and restores the
value), `{"concealed": "2"}` alone where there is no keyring (undo cannot restore it). The
label numbers the distinct values of one change, so History can say which value an update
changed, and nothing more. The key is read off the UI thread (console.profiles.keys runs
keyring calls in a thread of their own with a deadline).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cryptography.fernet import Fernet

log = logging.getLogger(__name__)

CONFIGURATION = "configuration"
CONCEALED, SEALED = "concealed", "sealed"
KEYRING_SERVICE = "tenant-console-journal"
KEYRING_NAME = "configuration-key"
"""Where the journal key is kept: apart from the profiles' keys (service "tenant-console",
one entry per profile name), so that no profile name can collide with it."""
MASK = "***"


class Sealer:
    """Seals and opens configuration values with the console's journal key."""

    def __init__(self, fernet: Fernet) -> None:
        self._fernet = fernet

    def seal(self, value: Any) -> str:
        return self._fernet.encrypt(json.dumps(value).encode()).decode("ascii")

    def open(self, token: str) -> tuple[bool, Any]:
        """(True, the value) when `token` opens with this key; (False, None) otherwise."""
        from cryptography.fernet import InvalidToken

        try:
            return True, json.loads(self._fernet.decrypt(token.encode("ascii")))
        except (InvalidToken, ValueError, UnicodeError):
            return False, None

    def __repr__(self) -> str:
        return "Sealer(key='***')"


def load_sealer() -> Sealer | None:
    """The sealer of the console's journal key (made and stored on first use); None, logged,
    where there is no usable keyring. Blocking: call it off the UI thread."""
    from console.profiles.keys import KeyStoreError, console_secret

    try:
        from cryptography.fernet import Fernet

        key = console_secret(KEYRING_SERVICE, KEYRING_NAME, lambda: Fernet.generate_key().decode())
        return Sealer(Fernet(key.encode("ascii")))
    except KeyStoreError as error:
        log.info("Configuration values in the journal are masked, not sealed: %s", error)
    except (ImportError, ValueError, UnicodeError):
        log.warning(
            "The journal key could not be used; configuration values are masked", exc_info=True
        )
    return None


def is_marker(value: Any) -> bool:
    """Whether `value` has the shape of a concealed configuration value (only the journal's
    configuration maps hold ones it made)."""
    return (
        isinstance(value, dict)
        and isinstance(value.get(CONCEALED), str)
        and set(value) <= {CONCEALED, SEALED}
        and all(isinstance(item, str) for item in value.values())
    )


class Concealer:
    """Conceals the configuration values of one change's bodies (before, request, after):
    the same value gets the same marker throughout, so a diff can tell what changed."""

    def __init__(self, sealer: Sealer | None, *, labels: str = "") -> None:
        self.sealer = sealer
        self.labels = labels
        """Put before each label: markers of another concealer must never look equal."""
        self._markers: dict[str, dict[str, str]] = {}
        self.values: list[str] = []
        """The concealed values that are text: masked wherever else they appear."""

    def conceal(self, body: Any) -> Any:
        """`body` with every value of every `configuration` map at any depth concealed."""
        if isinstance(body, dict):
            return {
                name: (
                    self._map(item)
                    if name == CONFIGURATION and isinstance(item, dict)
                    else self.conceal(item)
                )
                for name, item in body.items()
            }
        if isinstance(body, list):
            return [self.conceal(item) for item in body]
        return body

    def _map(self, configuration: dict[str, Any]) -> dict[str, Any]:
        # Every value, even one shaped like a marker: what a service sends is never trusted.
        return {
            name: None if value is None else self._marker(value)
            for name, value in configuration.items()
        }

    def _marker(self, value: Any) -> dict[str, str]:
        text = json.dumps(value, sort_keys=True, default=str)
        marker = self._markers.get(text)
        if marker is None:
            marker = {CONCEALED: f"{self.labels}{len(self._markers) + 1}"}
            if self.sealer is not None:
                marker[SEALED] = self.sealer.seal(value)
            self._markers[text] = marker
            if isinstance(value, str):
                self.values.append(value)
        return marker


def masked(body: Any) -> Any:
    """`body` as shown (History, `history --format json`): each marker as ***, and so every
    value of a configuration map (one a journal of an older console kept in clear too)."""
    if is_marker(body):
        return MASK
    if isinstance(body, dict):
        return {
            name: (
                {k: None if v is None else MASK for k, v in item.items()}
                if name == CONFIGURATION and isinstance(item, dict)
                else masked(item)
            )
            for name, item in body.items()
        }
    if isinstance(body, list):
        return [masked(item) for item in body]
    return body


def concealed_texts(texts: Iterable[str | None]) -> list[str | None]:
    """The stored bodies (JSON) of one change of an older console, with the configuration
    values it kept in clear masked (no key is needed; undo then says it cannot restore
    them), one marker per value across them; None for a body that holds none, or is not
    JSON."""
    concealer = Concealer(None)
    found: list[str | None] = []
    for text in texts:
        body: Any = None
        if isinstance(text, str) and f'"{CONFIGURATION}"' in text:
            try:
                body = json.loads(text)
            except ValueError:
                body = None
        if body is None or not any(
            value is not None and not is_marker(value) for value in _configuration_values(body)
        ):
            found.append(None)
            continue
        found.append(json.dumps(_mask_clear(body, concealer), default=str))
    return found


def _configuration_values(body: Any) -> list[Any]:
    found: list[Any] = []
    if isinstance(body, dict):
        for name, item in body.items():
            if name == CONFIGURATION and isinstance(item, dict):
                found += item.values()
            else:
                found += _configuration_values(item)
    elif isinstance(body, list):
        for item in body:
            found += _configuration_values(item)
    return found


def _mask_clear(body: Any, concealer: Concealer) -> Any:
    """`body` with the clear values of its configuration maps concealed (markers kept)."""
    if isinstance(body, dict):
        out = {}
        for name, item in body.items():
            if name == CONFIGURATION and isinstance(item, dict):
                clear = {k: v for k, v in item.items() if not is_marker(v)}
                out[name] = {**item, **concealer.conceal({CONFIGURATION: clear})[CONFIGURATION]}
            else:
                out[name] = _mask_clear(item, concealer)
        return out
    if isinstance(body, list):
        return [_mask_clear(item, concealer) for item in body]
    return body


def markers_in(bodies: Iterable[Any]) -> list[dict[str, Any]]:
    """Every marker inside `bodies`."""
    found: list[dict[str, Any]] = []

    def walk(value: Any) -> None:
        if is_marker(value):
            found.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for body in bodies:
        walk(body)
    return found


def restorable(bodies: Iterable[Any]) -> bool | None:
    """None: no configuration value was concealed; True: every one is sealed (undo can
    restore them with the journal key); False: some were only masked."""
    found = markers_in(bodies)
    if not found:
        return None
    return all(isinstance(marker.get(SEALED), str) for marker in found)


NOT_RESTORABLE = (
    "configuration values were masked, not kept (there was no OS keyring when the change "
    "was recorded): undo cannot restore them"
)


def opened(body: Any, sealer: Sealer | None, current: Any = None) -> tuple[Any, list[str]]:
    """`body` with its markers opened; a value that cannot be opened (masked, or sealed with
    another key) takes the value `current` (the object now) has under the same name, or is
    left out. Also the names of those values (`configuration.NAME`)."""
    lost: list[str] = []

    def walk(value: Any, now: Any) -> Any:
        if isinstance(value, dict):
            out = {}
            for name, item in value.items():
                here = now.get(name) if isinstance(now, dict) else None
                if name == CONFIGURATION and isinstance(item, dict):
                    out[name] = _open_map(item, here if isinstance(here, dict) else {})
                else:
                    out[name] = walk(item, here)
            return out
        if isinstance(value, list):
            return [walk(item, None) for item in value]
        return value

    def _open_map(configuration: dict[str, Any], now: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, value in configuration.items():
            if not is_marker(value):
                out[name] = value
                continue
            token = value.get(SEALED)
            ok, clear = sealer.open(token) if sealer and isinstance(token, str) else (False, None)
            if ok:
                out[name] = clear
                continue
            lost.append(f"{CONFIGURATION}.{name}")
            if name in now:
                out[name] = now[name]
        return out

    return walk(body, current), lost


__all__ = [
    "NOT_RESTORABLE",
    "Concealer",
    "Sealer",
    "concealed_texts",
    "is_marker",
    "load_sealer",
    "markers_in",
    "masked",
    "opened",
    "restorable",
]
