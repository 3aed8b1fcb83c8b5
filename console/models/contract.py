"""The API's contract constants, in one place for the client, the service and the tests:
the header that carries the key, and where the key webhook deliveries verify with is
published. The permission each endpoint requires comes with the
kinds' routes (console.kinds.endpoints).

Light (standard library only): the console's first-page reader and the profiles import it
before pydantic loads (this package's names load lazily, see console/models/__init__.py).
"""

from __future__ import annotations

import re

DEFAULT_KEY_HEADER = "SVC-API-KEY"

WEBHOOK_KEY_URL = "https://cdn.basistheory.com/keys/webhooks.v1.key"
"""Where the hosted service publishes the public key its v1 webhook signatures verify with
(console.webhooks.signing)."""
LOCAL_KEY_PATH = "/keys/webhooks.v1.key"
"""The same key's path on the local service (no API key needed to read it)."""

_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$")
"""An HTTP field name (RFC 9110 token), bounded."""


def checked_header_name(name: str) -> str:
    """`name`, stripped, if it can name an HTTP header; ValueError with a sentence otherwise."""
    name = str(name).strip()
    if not _TOKEN.match(name):
        raise ValueError(
            f"{name!r} is not a valid header name: use letters, digits and - (e.g. SVC-API-KEY)."
        )
    return name
