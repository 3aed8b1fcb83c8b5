"""The usage dashboard widget (issue 7) in a tiny host app: gauge states, numbers, empty and
error states, refresh, the palette's auto-refresh, and snapshots at 120x40 and 80x24.

Most reports are built from the models; the last tests fetch them from the real local service
for tenants seeded at 0%, 85% and 130% of the plan, the demo tenant, and a key without
report:read, through a host that fetches the way the Usage section does.
"""

from __future__ import annotations

import io
import time
from datetime import UTC, datetime, timedelta

import pytest
from form_host import CONSOLE_CSS
from rich.console import Console
from textual.app import App, ComposeResult
from textual.command import CommandList
from textual.widgets import Footer

from console import clock
from console.client import AdminClient, ApiError
from console.models.tenants import UsageReport
from console.tui.base.formatting import when
from console.tui.palette.usage_commands import UsageCommands
from console.tui.widgets.usage_dashboard import UsageDashboard, describe_interval
from console.tui.widgets.usage_gauge import UsageGauge, bar_cells
from console.tui.widgets.usage_math import (
    format_plan_percent,
    format_share,
    over_by,
    plan_status_text,
    token_type_rows,
    usage_state,
    usage_summary,
    usage_summary_markup,
)

FROZEN = "2026-11-22T10:00:00+00:00"
NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
FETCHED = NOW - timedelta(seconds=5)

DEMO_TYPES: dict[str, tuple[int, timedelta | None]] = {
    "token": (3_120, timedelta(days=2, hours=2)),
    "card": (5_210, timedelta(hours=3)),
    "bank": (1_480, timedelta(days=3)),
    "social_security_number": (642, timedelta(days=16, hours=16)),
    "email": (96, None),
}


def make_report(
    used: int, included: int = 10_000, types: dict[str, tuple[int, timedelta | None]] | None = None
) -> UsageReport:
    """A usage report as the service would send it; `types` maps type -> (count, age)."""
    metrics = {
        name: {
            "count": count,
            "last_created_at": (NOW - age).isoformat() if age is not None else None,
        }
        for name, (count, age) in (types or {}).items()
    }
    return UsageReport.model_validate(
        {
            "token_report": {
                "metrics_by_type": metrics,
                "included_monthly_active_tokens": included,
                "monthly_active_tokens": used,
            }
        }
    )


DEMO = make_report(4_321, types=DEMO_TYPES)
ZERO = make_report(0, types={"card": (120, timedelta(days=40)), "token": (80, timedelta(days=45))})
WARNING = make_report(8_500, types=DEMO_TYPES)
OVER = make_report(13_000, types=DEMO_TYPES)
EMPTY = make_report(0)
FORBIDDEN = "This key lacks the permission report:read (403)"


@pytest.fixture(autouse=True)
def stable_clock(monkeypatch: pytest.MonkeyPatch):
    """Frozen "now" and UTC local time, so relative and local times read the same each run."""
    monkeypatch.setenv("TENANT_CONSOLE_FROZEN_NOW", FROZEN)
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


class DashboardHost(App[None]):
    """The dashboard alone, as the Usage section mounts it, with the palette's commands."""

    CSS_PATH = CONSOLE_CSS  # the console's stylesheet: the dashboard is laid out there
    COMMANDS = App.COMMANDS | {UsageCommands}

    def __init__(self, report: UsageReport | None = None, error: str | None = None) -> None:
        super().__init__()
        self.report = report
        self.error = error
        self.refresh_requests: list[bool] = []

    def compose(self) -> ComposeResult:
        yield UsageDashboard()
        yield Footer()

    def on_mount(self) -> None:
        dashboard = self.query_one(UsageDashboard)
        if self.report is not None:
            dashboard.show_report(self.report, FETCHED)
        elif self.error is not None:
            dashboard.show_error(self.error)

    def on_usage_dashboard_refresh_requested(
        self, message: UsageDashboard.RefreshRequested
    ) -> None:
        self.refresh_requests.append(message.automatic)


