"""The access log's lines without query strings: a key pasted into a URL stays out of the log.

uvicorn's access logger writes the request target with its query string (`GET /proxies?k=v`).
No key of this API travels in a URL, but a client may still put one there by mistake (a
`?api_key=` copied from another service's docs); the log must not keep it.
"""

from __future__ import annotations

import logging


def path_without_query(target: object) -> object:
    """`/proxies?name=x` -> `/proxies`; anything that is not text is left as it is."""
    if isinstance(target, str):
        return target.split("?", 1)[0]
    return target


class PathOnly(logging.Filter):
    """Drops the query string from uvicorn's access records (`client, method, target,
    http version, status`); other records pass unchanged."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) == 5:
            record.args = (args[0], args[1], path_without_query(args[2]), *args[3:])
        return True


__all__ = ["PathOnly", "path_without_query"]
