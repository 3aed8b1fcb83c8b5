"""The evidence pack: what an auditor asks for, in one folder that says if it was changed.

`tenant-console review --evidence DIR [--since WHEN] [--until WHEN]` writes, into a folder
that is new or empty:

- `access-review.json` and `access-review.csv`: the access review (grants, people, activity);
- `configuration.json`: the tenant's configuration as `export` writes it (console.estate),
  with every configuration value redacted; no key is ever part of it;
- `logs.jsonl`: the audit log entries of the period, oldest first, one JSON object a line,
  from the profile's archive (console.audit.archive) right after bringing it up to date;
- `manifest.json`: each file's SHA-256 and size, the tool's version, the profile, the tenant,
  the period, when, and `manifest_sha256`: the SHA-256 of the manifest's canonical JSON
  (keys sorted, no spaces, UTF-8) without that field.

`review --verify DIR` recomputes every digest and names each file changed, missing or extra.
The digests say whether the pack was changed since it was written, not who wrote it: keep a
copy of `manifest_sha256` where the auditor can see it (a ticket, an e-mail) to pin it.

A module of its own above console.audit and console.estate (the archive, the configuration
export), which it uses, and below the command line; never Textual.

Every file is created by this run (never one already there: the folder must be new or empty),
readable by its owner only (0600). Before anything is written, every file is checked for the
key the console uses: one found refuses the pack whole.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from console.audit.archive import LogArchive
    from console.client.client import AdminClient

log = logging.getLogger(__name__)

FORMAT = "tenant-console/evidence-1"
REVIEW_JSON = "access-review.json"
REVIEW_CSV = "access-review.csv"
CONFIGURATION = "configuration.json"
LOGS = "logs.jsonl"
MANIFEST = "manifest.json"
PACK_FILES = (REVIEW_JSON, REVIEW_CSV, CONFIGURATION, LOGS)
"""The files a pack holds besides its manifest, in the order they are written."""
DIGEST_FIELD = "manifest_sha256"
MAX_MANIFEST_BYTES = 1024 * 1024
LOG_FIELDS = (
    "id",
    "tenant_id",
    "actor_id",
    "actor_type",
    "entity_type",
    "entity_id",
    "operation",
    "message",
    "created_at",
)
"""A log line's keys, in this order: the entry's own fields and nothing else."""


class EvidenceRefused(Exception):
    """The pack cannot be written (the folder, a key found in it): one sentence."""


# ---- the period ------------------------------------------------------------------------


@dataclass(frozen=True)
class Period:
    """The logs' period: from `since` (None: the oldest entry archived) to `until`."""

    since: datetime | None
    until: datetime

    def check(self) -> None:
        if self.since is not None and self.since >= self.until:
            raise ValueError("--since must be before --until.")

    def to_json(self) -> dict[str, str | None]:
        return {
            "since": self.since.isoformat() if self.since is not None else None,
            "until": self.until.isoformat(),
        }


# ---- digests and the manifest ----------------------------------------------------------


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def canonical(document: Mapping[str, Any]) -> bytes:
    """The manifest as its digest is computed: keys sorted, no spaces, UTF-8."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )


def manifest_digest(manifest: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical JSON of `manifest` without its own digest."""
    return sha256(canonical({k: v for k, v in manifest.items() if k != DIGEST_FIELD}))


def make_manifest(
    files: Mapping[str, bytes],
    *,
    profile: str | None,
    tenant_id: str | None,
    base_url: str,
    period: Period,
    created_at: datetime,
    logs: Mapping[str, Any],
) -> dict[str, Any]:
    """The manifest of `files`, its own digest last."""
    from console import __version__

    manifest: dict[str, Any] = {
        "format": FORMAT,
        "tool": {"name": "tenant-console", "version": __version__},
        "profile": profile,
        "tenant_id": tenant_id,
        "base_url": base_url,
        "period": period.to_json(),
        "created_at": created_at.isoformat(),
        "logs": dict(logs),
        "files": {
            name: {"sha256": sha256(data), "bytes": len(data)} for name, data in files.items()
        },
    }
    manifest[DIGEST_FIELD] = manifest_digest(manifest)
    return manifest


# ---- the folder ------------------------------------------------------------------------


def prepare_folder(folder: Path) -> bool:
    """Makes `folder` (0700) unless it is there and empty; True when this call made it.
    EvidenceRefused for anything else there (a file, a folder with anything in it)."""
    if os.path.lexists(folder):
        if folder.is_symlink() or not folder.is_dir():
            raise EvidenceRefused(f"{folder} is there and is not a folder.")
        if any(folder.iterdir()):
            raise EvidenceRefused(
                f"{folder} is not empty: an evidence pack goes into a new or empty folder "
                "(nothing already there is ever replaced)."
            )
        return False
    if not folder.parent.is_dir():
        raise EvidenceRefused(f"{folder} is in a folder that does not exist.")
    folder.mkdir(mode=0o700)
    return True


