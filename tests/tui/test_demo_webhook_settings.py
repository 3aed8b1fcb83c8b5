"""`tenant-console demo` keeps its "Local listen" webhook enabled for the session: its service
runs with `--webhook-disable-after` DEMO_WEBHOOK_DISABLE_AFTER, so the changes a person makes
before starting `webhooks listen` do not disable it (docs/webhooks.md, "On the demo")."""

from __future__ import annotations

import httpx
import pytest

from console.tui.start.demo import DEMO_WEBHOOK_DISABLE_AFTER, DemoService

pytestmark = pytest.mark.slow  # a demo service of its own


def test_the_demo_service_disables_no_webhook_within_a_session() -> None:
    from console.models.demo import DEMO_LISTEN_URL

    with DemoService(staging=False) as demo:
        assert demo._process is not None
        args = list(demo._process.args)  # type: ignore[arg-type]
        at = args.index("--webhook-disable-after")
        assert int(args[at + 1]) == DEMO_WEBHOOK_DISABLE_AFTER >= 1000
        answer = httpx.get(
            f"{demo.base_url}/webhooks", headers={"SVC-API-KEY": demo.key or ""}, timeout=30
        )
    assert answer.status_code == 200, answer.text
    listen = [hook for hook in answer.json()["data"] if hook["url"] == DEMO_LISTEN_URL]
    assert [hook["status"] for hook in listen] == ["enabled"]
