"""Issue 34: widgets, a kind only the tests have, travel between two tenants of the real local
service with no other change: read into a configuration document, planned, created,
updated and pruned by apply, and read by name for a promotion."""

from __future__ import annotations

import httpx

from console.client import AdminClient
from console.estate.apply import apply_plan
from console.estate.document import checked, dumps, loads
from console.estate.plan import compute_plan
from console.estate.render import plan_lines
from console.estate.tenant import read_objects, read_tenant
from proof_kind.service import WidgetService


def client(service: WidgetService, key: str) -> AdminClient:
    return AdminClient(service.base_url, key, key_header=service.key_header)


async def test_widgets_are_exported_planned_applied_and_pruned(
    widget_service: WidgetService, widgets_registered
) -> None:
    staging, prod = widget_service.new_tenant("Staging"), widget_service.new_tenant("Prod")
    headers = {widget_service.key_header: staging.key}
    for name, colour in (("Alpha", "red"), ("Beta", None)):
        made = httpx.post(
            f"{widget_service.base_url}/widgets",
            headers=headers,
            json={"name": name, "colour": colour},
            timeout=30.0,
        )
        assert made.status_code == 201, made.text
    async with client(widget_service, staging.key) as source:
        exported = (await read_tenant(source)).document
        promoted = (await read_objects(source, {"widgets": {"Beta"}})).document
    assert exported["widgets"] == [
        {"name": "Alpha", "colour": "red"},
        {"name": "Beta", "colour": None},
    ]
    assert loads(dumps(exported)) == exported
    assert promoted["widgets"] == [{"name": "Beta", "colour": None}]

    async with client(widget_service, prod.key) as target:
        plan = compute_plan(exported, await read_tenant(target))
        assert "Widgets" in plan_lines(plan)
        assert [(s.name, s.action) for s in plan.to_do] == [("Alpha", "create"), ("Beta", "create")]
        assert (await apply_plan(target, plan)).complete
        assert (await read_tenant(target)).document["widgets"] == exported["widgets"]

        changed = checked({**exported, "widgets": [{"name": "Alpha", "colour": "blue"}]}, "file")
        plan = compute_plan(changed, await read_tenant(target), prune=True)
        assert [(s.label, s.action) for s in plan.to_do] == [
            ("widget Alpha", "update"),
            ("widget Beta", "delete"),
        ]
        result = await apply_plan(target, plan)
        assert result.done == ["updated widget Alpha", "deleted widget Beta"]
        assert (await read_tenant(target)).document["widgets"] == changed["widgets"]