def screen_text(app: App) -> str:
    """What the terminal shows, as plain text lines."""
    console = Console(
        width=app.size.width,
        height=app.size.height,
        file=io.StringIO(),
        record=True,
        force_terminal=True,
        color_system="truecolor",
        legacy_windows=False,
        safe_box=False,
    )
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text()


def visible(app: App, selector: str) -> bool:
    return app.query_one(selector).display and app.query_one(selector).region.area > 0


# -- the numbers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("used", "included", "state"),
    [
        (0, 10_000, "normal"),
        (7_999, 10_000, "normal"),
        (8_000, 10_000, "warning"),
        (8_500, 10_000, "warning"),
        (10_000, 10_000, "warning"),
        (10_001, 10_000, "over"),
        (13_000, 10_000, "over"),
        (0, 0, "normal"),
        (5, 0, "over"),
    ],
)
def test_thresholds_warn_from_80_percent_and_go_over_past_the_plan(
    used: int, included: int, state: str
) -> None:
    assert usage_state(make_report(used, included)) == state


@pytest.mark.parametrize(
    ("used", "included", "percent"),
    [
        (0, 10_000, "0%"),
        (3, 10_000, "<1%"),
        (8_712, 10_000, "87%"),
        (9_997, 10_000, "99%"),
        (10_000, 10_000, "100%"),
        (10_020, 10_000, "101%"),
        (13_000, 10_000, "130%"),
        (1, 0, "n/a"),
    ],
)
def test_plan_percent_never_misstates_which_side_of_the_plan_it_is(
    used: int, included: int, percent: str
) -> None:
    assert format_plan_percent(make_report(used, included)) == percent


def test_status_text_says_how_far_over_or_how_much_is_left() -> None:
    assert plan_status_text(OVER) == "130% — 3,000 over plan"
    assert over_by(OVER) == 3_000
    assert plan_status_text(WARNING) == "85% of plan — 1,500 left"
    assert over_by(WARNING) == 0
    assert plan_status_text(make_report(5, 0)) == "No tokens included in plan — 5 over plan"


def test_summary_line_for_the_header() -> None:
    assert usage_summary(make_report(8_712)) == "MAT 8,712 / 10,000 (87%)"
    assert usage_summary(OVER) == "MAT 13,000 / 10,000 (130%)"
    assert usage_summary_markup(WARNING) == "[$warning]MAT 8,500 / 10,000 (85%)[/]"
    assert usage_summary_markup(OVER).startswith("[$error]")
    assert usage_summary_markup(ZERO).startswith("[$success]")


def test_token_types_sorted_by_count_with_shares() -> None:
    rows = token_type_rows(DEMO)
    assert [row.name for row in rows] == [
        "card",
        "token",
        "bank",
        "social_security_number",
        "email",
    ]
    assert [format_share(row.share) for row in rows] == ["49.4%", "29.6%", "14.0%", "6.1%", "0.9%"]
    assert sum(row.share for row in rows) == pytest.approx(1.0)
    assert format_share(0.0004) == "<0.1%"
    assert format_share(0.0) == "0.0%"


