"""What the service offers for replacing keys (Application Keys, regenerate, both, neither),
as the console says it: recorded once per connection like every other retired route, and the
sentences R's confirmation adds. Imports no flow module, so the flows can import it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from console.tui.actions.key_permissions import REGENERATE

if TYPE_CHECKING:
    from console.client import AdminClient
    from console.client.key_features import KeyFeatures
    from console.tui.base.shell import SessionHost

log = logging.getLogger(__name__)

KEYS = "keys"
"""The feature name `mark_unavailable` records for a service without Application Keys."""


async def key_features(app: SessionHost, client: AdminClient) -> KeyFeatures:
    """The service's key features (the client asks once per connection); what it lacks is
    recorded in `app.unavailable`, so actions and keys say so instead of failing."""
    features = await client.key_features()
    if features.keys is False and KEYS not in app.unavailable:
        app.mark_unavailable(KEYS)
    if features.regenerate is False and REGENERATE not in app.unavailable:
        app.mark_unavailable(REGENERATE)
    return features


def proxies_sentence(names: list[str], complete: bool) -> str:
    """Names the proxies that use an application (their transforms get its key)."""
    if not names:
        return "No proxy uses this application." if complete else ""
    shown = ", ".join(f'"{n}"' for n in names[:5])
    if len(names) > 5:
        shown += f" and {len(names) - 5} more"
    return f"Proxies using this application (their transforms get its key): {shown}."


async def lacks_keys(app: SessionHost, client: AdminClient) -> bool:
    """Whether the service was found to lack Application Keys (asking once per connection);
    False when it could not be told."""
    try:
        features = await key_features(app, client)
    except Exception:  # a failed probe decides nothing
        log.info("The key features could not be asked", exc_info=True)
        return False
    return features.keys is False


def regenerate_only_note(proxies: str) -> str:
    """R's warning on a service with regenerate only: no rotation without downtime."""
    return (
        "This service has no Application Keys, so the old key cannot stay valid while the "
        f"new one is deployed: it stops at once. {proxies}"
    ).strip()
