"""Writing an evidence pack: the folder checked, everything read, the console's key looked
for, the manifest made, the files written (console.evidence.folder)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from console.evidence.contents import gather
from console.evidence.folder import prepare_folder, refuse_secrets, write_pack
from console.evidence.manifest import Period, make_manifest

if TYPE_CHECKING:
    from console.audit.archive import LogArchive
    from console.client.client import AdminClient

log = logging.getLogger(__name__)


async def write_evidence(
    client: AdminClient,
    folder: Path,
    *,
    archive: LogArchive,
    profile: str | None,
    period: Period,
    key_age_days: int = 90,
    inactive_days: int = 90,
    secrets: Sequence[str] = (),
) -> dict[str, Any]:
    """Reads everything, then writes the pack into `folder` (new or empty: checked first,
    and made if need be; a failure removes what was made). The manifest, as written."""
    from console.clock import now

    period.check()
    made = prepare_folder(folder)
    try:
        created_at = now()
        files, about_logs, tenant_id = await gather(
            client,
            archive,
            period,
            key_age_days=key_age_days,
            inactive_days=inactive_days,
            created_at=created_at,
        )
        refuse_secrets(files, secrets)
        manifest = make_manifest(
            files,
            profile=profile,
            tenant_id=tenant_id,
            base_url=client.base_url,
            period=period,
            created_at=created_at,
            logs=about_logs,
        )
        write_pack(folder, files, manifest)
    except BaseException:
        if made:
            try:
                folder.rmdir()
            except OSError:
                log.warning("Could not remove %s after a failed pack", folder, exc_info=True)
        raise
    return manifest