def test_last_created_reads_as_local_time_and_how_long_ago(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    three_days_ago = NOW - timedelta(days=3)
    assert when(three_days_ago, zone=False, missing="never") == "2026-11-19 10:00 (3 days ago)"
    assert when(None, zone=False, missing="never") == "never"
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    assert when(three_days_ago, zone=False, missing="never") == "2026-11-19 11:00 (3 days ago)"


def test_bar_cells_use_eighths_of_a_cell() -> None:
    assert bar_cells(0.5, 10) == (5, 0)
    assert bar_cells(0.5625, 10) == (5, 5)  # 5.625 cells: 5 full and 5/8
    assert bar_cells(1.7, 10) == (10, 0)  # clamped
    assert bar_cells(-1, 10) == (0, 0)


def test_interval_descriptions() -> None:
    assert describe_interval(None) == "off"
    assert describe_interval(30) == "every 30 seconds"
    assert describe_interval(60) == "every minute"
    assert describe_interval(300) == "every 5 minutes"


# -- the widget ----------------------------------------------------------------------------------


async def test_demo_report_shows_gauge_totals_table_and_chart() -> None:
    app = DashboardHost(DEMO)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        dashboard = app.query_one(UsageDashboard)
        assert dashboard.state == "report"
        assert dashboard.gauge_state == "normal"
        assert dashboard.has_class("-normal")
        assert dashboard.plan_text == "4,321 of 10,000 included · 43% of plan — 5,679 left"
        assert dashboard.totals_text == "Total tokens 10,548 in 5 types"
        assert dashboard.fetched_text == "Fetched 09:59:55 (just now)"
        rows = [tuple(cell.strip() for cell in row) for row in dashboard.table_rows]
        assert rows == [
            ("card", "5,210", "49.4%", "2026-11-22 07:00 (3 hours ago)"),
            ("token", "3,120", "29.6%", "2026-11-20 08:00 (2 days ago)"),
            ("bank", "1,480", "14.0%", "2026-11-19 10:00 (3 days ago)"),
            ("social_security_number", "642", "6.1%", "2026-11-05 18:00 (16 days ago)"),
            ("email", "96", "0.9%", "never"),
        ]
        text = screen_text(app)
        assert "Monthly active tokens" in text
        assert "Within plan" in text
        # At 120 columns the chart sits under the table, its bars the whole width long.
        assert not dashboard.has_class("-wide")
        bar_lines = [line for line in text.splitlines() if "card" in line and "█" in line]
        assert len(bar_lines) == 1
        assert "█" * 70 in bar_lines[0]


async def test_very_wide_terminal_puts_table_and_chart_side_by_side() -> None:
    app = DashboardHost(DEMO)
    async with app.run_test(size=(170, 40)) as pilot:
        await pilot.pause()
        assert app.query_one(UsageDashboard).has_class("-wide")
        assert any(
            "Tokens by type" in line and "Share of all tokens" in line
            for line in screen_text(app).splitlines()
        )


@pytest.mark.parametrize(
    ("report", "state", "plan_text", "label"),
    [
        (ZERO, "normal", "0 of 10,000 included · 0% of plan — 10,000 left", "Within plan"),
        (
            WARNING,
            "warning",
            "8,500 of 10,000 included · 85% of plan — 1,500 left",
            "Nearing plan limit",
        ),
        (OVER, "over", "13,000 of 10,000 included · 130% — 3,000 over plan", "Over plan"),
    ],
    ids=["0%", "85%", "130%"],
)
async def test_gauge_state_and_numbers_at_0_85_and_130_percent(
    report: UsageReport, state: str, plan_text: str, label: str
) -> None:
    app = DashboardHost(report)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        dashboard = app.query_one(UsageDashboard)
        assert dashboard.state == "report"
        assert dashboard.gauge_state == state
        assert dashboard.has_class(f"-{state}")
        assert app.query_one(UsageGauge).state == state
        assert dashboard.plan_text == plan_text
        assert label in screen_text(app)


async def test_over_plan_gauge_marks_where_the_plan_ends() -> None:
    app = DashboardHost(OVER)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        gauge = app.query_one(UsageGauge)
        lines = [line for line in screen_text(app).splitlines() if "┃" in line]
        assert len(lines) == gauge.content_size.height - 1  # every bar line has the marker
        bar = lines[0].strip("│ ")
        # The plan (10,000 of 13,000) ends at about 10/13 of the bar.
        assert bar.index("┃") / len(bar) == pytest.approx(10 / 13, abs=0.02)
        assert "plan 10,000" in screen_text(app)
        assert "13,000" in screen_text(app)


async def test_empty_state_says_no_tokens_yet() -> None:
    app = DashboardHost(EMPTY)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        dashboard = app.query_one(UsageDashboard)
        assert dashboard.state == "empty"
        assert dashboard.gauge_state == "normal"
        assert visible(app, "#usage-empty")
        assert not app.query_one("#usage-types").display
        text = screen_text(app)
        assert "No tokens yet" in text
        assert "has not created any tokens" in text
        assert dashboard.totals_text == "Total tokens 0 in 0 types"


async def test_types_that_count_zero_are_empty_too() -> None:
    app = DashboardHost(make_report(0, types={"card": (0, None)}))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.query_one(UsageDashboard).state == "empty"
        assert "No tokens yet" in screen_text(app)


async def test_forbidden_message_is_shown_in_place_with_what_to_do() -> None:
    app = DashboardHost(error=FORBIDDEN)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        dashboard = app.query_one(UsageDashboard)
        assert dashboard.state == "error"
        assert dashboard.gauge_state is None
        assert dashboard.error_text == FORBIDDEN
        assert dashboard.totals_text == "Usage report unavailable"
        text = screen_text(app)
        assert FORBIDDEN in text
        assert "Permission needed" in text
        assert "Retrying will not help" in text and "report:read" in text
        assert "try again" not in text
        assert "Monthly active tokens" not in text


async def test_other_errors_get_a_generic_title() -> None:
    app = DashboardHost(error="The service at http://127.0.0.1:9 cannot be reached.")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "Could not load the usage report" in text
        assert "Press r to try again." in text


async def test_a_report_after_an_error_replaces_it() -> None:
    app = DashboardHost(error=FORBIDDEN)
    async with app.run_test(size=(120, 40)) as pilot:
        dashboard = app.query_one(UsageDashboard)
        dashboard.show_report(WARNING, FETCHED)
        await pilot.pause()
        assert dashboard.state == "report"
        assert dashboard.gauge_state == "warning"
        assert FORBIDDEN not in screen_text(app)


async def test_loading_then_refreshing_keeps_the_report_on_screen() -> None:
    app = DashboardHost()
    async with app.run_test(size=(120, 40)) as pilot:
        dashboard = app.query_one(UsageDashboard)
        assert dashboard.state == "idle"
        dashboard.show_loading()
        await pilot.pause()
        assert dashboard.state == "loading"
        assert "Loading the usage report" in screen_text(app)

        dashboard.show_report(DEMO, FETCHED)
        dashboard.show_loading()
        await pilot.pause()
        assert dashboard.state == "report"
        assert dashboard.refreshing
        assert dashboard.fetched_text == "Refreshing…"
        assert "Monthly active tokens" in screen_text(app)


async def test_r_asks_for_a_refresh_unless_one_is_under_way() -> None:
    app = DashboardHost(DEMO)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        assert app.refresh_requests == [False]

        app.query_one(UsageDashboard).show_loading()
        await pilot.press("r")
        await pilot.pause()
        assert app.refresh_requests == [False]


async def test_auto_refresh_is_off_by_default_and_posts_on_its_interval() -> None:
    app = DashboardHost(DEMO)
    async with app.run_test(size=(120, 40)) as pilot:
        dashboard = app.query_one(UsageDashboard)
        assert dashboard.auto_refresh_seconds is None
        assert "auto-refresh" not in dashboard.fetched_text

        dashboard.set_auto_refresh(1)
        await pilot.pause()
        assert dashboard.fetched_text == "Fetched 09:59:55 (just now) · auto-refresh every second"
        deadline = time.monotonic() + 5
        while not app.refresh_requests and time.monotonic() < deadline:
            await pilot.pause(0.05)
        assert app.refresh_requests and all(app.refresh_requests)  # automatic ones

        dashboard.set_auto_refresh(None)
        await pilot.pause()
        assert dashboard.auto_refresh_seconds is None
        assert dashboard._auto_timer is None
        assert "auto-refresh" not in dashboard.fetched_text


async def test_palette_sets_the_auto_refresh_interval() -> None:
    app = DashboardHost(DEMO)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"every minute")
        # The palette searches in the background: poll its list with a deadline.
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            await pilot.pause(0.05)
            options = app.screen.query(CommandList)
            if options and options.first().option_count:
                first = options.first().get_option_at_index(0).prompt
                if "auto-refresh every minute" in str(first):
                    break
        await pilot.press("enter")
        await pilot.pause()
        dashboard = app.query_one(UsageDashboard)
        assert dashboard.auto_refresh_seconds == 60
        assert dashboard.fetched_text.endswith("auto-refresh every minute")


