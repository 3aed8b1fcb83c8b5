"""`tenant-console demo` is a demo of the whole product: two tenants (production and staging)
as in-memory profiles, and a saved sample for every formula and transform that passes its
first test-run. Against the real local service the demo starts."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from console_support import console, settle

from console.client import AdminClient
from console.models.demo import (
    DEMO_STAGING_NAME,
    DEMO_TENANT_NAME,
    FORMULA_SAMPLES,
    PIPELINE_SAMPLES,
    REACTOR_SAMPLES,
    TRANSFORM_SAMPLES,
    demo_samples,
)
from console.runner import run_code
from console.runner.samples import load_sample
from console.tui.app import TenantConsoleApp
from console.tui.base.connection import MemoryProfiles
from console.tui.start.demo import CONSOLE_DATA, DemoService

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def demo() -> Iterator[DemoService]:
    service = DemoService(staging=True).start()
    try:
        yield service
    finally:
        service.stop()


async def names(client: AdminClient, kind: str) -> set[str]:
    group = getattr(client, kind)
    page = await group.list(size=100)
    return {item.name for item in page.data}


async def test_the_demo_has_a_production_and_a_staging_tenant(demo: DemoService) -> None:
    production, staging = demo.connections()
    assert (production.profile, production.badge) == ("production", "PROD")
    assert (staging.profile, staging.badge) == ("staging", "STAGE")
    assert production.key != staging.key and production.base_url == staging.base_url
    async with (
        AdminClient(demo.base_url, production.key or "") as prod,
        AdminClient(demo.base_url, staging.key or "") as stage,
    ):
        assert (await prod.tenant.get()).name == DEMO_TENANT_NAME
        assert (await stage.tenant.get()).name == DEMO_STAGING_NAME
        # Staging is a little behind: copy-to-profile and the diff have something to show.
        prod_apps, stage_apps = (
            await names(prod, "applications"),
            await names(stage, "applications"),
        )
        assert stage_apps < prod_apps
        assert await names(stage, "reactor_formulas") == await names(prod, "reactor_formulas")


async def test_each_demo_tenant_reports_its_own_usage(demo: DemoService) -> None:
    """Staging, on a plan a tenth of production's, reports its own (smaller) usage, not
    production's growing figures against its own plan (979%)."""
    production, staging = demo.connections()
    async with (
        AdminClient(demo.base_url, production.key or "") as prod,
        AdminClient(demo.base_url, staging.key or "") as stage,
    ):
        prod_report = (await prod.tenant.usage()).token_report
        stage_report = (await stage.tenant.usage()).token_report
    assert prod_report.included_monthly_active_tokens == 250_000
    assert stage_report.included_monthly_active_tokens == 25_000
    assert prod_report.monthly_active_tokens and stage_report.monthly_active_tokens
    assert stage_report.monthly_active_tokens < stage_report.included_monthly_active_tokens
    assert stage_report.monthly_active_tokens < prod_report.monthly_active_tokens / 5
    for kind, figures in stage_report.metrics.items():
        assert figures.count is not None and figures.count < prod_report.metrics[kind].count


async def test_the_console_opens_on_production_and_switches_to_staging(
    demo: DemoService,
) -> None:
    connections = demo.connections()
    app = TenantConsoleApp(connection=connections[0], profiles=MemoryProfiles(connections))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert console(app).header.tenant == DEMO_TENANT_NAME
        app.switch_profile("staging")
        await settle(pilot)
        assert console(app).header.tenant == DEMO_STAGING_NAME


def test_every_demo_object_has_a_sample_written_to_the_demos_own_data_dir(
    demo: DemoService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TENANT_CONSOLE_DATA_DIR", raising=False)
    directory = demo.use_for_console_data()
    assert demo.data_dir is not None and directory == demo.data_dir / CONSOLE_DATA
    samples = demo_samples()
    # Four formulas, two reactors (a test-run's sample and React's request each), seven
    # transforms (each also as a one-step pipeline) and one pipeline of three steps, in
    # production and in staging.
    per_tenant = (
        len(FORMULA_SAMPLES)
        + 2 * len(REACTOR_SAMPLES)
        + 2 * len(TRANSFORM_SAMPLES)
        + len(PIPELINE_SAMPLES)
    )
    assert len(samples) == 2 * per_tenant == 46
    for key, text in samples.items():
        assert load_sample(key) == text
    files = list((directory / "test-runs").iterdir())
    assert len(files) == 46 and all(f.stat().st_mode & 0o077 == 0 for f in files)


async def demo_codes(demo: DemoService) -> dict[str, Any]:
    """The demo's formulas and transforms as the service holds them, by sample key."""
    production = demo.connections()[0]
    codes: dict[str, Any] = {}
    async with AdminClient(demo.base_url, production.key or "") as client:
        for formula in (await client.reactor_formulas.list(size=100)).data:
            if formula.type != "private":  # the service's public catalogue
                continue
            codes[f"formula-{formula.id}"] = ("formula", formula.code, False)
        for proxy in (await client.proxies.list(size=100)).data:
            for field in ("request_transform", "response_transform"):
                transform = getattr(proxy, field)
                if transform is not None and getattr(transform, "code", None):
                    with_bt = proxy.application_id is not None
                    codes[f"proxy-{proxy.id}-{field}"] = ("transform", transform.code, with_bt)
    return codes


@pytest.mark.parametrize("engine", ["node", "embedded"])
async def test_each_formula_and_transform_passes_its_first_test_run(
    demo: DemoService, engine: str
) -> None:
    from console.runner.engines import node_path

    if engine == "node" and node_path() is None:
        pytest.skip("Node.js is not installed here: the embedded engine's run covers it")
    codes = await demo_codes(demo)
    samples = demo_samples()
    assert set(codes) <= set(samples)  # every object the demo holds has its sample
    assert len(codes) == len(FORMULA_SAMPLES) + len(TRANSFORM_SAMPLES)
    bt_calls = 0
    for key, (kind, code, with_bt) in codes.items():
        result = run_code(code, json.loads(samples[key]), kind, with_bt=with_bt, engine=engine)
        assert result.status == "ok", (key, result.message)
        bt_calls += len(result.calls)
    assert bt_calls == 3  # two tokens retrieved from the samples, one created


def test_the_demo_data_dir_goes_with_the_demo(tmp_path: Path) -> None:
    service = DemoService(demo_data=True).start()
    assert service.data_dir is not None
    data = service.data_dir
    service.stop()
    assert not data.exists()
