"""The plan on its own: documents in, steps out (no service needed)."""

from __future__ import annotations

import subprocess
import sys

from console.estate.document import checked, dumps, loads, make_document
from console.estate.plan import BLOCKED, CREATE, DUPLICATE, UNCHANGED, UPDATE, compute_plan
from console.estate.tenant import TenantSnapshot
from console.kinds.configured import application_item, formula_item, proxy_item


def app(name: str, type_: str = "private") -> dict:
    return application_item({"name": name, "type": type_, "permissions": ["token:read"]})


def proxy(name: str, application: str | None, url: str = "https://a.example") -> dict:
    return proxy_item({"name": name, "destination_url": url, "application": application})


def kinds(applications=(), proxies=(), formulas=()) -> dict:
    return {"applications": applications, "proxies": proxies, "reactor_formulas": formulas}


def snapshot(applications=(), proxies=(), formulas=()) -> TenantSnapshot:
    document = make_document("T", {}, kinds(applications, proxies, formulas))
    ids: dict[str, dict[str, list[str]]] = {}
    for kind in ("applications", "proxies", "reactor_formulas"):
        for index, item in enumerate(document[kind]):
            ids.setdefault(kind, {}).setdefault(item["name"], []).append(f"{kind}-{index}")
    return TenantSnapshot(document, "T", {}, ids)


def actions(plan) -> list[tuple[str, str, str]]:
    return [(s.kind, s.name, s.action) for s in plan.steps]


def test_duplicates_on_the_source_side_are_reported_and_what_uses_them_is_blocked() -> None:
    source = make_document(
        None, {}, kinds([app("Web"), app("Web")], [proxy("Checkout", "Web"), proxy("Other", None)])
    )
    plan = compute_plan(source, snapshot())
    assert actions(plan) == [
        ("applications", "Web", DUPLICATE),
        ("proxies", "Checkout", BLOCKED),
        ("proxies", "Other", CREATE),
    ]
    assert plan.steps[1].note == "its application Web is not unique"


def test_a_type_change_and_a_missing_application_cannot_be_applied() -> None:
    source = make_document(None, {}, kinds([app("Ops", "management")], [proxy("P", "Gone")]))
    plan = compute_plan(source, snapshot([app("Ops", "private")]))
    assert actions(plan) == [("applications", "Ops", BLOCKED), ("proxies", "P", BLOCKED)]
    assert "type cannot change" in plan.steps[0].note
    assert plan.steps[1].note == "its application Gone is not in the target"
    assert plan.nothing_to_do


def test_field_by_field_changes_and_a_promotion_limited_to_one_object() -> None:
    source = make_document(None, {}, kinds([app("Web")], [proxy("P", "Web", "https://b.example")]))
    target = snapshot([app("Web"), app("Extra")], [proxy("P", "Web"), proxy("Q", None)])
    plan = compute_plan(source, target, only={"proxies": {"P"}, "applications": {"Web"}})
    assert actions(plan) == [("applications", "Web", UNCHANGED), ("proxies", "P", UPDATE)]
    (change,) = plan.steps[1].changes
    assert (change.path, change.before, change.after) == (
        "destination_url",
        "https://a.example",
        "https://b.example",
    )


def test_a_document_reads_back_equal_and_in_the_same_bytes() -> None:
    formula = formula_item({"name": "F", "code": "a\nb\n", "configuration": [{"name": "X"}]})
    document = make_document(
        "T", {"b": "1", "a": "2"}, kinds([app("Web")], [proxy("P", "Web")], [formula])
    )
    text = dumps(document)
    assert loads(text) == document
    assert dumps(loads(text)) == text
    assert list(checked(document, "x")["settings"]) == ["a", "b"]


def test_the_command_line_never_loads_textual() -> None:
    code = (
        "import sys, console.cli, console.estate.cli, console.estate.apply, console.estate.plan, "
        "console.estate.tenant, console.estate.render\n"
        "console.cli.build_parser()\n"
        "assert not [m for m in sys.modules if m.startswith(('textual', 'console.tui'))]"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
