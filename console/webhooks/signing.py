"""A delivery's signature, as the hosted service makes it (its docs, "Signature
Verification", v1): RSA-PSS over SHA-256 of the body written as `json-stable-stringify`
writes it (keys sorted at every level, no spaces), base64 in `BT-SIGNATURE`, `v1` in
`BT-SIGNATURE-VERSION`. Receivers check it with the service's public key (the hosted
service publishes it at WEBHOOK_KEY_URL; the local service at LOCAL_KEY_PATH).

The docs' prose calls it "an HMAC key"; their code, which is what a receiver runs, verifies
RSA-PSS with a public key. There is no per-webhook secret: one key pair signs every delivery
of the service, so a receiver's check needs no secret either (docs/webhooks.md).
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import TYPE_CHECKING, Any

# WEBHOOK_KEY_URL: where the hosted service publishes the public key its v1 signatures
# verify with; LOCAL_KEY_PATH: the same key's path on the local service (no key needed to
# read it). Both live in console.models.contract, so the client reads the key without
# importing this package.
from console.models.contract import LOCAL_KEY_PATH as LOCAL_KEY_PATH
from console.models.contract import WEBHOOK_KEY_URL as WEBHOOK_KEY_URL

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey, RSAPublicKey


KEY_BITS = 2048


def stable_json(value: Any) -> bytes:
    """`value` as json-stable-stringify writes it: keys sorted, no whitespace, UTF-8."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode()


def _pss() -> Any:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding

    # The salt as long as the digest: what .NET's RSASignaturePadding.Pss uses, and what
    # Node's verify (RSA_PSS_SALTLEN_AUTO) and every PSS verifier accept.
    return padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=padding.PSS.DIGEST_LENGTH)


def new_private_key() -> RSAPrivateKey:
    from cryptography.hazmat.primitives.asymmetric import rsa

    return rsa.generate_private_key(public_exponent=65537, key_size=KEY_BITS)


def private_key_pem(key: RSAPrivateKey) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def load_private_key(pem: bytes) -> RSAPrivateKey:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey

    key = serialization.load_pem_private_key(pem, password=None)
    if not isinstance(key, RSAPrivateKey):
        raise ValueError("the webhook signing key is not an RSA key")
    return key


def public_key_pem(key: RSAPrivateKey) -> str:
    """The PEM (SubjectPublicKeyInfo) a receiver verifies with."""
    from cryptography.hazmat.primitives import serialization

    return (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )


def load_public_key(pem: str | bytes) -> RSAPublicKey:
    """A public key from its PEM; ValueError if it is not an RSA public key."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey

    data = pem.encode() if isinstance(pem, str) else pem
    key = serialization.load_pem_public_key(data)
    if not isinstance(key, RSAPublicKey):
        raise ValueError("the webhook verification key is not an RSA public key")
    return key


def sign(key: RSAPrivateKey, body: Any) -> str:
    """The base64 signature of `body` (a JSON value, the delivery as sent)."""
    from cryptography.hazmat.primitives import hashes

    signature = key.sign(stable_json(body), _pss(), hashes.SHA256())
    return base64.b64encode(signature).decode()


def verify(key: RSAPublicKey, body: bytes, signature: str | None) -> bool:
    """Whether `signature` (the `BT-SIGNATURE` header) signs `body` (the request's bytes,
    parsed and written stably first, as the docs' receiver does). False for a missing or
    malformed signature or a body that is not JSON; never raises for what a sender sent."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes

    if not signature:
        return False
    try:
        raw = base64.b64decode(signature, validate=True)
        document = json.loads(body)
        key.verify(raw, stable_json(document), _pss(), hashes.SHA256())
    except (InvalidSignature, binascii.Error, ValueError, UnicodeDecodeError):
        return False
    return True
