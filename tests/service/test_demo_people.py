"""The demo tenants' people (`serve --demo-data`, `new-tenant --demo-data`): an owner and an
admin with MFA, a read-only member without, a pending and an expired invitation, a security
contact; the console's own key was created by the owner. Under a frozen clock, the same on
every run."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
from demo_service import FROZEN
from people_http import INVITATIONS, MEMBERS, OWNER, SECURITY_CONTACT
from service_http import KEY_HEADER

from console.cli import main

pytestmark = pytest.mark.slow  # a demo service of its own


def _people(base_url: str, key: str) -> dict[str, Any]:
    with httpx.Client(base_url=base_url, headers={KEY_HEADER: key}, timeout=30.0) as c:
        return {
            path: c.get(path).json()
            for path in (MEMBERS, INVITATIONS, OWNER, SECURITY_CONTACT, "/applications/key")
        }


def _check(people: dict[str, Any], tag: str = "") -> None:
    members = {m["role"]: m for m in people[MEMBERS]["data"]}
    assert sorted(members) == ["ADMIN", "OWNER", "READ_ONLY"]
    assert members["OWNER"]["user"]["mfa_enrolled"] is True
    assert members["ADMIN"]["user"]["mfa_enrolled"] is True
    assert members["READ_ONLY"]["user"]["mfa_enrolled"] is False
    assert all(tag in m["user"]["email"] for m in members.values())
    assert people[OWNER] == members["OWNER"]
    # The console's own user: the member whose user created the console's application.
    assert people["/applications/key"]["created_by"] == members["OWNER"]["user"]["id"]
    invitations = {i["status"]: i for i in people[INVITATIONS]["data"]}
    assert sorted(invitations) == ["EXPIRED", "PENDING"]
    frozen = datetime.fromisoformat(FROZEN)
    assert datetime.fromisoformat(invitations["EXPIRED"]["expires_at"]) < frozen
    assert datetime.fromisoformat(invitations["PENDING"]["expires_at"]) > frozen
    pending = invitations["PENDING"]
    lifetime = datetime.fromisoformat(pending["expires_at"]) - datetime.fromisoformat(
        pending["created_at"]
    )
    assert lifetime == timedelta(hours=72)
    assert people[SECURITY_CONTACT]["email"]


def test_the_demo_tenant_has_its_people(demo) -> None:
    _check(_people(demo.base_url, demo.key))


def test_the_staging_twin_has_its_own_people(demo, capsys, monkeypatch) -> None:
    monkeypatch.setenv("TENANT_CONSOLE_FROZEN_NOW", FROZEN)
    argv = ["new-tenant", "--data-dir", str(demo.data_dir), "--demo-data", "Acme (staging)"]
    assert main(argv) == 0
    staging = json.loads(capsys.readouterr().out)
    people = _people(demo.base_url, staging["key"])
    _check(people, tag="+staging@")
    production = _people(demo.base_url, demo.key)
    assert {m["user"]["id"] for m in people[MEMBERS]["data"]}.isdisjoint(
        m["user"]["id"] for m in production[MEMBERS]["data"]
    )


def test_the_demo_s_people_are_the_same_on_every_run(demo, start_service) -> None:
    again = start_service(demo_data=True, frozen_now=FROZEN)
    assert _people(again.base_url, again.key) == _people(demo.base_url, demo.key)
