"""Taking a journalled change back as a person does (`tenant-console undo ID --yes`), for
the journal tests of each kind."""

from __future__ import annotations

import asyncio
from typing import Any

from console.cli import main


async def undo(change_id: int) -> int:
    """`tenant-console undo CHANGE_ID --yes`'s exit code, run off the event loop (`main`
    runs its own)."""
    return await asyncio.to_thread(main, ["undo", str(change_id), "--yes"])


async def undo_change(change: Any, kind: str, action: str) -> None:
    """`change` is the journal's record of `kind`'s `action`, and undoing it succeeds."""
    assert (change.kind, change.action) == (kind, action)
    assert await undo(change.id) == 0
