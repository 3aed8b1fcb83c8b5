"""Which code sections the service offers (reactor formulas, reactors, both, neither), asked
once per connection (`client.code_surfaces()`) after the first rows, and what it lacks
recorded as every retired route is (`mark_unavailable`): the header strikes the section
through, the palette does not search it, and the section, if visited, says "This service
does not offer ..." plainly. A tenant of a service with reactors only is then a tenant like
any other, with one section less to look at."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from console.kinds import KINDS
from console.tui.browse import kinds as _kinds  # noqa: F401  (the looks, registered)
from console.tui.browse.looks import LOOKS, ListLook

if TYPE_CHECKING:
    from console.client.client import AdminClient
    from console.tui.base.shell import SessionHost

log = logging.getLogger(__name__)


def surfaces() -> tuple[tuple[ListLook, str], ...]:
    """Each code section's look and its name among the client's code surfaces."""
    looks = ((LOOKS.of(k), k.code_surface) for k in KINDS.collections() if k.code_surface)
    return tuple((look, word) for look, word in looks if isinstance(look, ListLook))


async def note_code_surfaces(app: SessionHost, client: AdminClient) -> frozenset[str]:
    """Asks the service which code surfaces it offers and marks the others unavailable in
    the session of `client` (never in one that replaced it). What it offers; every surface
    when the service could not tell (the sections then find out themselves)."""
    offered = frozenset(name for _, name in surfaces())
    try:
        offered = await client.code_surfaces()
    except Exception:  # a failed probe decides nothing: the sections ask for themselves
        log.info("The code surfaces could not be asked", exc_info=True)
        return offered
    if app.session.client is not client:
        return offered
    for look, name in surfaces():
        if name not in offered and look.key not in app.unavailable:
            app.mark_unavailable(look.key)
    return offered
