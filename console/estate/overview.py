"""The overview of every profile: is its key good, whose tenant is it, how full is it.

Profiles are checked concurrently, at most `concurrency` at once, each within `timeout`
seconds, so one slow or broken tenant never holds up the others; results come back one by
one, as each check ends (`check_profiles` is an async iterator). A profile's key is read
(from the keyring, in a thread of its own) only when its check starts, and keyring reads
go one at a time: a keyring that asks for a password asks once, not four times at once.

The counts take the service's `total_items` from one page when it sends totals; without
them (and for the private formulas, which the service cannot filter) they walk the pages
through the console's page walker (console.client.walk): a few requests in flight, the
profile's request budget and the service's 429s respected, stopped with the check.

A key is never kept in a result, never logged and never printed.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from console.kinds import APPLICATIONS, PROXIES
from console.kinds.builtin import REACTOR_FORMULAS, REACTORS
from console.models.contract import DEFAULT_KEY_HEADER

if TYPE_CHECKING:
    from console.client import AdminClient
    from console.client.budget import RequestBudget
    from console.client.index import LocalIndex

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_CONCURRENCY = 4
"""Profiles checked at once: enough to hide latency, few enough not to flood a keyring
prompt or a shared service."""
DEFAULT_TIMEOUT = 10.0
"""Seconds one profile's requests may take, all of them together (and its key read too)."""
COUNT_PAGE_SIZE = 100
"""The page size of a count: page 1 says the total, else every page is walked and counted."""
COUNT_MAX_PAGES = 100
"""Pages a count walks at most (10,000 objects): beyond, the figure is "at least" that many,
so one overview never spends a profile's whole minute of requests."""
COUNT_SHARE = 0.8
"""The share of a check's timeout its counting walks may take: past it they stop, and say
"at least" what they counted, rather than time the whole row out."""

KeyStatus = Literal[
    "ok",
    "rejected",
    "lacks_permissions",
    "no_key",
    "unreachable",
    "timed_out",
    "keyring_locked",
    "keyring_unavailable",
    "failed",
]
STATUS_LABELS: dict[str, str] = {
    "ok": "ok",
    "rejected": "rejected",
    "lacks_permissions": "lacks permissions",
    "no_key": "no key",
    "unreachable": "unreachable",
    "timed_out": "timed out",
    "keyring_locked": "keyring locked",
    "keyring_unavailable": "no keyring",
    "failed": "failed",
}
"""What each key status says in a table or a row."""

FigureState = Literal["ok", "lacks_permissions", "not_offered", "failed"]
FIGURE_TEXTS = {
    "lacks_permissions": "lacks permissions",
    "not_offered": "not offered",
    "failed": "?",
}


# ---- what goes in ---------------------------------------------------------------------


@dataclass(frozen=True)
class KeyLookup:
    """The outcome of reading one profile's key: the key, or why there is none."""

    key: str | None = field(repr=False)
    status: Literal["found", "no_key", "keyring_locked", "keyring_unavailable"] = "found"
    message: str | None = None
    """A sentence for a person when there is no key (never holding a key)."""
    stuck: bool = False
    """The keyring did not answer at all: later reads would wait as long again."""
    base_url: str | None = None
    """A base URL to use instead of the target's (an environment override, a demo's)."""
    key_header: str | None = None
    display_url: str | None = None
    """What to show instead of the base URL (screenshots: one URL whatever the port)."""

    def __repr__(self) -> str:
        return f"KeyLookup(key=***, status={self.status!r})"


KeyReader = Callable[[float], KeyLookup]
"""Reads a profile's key, blocking (a keyring call): given a deadline in seconds."""


@dataclass(frozen=True)
class ProfileTarget:
    """One profile to check, as the profiles file (or the console) knows it: no key yet."""

    name: str
    base_url: str
    read_key: KeyReader = field(repr=False, compare=False)
    label: str | None = None
    color: str | None = None
    key_header: str = DEFAULT_KEY_HEADER
    tenant_name: str | None = None
    """The tenant's name as last seen (a cache in the profiles file): shown when the
    service cannot say."""
    display_url: str | None = None
    """What to show instead of base_url (screenshots: one URL whatever the port)."""
    active: bool = False
    rate_limit: int | None = None
    """The profile's requests a minute (None: the hosted service's 200)."""
    budget: RequestBudget | None = field(default=None, repr=False, compare=False)
    """A RequestBudget to share (the console's own, for the profile it is on), so the
    overview's requests count with the console's; None: one of `rate_limit` a minute."""