async def test_narrow_terminal_stacks_the_chart_under_the_table_and_cuts_nothing() -> None:
    app = DashboardHost(DEMO)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dashboard = app.query_one(UsageDashboard)
        assert not dashboard.has_class("-wide")
        text = screen_text(app)
        lines = text.splitlines()
        assert all(len(line) <= 80 for line in lines)
        for row in token_type_rows(DEMO):
            count = f"{row.count:,}"
            # Each type's bar line shows its label (long ones shortened), its count and share.
            label = row.name if len(row.name) <= 16 else row.name[:15] + "…"
            assert any(
                line.strip("│ ").startswith(label)
                and count in line
                and format_share(row.share) in line
                for line in lines
            ), row.name
        assert "2026-11-05 18:00 (16 days ago)" in text  # the table's widest cell fits
        assert "43% of plan — 5,679 left" in text


async def test_a_report_given_before_mounting_is_shown_once_mounted() -> None:
    dashboard = UsageDashboard()
    dashboard.show_report(OVER, FETCHED)

    class EarlyHost(App[None]):
        CSS_PATH = CONSOLE_CSS

        def compose(self) -> ComposeResult:
            yield dashboard

    app = EarlyHost()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert dashboard.state == "report"
        assert dashboard.gauge_state == "over"
        assert "130% — 3,000 over plan" in screen_text(app)


