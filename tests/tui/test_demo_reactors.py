"""The demo's reactors and proxy pipeline (issue 35): in both demo tenants, every reactor is
`active`, one of each runtime, and every reactor's and pipeline's saved sample passes its
test-run through console.runner. Against the real local service the demo starts."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from console.client import AdminClient
from console.models.demo import (
    PIPELINE_SAMPLES,
    REACTOR_SAMPLES,
    TRANSFORM_SAMPLES,
    demo_samples,
)
from console.runner import run_code
from console.runner.pipeline import run_pipeline
from console.runner.samples import load_sample
from console.tui.start.demo import DemoService

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def demo() -> Iterator[DemoService]:
    service = DemoService(staging=True).start()
    try:
        yield service
    finally:
        service.stop()


def keys(demo: DemoService) -> list[str]:
    return [connection.key or "" for connection in demo.connections()]


async def test_both_demo_tenants_have_an_active_reactor_of_each_runtime(
    demo: DemoService,
) -> None:
    for key in keys(demo):
        async with AdminClient(demo.base_url, key) as client:
            reactors = (await client.reactors.list(size=100)).data
        assert {r.name for r in reactors} == set(REACTOR_SAMPLES)
        assert {r.state for r in reactors} == {"active"}
        assert all(r.requested is None for r in reactors)
        runtimes = {r.image: r.runtime for r in reactors}
        assert set(runtimes) == {"node-bt", "node22"}
        node_bt, node22 = runtimes["node-bt"], runtimes["node22"]
        assert node_bt is not None and node22 is not None
        # node-bt: the image and nothing else; node22: its options, no dependencies (the
        # local service cannot install them: such a reactor would fail to provision).
        assert node_bt.model_dump(exclude_none=True, exclude_unset=True) == {"image": "node-bt"}
        assert node22.timeout and node22.resources and node22.permissions
        assert not node22.dependencies
        for reactor in reactors:
            assert reactor.configuration, reactor.name


async def test_each_demo_reactor_reacts_on_the_service_with_its_saved_request(
    demo: DemoService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """React in the demo starts from a request that works: the service runs the reactor's
    active code on it and answers what the test-run of the same args answers."""
    monkeypatch.delenv("TENANT_CONSOLE_DATA_DIR", raising=False)
    demo.use_for_console_data()
    for key in keys(demo):
        async with AdminClient(demo.base_url, key) as client:
            for reactor in (await client.reactors.list(size=100)).data:
                text = load_sample(f"react-{reactor.id}")
                assert text is not None, reactor.name
                request = json.loads(text)
                answer = await client.reactors.react(reactor.id, request["args"])
                local = run_code(
                    reactor.code or "",
                    {"args": request["args"], "configuration": reactor.configuration},
                    "reactor",
                )
                assert local.status == "ok", local.message
                for part in ("raw", "body", "headers"):
                    assert getattr(answer, part) == local.value.get(part), (reactor.name, part)


async def test_both_demo_tenants_have_a_proxy_with_a_pipeline(demo: DemoService) -> None:
    for key in keys(demo):
        async with AdminClient(demo.base_url, key) as client:
            proxies = (await client.proxies.list(size=100)).data
        pipelines = [p for p in proxies if len(p.response_transforms or []) > 1]
        assert [p.name for p in pipelines] == ["Loyalty points accrual"]
        proxy = pipelines[0]
        assert [s.kind for s in proxy.request_transforms or []] == ["code"]
        assert [s.kind for s in proxy.response_transforms or []] == [
            "code",
            "append_header",
            "mask",
        ]


async def samples_by_key(demo: DemoService) -> dict[str, tuple[str, Any, bool]]:
    """What each saved sample of a reactor or a pipeline runs: ("reactor", code, _) or
    ("pipeline", steps, with_bt), by sample key, in both tenants."""
    found: dict[str, tuple[str, Any, bool]] = {}
    for key in keys(demo):
        async with AdminClient(demo.base_url, key) as client:
            for reactor in (await client.reactors.list(size=100)).data:
                found[f"reactor-{reactor.id}"] = ("reactor", reactor.code, False)
            for proxy in (await client.proxies.list(size=100)).data:
                for side in ("request", "response"):
                    steps = getattr(proxy, f"{side}_transforms") or []
                    if steps:  # every pipeline, a single transform's one step too
                        as_sent = [s.model_dump(exclude_none=True) for s in steps]
                        with_bt = proxy.application_id is not None
                        sample_key = f"proxy-{proxy.id}-{side}_transforms"
                        found[sample_key] = ("pipeline", as_sent, with_bt)
    return found


@pytest.mark.parametrize("engine", ["node", "embedded"])
async def test_every_reactor_and_pipeline_sample_passes_its_test_run(
    demo: DemoService, engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from console.runner.engines import node_path

    if engine == "node" and node_path() is None:
        pytest.skip("Node.js is not installed here: the embedded engine's run covers it")
    monkeypatch.delenv("TENANT_CONSOLE_DATA_DIR", raising=False)
    demo.use_for_console_data()
    runs = await samples_by_key(demo)
    per_tenant = len(REACTOR_SAMPLES) + len(TRANSFORM_SAMPLES) + len(PIPELINE_SAMPLES)
    assert len(runs) == 2 * per_tenant  # 2 reactors, 7 one-step pipelines, 1 of 3 steps
    assert set(runs) <= set(demo_samples())
    for key, (what, code, with_bt) in runs.items():
        text = load_sample(key)  # the sample the demo saved where test-runs look
        assert text is not None, key
        sample = json.loads(text)
        if what == "reactor":
            result = run_code(code, sample, "reactor", engine=engine)
            assert result.status == "ok", (key, result.message)
            assert result.value and set(result.value) & {"raw", "body", "headers"}
        else:
            pipeline = run_pipeline(
                code,
                sample,
                with_bt=with_bt,
                run=lambda *a, **k: run_code(*a, engine=engine, **k),
            )
            assert pipeline.ok, (key, pipeline.message)
            assert all(step.status == "ok" for step in pipeline.steps), pipeline.message
