"""Which way of replacing keys the service offers: Application Keys, regenerate, both or
neither. Asked once per connection (AdminClient.key_features), as the console learns of every
other retired route, so that it offers what exists and says plainly what does not.

The hosted service answers a retired route like an unknown one, and an unknown object with a
404 too. So each route is probed on an application id that exists nowhere (nothing can be
created or changed by it), and its answer compared with that of a route that exists nowhere:
the same answer means the route is missing; a different one (a 404 naming the application, a
403, a 400) means it is there. A 405 means missing. Anything else (no answer, 401, 429)
decides nothing: the feature is then taken as offered, and the first real call tells.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from enum import Enum

from console.client._http import HttpSession
from console.client.errors import ApiError, Forbidden, NotFound, NotOffered, ValidationFailed
from console.kinds import APPLICATIONS

log = logging.getLogger(__name__)

PROBE_APPLICATION_ID = "00000000-0000-4000-8000-00000000c0de"
"""An application id no service holds: the probes touch nothing."""
_NOWHERE = "no-such-route-probe"


class KeyFeature(Enum):
    """The service's way of replacing keys, in one word."""

    KEYS = "keys"
    REGENERATE = "regenerate"
    BOTH = "both"
    NEITHER = "neither"


@dataclass(frozen=True)
class KeyFeatures:
    """`keys`/`regenerate`: True offered, False missing, None not known (taken as offered)."""

    keys: bool | None
    regenerate: bool | None

    @property
    def has_keys(self) -> bool:
        return self.keys is not False

    @property
    def has_regenerate(self) -> bool:
        return self.regenerate is not False

    @property
    def decided(self) -> bool:
        return self.keys is not None and self.regenerate is not None

    @property
    def kind(self) -> KeyFeature:
        if self.has_keys and self.has_regenerate:
            return KeyFeature.BOTH
        if self.has_keys:
            return KeyFeature.KEYS
        if self.has_regenerate:
            return KeyFeature.REGENERATE
        return KeyFeature.NEITHER


Answer = tuple[int | None, str, str | None] | None
"""A probe's answer: (status, title, detail) of a 404, 405 or 403, None for a success."""


class _Undecided:
    """An answer that says nothing about the route: no answer, 401, 429, 5xx."""


UNDECIDED = _Undecided()


async def _answer(session: HttpSession, method: str, path: str) -> Answer | _Undecided:
    try:
        await session.probe(method, path)  # changes nothing: kept out of the change journal
    except (NotOffered, NotFound, Forbidden, ValidationFailed) as error:
        return (error.status, error.title, error.detail)
    except ApiError:
        return UNDECIDED
    return None


def _verdict(answer: Answer | _Undecided, nowhere: Answer | _Undecided) -> bool | None:
    """True: the route is there; False: it is missing; None: cannot tell."""
    if isinstance(answer, _Undecided):
        return None
    if answer is None or answer[0] not in (404, 405):
        return True  # a success, a 403 (the route exists, the key may not), a 400
    if answer[0] == 405:
        return False
    if isinstance(nowhere, _Undecided):
        return None
    return answer != nowhere


async def probe(session: HttpSession) -> KeyFeatures:
    """Four requests at once: the two routes, and a route that exists nowhere for each method.
    The POSTs go to an application that does not exist, so they change nothing."""
    base = APPLICATIONS.item_path(PROBE_APPLICATION_ID)
    keys, keys_nowhere, regenerate, post_nowhere = await asyncio.gather(
        _answer(session, "GET", f"{base}/keys"),
        _answer(session, "GET", f"{base}/{_NOWHERE}"),
        _answer(session, "POST", f"{base}/regenerate"),
        _answer(session, "POST", f"{base}/{_NOWHERE}"),
    )
    features = KeyFeatures(
        keys=_verdict(keys, keys_nowhere), regenerate=_verdict(regenerate, post_nowhere)
    )
    log.info("Key features of the service: %s", features)
    return features
