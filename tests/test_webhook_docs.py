"""The Python receiver docs/webhooks.md gives people verifies what the service signs, and
refuses a forged or altered delivery: the page's own code, run here over HTTP."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from http.server import HTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from console.webhooks.signing import new_private_key, public_key_pem, sign

PAGE = Path(__file__).resolve().parents[1] / "docs" / "webhooks.md"


def _receiver_code() -> str:
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(), flags=re.DOTALL)
    (code,) = [block for block in blocks if "def verified" in block]
    return str(code)


@pytest.fixture(scope="module")
def key() -> Any:
    return new_private_key()


@pytest.fixture
def receiver(key: Any) -> Iterator[tuple[str, list[str]]]:
    """The page's Receiver on a free loopback port, with the service's public key (the page
    reads it from KEY_URL at start); the events it handled."""
    from cryptography.hazmat.primitives import serialization

    namespace: dict[str, Any] = {"__name__": "webhook_receiver"}
    exec(compile(_receiver_code(), str(PAGE), "exec"), namespace)  # the page's code
    handled: list[str] = []
    handler = namespace["Receiver"]
    handler.public_key = serialization.load_pem_public_key(public_key_pem(key).encode())
    handler.log_message = lambda *args: None
    namespace["print"] = lambda *args: handled.append(" ".join(map(str, args)))
    server = HTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", handled
    finally:
        server.shutdown()
        server.server_close()


def _delivery() -> dict[str, Any]:
    return {
        "event": {
            "id": "4c0b8a4e-1f0e-4a53-9a49-3f1c2b7d9e10",
            "type": "proxy.updated",
            "timestamp": "2026-11-29T01:12:44+00:00",
            "tenant_id": "t",
            "trace_id": "x",
            "data": {"proxy": {"id": "p", "name": "Zürich payouts"}, "actor": {"id": None}},
        },
        "delivered_at": "2026-11-29T01:12:45+00:00",
    }


def test_a_signed_delivery_is_handled_whatever_its_spacing(receiver, key) -> None:  # type: ignore[no-untyped-def]
    url, handled = receiver
    body = _delivery()
    signature = sign(key, body)
    loose = json.dumps(body, indent=2, ensure_ascii=True)  # other spacing, escapes
    answer = httpx.post(url, content=loose, headers={"BT-SIGNATURE": signature})
    assert answer.status_code == 200
    assert handled == ["proxy.updated 4c0b8a4e-1f0e-4a53-9a49-3f1c2b7d9e10"]


def test_a_forged_altered_or_unsigned_delivery_is_refused(receiver, key) -> None:  # type: ignore[no-untyped-def]
    url, handled = receiver
    body = _delivery()
    forged = sign(new_private_key(), body)
    altered = {**body, "delivered_at": "2026-11-30T00:00:00+00:00"}
    attempts = [
        (json.dumps(body), {"BT-SIGNATURE": forged}),
        (json.dumps(altered), {"BT-SIGNATURE": sign(key, body)}),
        (json.dumps(body), {}),
        (json.dumps(body), {"BT-SIGNATURE": "not base64!"}),
        ("not json", {"BT-SIGNATURE": sign(key, body)}),
    ]
    for content, headers in attempts:
        assert httpx.post(url, content=content, headers=headers).status_code == 400
    assert handled == []
