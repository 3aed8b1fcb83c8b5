"""AdminClient: the one way the console talks to the service."""

from __future__ import annotations

import logging
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

import httpx

from console.client._http import DEFAULT_TIMEOUT, HttpSession, RetryPolicy
from console.client.application_keys import ApplicationKeys
from console.client.budget import RequestBudget
from console.client.headers import KEY_HEADER
from console.client.key_features import KeyFeatures, probe
from console.client.logs import Logs
from console.client.recording import ChangeRecorder, ChangeRecording
from console.client.resources import (
    Applications,
    Collection,
    Permissions,
    Proxies,
    ReactorFormulas,
    Reactors,
    TenantResource,
)

if TYPE_CHECKING:
    from console.client.index import LocalIndex
    from console.client.people_groups import Invitations, Members
    from console.client.signing_key import SigningKey
    from console.client.webhooks import Webhooks
    from console.kinds import Kind
    from console.models.people import RoleItem

log = logging.getLogger(__name__)

HELD_PAGES = 20
"""List pages kept for the local index until it opens (AdminClient.hold_pages_for_index)."""


class AdminClient:
    """A typed async client of the tenant administration API, for one base URL and key.

    Use it as `async with AdminClient(url, key) as c:`; resource groups hang off it as
    `c.permissions`, `c.applications`, `c.proxies`, `c.reactor_formulas`, `c.reactors`,
    `c.members`, `c.invitations`, `c.webhooks` and `c.tenant` (with its owner and security
    contact), `c.webhook_signing_key()` reads the key webhook deliveries verify with, and
    `c.roles()` reads the role catalogue;
    and `c.collection(kind)` serves any paged kind of the registry (console.kinds).
    Every failure raises an ApiError subclass. GET, PUT and DELETE are retried on 429,
    502, 503, 504 and lost connections per `retry`; POST never is.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT,
        transport: httpx.AsyncBaseTransport | None = None,
        retry: RetryPolicy | None = None,
        key_header: str = KEY_HEADER,
        budget: RequestBudget | None = None,
    ) -> None:
        """`key_header` names the header the key travels in (SVC-API-KEY unless the service
        uses another); ValueError if it cannot name a header. `budget`: the profile's
        requests a minute (console.client.budget), waited for before sending; without one,
        only the service's 429s make it wait."""
        self._session = HttpSession(
            base_url,
            api_key,
            timeout=timeout,
            transport=transport,
            retry=retry,
            key_header=key_header,
            budget=budget,
        )
        self._index: LocalIndex | None = None
        self._held_pages: list[tuple[str, list[Any]]] = []
        self.permissions = Permissions(self._session)
        self.applications = Applications(self._session)
        self.proxies = Proxies(self._session)
        self.reactor_formulas = ReactorFormulas(self._session)
        self.reactors = Reactors(self._session)
        self.tenant = TenantResource(self._session)
        self._collections: dict[Kind, Collection[Any, Any, Any]] = {
            group.kind: group
            for group in (
                self.applications,
                self.proxies,
                self.reactor_formulas,
                self.reactors,
            )
        }
        self.application_keys = ApplicationKeys(self._session)
        self.logs = Logs(self._session)
        """The audit logs (console.client.logs): page, iterate newest first, entity types."""
        self._key_features: KeyFeatures | None = None
        self._key_features_lock: Any = None  # an asyncio.Lock, made on first use
        self._code_surfaces: frozenset[str] | None = None
        self._code_surfaces_lock: Any = None  # an asyncio.Lock, made on first use

    def collection(self, kind: Kind) -> Collection[Any, Any, Any]:
        """The resource group of a paged kind (any the registry holds): the typed one where
        the client has it (`client.proxies` for PROXIES), else one made from the kind's
        declaration. ValueError for a singleton or a catalogue (`c.tenant`,
        `c.permissions`)."""
        group = self._collections.get(kind)
        if group is None:
            from console.kinds import INVITATIONS, MEMBERS, WEBHOOKS

            if kind is MEMBERS:
                return self.members
            if kind is INVITATIONS:
                return self.invitations
            if kind is WEBHOOKS:
                return self.webhooks
            group = self._collections[kind] = Collection(self._session, kind)
        return group

    @property
    def members(self) -> Members:
        """The tenant's members (`set_role`, `delete`); made on first use, so that the
        client's start-up loads none of the people's models."""
        from console.client.people_groups import Members
        from console.kinds import MEMBERS

        group = self._collections.get(MEMBERS)
        if not isinstance(group, Members):
            group = self._collections[MEMBERS] = Members(self._session)
        return group

    @property
    def invitations(self) -> Invitations:
        """The tenant's invitations (`invite`, `resend`, `delete` to revoke); made on first
        use."""
        from console.client.people_groups import Invitations
        from console.kinds import INVITATIONS

        group = self._collections.get(INVITATIONS)
        if not isinstance(group, Invitations):
            group = self._collections[INVITATIONS] = Invitations(self._session)
        return group

    @property
    def webhooks(self) -> Webhooks:
        """The tenant's webhooks (console.client.webhooks): list, create, update, delete,
        `event_types`, `enable`/`disable`, and the local service's `trigger`; made on first
        use, so that the client's start-up loads none of their models."""
        from console.client.webhooks import Webhooks
        from console.kinds import WEBHOOKS

        group = self._collections.get(WEBHOOKS)
        if not isinstance(group, Webhooks):
            group = self._collections[WEBHOOKS] = Webhooks(self._session)
        return group

    async def webhook_signing_key(self, public_key_url: str | None = None) -> SigningKey:
        """The public key this service's webhook deliveries verify with (its `.pem`, and
        where it was read): the local service publishes it on its base URL, the hosted
        service on its CDN (`public_key_url`, by default the contract's WEBHOOK_KEY_URL).
        Neither request carries the API key (console.client.signing_key)."""
        from console.client.signing_key import webhook_signing_key

        return await webhook_signing_key(self._session, public_key_url)

    async def roles(self) -> list[RoleItem]:
        """The roles a member may have (`GET /roles`): OWNER, ADMIN, READ_ONLY."""
        from console.client.people_groups import Roles

        return await Roles(self._session).list()

    @property
    def base_url(self) -> str:
        return self._session.base_url

    @property
    def key_header(self) -> str:
        return self._session.key_header

    @property
    def timeout(self) -> httpx.Timeout:
        return self._session.timeout

    @property
    def retry(self) -> RetryPolicy:
        return self._session.retry

    @property
    def budget(self) -> RequestBudget:
        """The request budget every request of this client waits on."""
        return self._session.budget

    @budget.setter
    def budget(self, budget: RequestBudget) -> None:
        self._session.budget = budget

    @property
    def index(self) -> LocalIndex | None:
        """The profile's local index (console.client.index): every list page this client
        reads is recorded in it (names, ids, kinds). None: nothing is recorded."""
        return self._index

    @index.setter
    def index(self, index: LocalIndex | None) -> None:
        self._index = index
        self._session.page_seen = index.record_page if index is not None else None
        held, self._held_pages = self._held_pages, []
        if index is None:
            return
        for path, items in held:
            try:
                index.record_page(path, items)
            except Exception:
                log.exception("Recording a held page of %s in the local index failed", path)

    def hold_pages_for_index(self) -> None:
        """Keeps the list pages read until `index` is set (at most HELD_PAGES), then records
        them in it: the index is a file opened off the UI thread, and the first pages are
        often read before it opens."""
        held = self._held_pages = []

        def hold(path: str, items: list[Any]) -> None:
            if len(held) < HELD_PAGES:
                held.append((path, items))

        self._session.page_seen = hold

    @property
    def closed(self) -> bool:
        return self._session.closed

    def record_changes(
        self, recorder: ChangeRecorder, *, profile: str | None, origin: str = "console"
    ) -> None:
        """Records every write of this client in `recorder` (the change journal) before it is
        sent, as made by `origin` for `profile`; see console.client.recording."""
        self._session.recording = ChangeRecording(recorder, profile=profile, origin=origin)

    @property
    def recording(self) -> ChangeRecording | None:
        return self._session.recording

    async def send_json(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        params: list[tuple[str, str]] | None = None,
    ) -> Any:
        """One request with the answer as sent (no model): for code that works on whole
        bodies of any kind, such as undo writing back a recorded object. Retried and recorded
        as any (with `params`, a list page is recorded in the local index as any)."""
        return await self._session.request(method, path, params=params, body=body)

    async def key_features(self) -> KeyFeatures:
        """Whether the service offers Application Keys, regenerate, both or neither: asked
        once per client (so per connection; see console.client.key_features). An answer that
        decides nothing is not kept, so a later call asks again."""
        if self._key_features is not None:
            return self._key_features
        if self._key_features_lock is None:
            import asyncio  # here, not at import: the early start runs before asyncio loads

            self._key_features_lock = asyncio.Lock()
        async with self._key_features_lock:
            if self._key_features is None:
                features = await probe(self._session)
                if not features.decided:
                    return features
                self._key_features = features
            return self._key_features

    async def code_surfaces(self) -> frozenset[str]:
        """Which ways of running tenant code the service offers: `"formulas"` (reactor
        formulas), `"reactors"`, both or neither. Asked once per client (one cheap GET of
        each list; see console.client.code_surfaces); an answer that decides nothing (no
        answer, 401, 429, 5xx) is not kept, and the surface is then taken as offered."""
        if self._code_surfaces is not None:
            return self._code_surfaces
        if self._code_surfaces_lock is None:
            import asyncio

            self._code_surfaces_lock = asyncio.Lock()
        async with self._code_surfaces_lock:
            if self._code_surfaces is None:
                from console.client.code_surfaces import probe_code_surfaces

                surfaces, decided = await probe_code_surfaces(self._session)
                if not decided:
                    return surfaces
                self._code_surfaces = surfaces
            return self._code_surfaces

    def set_api_key(self, api_key: str) -> None:
        """Uses `api_key` from the next request on: the caller regenerated its own key."""
        self._session.set_key(api_key)

    async def aclose(self) -> None:
        """Closes the connection pool; the client cannot be used afterwards."""
        await self._session.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    def __repr__(self) -> str:
        return f"AdminClient(base_url={self.base_url!r}, api_key='***')"
