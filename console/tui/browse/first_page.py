"""What the console does before Textual has even loaded: find its connection (profile file,
keyring) and ask for the first page, in a thread, while the main thread imports Textual.

Keyring look-ups can take a while and the first page is a network round trip; both overlap
the import instead of following it. Nothing here imports Textual.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TypeAlias

from console.client import plain_get
from console.tui.base.connection import Connection, ProfileSource
from console.tui.base.shown import JsonObject

log = logging.getLogger("console.tui")

FirstPage: TypeAlias = "Future[JsonObject | None]"
"""Page 1 of the first section as sent, on its way; None if the plain reader could not get it."""


def read_first_page(connection: Connection) -> JsonObject | None:
    """Page 1 of the first section without the client; None if the plain reader cannot get
    it (the list then asks the client, which says what is wrong)."""
    from console.tui.browse.kinds import KINDS_BY_KEY, PAGE_SIZE
    from console.tui.browse.sections import SECTIONS

    path = KINDS_BY_KEY[SECTIONS[0].key].path
    return plain_get.read_page(
        connection.base_url,
        connection.key or "",
        path,
        1,
        PAGE_SIZE,
        key_header=connection.key_header,
    )


def record_in_index(connection: Connection, path: str, page: JsonObject) -> None:
    """The early page's objects into the profile's local index (console.client.index), as
    the client records every page it reads: the early page came before the client did.
    Blocking (a SQLite file): call it in a thread, after the first rows are on screen.
    Never raises: the index only ever speeds things up."""
    if connection.profile is None or not isinstance(page.get("data"), list):
        return
    from console.client.index import LocalIndex

    index = LocalIndex.open_quietly(connection.profile, connection.base_url)
    if index is None:
        return
    try:
        index.record_page(path, page["data"])
    except Exception:
        log.exception("Recording the early page of %s in the local index failed", path)
    finally:
        index.close()


def request_first_page(connection: Connection) -> FirstPage:
    """read_first_page in a thread, started at once."""
    return plain_get.in_thread(lambda: read_first_page(connection))


@dataclass
class EarlyStart:
    """The connection of `profile_name` (ProfileUnavailable if none) and, once it is known,
    its first page."""

    profile_name: str | None
    connection: Future[Connection] = field(default_factory=Future)
    first_page: FirstPage = field(default_factory=Future)


def begin(profiles: ProfileSource, profile_name: str | None) -> EarlyStart:
    """Starts resolving the profile and reading its first page in a daemon thread."""
    early = EarlyStart(profile_name)

    def run() -> None:
        try:
            connection = profiles.resolve(profile_name)
        except BaseException as exc:  # the app shows it, as if it had resolved it itself
            log.warning("The profile could not be resolved early", exc_info=True)
            early.connection.set_exception(exc)
            early.first_page.set_result(None)
            return
        early.connection.set_result(connection)
        try:
            page = read_first_page(connection) if connection.key else None
        except Exception:  # the list then asks the client, which says what is wrong
            log.exception("The early first-page read failed")
            page = None
        early.first_page.set_result(page)

    threading.Thread(target=run, name="early-start", daemon=True).start()
    return early
