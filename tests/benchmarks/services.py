"""A local service subprocess (the test fixtures' RunningService) seeded with applications."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.benchmarks.seeding import check_seeded_like_api, seed_applications
from tests.local_service import RunningService


@contextmanager
def seeded_service(
    root: Path, applications: int, *, rate_limit: int | None = None
) -> Iterator[RunningService]:
    """A running service whose bootstrap tenant holds `applications` more applications.

    Before seeding, a tenant of its own checks that seeded objects read back exactly as
    objects created through the API.
    """
    running = RunningService(root, rate_limit=rate_limit)
    running.start()
    try:
        probe = running.new_tenant("Seeding check")
        check_seeded_like_api(
            running.base_url, probe.key, running.data_dir, probe.tenant_id, probe.application_id
        )
        seed_applications(running.data_dir, running.tenant_id, running.application_id, applications)
        yield running
    finally:
        running.stop()
