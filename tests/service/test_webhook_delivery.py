"""Webhook delivery by the local service: signed as the vendor's receivers verify, retried
with back-off, the webhook disabled after failures in a row (the reason kept), never
slowing the write that caused it; the key receivers verify with; triggered samples.

Against a service of this module's own with short back-offs, and real receivers on
loopback (tests/service/webhook_receivers.py); webhooks are written straight into its data
dir, so these tests need none of the webhooks' routes.
"""

from __future__ import annotations

import base64
import json
import shutil
import stat
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from local_service import RunningService, serving
from service_http import Caller, assert_problem, describe, http_client, private_application_body
from webhook_receivers import (
    insert_webhook,
    read_rows,
    receiving,
    unreachable_url,
    wait_until,
)

from console.webhooks.signing import LOCAL_KEY_PATH, load_public_key, verify

MAX_ATTEMPTS = 3
DISABLE_AFTER = 5
SETTINGS = {
    "retry_base": 0.05,
    "retry_cap": 0.2,
    "max_attempts": MAX_ATTEMPTS,
    "disable_after": DISABLE_AFTER,
    "timeout": 20,
}


@pytest.fixture(scope="module")
def delivering(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningService]:
    with serving(
        RunningService(tmp_path_factory.mktemp("delivering"), webhooks=SETTINGS)
    ) as running:
        yield running


@pytest.fixture(scope="module")
def client(delivering: RunningService) -> Iterator[httpx.Client]:
    with http_client(delivering.base_url) as made:
        yield made


@pytest.fixture
def owner(delivering: RunningService, client: httpx.Client) -> Caller:
    """The bootstrap key of a tenant of the test's own."""
    return Caller(client, delivering.new_tenant("Webhook deliveries").key)


def _tenant_of(caller: Caller) -> str:
    response = caller.get("/tenants/self")
    assert response.status_code == 200, describe(response)
    return response.json()["id"]


def _public_key(client: httpx.Client) -> Any:
    response = client.get(LOCAL_KEY_PATH)  # no API key
    assert response.status_code == 200, describe(response)
    assert response.headers["content-type"].startswith("text/plain")
    return load_public_key(response.text)


def _independently_verified(public_pem: bytes, body: bytes, signature: str) -> bool:
    """The vendor's documented check, written here without the project's code: RSA-PSS with
    SHA-256 over json-stable-stringify of the parsed body (keys sorted, no spaces)."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import padding

    key = serialization.load_pem_public_key(public_pem)
    stable = json.dumps(
        json.loads(body), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode()
    pss = padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=padding.PSS.AUTO)
    try:
        key.verify(base64.b64decode(signature), stable, pss, hashes.SHA256())  # type: ignore[union-attr]
    except InvalidSignature:
        return False
    return True


VENDOR_RECEIVER = r"""
// The vendor's sample receiver (docs/api/webhooks/webhooks.mdx, "Sample Javascript Signature
// Verification"), with json-stable-stringify written out (keys sorted, no whitespace).
const crypto = require('crypto');
const fs = require('fs');
const stringify = (v) => (v === null || typeof v !== 'object') ? JSON.stringify(v)
  : Array.isArray(v) ? '[' + v.map(stringify).join(',') + ']'
  : '{' + Object.keys(v).sort()
      .map((k) => JSON.stringify(k) + ':' + stringify(v[k])).join(',') + '}';
const [bodyFile, signature, keyFile] = process.argv.slice(-3);
const body = JSON.parse(fs.readFileSync(bodyFile, 'utf8'));
const verifier = crypto.createVerify('SHA256');
verifier.update(stringify(body));
const ok = verifier.verify(
  { key: fs.readFileSync(keyFile, 'utf8'), padding: crypto.constants.RSA_PKCS1_PSS_PADDING },
  Buffer.from(signature, 'base64'));
