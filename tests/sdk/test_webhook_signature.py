"""The local service's webhook signatures, checked by implementations independent of
console's: the vendor's docs' own receiver sample in Node (tests/sdk/node/receiver.mjs:
json-stable-stringify, `crypto.createVerify('SHA256')`, RSA_PKCS1_PSS_PADDING) with the
public key the service publishes at `GET /keys/webhooks.v1.key`, and `cryptography`
directly over the very bytes json-stable-stringify wrote (no console code on this side).

A change made through the vendor's Python SDK is what makes the service deliver; forged,
tampered and foreign-key deliveries are sent to the receiver by the test itself.
"""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path
from typing import Any

import httpx
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from local_service import RunningService, TenantInfo
from node_receiver import NodeReceiver
from sdk_clients import SDK_HEADER

from console.models.webhooks import EVENT_TYPES
from console.webhooks import signing

KEY_PATH = "/keys/webhooks.v1.key"
"""Where the local service publishes its public key (the hosted service: the CDN's
https://cdn.basistheory.com/keys/webhooks.v1.key)."""

EVENTS = ["application.created", "application.deleted"]


def _public_pem(sdk_service: RunningService) -> bytes:
    answer = httpx.get(f"{sdk_service.base_url}{KEY_PATH}", timeout=30.0)  # no API key
    assert answer.status_code == 200, answer.text
    return answer.content


def _python_verifies(pem: bytes, stable: str, signature: str | None) -> bool:
    """RSA-PSS (MGF1 SHA-256, the salt length read from the signature, as Node's verify
    does) over SHA-256 of `stable`, with `cryptography` alone."""
    key = serialization.load_pem_public_key(pem)
    assert isinstance(key, rsa.RSAPublicKey)
    if not signature:
        return False
    try:
        key.verify(
            base64.b64decode(signature, validate=True),
            stable.encode(),
            padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=padding.PSS.AUTO),
            hashes.SHA256(),
        )
    except (InvalidSignature, ValueError):
        return False
    return True


def _stable(value: Any) -> str:
    """json-stable-stringify's output, written here for the comparison (keys sorted, no
    spaces): what the service's events must agree on in Python and Node."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _post(receiver: NodeReceiver, body: str, signature: str | None) -> dict[str, Any]:
    """A delivery the test sends itself, and the receiver's verdict on it."""
    headers = {"Content-Type": "application/json", "BT-SIGNATURE-VERSION": "v1"}
    if signature is not None:
        headers["BT-SIGNATURE"] = signature
    answer = httpx.post(receiver.url, content=body.encode(), headers=headers, timeout=30.0)
    verdict = receiver.next()
    assert answer.status_code == (200 if verdict["verified"] else 401)
    return verdict


def test_the_published_key_is_a_public_rsa_key_and_nothing_else(
    sdk_service: RunningService,
) -> None:
    pem = _public_pem(sdk_service)
    text = pem.decode()
    assert text.startswith("-----BEGIN PUBLIC KEY-----"), text[:40]
    assert "PRIVATE" not in text and text.count("-----BEGIN") == 1
    key = serialization.load_pem_public_key(pem)
    assert isinstance(key, rsa.RSAPublicKey) and key.key_size >= 2048
    assert _public_pem(sdk_service) == pem  # one key signs every delivery


def test_deliveries_verify_as_the_vendors_docs_verify_them(
    sdk_service: RunningService, tenant: TenantInfo, bt: Any
) -> None:
    pem = _public_pem(sdk_service)
    with NodeReceiver(key_url=f"{sdk_service.base_url}{KEY_PATH}") as receiver:
        hook = bt.webhooks.create(name="Node receiver", url=receiver.url, events=EVENTS)
        assert hook.status == "enabled"
        app = bt.applications.create(
            name="Hooked é 😀 \u2028 </script>", type="private", permissions=["token:read"]
        )
        created = receiver.next()
        bt.applications.delete(app.id)
        deleted = receiver.next()

    for line, event_type in ((created, "application.created"), (deleted, "application.deleted")):
        assert line["verified"] is True, line
        assert (line["method"], line["type"], line["signatureVersion"]) == (
            "POST",
            event_type,
            "v1",
        )
        body = json.loads(line["raw"])
        assert set(body) == {"event", "delivered_at"}, body
        event = body["event"]
        assert event["id"] == line["eventId"] and event["tenant_id"] == tenant.tenant_id
        assert event["data"]["application"]["id"] == app.id
        assert event["data"]["actor"]["id"] == tenant.application_id
        # The second check: cryptography alone, over the bytes json-stable-stringify wrote,
        # which Python's own stable form of the body matches byte for byte.
        assert _stable(body) == line["stable"]
        assert _python_verifies(pem, line["stable"], line["signature"])
    assert created["eventId"] != deleted["eventId"]
    # The name, not ASCII, is in the signed body as the service answered it to the SDK.
    assert json.loads(created["raw"])["event"]["data"]["application"]["name"] == app.name


