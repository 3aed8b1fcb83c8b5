"""What the service offers for replacing keys (Application Keys, regenerate, both, neither),
as the console says it: recorded once per connection like every other retired route, and the
sentences R's confirmation adds. Imports no flow module, so the flows can import it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from console.tui.key_permissions import REGENERATE

if TYPE_CHECKING:
    from console.client import AdminClient
    from console.client.key_features import KeyFeatures
    from console.tui.app import TenantConsoleApp

log = logging.getLogger(__name__)

KEYS = "keys"
"""The feature name `mark_unavailable` records for a service without Application Keys."""


async def key_features(app: TenantConsoleApp, client: AdminClient) -> KeyFeatures:
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


async def regenerate_note(app: TenantConsoleApp, client: AdminClient, proxies: str) -> str | None:
    """For R's confirmation: where only regenerate exists, that the old key cannot stay
    valid meanwhile and which proxies use the application; with keys, that o rotates
    without downtime. None when the service's features could not be told."""
    try:
        features = await key_features(app, client)
    except Exception:  # a failed probe decides nothing; R goes on as before
        log.info("The key features could not be asked", exc_info=True)
        return None
    if features.keys is False:
        return (
            "This service has no Application Keys, so the old key cannot stay valid while the "
            f"new one is deployed: it stops at once. {proxies}"
        ).strip()
    return f"Rotate (o) makes a new key beside the old one instead: no downtime. {proxies}".strip()
