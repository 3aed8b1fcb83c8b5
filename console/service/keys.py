"""API keys and proxy keys: generated with enough randomness, stored only as hashes."""

from __future__ import annotations

import hashlib
import secrets
import string

_ALNUM = string.ascii_letters + string.digits


def new_api_key() -> str:
    """A fresh API key: 256 random bits, URL-safe text (43 characters)."""
    return secrets.token_urlsafe(32)


def hash_key(key: str) -> str:
    """The one-way hash the store keeps instead of the key.

    A plain SHA-256 is enough here: the keys are 256-bit random values, so there is nothing
    to guess, and an unsalted hash keeps the lookup a single indexed equality.
    """
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def new_proxy_key(length: int = 32) -> str:
    """The key a caller uses to invoke a proxy: letters and digits only."""
    return "".join(secrets.choice(_ALNUM) for _ in range(length))
