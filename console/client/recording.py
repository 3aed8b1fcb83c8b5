"""Every write the client sends is told to a change recorder first and completed when answered.

The recorder (the change journal, console.journal) is handed to a client with
`AdminClient.record_changes(...)`; this module only defines what the client tells it, so the
client never imports the journal. The object as it was comes from the last body this session
read of it (a GET or a list page), or from one GET just before the write when it read none.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from console.client.endpoints import path_template
from console.client.errors import ApiError, NotFound, NotOffered
from console.kinds import KINDS, TENANT, Kind, field_of
from console.kinds.endpoints import endpoint

log = logging.getLogger("console.client")

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
CACHED_BODIES = 500
"""Bodies last read, kept per session for the journal's "as it was" (oldest dropped first)."""

SINGLETON_ID = "self"
"""A singleton's object id in the journal (the tenant's path names none)."""


@dataclass
class PendingChange:
    """One write about to be sent: what the journal records before it goes."""

    method: str
    path: str
    kind: str
    action: str
    object_id: str | None
    name: str | None
    before: dict[str, Any] | None
    request: dict[str, Any] | None
    profile: str | None
    base_url: str
    tenant: str | None
    origin: str
    undoes: int | None = None
    related: dict[str, Any] = field(default_factory=dict)
    """What an undo needs beyond the body: e.g. the proxies that used a deleted application."""
    secrets: tuple[str, ...] = field(default=(), repr=False)
    """Key values that must never be written anywhere (the session's own key)."""


class ChangeRecorder(Protocol):
    """What the client needs of a journal: set up, record before sending, complete when
    answered."""

    def prepare(self) -> None:
        """Blocking set-up (the journal's key, from the OS keyring): called in a thread
        before each record, so that the event loop never waits."""
        ...

    def record(self, change: PendingChange) -> int:
        """Keeps the change as pending; its id. Raises if it cannot be kept."""
        ...

    def complete(
        self,
        change_id: int,
        *,
        outcome: str,
        after: Any = None,
        error: str | None = None,
        secrets: tuple[str, ...] = (),
    ) -> None:
        """Marks the change `ok`, `failed` or `unknown` (no answer: it may have happened)."""
        ...


class JournalUnavailable(ApiError):
    """The change could not be recorded, so it was not sent."""


class RecordRefused(Exception):
    """A recorder cannot keep a change for a reason a person can act on (the journal file is
    a symbolic link, the change is too big to keep); str() says it in a sentence."""


_ORIGIN: contextvars.ContextVar[tuple[str, int | None] | None] = contextvars.ContextVar(
    "journal_origin", default=None
)


@contextlib.contextmanager
def changes_made_by(origin: str, *, undoes: int | None = None) -> Iterator[None]:
    """Within the block (and tasks started in it), changes are recorded as made by `origin`
    (`apply`, `push`, `promote`, `undo`...), an undo with the change it takes back."""
    token = _ORIGIN.set((origin, undoes))
    try:
        yield
    finally:
        _ORIGIN.reset(token)


def _segments(path: str) -> list[str]:
    return [p for p in path.split("?", 1)[0].split("/") if p]


def _placed(path: str) -> tuple[Kind | None, str | None, list[str]]:
    """The kind `path` is about, the object's id in it, and the segments after that."""
    parts = _segments(path)
    kind = KINDS.by_path(path)
    if kind is None:
        return None, (parts[1] if len(parts) > 1 else None), parts[2:]
    depth = len(_segments(kind.path))
    if kind.singleton:
        return kind, SINGLETON_ID, parts[depth:]
    return kind, (parts[depth] if len(parts) > depth else None), parts[depth + 1 :]


def classify(method: str, path: str) -> tuple[str, str, str | None]:
    """(kind, action, object id) of a write at `method path`: the journal's kind is the kind's
    key (the names of the configuration document); a route special to the kind may name its
    action (`regenerate`, `revoke key`)."""
    kind, object_id, rest = _placed(path)
    parts = _segments(path)
    key = kind.key if kind is not None else (parts[0] if parts else "unknown")
    route = endpoint(method, path_template(path)) if kind is not None else None
    if route is not None and route.action:
        return key, route.action, object_id
    if rest:
        return key, f"{method.lower()} {'/'.join(rest)}", object_id
    action = {"POST": "create", "PUT": "update", "PATCH": "update", "DELETE": "delete"}
    return key, action.get(method, method.lower()), object_id


def _name_of(kind: str, *sources: Any) -> str | None:
    """The changed object's name for the journal: its kind's name field (`name`, a member's
    `user.email`, an invitation's `email`) in the request, else in the object as it was."""
    found = KINDS.find(kind)
    name_field = found.name_field if found is not None else "name"
    for source in sources:
        if isinstance(source, dict):
            value = field_of(source, name_field)
            if isinstance(value, str):
                return value
    return None