def write_pack(folder: Path, files: Mapping[str, bytes], manifest: Mapping[str, Any]) -> None:
    """Creates each file (0600, exclusively: never one that is already there), the manifest
    last. A failure removes what this call created, and re-raises."""
    from console.files import create_file

    created: list[Path] = []
    try:
        for name, data in (*files.items(), (MANIFEST, manifest_bytes(manifest))):
            path = folder / name
            create_file(path, data, private=True)
            created.append(path)
    except BaseException:
        for path in created:
            try:
                path.unlink()
            except OSError:
                log.warning("Could not remove %s after a failed write", path, exc_info=True)
        raise


def manifest_bytes(manifest: Mapping[str, Any]) -> bytes:
    return (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def refuse_secrets(files: Mapping[str, bytes], secrets: Iterable[str]) -> None:
    """EvidenceRefused when any file holds any of `secrets` (the console's key): the pack's
    sources never hold one, and this makes sure of it before anything is written."""
    for secret in secrets:
        if not secret or len(secret) < 8:
            continue
        needle = secret.encode("utf-8")
        for name, data in files.items():
            if needle in data:
                raise EvidenceRefused(
                    f"{name} would hold the console's key: nothing was written. "
                    "Please report this as a bug."
                )


# ---- reading what goes in --------------------------------------------------------------


def log_line(entry: Any) -> str:
    """One archived entry as a line: LOG_FIELDS only, times in ISO 8601."""
    record: dict[str, Any] = {}
    for name in LOG_FIELDS:
        value = getattr(entry, name, None)
        record[name] = value.isoformat() if isinstance(value, datetime) else value
    return json.dumps(record, ensure_ascii=False)


def logs_jsonl(entries: Sequence[Any]) -> bytes:
    """The entries oldest first (the archive answers newest first)."""
    ordered = sorted(
        entries, key=lambda e: getattr(e, "created_at", None) or datetime.min.replace(tzinfo=UTC)
    )
    return "".join(log_line(entry) + "\n" for entry in ordered).encode("utf-8")


def _gaps_in(gaps: Iterable[tuple[datetime, datetime]], period: Period) -> list[list[str]]:
    """The archive's gaps that overlap the period: entries there may be missing."""
    out = []
    for start, end in gaps:
        if end > (period.since or start) and start < period.until:
            out.append([start.isoformat(), end.isoformat()])
    return out


async def archived_logs(
    client: AdminClient, archive: LogArchive, period: Period
) -> tuple[bytes, dict[str, Any]]:
    """The period's entries, from the archive after bringing it up to date (a sync that
    fails is said in the manifest, and what the archive held is used), and what the manifest
    says of them (count, oldest, newest, gaps, sync problem)."""
    problem = None
    try:
        await archive.sync(client)
    except Exception as error:
        log.warning("The log archive could not be brought up to date", exc_info=True)
        problem = f"The service's logs could not be read ({error}): the archive's are used."
    entries = archive.query(since=period.since, until=period.until)
    gaps: list[list[str]] = []
    try:
        gaps = _gaps_in(archive.reach().gaps, period)
    except Exception:
        log.warning("The log archive's gaps could not be read", exc_info=True)
        problem = problem or "The archive's gaps could not be read."
    times = [e.created_at for e in entries if e.created_at is not None]
    about = {
        "entries": len(entries),
        "oldest": min(times).isoformat() if times else None,
        "newest": max(times).isoformat() if times else None,
        "gaps": gaps,
        "problem": problem,
    }
    return logs_jsonl(entries), about


async def gather(
    client: AdminClient,
    archive: LogArchive,
    period: Period,
    *,
    key_age_days: int,
    inactive_days: int,
    created_at: datetime,
) -> tuple[dict[str, bytes], dict[str, Any], str | None]:
    """Every file's bytes, what the manifest says of the logs, and the tenant's id. The
    archive is synced first, so the review's activity sees the logs read now too."""
    from console.client.review import full_review, reactor_grants
    from console.client.review_activity import Activity
    from console.client.review_export import to_csv, to_json
    from console.client.review_people import read_people
    from console.estate.document import dumps, redact
    from console.estate.tenant import read_tenant

    logs, about_logs = await archived_logs(client, archive, period)
    tenant = await client.tenant.get()
    activity = Activity(
        {},
        lookup=archive.last_activity,
        known_since=_oldest(archive),
        problem=about_logs["problem"],
    )

    async def known() -> Activity:
        return activity

    rows, catalogue = await full_review(
        client, key_age_days=key_age_days, activity=known(), inactive_days=inactive_days
    )
    names = {row.id: row.name for row in rows}
    reactors = [grant.named(names) for grant in await reactor_grants(client)]
    people = await read_people(client)
    snapshot = await read_tenant(client)
    review_json = to_json(
        rows,
        reactors=reactors,
        catalogue=catalogue,
        people=people,
        activity=activity,
        inactive_days=inactive_days,
        generated_at=created_at,
    )
    files = {
        REVIEW_JSON: review_json.encode("utf-8"),
        REVIEW_CSV: to_csv(rows, reactors, people).encode("utf-8"),
        CONFIGURATION: dumps(redact(snapshot.document), "json").encode("utf-8"),
        LOGS: logs,
    }
    return files, about_logs, str(tenant.id)


def _oldest(archive: LogArchive) -> datetime | None:
    try:
        return archive.reach().oldest
    except Exception:
        log.warning("The log archive's reach could not be read", exc_info=True)
        return None


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


# ---- verifying -------------------------------------------------------------------------


@dataclass
class Verification:
    """What `review --verify` found: each file changed, missing or extra, and problems with
    the manifest itself (unreadable, its digest not matching)."""

    changed: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)
    """The files whose digests matched."""
    manifest_sha256: str | None = None

    @property
    def intact(self) -> bool:
        return not (self.changed or self.missing or self.extra or self.problems)

    def to_json(self) -> dict[str, Any]:
        return {
            "intact": self.intact,
            "manifest_sha256": self.manifest_sha256,
            "changed": self.changed,
            "missing": self.missing,
            "extra": self.extra,
            "problems": self.problems,
            "checked": self.checked,
        }


