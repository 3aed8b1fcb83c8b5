"""A new key, checked with the service before it is kept: stored for the profile (the
keyring) or held for this session only; a rejected key is never stored."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import TYPE_CHECKING

from console.tui.base.logs import hide_secret

if TYPE_CHECKING:
    from console.tui.base.connection import Connection, ProfileSource
    from console.tui.base.shell import Notices

log = logging.getLogger(__name__)


async def check_new_key(
    profiles: ProfileSource,
    notices: Notices,
    connection: Connection,
    key: str,
    *,
    session_only: bool = False,
) -> Connection | str:
    """The connection with this key once the service accepted it, stored in `profiles` for
    the profile unless `session_only` (then held in memory), and said; else one sentence
    saying why not."""
    from console.tui.base.connection import check_key, key_check_failure

    hide_secret(key)
    try:
        who = await check_key(connection.base_url, key, connection.key_header)
    except Exception as exc:
        log.warning("The key check failed", exc_info=True)
        return key_check_failure(exc)
    source = "memory"
    if connection.profile is not None and not session_only:
        try:
            await asyncio.to_thread(profiles.store_key, connection.profile, key)
        except Exception as exc:
            log.warning("The key could not be stored", exc_info=True)
            return f"The key works ({who}) but was not stored: {exc}"
        source = "keyring"
    if source == "keyring":
        done = f"stored for profile {connection.label}"
    else:
        done = "used for this session only (held in memory, never written)"
    notices.notify(f"The service accepts the key ({who}); it is {done}.", title="Key")
    return replace(connection, key=key, key_source=source, problem=None)
