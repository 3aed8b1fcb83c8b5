"""Issue 34: a kind registered by a test, with its estate facet, travels through the
document's normal form, the file check, the plan and its text with no other change: every
layer asks the registry when it is used (pure functions here; no service needed)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from pydantic import BaseModel

from console.estate.document import FORMAT, REDACTED, DocumentError, checked, dumps, redact
from console.estate.plan import BLOCKED, CREATE, DELETE, compute_plan
from console.estate.render import plan_lines
from console.estate.tenant import TenantSnapshot
from console.estate.validate import document_problems, sections, target_problems
from console.kinds import KINDS, PROXIES, EstateFacet, Kind, Models, Nouns
from console.kinds.estate_facet import CodeField, FileCheck, Unchangeable
from console.kinds.facets import Reference

NOTE_FIELDS = ("name", "colour", "proxy", "script", "secrets")
ON_PROXY = Reference(PROXIES.key, "proxy", "proxy_id")


class Note(BaseModel):
    id: str
    name: str


def note_item(raw: Mapping[str, Any]) -> dict[str, Any]:
    secrets = raw.get("secrets")
    return {
        "name": raw.get("name"),
        "colour": raw.get("colour"),
        "proxy": raw.get("proxy"),
        "script": raw.get("script"),
        "secrets": dict(sorted(secrets.items())) if isinstance(secrets, Mapping) else None,
    }


def check_note(check: FileCheck, item: Mapping[str, Any], path: str) -> None:
    check.fields(item, NOTE_FIELDS, path)
    check.name(item, path)
    check.text(item.get("colour"), f"{path}.colour", optional=False)
    check.reference(item, path, ON_PROXY)


def colour_stays(existing: dict, desired: dict, changed: Any) -> Unchangeable | None:
    if existing.get("colour") != desired.get("colour"):
        return Unchangeable("its colour cannot change")
    return None


NOTES = Kind(
    key="notes",
    path="/notes",
    nouns=Nouns("note", "notes"),
    load_models=lambda: Models(Note),
    estate=EstateFacet(
        order=4,
        form=note_item,
        check=check_note,
        references=(ON_PROXY,),
        cannot_change=colour_stays,
        created_note=lambda item: f"in {item.get('colour')}",
        code=(CodeField("script", "script"),),
        secret=("secrets",),
        redacted=("secrets",),
    ),
)


@pytest.fixture
def notes() -> Iterator[Kind]:
    with KINDS.registered(NOTES) as kind:
        yield kind


def note(name: str, colour: str = "red", proxy: Any = None, **more: Any) -> dict:
    return {"name": name, "colour": colour, "proxy": proxy, **more}


def document(**sections: list) -> dict:
    return {"format": FORMAT, **sections}


def target(document_: dict, ids: dict | None = None) -> TenantSnapshot:
    return TenantSnapshot(checked(document_, "target"), "T", {}, ids or {})


PROXY = {"name": "P", "destination_url": "https://a.example"}


def test_the_document_carries_the_kind_after_the_others_in_its_normal_form(notes) -> None:
    raw = note("N", proxy="P", secrets={"b": "2", "a": "1"}, script=None)
    read = checked(document(notes=[{**raw, "proxy": {"name": "P"}}], proxies=[PROXY]), "f")
    assert list(read) == [
        "format",
        "tenant",
        "settings",
        "applications",
        "proxies",
        "reactor_formulas",
        "reactors",
        "webhooks",
        "notes",
    ]
    assert read["notes"] == [note_item(raw)]
    assert read["notes"][0]["proxy"] == "P"  # the reference by name, as the file gave it
    assert checked(read, "again") == read and dumps(checked(read, "again")) == dumps(read)
    assert redact(read)["notes"][0]["secrets"] == {"a": REDACTED, "b": REDACTED}
    assert sections()[-1] == "notes"


def test_the_file_check_asks_the_kinds_own_check(notes) -> None:
    data = document(notes=[{"name": "N", "colour": 3, "size": 1}, note("N"), "x"])
    assert document_problems(data) == [
        ("notes[2]", "must be an object, not text"),
        ("notes[0].size", f"is not a field here (the fields are: {', '.join(NOTE_FIELDS)})"),
        ("notes[0].colour", "must be text, not a whole number"),
        ("notes[1].name", '"N" is also the name of notes[0]; a name may be used once per kind'),
    ]
    bad_reference = document(notes=[note("M", proxy={"id": "p1"})])
    assert document_problems(bad_reference) == [
        (
            "notes[0].proxy",
            'refers to a proxy by id; refer to it by name (ids differ between tenants): "proxy": '
            '"NAME"',
        )
    ]
    with pytest.raises(DocumentError, match=r"notes\[0\]\.colour"):
        checked(data, "the file")


def test_a_reference_to_an_object_in_neither_is_a_target_problem(notes) -> None:
    from console.kinds.estate_facet import TargetFacts

    data = document(notes=[note("N", proxy="Gone"), note("M", proxy="P")], proxies=[PROXY])
    facts = TargetFacts({PROXIES.key: []})
    assert target_problems(data, facts) == [
        ("notes[0].proxy", 'names the proxy "Gone", which is not in this file')
    ]


def test_the_plan_orders_refers_blocks_renders_and_prunes_the_kind(notes) -> None:
    source = checked(
        document(
            proxies=[PROXY],
            notes=[
                note("New", proxy="P", script="let a =\n"),
                note("Recoloured", "blue"),
                note("Same"),
            ],
        ),
        "source",
    )
    present = document(notes=[note("Recoloured"), note("Same"), note("Old")])
    ids = {"notes": {"Recoloured": ["n1"], "Same": ["n2"], "Old": ["n3"]}}
    plan = compute_plan(source, target(present, ids), prune=True)
    steps = [(s.kind, s.name, s.action, s.note) for s in plan.steps if s.kind != "settings"]
    assert steps == [
        ("proxies", "P", CREATE, ""),
        ("notes", "New", CREATE, "after its proxy P"),
        ("notes", "Recoloured", BLOCKED, "its colour cannot change"),
        ("notes", "Same", "unchanged", ""),
        ("notes", "Old", DELETE, ""),
    ]
    new = plan.steps[1]
    assert new.label == "note New"
    assert new.code_problems and new.code_problems[0].startswith("The script")
    lines = plan_lines(plan)
    assert "Notes" in lines
    assert any(line.startswith("  + create          New (in red)") for line in lines)
    assert plan.code_problems()[0].startswith("note New: The script")


def test_the_kind_leaves_with_its_registration() -> None:
    with KINDS.registered(NOTES):
        assert "notes" in checked(document(), "f")
    assert "notes" not in checked(document(), "f")
    assert "notes" not in sections()
