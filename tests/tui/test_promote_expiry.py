"""Issue 33: the console's copy to profile carries an application's expiry (a temporary key
stays temporary in the target), and a differing expiry is never "already matches"."""

from __future__ import annotations

from datetime import datetime

import httpx
from console_support import Seeder, notifications, settle, two_profile_app
from form_host import screen_is, wait_until

from console.tui.modals.key_reveal import KeyRevealModal
from console.tui.modals.target_profile import TargetProfilePicker
from console.tui.screens.estate import PlanScreen

SIZE = (120, 40)
EXPIRY = "2099-12-31T22:00:00+00:00"


def applications_of(base_url: str, key: str) -> dict[str, dict]:
    response = httpx.get(f"{base_url}/applications", headers={"SVC-API-KEY": key}, timeout=30)
    return {a["name"]: a for a in response.json()["data"]}


async def copy_with_key(pilot, app) -> PlanScreen:
    await pilot.press("c")
    await wait_until(pilot, screen_is(app, TargetProfilePicker), what="the profile picker")
    await pilot.press("enter")  # the one other profile: prod
    await wait_until(pilot, screen_is(app, PlanScreen), what="the plan")
    screen = app.screen
    assert isinstance(screen, PlanScreen)
    await wait_until(pilot, lambda: screen.plan is not None, what="the plan computed")
    return screen


async def test_copying_a_proxy_carries_its_applications_expiry(service) -> None:
    staging, prod = service.new_tenant("Staging"), service.new_tenant("Prod")
    seeder = Seeder(service.base_url, staging.key)
    auditor = seeder.application("Auditor", expires_at=EXPIRY)
    seeder.proxy("Audit feed", application={"id": auditor["id"]})
    seeder.close()
    base_url = service.base_url
    app = two_profile_app(("staging", base_url, staging.key), ("prod", base_url, prod.key))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")  # Proxies
        await settle(pilot)
        screen = await copy_with_key(pilot, app)
        assert screen.plan is not None
        assert [(s.action, s.name) for s in screen.plan.to_do] == [
            ("create", "Auditor"),
            ("create", "Audit feed"),
        ]
        await pilot.press("y")
        await wait_until(pilot, screen_is(app, KeyRevealModal), what="the new key, shown once")
        await pilot.press("v", "o")
        await wait_until(pilot, lambda: not isinstance(app.screen, KeyRevealModal))
        await settle(pilot)
        assert any("Done in profile prod" in n for n in notifications(app))
        copied = applications_of(base_url, prod.key)["Auditor"]
        assert datetime.fromisoformat(copied["expires_at"]) == datetime.fromisoformat(EXPIRY)

        # The same name made permanent in prod (its proxy as in staging): copying again
        # cannot make it alike, and the plan says so instead of "already matches".
        prod_seeder = Seeder(base_url, prod.key)
        (feed,) = httpx.get(f"{base_url}/proxies", headers={"SVC-API-KEY": prod.key}).json()["data"]
        prod_seeder.delete(f"/proxies/{feed['id']}")
        prod_seeder.delete(f"/applications/{copied['id']}")
        permanent = prod_seeder.application("Auditor")
        prod_seeder.proxy("Audit feed", application={"id": permanent["id"]})
        prod_seeder.close()
        screen = await copy_with_key(pilot, app)
        assert screen.plan is not None
        assert screen.plan.nothing_to_do
        assert [(s.action, s.name) for s in screen.plan.blocked] == [("cannot apply", "Auditor")]
        note = str(screen.query_one("#plan-note").content)
        assert note.startswith("Nothing can be done: the target still differs"), note
        assert not screen.query_one("#confirm").display
        assert "expires_at: (none) -> " in str(screen.query_one("#plan-text").content)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, PlanScreen))