async def test_type_names_are_shown_as_they_are_never_as_markup() -> None:
    app = DashboardHost(make_report(10, types={"[b]odd[/b] type": (10, None)}))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        dashboard = app.query_one(UsageDashboard)
        assert dashboard.table_rows[0][0] == "[b]odd[/b] type"
        assert "[b]odd[/b] type" in screen_text(app)


# -- snapshots -----------------------------------------------------------------------------------

SNAPSHOT_CASES = {
    "demo": {"report": DEMO},
    "warning": {"report": WARNING},
    "over": {"report": OVER},
    "empty": {"report": EMPTY},
    "forbidden": {"error": FORBIDDEN},
}


@pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=["120x40", "80x24"])
@pytest.mark.parametrize("case", list(SNAPSHOT_CASES))
def test_snapshot(snap_compare, case: str, size: tuple[int, int]) -> None:
    assert snap_compare(DashboardHost(**SNAPSHOT_CASES[case]), terminal_size=size)


# -- reports fetched from the real local service --------------------------------------------------


class FetchingHost(App[None]):
    """Fetches the usage report with the client and refetches on RefreshRequested, as the
    Usage section does."""

    CSS_PATH = CONSOLE_CSS

    def __init__(self, base_url: str, key: str) -> None:
        super().__init__()
        self.base_url = base_url
        self.key = key
        self.fetches = 0

    def compose(self) -> ComposeResult:
        yield UsageDashboard()

    def on_mount(self) -> None:
        self.fetch()

    def on_usage_dashboard_refresh_requested(
        self, message: UsageDashboard.RefreshRequested
    ) -> None:
        self.fetch()

    def fetch(self) -> None:
        self.query_one(UsageDashboard).show_loading()
        self.run_worker(self._fetch(), exclusive=True)

    async def _fetch(self) -> None:
        dashboard = self.query_one(UsageDashboard)
        self.fetches += 1
        try:
            async with AdminClient(self.base_url, self.key) as client:
                report = await client.tenant.usage()
        except ApiError as error:
            dashboard.show_error(error)
            return
        dashboard.show_report(report, clock.now())


SEEDED_TYPES = {
    "card": (5_210, NOW - timedelta(hours=3)),
    "token": (3_120, NOW - timedelta(days=2, hours=2)),
    "bank": (1_480, NOW - timedelta(days=3)),
}


