"""Applying a plan with the estate modules directly: a failure in the middle, a rerun, and a
target on another service."""

from __future__ import annotations

import json
import logging

from estate_helpers import Tenant

from console.cli import main
from console.client import AdminClient, RetryPolicy
from console.estate.apply import apply_plan
from console.estate.plan import CREATE, compute_plan
from console.estate.tenant import read_tenant

NO_RETRY = RetryPolicy(max_attempts=1)


async def plan_between(source_client: AdminClient, target_client: AdminClient):
    source = await read_tenant(source_client)
    target = await read_tenant(target_client)
    return compute_plan(source.document, target, source_label="staging", target_label="prod")


async def test_a_failure_in_the_middle_says_what_was_done_and_a_rerun_completes(
    start_service, caplog
) -> None:
    caplog.set_level(logging.DEBUG)
    running = start_service()
    staging_info, prod_info = running.new_tenant("Staging"), running.new_tenant("Prod")
    staging = Tenant(running.base_url, staging_info.key)
    staging.seed()
    staging.close()
    source = AdminClient(running.base_url, staging_info.key, retry=NO_RETRY)
    target = AdminClient(running.base_url, prod_info.key, retry=NO_RETRY)
    async with source, target:
        plan = await plan_between(source, target)
        steps = [(s.action, s.kind, s.name) for s in plan.to_do]
        # Settings, then applications before the proxy that uses one, formulas, proxies.
        assert [kind for _, kind, _ in steps] == [
            "settings",
            "settings",
            "applications",
            "applications",
            "reactor_formulas",
            "proxies",
            "proxies",
        ]
        reported: list[str] = []

        def stop_after_two(step, line: str) -> None:
            reported.append(line)
            if len(reported) == 2:
                running.stop()  # the service goes away in the middle of the apply

        result = await apply_plan(target, plan, stop_after_two)
        assert not result.complete
        assert result.done == reported
        assert result.done[0].startswith("updated settings")
        assert result.done[1] == "created application Batch jobs"
        assert result.failed is not None and result.failed.name == "Checkout web"
        assert "may or may not have created it" in result.error
        assert [s.name for s in result.not_done] == [
            "Checkout web",
            "Card check",
            "Checkout",
            "Plain",
        ]
        first_keys = [k.key for k in result.new_keys]

        running.start()  # same port and data: the rerun plans from what the tenant holds now
        again = await plan_between(source, target)
        assert [(s.action, s.name) for s in again.to_do] == [
            (CREATE, "Checkout web"),
            (CREATE, "Card check"),
            (CREATE, "Checkout"),
            (CREATE, "Plain"),
        ]
        finished = await apply_plan(target, again)
        assert finished.complete
        assert (await plan_between(source, target)).nothing_to_do
        keys = first_keys + [k.key for k in finished.new_keys]
    assert len(keys) == 2
    assert not any(key in caplog.text for key in keys)
    assert "***" in repr(result.new_keys[0]) and result.new_keys[0].key not in repr(result.new_keys)


def test_promotes_to_a_tenant_on_another_service(
    service, start_service, add_profile, tmp_path, capsys
) -> None:
    other = start_service()
    staging_info, prod_info = service.new_tenant("Staging"), other.new_tenant("Prod")
    add_profile("staging", service.base_url, staging_info.key)
    add_profile("prod", other.base_url, prod_info.key)
    staging = Tenant(service.base_url, staging_info.key)
    staging.seed()
    staging.close()
    exported = tmp_path / "staging.json"
    assert main(["export", "--profile", "staging", "-o", str(exported)]) == 0
    assert main(["apply", str(exported), "--profile", "prod", "--yes"]) == 0
    capsys.readouterr()
    assert main(["diff", "staging", "prod", "--exit-code"]) == 0
    assert main(["diff", str(exported), "prod", "--exit-code"]) == 0
    out = capsys.readouterr().out
    assert out.count("Nothing to do.") == 2
    assert json.loads(exported.read_text())["tenant"] == "Staging"
