"""The header that carries the API key: its default name, and the check of a name a person types.

Light (standard library only): the client, the console's first-page reader, the profiles and
the local service all use it. The hosted service's header name is a profile setting, since
installations of the service have used other names.
"""

from __future__ import annotations

import re

DEFAULT_KEY_HEADER = "SVC-API-KEY"

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
