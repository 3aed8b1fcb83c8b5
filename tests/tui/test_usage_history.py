"""Usage over time in the console (issue 28): the header, the dashboard and the overview each
keep the report they read; the dashboard shows the history and its forecast; the header warns
when the plan will be passed within seven days; snapshots of the chart and the forecast at
80x24 and 200x60 from the deterministic demo (its month of history, labelled demo data)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from console_support import USAGE_KEY, make_app, settle

from console.tui.start.screenshots import SCENES, build_app, deterministic_env, play
from console.tui.widgets.console_header import ConsoleHeader
from console.tui.widgets.usage_dashboard import UsageDashboard
from console.usage_history.store import HistoryStore, Snapshot

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
USAGE = next(scene for scene in SCENES if scene.name == "usage")


@pytest.fixture
def history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> HistoryStore:
    """The user's history in a temp data dir, and the console's clock at NOW."""
    monkeypatch.setenv("TENANT_CONSOLE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("TENANT_CONSOLE_FROZEN_NOW", NOW.isoformat())
    return HistoryStore()


def readers(store: HistoryStore, service: Any, tenant: Any) -> list[tuple[str, int | None]]:
    return [
        (s.reader, s.monthly_active) for s in store.snapshots(service.base_url, tenant.tenant_id)
    ]


async def test_the_header_the_dashboard_and_the_overview_each_keep_what_they_read(
    service: Any, history: HistoryStore
) -> None:
    tenant = service.new_tenant("Recorder Corp")
    service.set_usage(tenant.tenant_id, 10_000, 1_000, {"card": (5, None)})
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert readers(history, service, tenant) == [("header", 1_000)]

        service.set_usage(tenant.tenant_id, 10_000, 1_200, {"card": (6, None)})
        await pilot.press(USAGE_KEY)
        await settle(pilot)
        assert readers(history, service, tenant)[-1] == ("dashboard", 1_200)
        dashboard = app.screen.query_one(UsageDashboard)
        panel = dashboard.history_panel
        assert panel.display and len(panel.snapshots) == 2
        # Two reads a moment apart: no trend yet, and the dashboard says why.
        assert panel.forecast_plain.startswith(
            "Cannot forecast yet: this month's snapshots span less than an hour."
        )

        service.set_usage(tenant.tenant_id, 10_000, 1_300, {"card": (7, None)})
        await pilot.press("P")
        await settle(pilot)
        assert readers(history, service, tenant)[-1] == ("overview", 1_300)


async def test_the_dashboard_forecasts_and_the_header_warns_within_seven_days(
    service: Any, history: HistoryStore
) -> None:
    tenant = service.new_tenant("Nearly Full Corp")
    # 400 a day for a week, from 6,000 on Nov 15 to 8,400 on Nov 21; 8,700 now.
    history.record_many(
        service.base_url,
        tenant.tenant_id,
        [
            Snapshot(
                at=datetime(2026, 11, 15 + k, 12, tzinfo=UTC),
                monthly_active=6_000 + 400 * k,
                included=10_000,
                total=6_000 + 400 * k,
                by_type={"card": 6_000 + 400 * k},
                reader="cli",
            )
            for k in range(7)
        ],
    )
    service.set_usage(tenant.tenant_id, 10_000, 8_700, {"card": (8_700, None)})
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        header = app.screen.query_one(ConsoleHeader)
        assert header.summary == "MAT 8,700 / 10,000 (87%)  ⚠ passes the plan ~Nov 25"
        await pilot.press(USAGE_KEY)
        await settle(pilot)
        panel = app.screen.query_one(UsageDashboard).history_panel
        text = panel.forecast_plain
        assert text.startswith("Month-end estimate ") and "from 8 snapshots" in text
        assert "⚠ The plan's 10,000 will be passed on Nov 25 (in 3 days)" in text
        assert panel.border_title == "Over time" and "demo" not in text


async def test_another_tenant_has_its_own_history_and_no_warning(
    service: Any, history: HistoryStore
) -> None:
    tenant = service.new_tenant("Calm Corp")
    service.set_usage(tenant.tenant_id, 10_000, 100, {})
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.screen.query_one(ConsoleHeader).summary == "MAT 100 / 10,000 (1%)"
        await pilot.press(USAGE_KEY)
        await settle(pilot)
        panel = app.screen.query_one(UsageDashboard).history_panel
        assert panel.forecast_plain.startswith("Cannot forecast yet: one snapshot this month")


# ---- the demo: snapshots of the chart and the forecast ---------------------------------


async def _usage_over_time(pilot: Any, *, scrolled: bool) -> None:
    await play(USAGE, pilot)
    await settle(pilot)
    await pilot.app.workers.wait_for_complete()
    await settle(pilot)
    if scrolled:  # at 80x24 the charts are below the plan and the types
        pilot.app.screen.query_one("#usage-history").scroll_visible(animate=False, top=True)
        await settle(pilot)


def test_demo_usage_over_time_200x60(demo: Any, snap_compare: Any) -> None:
    with deterministic_env():
        app = build_app(USAGE, demo.base_url, demo.key)

        async def run_before(pilot: Any) -> None:
            await _usage_over_time(pilot, scrolled=False)
            panel = pilot.app.screen.query_one(UsageDashboard).history_panel
            assert panel.border_title == "Over time · demo data"
            assert "(range " in panel.forecast_plain

        assert snap_compare(app, terminal_size=(200, 60), run_before=run_before)


def test_demo_usage_over_time_80x24(demo: Any, snap_compare: Any) -> None:
    with deterministic_env():
        app = build_app(USAGE, demo.base_url, demo.key)

        async def run_before(pilot: Any) -> None:
            await _usage_over_time(pilot, scrolled=True)

        assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


async def test_the_demo_starts_with_a_month_of_history_labelled_as_demo_data(demo: Any) -> None:
    with deterministic_env():
        assert demo.history_path is not None and demo.history_path.exists()
        store = HistoryStore(demo.history_path)
        seeded = store.snapshots(demo.base_url, demo.tenant_id)
        assert len(seeded) >= 120 and all(s.demo for s in seeded)
        assert seeded[0].at == NOW - timedelta(days=30) + timedelta(hours=2)
        app = build_app(USAGE, demo.base_url, demo.key)
        async with app.run_test(size=(120, 40)) as pilot:
            await _usage_over_time(pilot, scrolled=False)
            dashboard = app.screen.query_one(UsageDashboard)
            assert dashboard.history_panel.border_title == "Over time · demo data"
            line = str(dashboard.query_one("#usage-plan-forecast").content)
            assert "(demo data)" in line and "passes the plan Nov 30" in line
        kept = store.snapshots(demo.base_url, demo.tenant_id)
        assert kept[-1].at == NOW and kept[-1].demo  # the demo's own reads stay in its history
