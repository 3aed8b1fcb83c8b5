"""The headers every request to the service carries, and the key check before it is sent.

Light (no httpx): shared by the client's session and the console's first-page reader.
"""

from __future__ import annotations

from console import __version__
from console.models.contract import DEFAULT_KEY_HEADER, checked_header_name

KEY_HEADER = DEFAULT_KEY_HEADER
"""The default; a profile may name another (see console.models.contract)."""

__all__ = ["KEY_HEADER", "USER_AGENT", "checked_header_name", "checked_key"]
USER_AGENT = f"tenant-console/{__version__}"


def checked_key(api_key: str) -> str:
    """The key, stripped, if an HTTP header can carry it; TypeError or ValueError otherwise."""
    if not isinstance(api_key, str):
        raise TypeError("The API key must be a string.")
    api_key = api_key.strip()
    if not api_key.isascii() or any(ch < " " or ch == "\x7f" for ch in api_key):
        # Never echo the value: it is a secret even when malformed.
        raise ValueError("The API key holds characters that an HTTP header cannot carry.")
    return api_key
