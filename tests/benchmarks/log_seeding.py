"""Audit log entries for the logs benchmarks, made in bulk: a day of them written straight into
the local service's store, and a year of them written straight into a console archive.

Ten thousand management writes through the API would take minutes (and make ten thousand
objects); one write transaction through the store's own `logs.insert_many` (the rows of
`console.service.changes.record`, which every logged change goes through) takes a fraction
of a second and stores exactly the row a logged change stores. A year of entries (a million)
never passes through the service at all: it is what an archive would hold after a year of
syncs, made as `Log` objects and handed to the archive's own `store`.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

from console.clock import now
from console.models.logs import Log

ENTITY_TYPES: tuple[tuple[str, int, int], ...] = (
    # (entity type, share of the entries in 100ths, how many such objects)
    ("application", 30, 500),
    ("proxy", 25, 300),
    ("reactor", 20, 300),
    ("reactor_formula", 10, 100),
    ("tenant_member", 8, 50),
    ("tenant_invitation", 5, 200),
    ("tenant", 2, 1),
)
"""A tenant's mix of changes: mostly keys, proxies and reactors, a few people and itself."""
_SLOTS: tuple[tuple[str, int], ...] = tuple(
    (entity_type, objects) for entity_type, share, objects in ENTITY_TYPES for _ in range(share)
)
ACTORS = 40
"""Applications acting (every tenth entry is a person's instead)."""
_MESSAGES = {"create": "created", "update": "updated", "delete": "deleted"}


def entity_id(entity_type: str, number: int) -> str:
    """The id of the `number`th object of a type: a UUID, the same on every run."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"bench/{entity_type}/{number}"))


def actor_id(number: int, *, person: bool = False) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"bench/{'user' if person else 'app'}/{number}"))


def entry_fields(index: int) -> dict[str, str]:
    """The `index`th entry's who, what and which (no id, no time): spread over the types of
    ENTITY_TYPES in their shares, over their objects, and over ACTORS applications."""
    entity_type, objects = _SLOTS[index * 37 % len(_SLOTS)]  # the types interleaved
    operation = ("update", "update", "create", "update", "delete")[index % 5]
    person = index % 10 == 9
    return {
        "entity_type": entity_type,
        "entity_id": entity_id(entity_type, (index // len(_SLOTS)) % objects),
        "operation": operation,
        "actor_type": "user" if person else "application",
        "actor_id": actor_id(index % ACTORS, person=person),
        "message": f"{entity_type.replace('_', ' ').capitalize()} {_MESSAGES[operation]}",
    }


def spread(count: int, span: timedelta, end: datetime) -> Iterator[datetime]:
    """`count` moments evenly over `span`, oldest first, the last at `end`."""
    step = span / max(1, count - 1)
    start = end - step * (count - 1)
    for index in range(count):
        yield start + step * index


def seed_service_logs(
    data_dir: Path,
    tenant_id: str,
    count: int,
    *,
    span: timedelta = timedelta(hours=23),
    end: datetime | None = None,
) -> int:
    """Writes `count` entries of `tenant_id` into the service's store in one transaction,
    evenly over `span` up to `end` (a minute ago by default: inside the service's retention
    of a day when `span` is shorter); returns how many."""
    from console.service.changes import Actor, Change
    from console.service.store import Store, logs
    from console.service.timestamps import stamp

    end = end or now() - timedelta(minutes=1)

    def changes() -> Iterator[Change]:
        for index, moment in enumerate(spread(count, span, end)):
            fields = entry_fields(index)
            yield Change(
                tenant_id=tenant_id,
                entity_type=fields["entity_type"],
                entity_id=fields["entity_id"],
                operation=fields["operation"],
                message=fields["message"],
                actor=Actor(fields["actor_id"], fields["actor_type"]),
                at=stamp(moment),
            )

    store = Store(data_dir)
    try:
        with store.write() as conn:
            return logs.insert_many(conn, changes())
    finally:
        store.close()


def log_entry(tenant_id: str, index: int, moment: datetime) -> Log:
    """The `index`th entry as the console reads one (a UUID id, as the local service sends)."""
    return Log.model_construct(
        id=str(uuid.UUID(int=index + 1, version=4)),
        tenant_id=tenant_id,
        created_at=moment,
        **entry_fields(index),
    )


def year_of_entries(tenant_id: str, count: int, *, end: datetime | None = None) -> Iterator[Log]:
    """`count` entries evenly over the 365 days up to `end` (now), oldest first."""
    end = end or now()
    for index, moment in enumerate(spread(count, timedelta(days=365), end)):
        yield log_entry(tenant_id, index, moment)


def max_per_minute(times: list[float]) -> int:
    """The most of `times` (seconds) in any 60 s, a half-open window starting at one of them."""
    ordered = sorted(times)
    return max(
        (sum(1 for later in ordered if start <= later < start + 60.0) for start in ordered),
        default=0,
    )