def _plain_name(name: Any) -> bool:
    """A file name the manifest may list: one name in the folder, never a path."""
    return (
        isinstance(name, str)
        and name not in ("", ".", "..", MANIFEST)
        and "/" not in name
        and "\\" not in name
        and not any(ord(c) < 32 or ord(c) == 127 for c in name)
    )


def _listed_files(manifest: Any, found: Verification) -> dict[str, tuple[str, int]] | None:
    """The manifest's files (name -> (sha256, bytes)), or None with the bad field's path."""
    if not isinstance(manifest, dict):
        found.problems.append(f"{MANIFEST}: not a JSON object.")
        return None
    files = manifest.get("files")
    if not isinstance(files, dict):
        found.problems.append(f"{MANIFEST}: files: not an object of files.")
        return None
    listed: dict[str, tuple[str, int]] = {}
    for name, about in files.items():
        if not _plain_name(name):
            found.problems.append(f"{MANIFEST}: files: {name!r} is not a file name in the folder.")
            return None
        digest = about.get("sha256") if isinstance(about, dict) else None
        size = about.get("bytes") if isinstance(about, dict) else None
        if not isinstance(digest, str) or not re.fullmatch(r"[0-9a-f]{64}", digest):
            found.problems.append(f"{MANIFEST}: files.{name}.sha256: not a SHA-256 digest.")
            return None
        if type(size) is not int or size < 0:
            found.problems.append(f"{MANIFEST}: files.{name}.bytes: not a size.")
            return None
        listed[name] = (digest, size)
    return listed


def verify_pack(folder: Path) -> Verification:
    """Checks the pack in `folder` against its manifest: the manifest's own digest, each
    listed file's size and SHA-256, and nothing else in the folder."""
    found = Verification()
    if not folder.is_dir():
        found.problems.append(f"{folder} is not a folder.")
        return found
    manifest_path = folder / MANIFEST
    if manifest_path.is_symlink() or not manifest_path.is_file():
        found.missing.append(MANIFEST)
        found.problems.append(f"Without {MANIFEST} nothing in the folder can be checked.")
        return found
    from console.files import read_small_file

    try:
        raw = read_small_file(manifest_path, MAX_MANIFEST_BYTES, EvidenceRefused)
        manifest = json.loads(raw.decode("utf-8"))
    except (EvidenceRefused, UnicodeDecodeError, ValueError) as error:
        found.problems.append(f"{MANIFEST}: cannot be read ({error}).")
        return found
    listed = _listed_files(manifest, found)
    if listed is None:
        return found
    stated = manifest.get(DIGEST_FIELD)
    found.manifest_sha256 = stated if isinstance(stated, str) else None
    if stated != manifest_digest(manifest):
        found.changed.append(MANIFEST)
    for name, (digest, size) in sorted(listed.items()):
        path = folder / name
        if not os.path.lexists(path):
            found.missing.append(name)
            continue
        if path.is_symlink() or not path.is_file():
            found.changed.append(name)
            continue
        data = path.read_bytes()
        if len(data) != size or sha256(data) != digest:
            found.changed.append(name)
        else:
            found.checked.append(name)
    for entry in sorted(os.listdir(folder)):
        if entry != MANIFEST and entry not in listed:
            found.extra.append(entry)
    return found
