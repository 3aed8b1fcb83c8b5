"""Request paths checked before anything is sent: an id is one path segment, never more.

An id from a journal, a file or an argument could be `..`, `a/b` or `%2e%2e` and turn
`PUT /proxies/{id}` into `PUT /tenants/self`. Every segment of every path the client sends
is checked here (percent-escapes decoded first), and every id put into a path goes through
`segment`. A refusal is an ApiError (UnsafePath) raised before the request is recorded or sent.
"""

from __future__ import annotations

from urllib.parse import quote, unquote

from console.client.errors import UnsafePath

UNSAFE_CHARACTERS = frozenset("/?#%\\")
"""Characters that end a segment, start a query or fragment, or escape one (`%`), and the
backslash some servers read as `/`."""


def segment_problem(text: str) -> str | None:
    """Why `text` cannot be one path segment, or None when it can."""
    if text == "":
        return "it is empty"
    if text in (".", ".."):
        return f'it is "{text}"'
    if any(c in UNSAFE_CHARACTERS for c in text):
        return 'it holds "/", "?", "#", "%" or "\\"'
    if any(not c.isprintable() or c.isspace() for c in text):
        return "it holds a control or space character"
    return None


def segment(value: object, *, method: str | None = None, path: str | None = None) -> str:
    """`value` (an id) as one path segment; UnsafePath if it cannot be one."""
    text = str(value)
    problem = segment_problem(text)
    if problem is not None:
        raise UnsafePath(text, problem, method=method, path=path)
    return quote(text, safe="")


def check_path(method: str, path: str) -> None:
    """UnsafePath unless `path` is `/` or `/` followed by segments that each pass
    `segment_problem` once their percent-escapes are decoded (no query: params go apart)."""
    if path == "/":
        return
    if not path.startswith("/"):
        raise UnsafePath(path, "a request path starts with /", method=method)
    for part in path[1:].split("/"):
        try:
            decoded = unquote(part, errors="strict") if "%" in part else part
        except UnicodeDecodeError:
            raise UnsafePath(part, "it escapes bytes that are not text", method=method) from None
        problem = segment_problem(decoded)
        if problem is not None:
            raise UnsafePath(decoded, problem, method=method, path=path)


__all__ = ["UNSAFE_CHARACTERS", "check_path", "segment", "segment_problem"]
