"""Which ways of running tenant code a service offers: reactor formulas, reactors, or both.

The hosted service replaced reactor formulas with reactors; the local service and
specification-era services have formulas. Each list is asked for once (`GET ...?size=1`,
nothing changed, nothing journalled): a 404 or 405 of the route means it is not offered; a
page, a 403 (the route is there, the key may not read it) or a 400 mean it is. Anything else
(no answer, 401, 429, 5xx) decides nothing: the surface is then taken as offered and not
kept, so the next call asks again, and the first real call tells.
"""

from __future__ import annotations

import asyncio
import logging

from console.client._http import HttpSession
from console.client.errors import ApiError, Forbidden, NotFound, NotOffered, ValidationFailed
from console.kinds import KINDS
from console.kinds.declaration import Kind
from console.kinds.registry import Registry

log = logging.getLogger(__name__)


def surfaces_of(registry: Registry = KINDS) -> dict[str, Kind]:
    """Each surface's word and the kind whose list is asked for (`Kind.code_surface`)."""
    return {k.code_surface: k for k in registry.collections() if k.code_surface}


async def _offered(session: HttpSession, path: str) -> bool | None:
    """True: offered; False: not; None: the answer decides nothing."""
    try:
        await session.invoke("GET", path, params=[("size", "1")])
    except (NotOffered, NotFound) as missing:
        return missing.status not in (404, 405)
    except (Forbidden, ValidationFailed):
        return True
    except ApiError as error:
        log.info("Could not tell whether the service offers %s: %s", path, error)
        return None
    return True


async def probe_code_surfaces(session: HttpSession) -> tuple[frozenset[str], bool]:
    """The surfaces offered (an undecided one counted as offered), and whether every answer
    decided."""
    surfaces_by_word = surfaces_of()
    words = list(surfaces_by_word)
    answers = await asyncio.gather(*(_offered(session, surfaces_by_word[w].path) for w in words))
    surfaces = frozenset(
        w for w, offered in zip(words, answers, strict=True) if offered is not False
    )
    decided = all(answer is not None for answer in answers)
    log.info("Code surfaces of the service: %s", ", ".join(sorted(surfaces)) or "none")
    return surfaces, decided