def test_a_sample_of_every_event_type_verifies(
    sdk_service: RunningService, tenant: TenantInfo, bt: Any
) -> None:
    """`POST /webhooks/trigger` of each documented type to the receiver's webhook: every
    object the service can send, verified by both checks (a float or an odd key in any of
    them would be written differently by Python and json-stable-stringify)."""
    pem = _public_pem(sdk_service)
    with NodeReceiver(key_url=f"{sdk_service.base_url}{KEY_PATH}") as receiver:
        hook = bt.webhooks.create(name="Samples", url=receiver.url, events=["token.created"])
        for event_type in EVENT_TYPES:  # one named webhook gets any type (the service's own)
            answer = httpx.post(
                f"{sdk_service.base_url}/webhooks/trigger",
                json={"type": event_type, "webhook_id": hook.id},
                headers={SDK_HEADER: tenant.key},
                timeout=30.0,
            )
            assert answer.status_code == 202, answer.text
        lines = [receiver.next() for _ in EVENT_TYPES]
    assert sorted(line["type"] for line in lines) == sorted(EVENT_TYPES)
    for line in lines:
        assert line["verified"] is True, line
        assert _stable(json.loads(line["raw"])) == line["stable"], line["type"]
        assert _python_verifies(pem, line["stable"], line["signature"]), line["type"]


def test_forged_tampered_and_foreign_signatures_are_not_verified(
    sdk_service: RunningService, bt: Any
) -> None:
    pem = _public_pem(sdk_service)
    foreign = signing.new_private_key()  # a throwaway key: not the service's
    with NodeReceiver(key_url=f"{sdk_service.base_url}{KEY_PATH}") as receiver:
        bt.webhooks.create(name="Node receiver", url=receiver.url, events=EVENTS)
        app = bt.applications.create(name="Tamper me", type="private", permissions=["token:read"])
        real = receiver.next()
        assert real["verified"] is True, real
        body = json.loads(real["raw"])
        signature = real["signature"]

        # The same delivery again verifies (replays are what `delivered_at` is for), and so
        # does the same body written otherwise: the signature covers its stable form.
        assert _post(receiver, real["raw"], signature)["verified"] is True
        assert _post(receiver, json.dumps(body, indent=2), signature)["verified"] is True

        tampered = json.loads(real["raw"])
        tampered["event"]["data"]["application"]["id"] = "00000000-0000-0000-0000-000000000000"
        later = {**body, "delivered_at": "2099-01-01T00:00:00Z"}
        other_type = json.loads(real["raw"])
        other_type["event"]["type"] = "application.deleted"
        verdicts = {
            "tampered object": _post(receiver, json.dumps(tampered), signature),
            "tampered delivered_at": _post(receiver, json.dumps(later), signature),
            "tampered type": _post(receiver, json.dumps(other_type), signature),
            "foreign key": _post(receiver, real["raw"], signing.sign(foreign, body)),
            "random bytes": _post(
                receiver, real["raw"], base64.b64encode(os.urandom(256)).decode()
            ),
            "no signature": _post(receiver, real["raw"], None),
            "not base64": _post(receiver, real["raw"], "not base64 at all!"),
            "not JSON": _post(receiver, "not JSON", signature),
        }
    for case, verdict in verdicts.items():
        assert verdict["verified"] is False, case
        if verdict["stable"] is not None:
            assert not _python_verifies(pem, verdict["stable"], verdict["signature"]), case
    assert app.id in real["raw"]


def test_consoles_signer_agrees_with_the_docs_verifier_on_awkward_bodies(
    tmp_path: Path,
) -> None:
    """console.webhooks.signing (what the service signs with) against the docs' receiver on
    bodies whose stable form is easy to get wrong: unsorted nested keys, non-ASCII text,
    line and paragraph separators, escapes, empty containers, null, booleans, integers."""
    key = signing.new_private_key()
    key_file = tmp_path / "webhooks.v1.key"
    key_file.write_text(signing.public_key_pem(key))
    bodies = [
        {"z": 1, "a": {"y": [3, {"c": None, "b": True}], "x": {}}, "m": []},
        {"name": "é ü ß 日本 😀", "Z": "upper before lower", "_": "underscore"},
        {"text": 'line\u2028para\u2029tab\tquote"back\\slash</script>\u0007\u007f'},
        {"big": 9007199254740991, "negative": -42, "zero": 0, "false": False},
        {"event": {"type": "reactor.created", "data": {"reactor": {"id": "r", "name": "ö"}}}},
    ]
    with NodeReceiver(key_file=key_file) as receiver:
        for body in bodies:
            verdict = _post(receiver, json.dumps(body), signing.sign(key, body))
            assert verdict["verified"] is True, (body, verdict)
            assert _stable(body) == verdict["stable"]
