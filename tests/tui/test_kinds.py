"""A kind of object owns what the console knows about it: its noun, the permission each change
needs, its form, and which of its objects are read-only."""

from __future__ import annotations

import pytest

from console.tui.browse.kinds import (
    APPLICATIONS,
    INVITATIONS,
    KINDS_BY_KEY,
    LOOKS,
    MEMBERS,
    PERMISSIONS,
    PROXIES,
    REACTOR_FORMULAS,
    TENANT,
)
from console.tui.browse.sections import SECTIONS_BY_KEY
from console.tui.forms.registry import form_class


def test_nouns_with_their_articles() -> None:
    assert APPLICATIONS.a_noun == "an application"
    assert PROXIES.a_noun == "a proxy"
    assert REACTOR_FORMULAS.a_noun == "a reactor formula"
    assert TENANT.a_noun == "a tenant"
    assert TENANT.action_object == "the tenant"


@pytest.mark.parametrize(
    ("kind", "action", "permission"),
    [
        (APPLICATIONS, "new", "application:create"),
        (APPLICATIONS, "regenerate", "application:update"),
        (PROXIES, "delete", "proxy:delete"),
        (REACTOR_FORMULAS, "edit", "reactor:update"),
        (TENANT, "delete", "tenant:delete"),
        (PERMISSIONS, "edit", None),
        (PROXIES, "copy", None),
    ],
)
def test_the_permission_each_change_needs(kind, action, permission) -> None:
    assert kind.change_permission(action) == permission


def test_only_private_formulas_can_be_changed() -> None:
    assert REACTOR_FORMULAS.is_read_only({"type": "official"})
    assert REACTOR_FORMULAS.is_read_only({"type": "partner"})
    assert not REACTOR_FORMULAS.is_read_only({"type": "private"})
    assert not REACTOR_FORMULAS.is_read_only(None)  # a new one is private
    assert "service operator" in REACTOR_FORMULAS.read_only_reason({"type": "official"})
    assert not APPLICATIONS.is_read_only({"type": "management"})


def test_forms_follow_their_kind() -> None:
    form = form_class(REACTOR_FORMULAS)
    assert form.kind is REACTOR_FORMULAS and form.__name__ == "FormulaForm"
    assert form.forced_read_only(type("Formula", (), {"type": "official"})())
    assert form_class(TENANT).kind is TENANT
    # every changeable kind has its form, and each form edits the kind it is registered for;
    # the people's changes are dialogs of their own (console.tui.actions.people_flows)
    for kind in (*KINDS_BY_KEY.values(), TENANT):
        if kind.changeable and kind not in (MEMBERS, INVITATIONS):
            assert form_class(kind).kind is kind


def test_which_kinds_are_created_regenerated_or_left_alone() -> None:
    assert [k.key for k in KINDS_BY_KEY.values() if k.changeable] == [
        "applications",
        "proxies",
        "reactor_formulas",
        "reactors",
        "members",
        "invitations",
        "webhooks",
    ]
    assert not MEMBERS.creatable and not INVITATIONS.creatable  # invited with `i`, not `n`
    assert TENANT.changeable and not TENANT.creatable
    assert [k for k in (*KINDS_BY_KEY.values(), TENANT) if k.regenerable] == [APPLICATIONS]


def test_sections_take_their_titles_from_the_kinds() -> None:
    for kind in (*KINDS_BY_KEY.values(), TENANT):
        shown_in = LOOKS.section_of(kind)  # the invitations: in People, the members' section
        assert SECTIONS_BY_KEY[shown_in.key].title == shown_in.title
    assert "invitations" not in SECTIONS_BY_KEY
    assert SECTIONS_BY_KEY[MEMBERS.key].title == "People"
