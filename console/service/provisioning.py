"""How a reactor is provisioned here: its state, the version that serves, the one asked for.

The hosted service builds a runtime for a reactor whose body has a `runtime`: a new reactor
is `creating`, a changed one `updating` (its previous version keeps serving) until the build
ends, `active` after, or `failed`. The local service builds nothing, but keeps the states and
their timing so a client meets what it would meet there: the build "ends" `delay` seconds
(the service's `provision_delay`) after the change, on the wall clock (a frozen project clock
must not keep a reactor creating for ever). Nothing runs in the background: a reactor read
after its `ready_at` is shown settled, and the next write stores it so (`settle`).

What cannot be built here fails as a build would: `dependencies` (the local service installs
no npm packages). A reactor without `runtime` (the legacy runtime, or a client of the
specification) is active at once, as the hosted service has it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from console.service.timestamps import stamp

DEFAULT_PROVISION_DELAY = 0.5
"""Seconds a provisioning takes here (`serve --provision-delay`)."""

DEPENDENCIES_UNAVAILABLE = "dependencies_unavailable"


def wall_now() -> datetime:
    """The real time, frozen clock or not: provisioning ends after real seconds."""
    return datetime.now(UTC)


@dataclass(frozen=True)
class Version:
    """What a reactor runs: its code, configuration and runtime (None: the legacy one)."""

    code: str
    configuration: dict[str, str]
    runtime: dict[str, Any] | None

    def as_requested(self) -> dict[str, Any]:
        """As `requested.reactor` shows it."""
        return {"code": self.code, "runtime": self.runtime, "configuration": self.configuration}

    @classmethod
    def from_requested(cls, reactor: dict[str, Any]) -> Version:
        return cls(
            code=reactor["code"],
            configuration=dict(reactor.get("configuration") or {}),
            runtime=reactor.get("runtime"),
        )


@dataclass(frozen=True)
class Provisioning:
    """A reactor's provisioning as stored: its state, the version that serves (or, while it
    is created, the one being built), what was asked for and when its build ends."""

    state: str
    serving: Version
    requested: dict[str, Any] | None = None
    ready_at: str | None = None

    @property
    def has_served(self) -> bool:
        """Whether some version of it was ever provisioned (else react has nothing to run)."""
        return self.state not in ("creating", "failed")

    @property
    def latest(self) -> Version:
        """The newest version asked for: what a merge-patch applies to."""
        reactor = (self.requested or {}).get("reactor")
        return Version.from_requested(reactor) if reactor else self.serving


def unavailable(version: Version) -> dict[str, str] | None:
    """Why `version` cannot be provisioned here (`error_code`, `error_message`), or None."""
    dependencies = sorted(((version.runtime or {}).get("dependencies") or {}).keys())
    if not dependencies:
        return None
    names = ", ".join(dependencies)
    return {
        "error_code": DEPENDENCIES_UNAVAILABLE,
        "error_message": f"The local service cannot install npm packages ({names}): it runs "
        "reactors with Node.js's built-ins only.",
    }


def settle(current: Provisioning, now: datetime) -> Provisioning:
    """`current` as it stands at `now`: a build whose time has come has ended."""
    if current.ready_at is None or current.ready_at > stamp(now):
        return current
    target = current.latest
    problem = unavailable(target)
    if problem is None:
        return Provisioning("active", target)
    requested = {"reactor": target.as_requested(), **problem}
    if current.state == "creating":
        return Provisioning("failed", target, requested)
    # A failed update: the previous version keeps serving; the error stays until a change.
    return replace(current, state="active", requested=requested, ready_at=None)


def provision(
    current: Provisioning | None, target: Version, *, delay: float, now: datetime
) -> Provisioning:
    """What a create (`current` None) or a change to `target` starts; `current` settled."""
    if target.runtime is None:
        return Provisioning("active", target)
    if current is not None and current.ready_at is not None and target == current.latest:
        return current  # the build under way is this very version's
    if current is not None and current.has_served:
        if target == current.serving:  # back to what serves: nothing to build
            return Provisioning("active", target)
        started = Provisioning(
            "updating",
            current.serving,
            {"reactor": target.as_requested()},
            stamp(now + timedelta(seconds=delay)),
        )
    else:
        started = Provisioning(
            "creating",
            target,
            {"reactor": target.as_requested()},
            stamp(now + timedelta(seconds=delay)),
        )
    return settle(started, now) if delay <= 0 else started
