"""Clients whose changes go in the change journal: the console's own and promotion's (here,
below the app and the flows that both make such clients)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from console.client.client import AdminClient


def record_changes(client: AdminClient, profile: str | None, origin: str) -> None:
    """Every change `client` makes goes in the user's change journal (History, undo)."""
    from console.journal.store import open_journal

    client.record_changes(open_journal(), profile=profile, origin=origin)
