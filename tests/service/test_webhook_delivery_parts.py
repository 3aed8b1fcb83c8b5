"""The pieces of webhook delivery that need no running service: the signing key's file,
the back-off, the settings `serve` refuses, the samples `trigger` sends, and the outbox's
rows (console.service.delivery.outbox) on a store of the test's own."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from console.models.webhooks import EVENT_OBJECTS
from console.service.changes import Actor, Change, queue_event
from console.service.delivery import outbox
from console.service.delivery.samples import sample_object
from console.service.delivery.settings import DeliverySettings
from console.service.delivery.signing_key import KEY_FILE, SigningKey, SigningKeyError
from console.service.store import Store
from console.webhooks.signing import load_public_key, sign, stable_json, verify

AT = "2026-11-29T01:00:00.000000+00:00"
LATER = "2026-11-29T02:00:00.000000+00:00"
TENANT = "6a0b7c9e-1111-4222-8333-944455556666"


def test_the_key_is_made_on_first_need_private_and_kept(tmp_path: Path) -> None:
    key = SigningKey(tmp_path)
    assert not (tmp_path / KEY_FILE).exists()  # nothing made until a key is needed
    public = key.public_pem()
    path = tmp_path / KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == [KEY_FILE]  # no temporary file left
    again = SigningKey(tmp_path)  # the next run of the service reads the same key
    assert again.public_pem() == public
    body = {"event": {"id": "e"}, "delivered_at": AT}
    signature = sign(again.private(), body)
    assert verify(load_public_key(public), stable_json(body), signature)


def test_a_link_in_the_keys_place_is_refused_and_left_alone(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.pem"
    elsewhere.write_bytes(b"not yours")
    data = tmp_path / "data"
    data.mkdir()
    (data / KEY_FILE).symlink_to(elsewhere)
    with pytest.raises(SigningKeyError, match="symbolic link"):
        SigningKey(data).private()
    assert elsewhere.read_bytes() == b"not yours"
    (data / KEY_FILE).unlink()
    (data / KEY_FILE).symlink_to(tmp_path / "missing.pem")  # a dangling link: never created
    with pytest.raises(SigningKeyError, match="symbolic link"):
        SigningKey(data).private()
    assert not (tmp_path / "missing.pem").exists()


def test_a_key_file_others_can_read_or_not_a_key_is_refused(tmp_path: Path) -> None:
    SigningKey(tmp_path).private()
    path = tmp_path / KEY_FILE
    os.chmod(path, 0o644)
    with pytest.raises(SigningKeyError, match="open to other users"):
        SigningKey(tmp_path).private()
    os.chmod(path, 0o600)
    path.write_bytes(b"-----BEGIN PRIVATE KEY-----\nnonsense\n-----END PRIVATE KEY-----\n")
    with pytest.raises(SigningKeyError, match="does not hold an RSA private key"):
        SigningKey(tmp_path).private()


def test_making_the_app_neither_makes_a_key_nor_loads_cryptography(tmp_path: Path) -> None:
    probe = (
        "import sys\n"
        "from pathlib import Path\n"
        "from console.service.app import create_app\n"
        "from console.service.store import Store\n"
        f"create_app(Store(Path({str(tmp_path)!r})))\n"
        "assert 'cryptography' not in sys.modules, 'cryptography loaded'\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / KEY_FILE).exists()


def test_the_back_off_doubles_up_to_its_cap() -> None:
    settings = DeliverySettings(retry_base=1, retry_cap=300)
    assert [settings.backoff(n) for n in range(1, 11)] == [1, 2, 4, 8, 16, 32, 64, 128, 256, 300]
    assert settings.backoff(10_000) == 300


@pytest.mark.parametrize(
    ("settings", "option"),
    [
        (DeliverySettings(timeout=0), "--webhook-timeout"),
        (DeliverySettings(retry_base=-1), "--webhook-retry-base"),
        (DeliverySettings(retry_base=10, retry_cap=5), "--webhook-retry-cap"),
        (DeliverySettings(max_attempts=0), "--webhook-max-attempts"),
        (DeliverySettings(disable_after=0), "--webhook-disable-after"),
    ],
)
def test_settings_out_of_range_are_refused_naming_the_option(
    settings: DeliverySettings, option: str
) -> None:
    problem = settings.problem()
    assert problem is not None and problem.startswith(option)


def test_the_defaults_are_usable() -> None:
    assert DeliverySettings().problem() is None


@pytest.mark.parametrize("value", ["0", "-1", "nope"])
def test_serve_with_a_bad_webhook_setting_fails_with_one_line(value: str, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "console", "serve", "--port", "0"]
    result = subprocess.run(
        [*command, "--data-dir", str(tmp_path), "--webhook-max-attempts", value],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode in (1, 2)  # out of range: 1; not a number: argparse's 2
    assert "--webhook-max-attempts" in result.stderr
    assert not (tmp_path / "tenant-console.sqlite3").exists()  # refused before the data dir


@pytest.mark.parametrize("event_type", sorted(EVENT_OBJECTS))
def test_every_event_type_has_a_sample_of_its_object(event_type: str) -> None:
    sample = sample_object(event_type, AT, TENANT)
    assert sample["sample"] is True
    assert sample.get("id") or event_type == "http.request"
    assert "key" not in sample  # never a secret, even in a sample
    stable_json(sample)  # a JSON value as it is
    if event_type in ("tenant.created", "tenant.updated", "tenant.deleted"):
        return  # the caller's own tenant
    if "id" in sample:  # ids are random: no sample names a real object
        assert sample_object(event_type, AT, TENANT)["id"] != sample["id"]


# -- the outbox ------------------------------------------------------------------------------


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    made = Store(tmp_path)
    try:
        yield made
    finally:
        made.close()


@pytest.fixture
def tenant(store: Store) -> str:
    """The id of a tenant in `store`: the outbox's webhooks and events belong to one."""
    return store.create_tenant("Outbox").tenant_id


