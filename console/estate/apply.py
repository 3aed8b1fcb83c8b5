"""Applying a plan to a tenant: one request per step, in the plan's (dependency) order.

On the first failure it stops: what was done stays done, and the result says what was not.
Running the same plan source again computes a new plan from what the tenant now holds, so it
finishes the job; a POST that failed is never repeated here (it may have created the object:
the next plan shows whether it did).

The one exception is a 429: the service refused the request before acting on it, so nothing
was created, and the step is sent again once the service's Retry-After has passed (the
client's request budget holds every request of the profile until then). This is the only
case where a POST is sent twice.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from console.estate import kind_requests
from console.estate.plan import CREATE, DELETE, UPDATE, Plan, Step
from console.estate.travelling import SETTINGS, estate_of
from console.kinds import KINDS, field_of
from console.terminal_text import printable

if TYPE_CHECKING:
    from console.client import AdminClient

log = logging.getLogger("console.estate")

RATE_LIMITED_TRIES = 100
"""How often one step answered 429 is sent again (each after the service's Retry-After):
the limit slows an apply down, it does not stop it, as for a page walk."""

StepReport = Callable[[Step, str], None]
"""Told of each step once it is done: the step and one line saying what happened."""


@dataclass
class NewKey:
    """A created application's key: shown once at the end, never in a plan or a log."""

    application: str
    key: str = field(repr=False)

    def __repr__(self) -> str:
        return f"NewKey(application={self.application!r}, key='***')"


@dataclass
class ApplyResult:
    done: list[str] = field(default_factory=list)
    """One line per step that was done."""
    failed: Step | None = None
    error: str = ""
    not_done: list[Step] = field(default_factory=list)
    """Steps not attempted after the failure (the failed one first)."""
    new_keys: list[NewKey] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return self.failed is None


class ApplyRefused(Exception):
    """A plan that must not be applied at all (nothing was sent): one sentence."""


def check_applicable(plan: Plan, *, force: bool = False) -> None:
    """Refuses a plan that would send a --redact placeholder as a proxy's configuration, or
    (unless `force`) code the code check finds broken."""
    redacted = plan.redacted()
    if redacted:
        raise ApplyRefused(
            "The file holds redacted configuration values (from export --redact); replace "
            "them with the real values before applying: " + "; ".join(redacted) + "."
        )
    broken = plan.code_problems()
    if broken and not force:
        raise ApplyRefused(
            f"The plan sends code with problems ({'; '.join(broken)}); fix the code, or "
            "apply anyway with --force."
        )


async def apply_plan(
    client: AdminClient,
    plan: Plan,
    report: StepReport | None = None,
    *,
    result: ApplyResult | None = None,
    on_key: Callable[[NewKey], None] | None = None,
    force: bool = False,
) -> ApplyResult:
    """Applies every step of `plan` that changes something; stops at the first failure.

    `result` is filled as the steps go (pass one in to keep the new keys even if this raises);
    `on_key` is told of each new key at once. Code the check finds broken refuses the plan
    unless `force`."""
    from console.client import ApiError

    check_applicable(plan, force=force)
    snapshot = plan.target_snapshot
    if snapshot is None:
        raise ApplyRefused("A plan against a file cannot be applied; plan against a tenant.")
    result = result if result is not None else ApplyResult()
    known_ids = {
        kind: {name: ids[0] for name, ids in by_name.items() if len(ids) == 1}
        for kind, by_name in snapshot.ids.items()
    }
    steps = _in_order(plan)
    for index, step in enumerate(steps):
        try:
            line = await _waiting_out_429(
                step, partial(_apply_step, client, step, plan, known_ids, result, on_key)
            )
        except ApiError as error:
            result.failed = step
            result.error = str(error)
            if step.action == CREATE and error.status is None:
                result.error += (
                    " The service may or may not have created it: the next plan shows whether."
                )
            result.not_done = steps[index:]
            return result
        result.done.append(line)
        if report is not None:
            report(step, line)
    return result


async def _waiting_out_429(step: Step, send: Callable[[], Awaitable[str]]) -> str:
    """`send()`, sent again while the service answers 429 (at most RATE_LIMITED_TRIES times).

    A 429 means the service refused the request without acting on it: a create answered 429
    created nothing, so sending it again is safe, and it is the one case where a POST is
    repeated. The client has paused every request of the profile for the Retry-After (its
    request budget), so the next try waits that out before it is sent, and says so."""
    from console.client import RateLimited

    tries = 0
    while True:
        try:
            return await send()
        except RateLimited as error:
            tries += 1
            if tries >= RATE_LIMITED_TRIES:
                raise
            log.info(
                "%s %s was rate-limited (429, Retry-After %s); sending it again after the wait",
                step.action,
                printable(step.label),
                error.retry_after,
            )


def _in_order(plan: Plan) -> list[Step]:
    """Settings first (one request for all), then the plan's own order."""
    settings = [s for s in plan.to_do if s.kind == SETTINGS]
    others = [s for s in plan.to_do if s.kind != SETTINGS]
    return ([_settings_step(settings)] if settings else []) + others


def _settings_step(settings: list[Step]) -> Step:
    names = ", ".join(s.name for s in settings)
    step = Step(SETTINGS, names, UPDATE)
    step.desired = settings
    return step


async def _apply_step(
    client: AdminClient,
    step: Step,
    plan: Plan,
    known_ids: dict[str, dict[str, str]],
    result: ApplyResult,
    on_key: Callable[[NewKey], None] | None = None,
) -> str:
    """One step's request. `known_ids` (by kind, then name) gives the ids references are
    sent as, and learns each created object's."""
    if step.kind == SETTINGS:
        return await _apply_settings(client, step, plan)
    kind = KINDS.get(step.kind)
    if step.action == DELETE:
        await kind_requests.delete(client, kind, str(step.target_id))
        return f"deleted {step.label}"
    facet = estate_of(kind)
    desired: dict[str, Any] = step.desired or {}
    creating = step.action == CREATE
    body = facet.body(desired, creating)
    for reference in facet.references:
        name = body.pop(reference.field, None)
        body[reference.field] = {"id": known_ids[reference.kind][name]} if name else None
    if not creating:
        await kind_requests.update(client, kind, step.target_id or "", body)
        return f"updated {step.label}"
    created = await kind_requests.create(client, kind, body)
    known_ids.setdefault(kind.key, {})[step.name] = str(field_of(created, kind.id_field))
    key = field_of(created, "key") if kind.features.keys else None
    if key:
        new = NewKey(step.name, key)
        result.new_keys.append(new)
        if on_key is not None:
            on_key(new)
    return f"created {step.label}"


async def _apply_settings(client: AdminClient, step: Step, plan: Plan) -> str:
    """One PUT with the target's settings changed as planned: the target's settings that
    the plan leaves alone are sent back as they were (a PUT replaces the map)."""
    snapshot = plan.target_snapshot
    assert snapshot is not None
    settings = dict(snapshot.settings)
    for setting in step.desired:
        if setting.action == DELETE:
            settings.pop(setting.name, None)
        else:
            settings[setting.name] = setting.desired
    await client.tenant.update({"name": snapshot.tenant_name, "settings": settings})
    return f"updated settings {step.name}"


__all__ = ["ApplyRefused", "ApplyResult", "NewKey", "apply_plan", "check_applicable"]