# ---- what comes out -------------------------------------------------------------------


@dataclass(frozen=True)
class Count:
    """How many objects of one kind a tenant holds, or why that is not known."""

    state: FigureState = "ok"
    value: int | None = None
    exact: bool = True
    """False when the service sent no totals and a full page came back: at least `value`."""
    note: str | None = None
    """The permission lacking, or why the figure failed (a sentence)."""
    cause: Literal["rejected", "unreachable"] | None = field(default=None, compare=False)
    """For a failed figure: the key was rejected, or the service did not answer."""

    def text(self) -> str:
        if self.state != "ok":
            return FIGURE_TEXTS[self.state]
        if self.value is None:
            return "?"
        return f"{self.value:,}" if self.exact else f"≥{self.value:,}"

    def to_json(self) -> dict[str, Any]:
        return {"state": self.state, "count": self.value, "exact": self.exact, "note": self.note}


@dataclass(frozen=True)
class Usage:
    """Monthly active tokens against the plan, as much of it as the service reported."""

    state: FigureState = "ok"
    monthly_active: int | None = None
    included: int | None = None
    total_tokens: int | None = None
    note: str | None = None
    cause: Literal["rejected", "unreachable"] | None = field(default=None, compare=False)

    @property
    def percent(self) -> int | None:
        """The share of the plan, rounded so it never misstates which side of 100% it is
        (down within plan, up past it); None without both figures or with an empty plan."""
        used, included = self.monthly_active, self.included
        if used is None or not included:
            return None
        if used <= included:
            return (used * 100) // included
        return -((-used * 100) // included)

    @property
    def over_plan(self) -> bool:
        used, included = self.monthly_active, self.included
        return used is not None and included is not None and used > included

    def text(self) -> str:
        if self.state != "ok":
            return FIGURE_TEXTS[self.state]
        used, included = self.monthly_active, self.included
        if used is not None and included is not None:
            percent = "" if self.percent is None else f" ({self.percent}%)"
            return f"{used:,} / {included:,}{percent}"
        if used is not None:
            return f"{used:,}, no plan"
        if self.total_tokens is not None:
            return f"{self.total_tokens:,} tokens, no plan"
        return "not reported"

    def to_json(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "monthly_active_tokens": self.monthly_active,
            "included_monthly_active_tokens": self.included,
            "percent": self.percent,
            "total_tokens": self.total_tokens,
            "note": self.note,
        }


@dataclass(frozen=True)
class ProfileStatus:
    """Everything the overview shows of one profile; never its key."""

    name: str
    base_url: str
    status: KeyStatus
    message: str | None = None
    """Why the status is not ok (a sentence), or a note about an ok one."""
    label: str | None = None
    color: str | None = None
    tenant_name: str | None = None
    tenant_name_cached: bool = False
    """True when the name is the one last seen, because the service did not say it now."""
    tenant: Count | None = None
    """The tenant read itself (its state tells a lacking tenant:read); value unused."""
    usage: Usage | None = None
    applications: Count | None = None
    proxies: Count | None = None
    formulas: Count | None = None
    """The tenant's private reactor formulas (the official ones every tenant sees are not
    counted)."""
    reactors: Count | None = None
    """The tenant's reactors; "not offered" where the service has no reactors (a service
    of the specification), as formulas where the service has retired them."""
    active: bool = False
    trend: tuple[int, ...] = ()
    """This month's monthly active tokens as recorded so far, oldest first (issue 28: the
    overview's sparkline); empty without a recorder or a history."""
    trend_demo: bool = False
    """The trend is the demo's recorded history (labelled as demo data)."""

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def status_text(self) -> str:
        return STATUS_LABELS.get(self.status, self.status)

    def to_json(self) -> dict[str, Any]:
        def part(value: Count | Usage | None) -> dict[str, Any] | None:
            return value.to_json() if value is not None else None

        return {
            "name": self.name,
            "active": self.active,
            "label": self.label,
            "color": self.color,
            "base_url": self.base_url,
            "status": self.status,
            "ok": self.ok,
            "message": self.message,
            "tenant_name": self.tenant_name,
            "tenant_name_cached": self.tenant_name_cached,
            "usage": part(self.usage),
            APPLICATIONS.key: part(self.applications),
            PROXIES.key: part(self.proxies),
            "private_formulas": part(self.formulas),
            REACTORS.key: part(self.reactors),
        }


# ---- where the profiles come from -----------------------------------------------------


ENVIRONMENT_TARGET = "(environment)"
"""The name of the tenant TENANT_CONSOLE_BASE_URL and _API_KEY give, when no profile is open."""


def saved_targets(
    names: Sequence[str] = (),
    *,
    session_profile: str | None = None,
    env: Mapping[str, str] = os.environ,
    path: Any = None,
) -> list[ProfileTarget]:
    """The saved profiles (all, or those named, in the file's order), without their keys.

    The environment overrides (`TENANT_CONSOLE_API_KEY`, `_BASE_URL`, `_KEY_HEADER`) apply
    to the profile a session would open (`session_profile`, else `TENANT_CONSOLE_PROFILE`,
    else the active one), as they do for the console: one key from the environment is one
    tenant's key, never every profile's; with both the URL and the key set and no profile to
    apply them to, the environment's tenant is checked as ENVIRONMENT_TARGET. Raises
    ProfileError for a damaged file or an unknown name, UnusableKey for a key from the
    environment that no header can carry.
    """
    from console.profiles.config import ProfilesFile
    from console.profiles.resolve import (
        BASE_URL_ENV,
        PROFILE_ENV,
        checked_env_key,
        env_key_header,
    )

    profiles = ProfilesFile.load(path)
    for name in names:
        profiles.get(name)  # ProfileError naming the known ones
    chosen = [profiles.profiles[n] for n in dict.fromkeys(names)] or list(
        profiles.profiles.values()
    )
    session = session_profile or env.get(PROFILE_ENV, "").strip() or profiles.active
    env_url = env.get(BASE_URL_ENV, "").strip() or None
    env_key = checked_env_key(env)  # UnusableKey: one line and exit 2, never a traceback
    env_header = env_key_header(env)
    targets = []
    for profile in chosen:
        in_session = profile.name == session
        header = (env_header if in_session else None) or profile.header
        base_url = profile.base_url
        if in_session and env_url:
            from console.profiles.config import normalize_base_url

            base_url = normalize_base_url(env_url)
        if in_session and env_key:
            reader = _env_key_reader(env_key)
        elif not profile.key_from_keyring:
            reader = _external_key_reader(profile, env)
        else:
            reader = _keyring_reader(profile)
        targets.append(
            ProfileTarget(
                name=profile.name,
                base_url=base_url,
                read_key=reader,
                label=profile.label,
                color=profile.color,
                key_header=header,
                tenant_name=profile.tenant_name,
                active=profile.name == profiles.active,
                rate_limit=profile.rate_limit,
            )
        )
    if env_url and env_key and not names and not any(t.name == session for t in targets):
        # The console would open on the environment's tenant alone: check it too.
        from console.profiles.config import normalize_base_url

        environment = ProfileTarget(
            name=ENVIRONMENT_TARGET,
            base_url=normalize_base_url(env_url),
            read_key=_env_key_reader(env_key),
            key_header=env_header or DEFAULT_KEY_HEADER,
            active=True,
        )
        targets.insert(0, environment)
    return targets


def _env_key_reader(key: str) -> KeyReader:
    def read(timeout: float) -> KeyLookup:
        return KeyLookup(key)

    return read


def _external_key_reader(profile: Any, env: Mapping[str, str]) -> KeyReader:
    """The key from the profile's environment variable or command (never the keyring)."""

    def read(timeout: float) -> KeyLookup:
        from console.profiles.key_source import KeySourceError, read_external_key

        try:
            return KeyLookup(read_external_key(profile, env=env, timeout=timeout))
        except KeySourceError as error:
            log.warning("No key from the key source of profile %s", profile.name)
            return KeyLookup(None, "no_key", str(error))

    return read


def _keyring_reader(profile: Any) -> KeyReader:
    def read(timeout: float) -> KeyLookup:
        return read_keyring_key(profile.name, profile.base_url, timeout)

    return read


def read_keyring_key(name: str, base_url: str, timeout: float) -> KeyLookup:
    """The profile's key from the OS keyring, or why there is none: nothing stored, the
    keyring locked (or not answering), or no usable keyring. Blocking."""
    from console.profiles.keys import KeyringTimeout, KeyStoreError, NoKeyring, get_key

    try:
        key = get_key(name, timeout=timeout)
    except KeyringTimeout as error:
        log.warning("The keyring did not answer for profile %s", name)
        return KeyLookup(None, "keyring_locked", str(error), stuck=True)
    except NoKeyring as error:
        log.warning("No usable keyring for profile %s: %s", name, error.reason)
        if "locked" in error.reason:
            return KeyLookup(None, "keyring_locked", str(error))
        return KeyLookup(None, "keyring_unavailable", str(error))
    except KeyStoreError as error:
        log.warning("The keyring failed for profile %s", name, exc_info=True)
        return KeyLookup(None, "keyring_unavailable", str(error))
    if key is None:
        message = (
            f'No key is stored for profile "{name}". Store one with: '
            f"tenant-console profile add {name} --base-url {base_url}"
        )
        return KeyLookup(None, "no_key", message)
    return KeyLookup(key)


# ---- checking -------------------------------------------------------------------------


ClientFactory = Callable[..., "AdminClient"]
"""(base_url, key, *, key_header, timeout, retry) -> a client (default_client)."""
UsageRecorder = Callable[[str, Any, Any], tuple[Sequence[int], bool]]
"""(base_url, tenant id, usage report) -> (this month's monthly active tokens recorded so
far, whether they are demo data) (console.usage_history.recorder.history_recorder).
Blocking: run in a thread."""


def default_client(
    base_url: str, key: str, *, key_header: str, timeout: float, retry: Any = None
) -> AdminClient:
    """A client that gives up within the overview's timeout: one quick retry at most."""
    import httpx

    from console.client import AdminClient, RetryPolicy

    policy = retry or RetryPolicy(max_attempts=2, base_delay=0.2, max_total_wait=1.0)
    # Longer than the check's own deadline: the deadline decides, and says "timed out".
    limits = httpx.Timeout(timeout + 1.0, connect=min(5.0, timeout + 1.0))
    return AdminClient(base_url, key, key_header=key_header, timeout=limits, retry=policy)


class _KeyReads:
    """Key reads of one overview: one at a time, each in a daemon thread (a keyring that
    never answers must not keep the process alive), and none waited on again once the
    keyring has not answered at all."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._stuck: KeyLookup | None = None

    async def read(self, target: ProfileTarget, timeout: float) -> KeyLookup:
        async with self._lock:
            if self._stuck is not None:
                return self._stuck
            try:
                lookup = await in_daemon_thread(target.read_key, timeout)
            except Exception as error:
                log.warning("The key of profile %s could not be read", target.name, exc_info=True)
                return KeyLookup(None, "keyring_unavailable", str(error))
            if lookup.stuck:
                self._stuck = lookup
            return lookup


async def in_daemon_thread(function: Callable[..., T], *args: Any) -> T:
    """`function(*args)` in a daemon thread, awaited without blocking the event loop.

    Not asyncio.to_thread: its executor's threads are joined when the loop closes, so a
    keyring call that never returns would hold up the exit of `tenant-console status`."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(value: Any, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(value)

    def work() -> None:
        try:
            value = function(*args)
        except BaseException as error:
            outcome: tuple[Any, BaseException | None] = (None, error)
        else:
            outcome = (value, None)
        with suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(settle, *outcome)

    threading.Thread(target=work, name="overview: read a key", daemon=True).start()
    return await future


async def check_profiles(
    targets: Sequence[ProfileTarget],
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    timeout: float = DEFAULT_TIMEOUT,
    client_factory: ClientFactory = default_client,
    recorder: UsageRecorder | None = None,
) -> AsyncGenerator[ProfileStatus, None]:
    """Each profile's status, as each check ends (not in the targets' order).

    At most `concurrency` checks run at once; a check reads its profile's key only once it
    runs. Stopping the iteration early cancels the checks still going. `recorder` keeps
    each usage report read in the usage history (issue 28).
    """
    limit = asyncio.Semaphore(max(1, concurrency))
    reads = _KeyReads()

    async def bounded(target: ProfileTarget) -> ProfileStatus:
        async with limit:
            return await check_profile(
                target,
                timeout=timeout,
                client_factory=client_factory,
                key_reads=reads,
                recorder=recorder,
            )

    tasks = [asyncio.ensure_future(bounded(target)) for target in targets]
    try:
        for finished in asyncio.as_completed(tasks):
            yield await finished
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def check_profile(
    target: ProfileTarget,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    client_factory: ClientFactory = default_client,
    key_reads: _KeyReads | None = None,
    recorder: UsageRecorder | None = None,
) -> ProfileStatus:
    """One profile's status; never raises (a bug becomes a "failed" row, logged)."""
    base = _base_status(target)
    try:
        lookup = await (key_reads or _KeyReads()).read(target, timeout)
        shown = target.display_url or lookup.display_url or lookup.base_url
        if shown:
            base = _with(base, base_url=shown)
        if lookup.key is None:
            status = "no_key" if lookup.status == "found" else lookup.status
            return _with(base, status=status, message=lookup.message)
        url = lookup.base_url or target.base_url
        header = lookup.key_header or target.key_header
        try:
            return await asyncio.wait_for(
                _read_service(
                    base,
                    url,
                    lookup.key,
                    header,
                    timeout,
                    client_factory,
                    recorder=recorder,
                    budget=_budget_of(target),
                    index_profile=None if target.name == ENVIRONMENT_TARGET else target.name,
                ),
                timeout,
            )
        except TimeoutError:
            log.warning("Profile %s did not answer within %gs", target.name, timeout)
            return _with(base, status="timed_out", message=f"No answer within {timeout:g} seconds.")
    except asyncio.CancelledError:
        raise
    except Exception as error:  # a bug: one row says so, the others carry on
        log.error("Checking profile %s failed", target.name, exc_info=True)
        return _with(base, status="failed", message=f"{type(error).__name__}: {error}")


def _base_status(target: ProfileTarget) -> ProfileStatus:
    return ProfileStatus(
        name=target.name,
        base_url=target.display_url or target.base_url,
        status="ok",
        label=target.label,
        color=target.color,
        tenant_name=target.tenant_name,
        tenant_name_cached=target.tenant_name is not None,
        active=target.active,
    )


def _budget_of(target: ProfileTarget) -> RequestBudget:
    """The request budget of the target's requests: the one it shares, else its own."""
    if target.budget is not None:
        return target.budget
    from console.client.budget import DEFAULT_PER_MINUTE, RequestBudget

    return RequestBudget(target.rate_limit or DEFAULT_PER_MINUTE)


def _with(row: ProfileStatus, /, **changes: Any) -> ProfileStatus:
    from dataclasses import replace

    return replace(row, **changes)


async def _read_service(
    base: ProfileStatus,
    base_url: str,
    key: str,
    key_header: str,
    timeout: float,
    client_factory: ClientFactory,
    *,
    recorder: UsageRecorder | None = None,
    budget: RequestBudget | None = None,
    index_profile: str | None = None,
) -> ProfileStatus:
    """The tenant first (it tells a rejected key or a service that does not answer), then
    the usage and the four counts at once (a kind the service does not
    offer, by its code_surfaces, not walked); the usage report kept by `recorder`. `budget`:
    the profile's request budget, on the client (its 429s slow the count walks too).
    `index_profile`: the profile whose local index records the pages the counts read."""
    from console.client import ApiError, ServiceUnreachable, Unauthorized

    deadline = asyncio.get_running_loop().time() + timeout * COUNT_SHARE
    client = client_factory(base_url, key, key_header=key_header, timeout=timeout)
    if budget is not None:
        client.budget = budget
    budget = client.budget
    index: LocalIndex | None = None
    try:
        tenant_name: str | None = None
        tenant_id: Any = None
        reports: list[Any] = []
        try:
            tenant = await client.tenant.get()
        except Unauthorized as error:
            return _with(base, status="rejected", message=str(error))
        except ServiceUnreachable as error:
            return _with(base, status="unreachable", message=str(error))
        except ApiError as error:
            tenant_figure = _failed_figure(error)
        else:
            tenant_figure = Count(value=1)
            tenant_name, tenant_id = tenant.name, tenant.id
        index = await _local_index(index_profile, base_url)
        if index is not None:
            client.index = index
        surfaces = await _code_surfaces(client)
        usage, applications, proxies, formulas, reactors = await asyncio.gather(
            _figure(_usage(client, reports), Usage),
            _figure(count_walk(client.applications.page_json, budget, deadline), Count),
            _figure(count_walk(client.proxies.page_json, budget, deadline), Count),
            _figure(
                count_walk(client.reactor_formulas.page_json, budget, deadline, _private)
                if REACTOR_FORMULAS.code_surface in surfaces
                else _not_offered(REACTOR_FORMULAS.nouns.plural),
                Count,
            ),
            _figure(
                count_walk(client.reactors.page_json, budget, deadline)
                if REACTORS.code_surface in surfaces
                else _not_offered(REACTORS.nouns.plural),
                Count,
            ),
        )
    finally:
        with suppress(Exception):
            await client.aclose()
        if index is not None:
            index.close()
    figures: list[Count | Usage] = [
        tenant_figure,
        usage,
        applications,
        proxies,
        formulas,
        reactors,
    ]
    result = _with(
        base,
        tenant=tenant_figure,
        usage=usage,
        applications=applications,
        proxies=proxies,
        formulas=formulas,
        reactors=reactors,
    )
    if tenant_name is not None:
        result = _with(result, tenant_name=tenant_name, tenant_name_cached=False)
    if recorder is not None and reports and tenant_id is not None:
        try:
            trend, demo = await asyncio.to_thread(recorder, base_url, tenant_id, reports[0])
            result = _with(result, trend=tuple(trend), trend_demo=demo)
        except Exception:
            log.warning("The usage of %s was not kept in the history", base.name, exc_info=True)
    return _with(result, **_overall(figures))


CODE_SURFACES = frozenset(
    surface for surface in (REACTOR_FORMULAS.code_surface, REACTORS.code_surface) if surface
)
"""Both ways of running tenant code: what a client that cannot tell is taken to offer."""


async def _code_surfaces(client: Any) -> frozenset[str]:
    """Which of formulas and reactors the service offers (the client's probe, cached for
    its connection); both when the client cannot tell (the count walks then say why)."""
    from console.client import ApiError

    probe = getattr(client, "code_surfaces", None)
    if probe is None:
        return CODE_SURFACES
    try:
        surfaces: frozenset[str] = await probe()
    except ApiError as error:
        log.info("Which code surfaces the service offers is not known: %s", error)
        return CODE_SURFACES
    return surfaces


async def _not_offered(what: str) -> Count:
    """The figure of a kind the service does not offer (its code_surfaces said so)."""
    return Count("not_offered", note=f"The service does not offer {what}.")


async def _local_index(profile: str | None, base_url: str) -> LocalIndex | None:
    """The profile's local index (console.client.index), opened in a thread, or None: the
    pages the counts read are recorded in it, as every page and walk of the console are."""
    if profile is None:
        return None
    from console.client.index import LocalIndex

    return await asyncio.to_thread(LocalIndex.open_quietly, profile, base_url)


def _overall(figures: Sequence[Count | Usage]) -> dict[str, Any]:
    """The row's status from its figures: any 401 rejects the key; none readable for want
    of permissions is "lacks permissions"; a failed figure fails the row (saying which);
    a permission lacking for some figures only is a note, not a failure."""
    for cause in ("rejected", "unreachable"):
        found = next((f for f in figures if f.cause == cause), None)
        if found is not None:
            return {"status": cause, "message": found.note}
    failed = [f for f in figures if f.state == "failed"]
    if failed:
        return {"status": "failed", "message": failed[0].note}
    lacking = sorted({f.note for f in figures if f.state == "lacks_permissions" and f.note})
    if lacking and all(f.state in ("lacks_permissions", "not_offered") for f in figures):
        return {
            "status": "lacks_permissions",
            "message": "The key may read none of this; it lacks " + ", ".join(lacking) + ".",
        }
    if lacking:
        return {"status": "ok", "message": "The key lacks " + ", ".join(lacking) + "."}
    return {"status": "ok", "message": None}


def _failed_figure(error: Exception) -> Count:
    from console.client import Forbidden, NotOffered, ServiceUnreachable, Unauthorized

    if isinstance(error, Unauthorized):
        return Count("failed", note=str(error), cause="rejected")
    if isinstance(error, ServiceUnreachable):
        return Count("failed", note=str(error), cause="unreachable")
    if isinstance(error, Forbidden):
        return Count("lacks_permissions", note=error.permission or str(error))
    if isinstance(error, NotOffered):
        return Count("not_offered", note=str(error))
    return Count("failed", note=str(error))


F = TypeVar("F", Count, Usage)


async def _figure(reading: Awaitable[F], kind: type[F]) -> F:
    """The figure, or (for an API error) a figure that says why not, of the same kind."""
    from console.client import ApiError

    try:
        return await reading
    except ApiError as error:
        failed = _failed_figure(error)
        log.info("An overview figure could not be read: %s", failed.note)
        return kind(state=failed.state, note=failed.note, cause=failed.cause)


async def _usage(client: Any, reports: list[Any]) -> Usage:
    """The usage figures; the report itself is added to `reports` (for the history)."""
    report = await client.tenant.usage()
    reports.append(report)
    tokens = report.token_report
    return Usage(
        monthly_active=tokens.monthly_active_tokens,
        included=tokens.included_monthly_active_tokens,
        total_tokens=tokens.token_total,
    )


def _private(item: Any) -> bool:
    """A tenant's own formula (the list holds the official ones every tenant sees too)."""
    return isinstance(item, dict) and item.get("type") == "private"


async def count_walk(
    page_json: Callable[[int, int], Awaitable[dict[str, Any]]],
    budget: RequestBudget | None = None,
    deadline: float | None = None,
    keep: Callable[[Any], bool] | None = None,
) -> Count:
    """How many objects a list holds (those `keep` accepts, if given).

    Page 1 (COUNT_PAGE_SIZE a page) first: without `keep`, its `total_items` is the answer
    and nothing is walked; a short page is all there is. Otherwise the other pages are
    walked by the page walker (console.client.walk): a few in flight, fewer after a 429 or
    5xx seen by `budget`, which also waits out Retry-After and the profile's requests a
    minute; their order does not matter here. The walk stops at COUNT_MAX_PAGES or at
    `deadline` (the loop's clock), and the figure is then "at least" what it counted; it
    stops with the check (cancelled: every request in flight with it)."""
    from contextlib import aclosing

    from console.client.envelope import page_numbers
    from console.client.walk import PageEnd, envelope_end, walk_pages

    size = COUNT_PAGE_SIZE
    first = await page_json(1, size)
    total, more = page_numbers(first, 1, size)
    if keep is None and total is not None:
        return Count(value=total)

    def tally(envelope: dict[str, Any]) -> int:
        items = envelope["data"]
        return len(items) if keep is None else sum(1 for item in items if keep(item))

    counted = tally(first)
    if not more or not first["data"]:
        return Count(value=counted)
    complete = False

    async def page(number: int) -> dict[str, Any]:
        return first if number == 1 else await page_json(number, size)

    def end_of(envelope: dict[str, Any], number: int) -> PageEnd:
        return envelope_end(envelope, number, size)

    async def walk() -> None:
        nonlocal counted, complete
        pages = walk_pages(page, end_of, budget=budget, max_pages=COUNT_MAX_PAGES)
        async with aclosing(pages) as walking:
            async for number, envelope in walking:
                if number > 1:
                    counted += tally(envelope)
                complete = not end_of(envelope, number).has_more

    loop = asyncio.get_running_loop()
    try:
        if deadline is None:
            await walk()
        else:
            await asyncio.wait_for(walk(), max(0.0, deadline - loop.time()))
    except TimeoutError:
        log.info("An overview count stopped at its deadline, at %d", counted)
        return Count(value=counted, exact=False)
    return Count(value=counted, exact=complete)


def sort_like(
    statuses: Sequence[ProfileStatus], targets: Sequence[ProfileTarget]
) -> list[ProfileStatus]:
    """The statuses in the targets' order (results arrive in the order checks end)."""
    order = {target.name: index for index, target in enumerate(targets)}
    return sorted(statuses, key=lambda status: order.get(status.name, len(order)))


__all__ = [
    "DEFAULT_CONCURRENCY",
    "DEFAULT_TIMEOUT",
    "STATUS_LABELS",
    "Count",
    "KeyLookup",
    "KeyStatus",
    "ProfileStatus",
    "ProfileTarget",
    "Usage",
    "check_profile",
    "check_profiles",
    "count_walk",
    "in_daemon_thread",
    "read_keyring_key",
    "saved_targets",
    "sort_like",
]