def _webhook(conn: sqlite3.Connection, tenant_id: str, status: str = "enabled") -> str:
    webhook_id = str(uuid.uuid4())
    conn.execute(
        "INSERT INTO webhooks (id, tenant_id, name, url, events, status, created_at)"
        " VALUES (?, ?, 'w', 'http://127.0.0.1:9/', '[\"proxy.created\"]', ?, ?)",
        (webhook_id, tenant_id, status, AT),
    )
    return webhook_id


def _queue(conn: sqlite3.Connection, tenant_id: str, webhook_id: str | None = None) -> str:
    change = Change(
        tenant_id, "proxy", str(uuid.uuid4()), "create", "Proxy created", Actor(None, "system"), AT
    )
    event_id = queue_event(conn, change, "proxy.created", webhook_id=webhook_id)
    assert event_id is not None
    return event_id


def test_one_webhooks_backlog_never_hides_anothers_due_delivery(store: Store, tenant: str) -> None:
    with store.write() as conn:
        busy = _webhook(conn, tenant)
        for _ in range(50):
            _queue(conn, tenant, busy)
        quiet = _webhook(conn, tenant)
        _queue(conn, tenant, quiet)
        _webhook(conn, tenant, status="disabled")
        _queue(conn, tenant)  # both enabled webhooks subscribe; the disabled one gets none
    with store.read() as conn:
        due = outbox.due(conn, LATER, busy=(), limit=8)
        assert sorted(d.webhook_id for d in due) == sorted([busy, quiet])  # the oldest of each
        assert outbox.due(conn, LATER, busy={busy}, limit=8)[0].webhook_id == quiet
        assert outbox.due(conn, "2000-01-01T00:00:00.000000+00:00", busy=(), limit=8) == []
        # A webhook with a delivery in flight is not waited for: its end wakes the deliverer.
        assert outbox.next_due(conn) == AT
        assert outbox.next_due(conn, {busy, quiet}) is None


def test_pending_deliveries_of_a_webhook_disabled_meanwhile_are_dropped(
    store: Store, tenant: str
) -> None:
    with store.write() as conn:
        webhook_id = _webhook(conn, tenant)
        _queue(conn, tenant)
        conn.execute("UPDATE webhooks SET status = 'disabled' WHERE id = ?", (webhook_id,))
        assert outbox.drop_pending(conn, LATER) == 1
        row = conn.execute("SELECT state, last_error FROM webhook_deliveries").fetchone()
    assert tuple(row) == ("failed", outbox.DROPPED)


def test_the_sweep_keeps_a_day_and_a_hundred_a_webhook(store: Store, tenant: str) -> None:
    with store.write() as conn:
        webhook_id = _webhook(conn, tenant)
        for _ in range(120):
            _queue(conn, tenant, webhook_id)
        conn.execute("UPDATE webhook_deliveries SET state = 'delivered', finished_at = ?", (LATER,))
        _queue(conn, tenant, webhook_id)  # still pending: never swept
        removed = outbox.sweep(conn, AT, keep_per_webhook=100)
        assert removed == 20
        assert conn.execute("SELECT COUNT(*) FROM webhook_events").fetchone()[0] == 101
        removed = outbox.sweep(conn, "2100-01-01T00:00:00.000000+00:00", keep_per_webhook=100)
        assert removed == 100
        left = conn.execute("SELECT state FROM webhook_deliveries").fetchall()
        assert [r[0] for r in left] == ["pending"]
        assert conn.execute("SELECT COUNT(*) FROM webhook_events").fetchone()[0] == 1


def test_a_failed_attempt_is_counted_and_given_up_after_the_last(store: Store, tenant: str) -> None:
    with store.write() as conn:
        webhook_id = _webhook(conn, tenant)
        _queue(conn, tenant, webhook_id)
        seq = conn.execute("SELECT seq FROM webhook_deliveries").fetchone()[0]
        options = {"status": 500, "error": "HTTP 500", "at": LATER, "retry_at": LATER}
        first = outbox.failed_attempt(conn, seq, webhook_id, max_attempts=2, **options)
        assert (first.attempts, first.failures, first.given_up) == (1, 1, False)
        second = outbox.failed_attempt(conn, seq, webhook_id, max_attempts=2, **options)
        assert (second.attempts, second.failures, second.given_up) == (2, 2, True)
        _queue(conn, tenant, webhook_id)
        later = conn.execute("SELECT MAX(seq) FROM webhook_deliveries").fetchone()[0]
        outbox.delivered(conn, later, webhook_id, 204, LATER)
        assert conn.execute("SELECT failures FROM webhooks").fetchone()[0] == 0
        disabled = outbox.disable(conn, webhook_id, "Disabled: test", LATER)
        assert disabled is not None and disabled.tenant_id == tenant
        assert outbox.disable(conn, webhook_id, "again", LATER) is None  # once
