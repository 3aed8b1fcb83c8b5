"""The access review as CSV and JSON, for `tenant-console review` and the console's view.

Columns and keys are always the same, in the same order, whatever the service sent: an
export is read by scripts and spreadsheets. No key material can appear: rows keep only the
fields of console.client.review.ReviewRow (never an application's `key`), of ReactorGrant and
of console.client.review_people.PersonRow.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from console.client.review import FLAGS, REACTOR_FLAG, Catalogue, ReactorGrant, ReviewRow
from console.client.review_activity import DEFAULT_INACTIVE_DAYS, Activity
from console.client.review_people import PEOPLE_FLAGS, People

ExportFormat = Literal["csv", "json"]
FORMATS: tuple[ExportFormat, ...] = ("csv", "json")

CSV_COLUMNS = (
    "id",
    "name",
    "type",
    "expires_at",
    "flags",
    "permissions",
    "rules",
    "last_activity_at",
    "role",
)
"""One row per application, then one per reactor (type `reactor`: its runtime's permissions,
and its application in `rules`), then one per member and invitation (type `member` or
`invitation`, the e-mail as `name`, `role`; an invitation's expiry in `expires_at`). Lists
(flags, permissions, rules) are joined with `;`."""
REACTOR_TYPE = "reactor"
LIST_SEPARATOR = ";"


def format_for(path: str | Path, default: ExportFormat = "csv") -> ExportFormat:
    """The format a file name asks for: `.json` is JSON, `.csv` CSV, else `default`."""
    suffix = Path(path).suffix.lower().lstrip(".")
    return "json" if suffix == "json" else "csv" if suffix == "csv" else default


def to_csv(
    rows: Iterable[ReviewRow],
    reactors: Iterable[ReactorGrant] = (),
    people: People | None = None,
) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        writer.writerow(
            (
                row.id,
                row.name,
                row.type,
                row.expires_at or "",
                LIST_SEPARATOR.join(row.flags),
                LIST_SEPARATOR.join(row.permissions),
                LIST_SEPARATOR.join(rule.summary() for rule in row.rules),
                row.last_activity_at or "",
                "",
            )
        )
    for reactor in reactors:
        uses = ""
        if reactor.application_id:
            uses = f"application {reactor.application_name or '?'} ({reactor.application_id})"
        writer.writerow(
            (
                reactor.id,
                reactor.name,
                REACTOR_TYPE,
                "",
                LIST_SEPARATOR.join(reactor.flags),
                LIST_SEPARATOR.join(reactor.permissions),
                uses,
                "",
                "",
            )
        )
    for person in people.rows if people is not None else ():
        writer.writerow(
            (
                person.id,
                person.email,
                person.kind,
                person.expires_at or "",
                LIST_SEPARATOR.join(person.flags),
                "",
                "",
                "",
                person.role or "",
            )
        )
    return out.getvalue()


def activity_json(activity: Activity | None, inactive_days: int) -> dict[str, Any]:
    """What the review knew of activity: how far back, and why not, if it could not read."""
    if activity is None:
        return {"inactive_days": inactive_days, "known_since": None, "problem": "Not read."}
    since = activity.known_since
    return {
        "inactive_days": inactive_days,
        "known_since": since.isoformat() if since is not None else None,
        "problem": activity.problem,
    }


def to_json(
    rows: Iterable[ReviewRow],
    *,
    reactors: Iterable[ReactorGrant] = (),
    catalogue: Catalogue | None = None,
    complete: bool = True,
    generated_at: datetime | None = None,
    people: People | None = None,
    activity: Activity | None = None,
    inactive_days: int = DEFAULT_INACTIVE_DAYS,
) -> str:
    """An object: when, whether the whole tenant was read, the flags' meanings, what was
    known of activity, the applications (each with `flags` as a list and its last activity),
    the reactors (what their runtimes let their code do, and the application each uses) and
    the people (members and invitations, flagged)."""
    every_flag = (*FLAGS, REACTOR_FLAG, *PEOPLE_FLAGS)
    document = {
        "generated_at": (generated_at or datetime.now(UTC)).isoformat(),
        "complete": complete,
        "flags": [{"flag": f.key, "description": f.explanation} for f in every_flag],
        "catalogue_problem": catalogue.problem if catalogue is not None else None,
        "activity": activity_json(activity, inactive_days),
        "applications": [row.to_json() for row in rows],
        "reactors": [reactor.to_json() for reactor in reactors],
        "people": [person.to_json() for person in people.rows] if people is not None else [],
        "people_problem": people.problem if people is not None else "Not read.",
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def render(
    rows: Iterable[ReviewRow],
    export_format: ExportFormat,
    *,
    reactors: Iterable[ReactorGrant] = (),
    catalogue: Catalogue | None = None,
    complete: bool = True,
    people: People | None = None,
    activity: Activity | None = None,
    inactive_days: int = DEFAULT_INACTIVE_DAYS,
    generated_at: datetime | None = None,
) -> str:
    if export_format == "json":
        return to_json(
            rows,
            reactors=reactors,
            catalogue=catalogue,
            complete=complete,
            people=people,
            activity=activity,
            inactive_days=inactive_days,
            generated_at=generated_at,
        )
    return to_csv(rows, reactors, people)


def write_text(path: Path, text: str) -> None:
    """Writes the file whole or not at all (a temporary file beside it, then a rename), so a
    failure never leaves half an export in place of an older one; readable by its owner
    only. The view asks before it replaces a file (a second Enter), the command line
    (`review -o`) only with --force."""
    from console.files import create_file

    create_file(path, text, force=True, private=True)
