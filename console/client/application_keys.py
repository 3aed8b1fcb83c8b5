"""Application Keys (`/applications/{id}/keys`): several keys per application, the hosted
service's replacement for regenerate. A new key's material comes back once, from `create`;
no read ever carries it. `c.application_keys` on an AdminClient.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from pydantic import ValidationError

from console.client.errors import UnexpectedResponse
from console.client.resources import Id, _ids, _Resource, _segment
from console.kinds import APPLICATIONS
from console.models import ApplicationKey

log = logging.getLogger(__name__)


class ApplicationKeys(_Resource):
    """The four routes, as the hosted service's published SDKs call them."""

    @staticmethod
    def _path(application_id: Id, key_id: Id | None = None) -> str:
        path = f"{APPLICATIONS.item_path(_segment(application_id))}/keys"
        return path if key_id is None else f"{path}/{_segment(key_id)}"

    async def list(self, application_id: Id, ids: Iterable[Id] = ()) -> list[ApplicationKey]:
        """The application's keys (never their material), oldest first as the service
        orders them. An item that is not a key is left out (and logged), not fatal."""
        path = self._path(application_id)
        data = await self._session.request("GET", path, params=_ids(ids) or None)
        items = _items(data, path)
        keys: list[ApplicationKey] = []
        for item in items:
            try:
                keys.append(ApplicationKey.model_validate(item))
            except ValidationError:
                log.warning("An item of %s is not a key; it is left out", path)
        return keys

    async def get(self, application_id: Id, key_id: Id) -> ApplicationKey:
        path = self._path(application_id, key_id)
        return await self._call("GET", path, ApplicationKey)

    async def create(self, application_id: Id) -> ApplicationKey:
        """A new key beside the others, with its material: the only time it is shown.
        Never retried (a POST): a lost answer must not make a second key."""
        return await self._call("POST", self._path(application_id), ApplicationKey)

    async def revoke(self, application_id: Id, key_id: Id) -> None:
        """Revokes the key: it stops working at once, for everyone who uses it."""
        await self._call("DELETE", self._path(application_id, key_id))


def _items(data: Any, path: str) -> list[Any]:
    """A plain array (as the SDKs read it), or a page envelope's `data` (leniently)."""
    if isinstance(data, list):
        return data
    if isinstance(data, dict) and isinstance(data.get("data"), list):
        return data["data"]
    raise UnexpectedResponse(
        200,
        "Unexpected answer",
        "The service's list of keys is not a list",
        method="GET",
        path=path,
    )
