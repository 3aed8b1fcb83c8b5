"""The steps of a rotation and a revoke, shared by the console and `tenant-console keys`.

Each step is one request at most, so a failure leaves a state that the rotation record (in
the change journal, see console.keys.rotation) describes: the old keys are revoked only after
the new key exists and was handed over, and a key the session lives on is replaced in the
session first.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING

from console.keys.rotation import CREATED, Rotation, cancelled, finished, remember

if TYPE_CHECKING:
    from console.client.client import AdminClient
    from console.models import Application, ApplicationKey

log = logging.getLogger(__name__)


class ApplicationNotFound(LookupError):
    """No application, or more than one, answers to the name given."""


async def find_application(client: AdminClient, name_or_id: str) -> Application:
    """The application with this id, or else the one with exactly this name."""
    from console.client import NotFound

    try:
        uuid.UUID(name_or_id)
    except ValueError:
        pass
    else:
        try:
            return await client.applications.get(name_or_id)
        except NotFound:
            pass
    matches = [a async for a in client.applications.iterate() if a.name == name_or_id]
    if not matches:
        raise ApplicationNotFound(f'No application is named or has the id "{name_or_id}".')
    if len(matches) > 1:
        ids = ", ".join(str(a.id) for a in matches)
        raise ApplicationNotFound(
            f'{len(matches)} applications are named "{name_or_id}" ({ids}): give the id.'
        )
    return matches[0]


@dataclass
class Started:
    """A rotation just begun: its record, and the new key (material inside, shown once)."""

    rotation: Rotation
    key: ApplicationKey
    remembered: bool
    """Whether the record was written (False: it will not survive a restart)."""


async def start_rotation(
    client: AdminClient, scope: str, application: Application, *, own: bool
) -> Started:
    """Notes the keys that exist now (they are the ones to revoke), then makes the new one
    (a POST, never repeated) and remembers the rotation."""
    from console.clock import now

    old = await client.application_keys.list(application.id)
    made = await client.application_keys.create(application.id)
    recording = client.recording  # the journal's view of the session: profile and tenant
    rotation = Rotation(
        scope=scope,
        application_id=str(application.id),
        application_name=application.name,
        new_key_id=str(made.id),
        old_key_ids=[str(k.id) for k in old if str(k.id) != str(made.id)],
        started_at=now().isoformat(),
        stage=CREATED,
        own=own,
        new_key_version=made.version,
        profile=recording.profile if recording is not None else None,
        base_url=client.base_url,
        tenant=(recording.tenant or None) if recording is not None else None,
    )
    try:
        remember(rotation, secrets=tuple(k for k in (made.key,) if k))
        remembered = True
    except OSError:
        log.warning("The key rotation could not be remembered", exc_info=True)
        remembered = False
    return Started(rotation, made, remembered)


async def revoke_old_keys(client: AdminClient, rotation: Rotation) -> list[str]:
    """Revokes the rotation's old keys (one already gone counts as revoked) and forgets the
    rotation. Returns the ids revoked. Stops at the first failure, keeping the record with
    what is left, so that a second try finishes the job."""
    from console.client import NotFound

    done: list[str] = []
    for key_id in list(rotation.old_key_ids):
        try:
            await client.application_keys.revoke(rotation.application_id, key_id)
        except NotFound:
            log.info("Key %s was already revoked", key_id)
        except Exception:
            rotation.old_key_ids = [k for k in rotation.old_key_ids if k not in done]
            try:
                remember(rotation)
            except OSError:
                log.warning("The key rotation could not be updated", exc_info=True)
            raise
        done.append(key_id)
    finished(rotation)
    return done


def cancel_rotation(rotation: Rotation) -> None:
    """Ends the rotation as cancelled: the old and the new keys all stay valid."""
    cancelled(rotation)
