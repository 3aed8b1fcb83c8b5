"""Webhooks travel: exported by name (URL, events, email, status), diffed, applied (created,
updated with their status, deleted with --prune), promoted one at a time, and never past
the limit of five a tenant: a file holding more is refused, a plan that would leave the
target with more blocks its creates, and a prune deletes before it creates."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from console.cli import main
from console.client import AdminClient
from console.estate.apply import apply_plan
from console.estate.document import FORMAT
from console.estate.plan import BLOCKED, CREATE, DELETE, UNCHANGED, compute_plan
from console.estate.tenant import read_objects
from console.kinds import WEBHOOKS
from console.models.webhooks import MAX_WEBHOOKS


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def seed_webhook(tenant: Any, name: str = "Orders", **extra: Any) -> dict[str, Any]:
    body = {
        "name": name,
        "url": f"https://example.com/{name.lower().replace(' ', '-')}",
        "events": ["reactor.created", "proxy.created"],
        **extra,
    }
    return tenant.post("/webhooks", body)


def document_with(webhooks: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": FORMAT, "webhooks": webhooks}


def item(name: str, **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "url": f"https://example.com/{name.lower()}",
        "events": ["token.created"],
        "notify_email": None,
        "status": "enabled",
        **extra,
    }


def test_the_limit_is_the_models(tenants) -> None:
    assert WEBHOOKS.estate is not None and WEBHOOKS.estate.limit == MAX_WEBHOOKS


def test_webhooks_export_apply_and_diff_clean(tenants, tmp_path: Path, capsys) -> None:
    staging, prod = tenants
    seed_webhook(staging, notify_email="ops@example.com")
    made = seed_webhook(staging, "Audit")
    staging.put(
        f"/webhooks/{made['id']}",
        {"name": "Audit", "url": made["url"], "events": made["events"], "status": "disabled"},
    )
    exported = tmp_path / "staging.json"
    code, _out, err = run(capsys, "export", "--profile", "staging", "-o", str(exported))
    assert code == 0, err
    document = json.loads(exported.read_text())
    assert document["webhooks"] == [  # sorted by name
        {
            "name": "Audit",
            "url": "https://example.com/audit",
            "events": ["proxy.created", "reactor.created"],
            "notify_email": None,
            "status": "disabled",
        },
        {
            "name": "Orders",
            "url": "https://example.com/orders",
            "events": ["proxy.created", "reactor.created"],
            "notify_email": "ops@example.com",
            "status": "enabled",
        },
    ]

    code, out, err = run(capsys, "apply", str(exported), "--profile", "prod", "--yes")
    assert code == 0, err
    assert "created enabled" in out  # the disabled one starts enabled: a create has no status
    code, out, err = run(capsys, "apply", str(exported), "--profile", "prod", "--yes")
    assert code == 0, err
    (audit,) = prod.named("/webhooks", "Audit")
    assert audit["status"] == "disabled"
    (orders,) = prod.named("/webhooks", "Orders")
    assert orders["notify_email"] == "ops@example.com"
    code, out, err = run(capsys, "diff", "staging", "prod", "--exit-code")
    assert code == 0, out + err


def test_apply_updates_and_prunes_webhooks(tenants, tmp_path: Path, capsys) -> None:
    _staging, prod = tenants
    seed_webhook(prod, "Orders")
    seed_webhook(prod, "Stale")
    source = tmp_path / "wanted.json"
    wanted = item("Orders", events=["token.created", "token.deleted"], status="disabled")
    source.write_text(json.dumps(document_with([wanted])))
    code, out, err = run(capsys, "diff", str(source), "prod", "--exit-code")
    assert code == 3, err
    assert "events" in out and "status" in out
    code, out, err = run(capsys, "apply", str(source), "--profile", "prod", "--yes", "--prune")
    assert code == 0, err
    (orders,) = prod.all("/webhooks")
    assert orders["name"] == "Orders" and orders["status"] == "disabled"
    assert sorted(orders["events"]) == ["token.created", "token.deleted"]


def test_a_file_with_more_webhooks_than_a_tenant_holds_is_refused(
    tenants, tmp_path: Path, capsys
) -> None:
    source = tmp_path / "many.json"
    source.write_text(json.dumps(document_with([item(f"H{n}") for n in range(6)])))
    code, out, err = run(capsys, "apply", str(source), "--profile", "prod", "--yes")
    assert code != 0
    assert "holds 6 webhooks; a tenant holds at most 5" in out + err
    assert tenants[1].all("/webhooks") == []


def test_a_file_webhook_is_checked_as_the_service_would(tenants, tmp_path: Path, capsys) -> None:
    bad = item("Bad", url="ftp://example.com", events=["token.creatd"], status="paused")
    source = tmp_path / "bad.json"
    source.write_text(json.dumps(document_with([bad])))
    code, out, err = run(capsys, "diff", str(source), "prod")
    said = out + err
    assert code != 0
    for path in ("webhooks[0].url", "webhooks[0].events[0]", "webhooks[0].status"):
        assert path in said
    assert "token.creatd" in said


def test_a_plan_past_the_limit_blocks_its_creates(tenants, tmp_path: Path, capsys) -> None:
    _staging, prod = tenants
    for n in range(4):
        seed_webhook(prod, f"Kept {n}")
    source = tmp_path / "two.json"
    source.write_text(json.dumps(document_with([item("New1"), item("New2")])))
    code, out, err = run(capsys, "apply", str(source), "--profile", "prod", "--yes")
    assert "the target would hold 6 webhooks; a tenant holds at most 5" in out + err
    assert len(prod.all("/webhooks")) == 4
    # With --prune the four go first, so the service never holds more than five.
    code, out, err = run(capsys, "apply", str(source), "--profile", "prod", "--yes", "--prune")
    assert code == 0, out + err
    assert sorted(w["name"] for w in prod.all("/webhooks")) == ["New1", "New2"]


async def test_a_webhook_is_promoted_alone_and_not_past_the_limit(service, tenants) -> None:
    staging, prod = tenants
    seed_webhook(staging, "Orders", notify_email="ops@example.com")
    seed_webhook(staging, "Other")
    staging_key = staging.http.headers["SVC-API-KEY"]
    prod_key = prod.http.headers["SVC-API-KEY"]
    async with (
        AdminClient(service.base_url, staging_key) as source_client,
        AdminClient(service.base_url, prod_key) as target_client,
    ):
        source = await read_objects(source_client, {"webhooks": {"Orders"}})
        assert [w["name"] for w in source.document["webhooks"]] == ["Orders"]
        only = {"webhooks": {"Orders"}}
        plan = compute_plan(source.document, await read_objects(target_client, only), only=only)
        assert [(s.name, s.action) for s in plan.steps] == [("Orders", CREATE)]
        result = await apply_plan(target_client, plan)
        assert result.complete, result.error
        (copied,) = prod.named("/webhooks", "Orders")
        assert copied["notify_email"] == "ops@example.com"
        again = compute_plan(source.document, await read_objects(target_client, only), only=only)
        assert [s.action for s in again.steps] == [UNCHANGED]
        for n in range(MAX_WEBHOOKS - 1):
            seed_webhook(prod, f"Filler {n}")
        other = await read_objects(source_client, {"webhooks": {"Other"}})
        only = {"webhooks": {"Other"}}
        blocked = compute_plan(other.document, await read_objects(target_client, only), only=only)
        assert [s.action for s in blocked.steps] == [BLOCKED]
        assert "at most 5" in blocked.steps[0].note


def test_prune_deletes_of_a_limited_kind_come_before_its_creates(tenants) -> None:
    from console.estate.document import make_document
    from console.estate.tenant import TenantSnapshot

    target = TenantSnapshot(
        make_document("T", {}, {"webhooks": [item(f"Old{n}") for n in range(5)]}),
        "T",
        {},
        {"webhooks": {f"Old{n}": [f"id-{n}"] for n in range(5)}},
    )
    source = make_document("S", {}, {"webhooks": [item("New")]})
    plan = compute_plan(source, target, prune=True)
    actions = [(s.action, s.name) for s in plan.steps if s.kind == "webhooks"]
    assert actions[-1] == (CREATE, "New")
    assert {a for a, _ in actions[:-1]} == {DELETE}