process.stdout.write(ok ? 'verified' : 'refused');
"""


def _vendor_receiver_says(tmp: Any, body: bytes, signature: str, pem: bytes) -> str:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the vendor's receiver code cannot run")
    (tmp / "body.json").write_bytes(body)
    (tmp / "key.pem").write_bytes(pem)
    result = subprocess.run(
        [
            node,
            "-e",
            VENDOR_RECEIVER,
            "--",
            str(tmp / "body.json"),
            signature,
            str(tmp / "key.pem"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def _delivery_rows(delivering: RunningService, webhook_id: str) -> list[Any]:
    return read_rows(
        delivering.data_dir,
        "SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY seq",
        webhook_id,
    )


def _webhook_row(delivering: RunningService, webhook_id: str) -> Any:
    return read_rows(delivering.data_dir, "SELECT * FROM webhooks WHERE id = ?", webhook_id)[0]


def test_a_change_is_delivered_signed(
    delivering: RunningService, client: httpx.Client, owner: Caller, tmp_path: Any
) -> None:
    tenant_id = _tenant_of(owner)
    with receiving() as receiver:
        insert_webhook(delivering.data_dir, tenant_id, receiver.url, ["application.created"])
        before = datetime.now(UTC)
        made = owner.created("/applications", private_application_body())
        (got,) = receiver.wait_for(1)
    assert got.path == "/hooks"
    assert got.header("BT-SIGNATURE-VERSION") == "v1"
    assert got.header("Content-Type") == "application/json"
    assert (got.header("User-Agent") or "").startswith("tenant-console")
    delivery = got.document
    assert set(delivery) == {"event", "delivered_at"}
    event = delivery["event"]
    assert event["type"] == "application.created"
    assert event["tenant_id"] == tenant_id
    assert event["data"]["application"]["id"] == made["id"]
    assert event["data"]["actor"]["type"] == "application"
    delivered_at = datetime.fromisoformat(delivery["delivered_at"])
    assert before - timedelta(seconds=5) <= delivered_at <= datetime.now(UTC) + timedelta(seconds=5)
    assert made["key"] not in got.body.decode()  # never a key in an event

    signature = got.header("BT-SIGNATURE")
    assert signature
    public = _public_key(client)
    assert verify(public, got.body, signature)
    pem = client.get(LOCAL_KEY_PATH).content
    assert _independently_verified(pem, got.body, signature)
    # Hostile: a body changed in any way, or another signature, is refused by both checks.
    forged = got.body.replace(tenant_id.encode(), b"00000000-0000-0000-0000-000000000000")
    assert not verify(public, forged, signature)
    assert not _independently_verified(pem, forged, signature)
    other = base64.b64encode(b"\x00" * 256).decode()
    assert not verify(public, got.body, other)
    assert not _independently_verified(pem, got.body, other)
    # And the vendor's own receiver code, as users run it, in Node.
    assert _vendor_receiver_says(tmp_path, got.body, signature, pem) == "verified"
    assert _vendor_receiver_says(tmp_path, forged, signature, pem) == "refused"


def test_a_failing_receiver_is_retried_until_it_answers(
    delivering: RunningService, owner: Caller
) -> None:
    tenant_id = _tenant_of(owner)
    with receiving(statuses=[500, 503]) as receiver:
        webhook_id = insert_webhook(
            delivering.data_dir, tenant_id, receiver.url, ["application.created"]
        )
        owner.created("/applications", private_application_body())
        attempts = receiver.wait_for(3)
    # The same event each time, each attempt signed and dated anew.
    assert len({a.document["event"]["id"] for a in attempts}) == 1
    (row,) = wait_until(
        lambda: [r for r in _delivery_rows(delivering, webhook_id) if r["state"] == "delivered"]
    )
    assert row["attempts"] == 3
    assert row["last_status"] == 200
    assert row["last_error"] is None
    assert _webhook_row(delivering, webhook_id)["failures"] == 0  # a success starts over


def test_an_unreachable_webhook_is_disabled_with_its_reason(
    delivering: RunningService, owner: Caller
) -> None:
    tenant_id = _tenant_of(owner)
    with unreachable_url() as url:
        # A receiver's token in the query string is never repeated in the reason or the log.
        secret = f"{url}?token=receivers-own-s3cret"
        webhook_id = insert_webhook(delivering.data_dir, tenant_id, secret, ["application.created"])
        owner.created("/applications", private_application_body())
        # The first delivery is given up after MAX_ATTEMPTS, still short of DISABLE_AFTER.
        wait_until(
            lambda: [r for r in _delivery_rows(delivering, webhook_id) if r["state"] == "failed"]
        )
        assert _webhook_row(delivering, webhook_id)["status"] == "enabled"
        owner.created("/applications", private_application_body())
        owner.created("/applications", private_application_body())
        row = wait_until(
            lambda: (r := _webhook_row(delivering, webhook_id))["status"] == "disabled" and r
        )
    assert row["disabled_reason"] == (
        f"Disabled after {DISABLE_AFTER} failed deliveries in a row; the last: "
        f"connection refused ({url})"
    )
    deliveries = _delivery_rows(delivering, webhook_id)
    # The third change may come after the second delivery's retries disabled the webhook:
    # then nothing is queued for it.
    assert [r["state"] for r in deliveries] in (["failed"] * 2, ["failed"] * 3)
    assert deliveries[0]["attempts"] == MAX_ATTEMPTS
    assert deliveries[0]["last_error"] == "connection refused"
    assert sum(r["attempts"] for r in deliveries) == DISABLE_AFTER
    dropped = [r for r in deliveries if r["attempts"] < MAX_ATTEMPTS]
    assert dropped  # pending when the webhook was disabled: failed, and saying why
    assert all(r["last_error"].endswith("the webhook was disabled.") for r in dropped)
    # The webhook's detail says why, where the routes serve it.
    shown = owner.get(f"/webhooks/{webhook_id}")
    if shown.status_code != 404 or "route" not in shown.text:
        assert shown.status_code == 200, describe(shown)
        assert shown.json()["status"] == "disabled"
        assert shown.json()["disabled_reason"] == row["disabled_reason"]
    # The audit log has it, done by the system.
    logs = owner.get("/logs", params={"entity_type": "webhook", "entity_id": webhook_id})
    assert logs.status_code == 200, describe(logs)
    (entry,) = logs.json()["data"]
    assert entry["operation"] == "update"
    assert entry["actor_type"] == "system"
    assert "failed deliveries in a row" in entry["message"]
    out, err = delivering.logs()
    assert "would now e-mail ops@example.com" in out + err
    assert "receivers-own-s3cret" not in out + err
    assert "sends no mail" in out + err


def test_a_disabled_webhook_receives_nothing(delivering: RunningService, owner: Caller) -> None:
    tenant_id = _tenant_of(owner)
    with receiving() as disabled, receiving() as enabled:
        off = insert_webhook(
            delivering.data_dir, tenant_id, disabled.url, ["application.created"], status="disabled"
        )
        insert_webhook(delivering.data_dir, tenant_id, enabled.url, ["application.created"])
        owner.created("/applications", private_application_body())
        enabled.wait_for(1)
    assert disabled.received == []
    assert _delivery_rows(delivering, off) == []


def test_a_slow_receiver_never_slows_a_write(delivering: RunningService, owner: Caller) -> None:
    tenant_id = _tenant_of(owner)
    with receiving(hold=True) as slow, receiving() as other:
        insert_webhook(delivering.data_dir, tenant_id, slow.url, ["application.created"])
        insert_webhook(delivering.data_dir, tenant_id, other.url, ["application.created"])
        owner.created("/applications", private_application_body())
        slow.wait_for(1)  # the receiver holds this delivery until the test releases it
        # Writes return while it is held, and the other webhook's deliveries go on.
        owner.created("/applications", private_application_body())
        other.wait_for(2)
        assert not slow.released.is_set()
        assert len(slow.received) == 1  # one delivery at a time to a webhook
        slow.released.set()
        slow.wait_for(2)


def test_the_public_key_needs_no_api_key_and_is_no_api_route(
    delivering: RunningService, client: httpx.Client
) -> None:
    from console.kinds.endpoints import permission_by_endpoint

    response = client.get(LOCAL_KEY_PATH)
    assert response.status_code == 200, describe(response)
    assert response.text.startswith("-----BEGIN PUBLIC KEY-----")
    assert "PRIVATE" not in response.text
    assert client.post(LOCAL_KEY_PATH).status_code == 405
    document = client.get("/openapi.json").json()
    assert LOCAL_KEY_PATH not in document["paths"]
    assert all(path != LOCAL_KEY_PATH for _method, path in permission_by_endpoint())
    key_file = delivering.data_dir / "webhook-signing-key.pem"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert key_file.read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")


# -- trigger -------------------------------------------------------------------------------


def test_trigger_sends_a_sample_to_the_subscribed(
    delivering: RunningService, client: httpx.Client, owner: Caller
) -> None:
    tenant_id = _tenant_of(owner)
    with receiving() as subscribed, receiving() as elsewhere:
        insert_webhook(delivering.data_dir, tenant_id, subscribed.url, ["reactor.failed"])
        insert_webhook(delivering.data_dir, tenant_id, elsewhere.url, ["proxy.created"])
        response = owner.post("/webhooks/trigger", json={"type": "reactor.failed"})
        assert response.status_code == 202, describe(response)
        answer = response.json()
        assert answer["deliveries"] == 1
        (got,) = subscribed.wait_for(1)
    event = got.document["event"]
    assert event["id"] == answer["event_id"]
    assert event["type"] == "reactor.failed"
    assert event["data"]["reactor"]["sample"] is True
    assert verify(_public_key(client), got.body, got.header("BT-SIGNATURE"))
    assert elsewhere.received == []
    logs = owner.get("/logs", params={"entity_type": "webhook"})
    assert logs.json()["data"] == []  # a trigger changes nothing: no audit log entry


def test_trigger_to_one_webhook_even_unsubscribed(
    delivering: RunningService, owner: Caller
) -> None:
    tenant_id = _tenant_of(owner)
    with receiving() as receiver:
        webhook_id = insert_webhook(delivering.data_dir, tenant_id, receiver.url, ["token.created"])
        body = {"type": "tenant.member.created", "webhook_id": webhook_id}
        response = owner.post("/webhooks/trigger", json=body)
        assert response.status_code == 202, describe(response)
        assert response.json()["deliveries"] == 1
        (got,) = receiver.wait_for(1)
    assert got.document["event"]["data"]["member"]["sample"] is True


def test_trigger_with_no_subscriber_says_so(owner: Caller) -> None:
    response = owner.post("/webhooks/trigger", json={"type": "token.expired"})
    assert response.status_code == 202, describe(response)
    answer = response.json()
    assert answer["deliveries"] == 0
    assert answer["event_id"] is None
    assert "nothing was sent" in answer["detail"]


def test_trigger_refuses_an_unknown_type_and_another_tenants_webhook(
    delivering: RunningService, client: httpx.Client, owner: Caller
) -> None:
    problem = assert_problem(owner.post("/webhooks/trigger", json={"type": "no.such-event"}), 400)
    assert "type" in problem["errors"]
    problem = assert_problem(owner.post("/webhooks/trigger", json={}), 400)
    assert "type" in problem["errors"]
    other = delivering.new_tenant("Someone else")
    theirs = insert_webhook(
        delivering.data_dir, other.tenant_id, "https://example.com/hooks", ["reactor.created"]
    )
    body = {"type": "reactor.created", "webhook_id": theirs}
    assert_problem(owner.post("/webhooks/trigger", json=body), 404)
    mine = insert_webhook(
        delivering.data_dir,
        _tenant_of(owner),
        "https://example.com/hooks",
        ["reactor.created"],
        status="disabled",
    )
    assert_problem(owner.post("/webhooks/trigger", json={**body, "webhook_id": mine}), 409)
    reader = Caller(client, delivering.new_key(["webhook:read"], tenant_key=owner.key))
    assert_problem(reader.post("/webhooks/trigger", json={"type": "reactor.created"}), 403)


def test_a_delivery_in_flight_when_the_service_stops_is_sent_on_its_next_run(
    start_service: Any,
) -> None:
    running = start_service(webhooks={"timeout": 30})
    with receiving(hold=True) as receiver:
        webhook_id = insert_webhook(
            running.data_dir, running.tenant_id, receiver.url, ["application.created"]
        )
        with http_client(running.base_url) as client:
            Caller(client, running.key).created("/applications", private_application_body())
        (first,) = receiver.wait_for(1)
        running.stop()  # the receiver still holds it: the service does not wait for it
        (row,) = _delivery_rows(running, webhook_id)
        assert (row["state"], row["attempts"]) == ("pending", 0)
        receiver.hold = False
        receiver.released.set()
        running.start()
        second = receiver.wait_for(2)[1]
    # The same event again (receivers are told to expect duplicates), dated anew.
    assert second.document["event"] == first.document["event"]
    row = wait_until(
        lambda: (r := _delivery_rows(running, webhook_id)[0])["state"] == "delivered" and r
    )
    assert row["attempts"] == 1