def _object_path(kind: str, object_id: str, path: str) -> str:
    """The path of the object a write at `path` changes: its kind's item path (a member's
    is `/tenants/self/members/{id}`), or the path's first two segments for a path of no
    kind. `object_id` came from `path`, which the client checked."""
    found = KINDS.find(kind)
    if found is not None:
        return found.item_path(object_id)
    return "/".join(path.split("?", 1)[0].split("/")[:3])


def _body_id(value: Any) -> str | None:
    if isinstance(value, dict) and value.get("id") is not None:
        return str(value["id"])
    return None


class ChangeRecording:
    """One session's link to a recorder: who is acting, and the bodies it last read."""

    def __init__(self, recorder: ChangeRecorder, *, profile: str | None, origin: str) -> None:
        self.recorder = recorder
        self.profile = profile
        self.origin = origin
        self.tenant: str | None = None
        self.tenant_id: str | None = None
        """The tenant's id (a name changes): kept in each change's `related`, for undo."""
        self._bodies: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()

    # ---- what was read -----------------------------------------------------------------

    def remember(self, path: str, data: Any) -> None:
        """Keeps the bodies a GET returned of a kind the console changes: one object, or
        the items of a list page."""
        kind, object_id, rest = _placed(path)
        if kind is None or not kind.features.changeable or rest:
            return
        if kind.singleton:
            if isinstance(data, dict):
                self._keep((kind.key, SINGLETON_ID), data)
                if kind is TENANT:
                    self.tenant = str(data.get("name") or data.get("id") or "") or self.tenant
                    self.tenant_id = str(data.get("id") or "") or self.tenant_id
            return
        if object_id is None and isinstance(data, dict) and isinstance(data.get("data"), list):
            for item in data["data"]:
                if (item_id := _body_id(item)) is not None:
                    self._keep((kind.key, item_id), item)
        elif object_id is not None and (item_id := _body_id(data)) is not None:
            self._keep((kind.key, item_id), data)

    def _keep(self, key: tuple[str, str], body: dict[str, Any]) -> None:
        self._bodies[key] = body
        self._bodies.move_to_end(key)
        while len(self._bodies) > CACHED_BODIES:
            self._bodies.popitem(last=False)

    def last_read(self, kind: str, object_id: str) -> dict[str, Any] | None:
        return self._bodies.get((kind, object_id))

    # ---- around a write ----------------------------------------------------------------

    async def around(
        self,
        method: str,
        path: str,
        body: Any,
        base_url: str,
        secrets: tuple[str, ...],
        get: Callable[[str], Awaitable[Any]],
        send: Callable[[], Awaitable[Any]],
    ) -> Any:
        """Records the write, sends it with `send`, completes the record with the answer."""
        kind, action, object_id = classify(method, path)
        before = await self._before(kind, object_id, path, action, get)
        related = await self._related(kind, action, object_id, get)
        if self.tenant is None:
            await self._read_tenant(get)
        if self.tenant_id:
            related = {**related, "tenant_id": self.tenant_id}
        origin, undoes = _ORIGIN.get() or (self.origin, None)
        name = _name_of(kind, body, before)
        change = PendingChange(
            method=method,
            path=path,
            kind=kind,
            action=action,
            object_id=object_id,
            name=name,
            before=before,
            request=body if isinstance(body, dict) else None,
            profile=self.profile,
            base_url=base_url,
            tenant=self.tenant,
            origin=origin,
            undoes=undoes,
            related=related,
            secrets=secrets,
        )
        try:
            import asyncio  # the journal reads its key from the keyring: in a thread

            await asyncio.to_thread(self.recorder.prepare)
            change_id = self.recorder.record(change)
        except Exception as problem:
            refused = isinstance(problem, RecordRefused)  # its sentence says it all
            log.warning(
                "The change journal could not record %s %s", method, path, exc_info=not refused
            )
            why = str(problem) if refused else "see the log for why"
            raise JournalUnavailable(
                None,
                "Not recorded",
                f"The change journal could not record this change, so it was not sent ({why})",
                method=method,
                path=path,
            ) from None
        try:
            answer = await send()
        except ApiError as error:
            # No status: no answer came, the service may or may not have done it.
            outcome = "unknown" if error.status is None else "failed"
            self._complete(change_id, outcome=outcome, error=str(error), secrets=secrets)
            raise
        except BaseException:
            self._complete(change_id, outcome="unknown", error="Interrupted", secrets=secrets)
            raise
        self._complete(change_id, outcome="ok", after=answer, secrets=secrets)
        if object_id is not None and isinstance(answer, dict):
            self._keep((kind, object_id), answer)
        elif action == "create" and (new_id := _body_id(answer)) is not None:
            self._keep((kind, new_id), answer)
        if action == "delete" and object_id is not None:
            self._bodies.pop((kind, object_id), None)
        return answer

    def _complete(self, change_id: int, **answer: Any) -> None:
        try:
            self.recorder.complete(change_id, **answer)
        except Exception:
            log.warning("The change journal could not complete change %s", change_id, exc_info=True)

    async def _before(
        self,
        kind: str,
        object_id: str | None,
        path: str,
        action: str,
        get: Callable[[str], Awaitable[Any]],
    ) -> dict[str, Any] | None:
        """The object as last read; read now if this session never read it."""
        if object_id is None or action == "create":
            return None
        known = self.last_read(kind, object_id)
        if known is not None:
            return known
        object_path = _object_path(kind, object_id, path)
        try:
            data = await get(object_path)
        except NotFound as missing:  # a service that lists them only (hosted members)
            found = KINDS.find(kind)
            listed = await listed_object(found, object_id, get) if found else None
            if listed is None:
                log.info("Could not read %s before changing it: %s", object_path, missing)
            return listed
        except ApiError as error:
            log.info("Could not read %s before changing it: %s", object_path, error)
            return None
        return data if isinstance(data, dict) else None

    async def _related(
        self,
        kind: str,
        action: str,
        object_id: str | None,
        get: Callable[[str], Awaitable[Any]],
    ) -> dict[str, Any]:
        """Before an object others use is deleted (an application, which proxies and
        reactors use): the objects that use it (the service unlinks them), so that an undo
        can link them again; `linked_<key>` for each kind that refers to it."""
        if action != "delete" or object_id is None:
            return {}
        related: dict[str, Any] = {}
        for user in KINDS:
            reference = user.undo.reference if user.undo is not None else None
            if reference is None or reference.kind != kind:
                continue
            recorded = f"linked_{user.key}"
            try:
                related[recorded] = await _users(user, reference, object_id, get)
            except NotOffered:  # a service without the kind: nothing of it uses the object
                related[recorded] = []
            except ApiError as error:
                log.info("Could not list the %s using %s: %s", user.nouns.plural, object_id, error)
                related[f"{recorded}_unknown"] = str(error)
        return related

    async def _read_tenant(self, get: Callable[[str], Awaitable[Any]]) -> None:
        """The tenant's name, once per session, for the journal (a key without tenant:read
        leaves it blank)."""
        self.tenant = ""
        try:
            data = await get(TENANT.path)
        except ApiError as error:
            log.info("Could not read the tenant for the journal: %s", error)
            return
        if isinstance(data, dict):
            self.tenant = str(data.get("name") or data.get("id") or "")
            self.tenant_id = str(data.get("id") or "") or None