@pytest.mark.parametrize(
    ("used", "state", "plan_text"),
    [
        (0, "normal", "0 of 10,000 included · 0% of plan — 10,000 left"),
        (8_500, "warning", "8,500 of 10,000 included · 85% of plan — 1,500 left"),
        (13_000, "over", "13,000 of 10,000 included · 130% — 3,000 over plan"),
    ],
    ids=["0%", "85%", "130%"],
)
async def test_tenant_seeded_in_the_service_shows_its_gauge_and_numbers(
    service, used: int, state: str, plan_text: str
) -> None:
    tenant = service.new_tenant("Usage dashboard tenant")
    service.set_usage(tenant.tenant_id, 10_000, used, SEEDED_TYPES)
    app = FetchingHost(service.base_url, tenant.key)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        dashboard = app.query_one(UsageDashboard)
        assert dashboard.state == "report", dashboard.error_text
        assert dashboard.gauge_state == state
        assert dashboard.plan_text == plan_text
        assert dashboard.totals_text == "Total tokens 9,810 in 3 types"
        assert [row[0] for row in dashboard.table_rows] == ["card", "token", "bank"]
        assert dashboard.table_rows[2][3] == "2026-11-19 10:00 (3 days ago)"


async def test_r_refetches_and_shows_the_new_figures(service) -> None:
    tenant = service.new_tenant("Usage refresh tenant")
    service.set_usage(tenant.tenant_id, 10_000, 4_000, SEEDED_TYPES)
    app = FetchingHost(service.base_url, tenant.key)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        dashboard = app.query_one(UsageDashboard)
        assert dashboard.gauge_state == "normal"

        service.set_usage(tenant.tenant_id, 10_000, 12_500, SEEDED_TYPES)
        await pilot.press("r")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.fetches == 2
        assert dashboard.gauge_state == "over"
        assert dashboard.plan_text.endswith("125% — 2,500 over plan")


async def test_tenant_with_no_tokens_in_the_service_shows_the_empty_state(service) -> None:
    tenant = service.new_tenant("Usage empty tenant")
    app = FetchingHost(service.base_url, tenant.key)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        dashboard = app.query_one(UsageDashboard)
        assert dashboard.state == "empty", dashboard.error_text
        assert "No tokens yet" in screen_text(app)


async def test_key_without_report_read_gets_the_403_sentence(service) -> None:
    tenant = service.new_tenant("Usage forbidden tenant")
    key = service.new_key(["tenant:read"], tenant_key=tenant.key)
    app = FetchingHost(service.base_url, key)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        dashboard = app.query_one(UsageDashboard)
        assert dashboard.state == "error"
        assert "report:read" in dashboard.error_text
        assert "(403)" in dashboard.error_text
        text = screen_text(app)
        assert dashboard.error_text in text
        assert "Permission needed" in text
        assert "Retrying will not help" in text and "report:read" in text
        assert "try again" not in text


async def test_demo_tenant_renders_in_the_warning_zone(start_service) -> None:
    demo = start_service(demo_data=True, frozen_now=FROZEN)
    async with AdminClient(demo.base_url, demo.key) as client:
        report = await client.tenant.usage()
    app = FetchingHost(demo.base_url, demo.key)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        dashboard = app.query_one(UsageDashboard)
        tokens = report.token_report
        assert dashboard.state == "report", dashboard.error_text
        # The demo tenant is seeded at about 91% of its plan, to show the warning.
        assert dashboard.gauge_state == "warning"
        used, included = tokens.monthly_active_tokens, tokens.included_monthly_active_tokens
        assert dashboard.plan_text.startswith(f"{used:,} of {included:,} included")
        assert dashboard.totals_text.startswith(f"Total tokens {tokens.token_total:,} in ")
        rows = dashboard.table_rows
        assert len(rows) >= 3
        expected = token_type_rows(report)
        assert [row[0] for row in rows] == [row.name for row in expected]
        counts = [int(row[1].strip().replace(",", "")) for row in rows]
        assert counts == sorted(counts, reverse=True)
        for shown, row in zip(rows, expected, strict=True):
            assert shown[3] == when(row.last_created_at, zone=False, missing="never")
            assert "ago" in shown[3]
        assert "Nearing plan limit" in screen_text(app)
