"""The public key a service's webhook deliveries verify with (`client.webhook_signing_key()`).

The local service publishes it on its own base URL (`/keys/webhooks.v1.key`); the hosted
service's API has no such route (it answers 404 there), and its key is published on its CDN
(console.webhooks.signing.WEBHOOK_KEY_URL). So the service is asked first, and the CDN only
when the service does not publish one. Neither request carries the API key: the key is
public, and the CDN is another host that must never see the key.

The key's addresses are the contract's (console.models.contract, re-exported by
console.webhooks.signing, which the client's package must not import: it imports the
client).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from console.client.errors import UnexpectedResponse

if TYPE_CHECKING:
    from console.client._http import HttpSession

KEY_LIMIT = 16 * 1024
"""A PEM public key is well under a kilobyte: anything near this is not one."""
PEM_BEGIN = "-----BEGIN PUBLIC KEY-----"
PEM_END = "-----END PUBLIC KEY-----"


@dataclass(frozen=True)
class SigningKey:
    """The PEM (SubjectPublicKeyInfo) a receiver verifies deliveries with, and where it was
    read (the service's own URL, or the CDN's)."""

    pem: str
    source: str


async def webhook_signing_key(
    session: HttpSession, public_key_url: str | None = None
) -> SigningKey:
    """The key the service's deliveries verify with: the service's own when it publishes
    one, else the one at `public_key_url` (the hosted service's CDN when not given).
    UnexpectedResponse when what either answers is not a PEM public key."""
    from console.models.contract import LOCAL_KEY_PATH, WEBHOOK_KEY_URL

    status, body = await session.get_published(LOCAL_KEY_PATH, limit=KEY_LIMIT)
    if status == 200:
        return SigningKey(_pem(body, LOCAL_KEY_PATH, status), session.base_url + LOCAL_KEY_PATH)
    if status not in (404, 405):
        raise UnexpectedResponse(
            status,
            "Unexpected answer",
            f"The service answered {status} for its webhook signing key",
            method="GET",
            path=LOCAL_KEY_PATH,
        )
    url = public_key_url or WEBHOOK_KEY_URL
    status, body = await session.get_published(url, limit=KEY_LIMIT)
    if status != 200:
        raise UnexpectedResponse(
            status,
            "Unexpected answer",
            f"{url} answered {status}, not the webhook signing key",
            method="GET",
            path=url,
        )
    return SigningKey(_pem(body, url, status), url)


def _pem(body: bytes, where: str, status: int) -> str:
    """The body as a PEM public key (one block, nothing else); UnexpectedResponse if not."""
    try:
        text = body.decode("ascii").strip()
    except UnicodeDecodeError:
        text = ""
    if not (text.startswith(PEM_BEGIN) and text.endswith(PEM_END)) or text.count(PEM_BEGIN) != 1:
        raise UnexpectedResponse(
            status,
            "Unexpected answer",
            f"What {where} answered is not a PEM public key",
            method="GET",
            path=where,
        )
    return text + "\n"


__all__ = ["KEY_LIMIT", "SigningKey", "webhook_signing_key"]
