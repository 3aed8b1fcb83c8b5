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

from console.estate.plan import CREATE, DELETE, UPDATE, Plan, Step
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
    application_ids = {
        name: ids[0] for name, ids in snapshot.ids.get("applications", {}).items() if len(ids) == 1
    }
    steps = _in_order(plan)
    for index, step in enumerate(steps):
        try:
            line = await _waiting_out_429(
                step, partial(_apply_step, client, step, plan, application_ids, result, on_key)
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
    settings = [s for s in plan.to_do if s.kind == "settings"]
    others = [s for s in plan.to_do if s.kind != "settings"]
    return ([_settings_step(settings)] if settings else []) + others


def _settings_step(settings: list[Step]) -> Step:
    names = ", ".join(s.name for s in settings)
    step = Step("settings", names, UPDATE)
    step.desired = settings
    return step


async def _apply_step(
    client: AdminClient,
    step: Step,
    plan: Plan,
    application_ids: dict[str, str],
    result: ApplyResult,
    on_key: Callable[[NewKey], None] | None = None,
) -> str:
    if step.kind == "settings":
        return await _apply_settings(client, step, plan)
    desired: dict[str, Any] = step.desired or {}
    if step.action == DELETE:
        resource = _resource(client, step.kind)
        await resource.delete(step.target_id)
        return f"deleted {step.label}"
    if step.kind == "applications":
        body = {
            "name": desired["name"],
            "permissions": desired["permissions"],
            "rules": desired["rules"],
        }
        if step.action == CREATE:
            body["type"] = desired["type"]
            if desired.get("expires_at"):  # set on creation only (an update cannot send it)
                body["expires_at"] = desired["expires_at"]
            created = await client.applications.create(body)
            application_ids[step.name] = str(created.id)
            if created.key:
                new = NewKey(step.name, created.key)
                result.new_keys.append(new)
                if on_key is not None:
                    on_key(new)
            return f"created {step.label}"
        await client.applications.update(step.target_id or "", body)
        return f"updated {step.label}"
    if step.kind == "reactor_formulas":
        body = {**desired, "type": "private"}
        if step.action == CREATE:
            await client.reactor_formulas.create(body)
            return f"created {step.label}"
        await client.reactor_formulas.update(step.target_id or "", body)
        return f"updated {step.label}"
    body = {k: v for k, v in desired.items() if k != "application"}
    application = desired.get("application")
    body["application"] = {"id": application_ids[application]} if application else None
    if step.action == CREATE:
        await client.proxies.create(body)
        return f"created {step.label}"
    await client.proxies.update(step.target_id or "", body)
    return f"updated {step.label}"


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


def _resource(client: AdminClient, kind: str) -> Any:
    return {
        "applications": client.applications,
        "proxies": client.proxies,
        "reactor_formulas": client.reactor_formulas,
    }[kind]


__all__ = ["ApplyRefused", "ApplyResult", "NewKey", "apply_plan", "check_applicable"]