LISTED_PAGES = 10
"""Pages of 100 looked through for an object a service does not read by its id."""


async def listed_object(
    kind: Kind, object_id: str, get: Callable[[str], Awaitable[Any]]
) -> dict[str, Any] | None:
    """The object of `kind` with id `object_id` as its list shows it (the hosted service
    reads members only as a list), or None when it is not among the first LISTED_PAGES
    pages or the list cannot be read (logged)."""
    if kind.singleton or kind.routes.catalogue:
        return None
    for page in range(1, LISTED_PAGES + 1):
        try:
            data = await get(f"{kind.path}?page={page}&size=100")
        except ApiError as error:
            log.info("Could not list %s to find %s: %s", kind.nouns.plural, object_id, error)
            return None
        items = data.get("data") if isinstance(data, dict) else None
        if not isinstance(items, list):
            return None
        for item in items:
            if isinstance(item, dict) and str(item.get("id")) == object_id:
                return item
        if len(items) < 100:
            return None
    return None


async def _users(
    user: Kind, reference: Any, object_id: str, get: Callable[[str], Awaitable[Any]]
) -> list[dict[str, str]]:
    """The objects of `user` whose `reference` holds `object_id`, page by page."""
    linked: list[dict[str, str]] = []
    page = 1
    while page <= 1000:
        data = await get(f"{user.path}?page={page}&size=100")
        items = data.get("data") if isinstance(data, dict) else None
        if not items:
            break
        for item in items:
            if isinstance(item, dict) and str(reference.read(item)) == object_id:
                linked.append({"id": str(item.get("id")), "name": str(item.get("name"))})
        if len(items) < 100:
            break
        page += 1
    return linked


__all__ = [
    "ChangeRecorder",
    "ChangeRecording",
    "JournalUnavailable",
    "PendingChange",
    "RecordRefused",
    "changes_made_by",
    "classify",
    "listed_object",
]
