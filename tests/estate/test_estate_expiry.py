"""Issue 33: an application's expiry travels through export, diff, apply and promotion; what
cannot travel (an expiry the service cannot change, the tenant's own name) is named in the
plan, never reported as unchanged."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from console.cli import main
from console.client import AdminClient
from console.estate.apply import apply_plan
from console.estate.plan import CREATE, compute_plan
from console.estate.tenant import read_objects

EXPIRY = "2099-12-31T23:00:00+01:00"
"""A temporary auditor's expiry, as a person writes it (not in UTC)."""
IN_UTC = "2099-12-31T22:00:00Z"
"""The same moment as an export writes it."""


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def expiry_of(tenant, name: str) -> datetime | None:
    (application,) = tenant.named("/applications", name)
    value = application.get("expires_at")
    return datetime.fromisoformat(value) if value else None


def test_an_expiry_is_exported_applied_and_then_nothing_differs(tenants, tmp_path, capsys):
    staging, prod = tenants
    staging.application("Auditor", expires_at=EXPIRY)
    exported = tmp_path / "staging.json"
    code, _out, err = run(capsys, "export", "--profile", "staging", "-o", str(exported))
    assert code == 0, err
    applications = {a["name"]: a for a in json.loads(exported.read_text())["applications"]}
    assert applications["Auditor"]["expires_at"] == IN_UTC
    assert applications["Checkout web"]["expires_at"] is None  # never

    code, out, err = run(capsys, "apply", str(exported), "--profile", "prod", "--yes")
    assert code == 0, err
    assert "+ create          Auditor (private)" in out
    assert expiry_of(prod, "Auditor") == datetime.fromisoformat(IN_UTC)  # still temporary
    assert expiry_of(prod, "Checkout web") is None

    code, out, _ = run(capsys, "diff", "staging", "prod", "--exit-code")
    assert code == 0, out
    assert "Nothing to do." in out
    code, out, _ = run(capsys, "diff", str(exported), "prod", "--exit-code")
    assert code == 0, out


def test_an_expiry_that_differs_is_a_difference_the_plan_names(tenants, tmp_path, capsys):
    staging, prod = tenants
    staging.application("Auditor", expires_at=EXPIRY)
    prod.application("Auditor")  # the same name, but permanent: the dangerous difference

    code, out, _ = run(capsys, "diff", "staging", "prod", "--exit-code")
    assert code == 3, out  # never "unchanged"
    assert "! cannot apply    Auditor  (its expiry cannot change once it exists (target: " in out
    assert f'expires_at: (none) -> "{IN_UTC}"' in out
    assert "= unchanged" not in out
    # The tenant's name is not copied either: the plan says so.
    assert 'Not copied: the tenant\'s name ("Staging"; the target\'s is "Prod")' in out

    exported = tmp_path / "staging.json"
    assert run(capsys, "export", "--profile", "staging", "-o", str(exported))[0] == 0
    code, out, err = run(capsys, "apply", str(exported), "--profile", "prod", "--yes")
    assert code == 0, err
    assert "! cannot apply    Auditor" in out
    assert expiry_of(prod, "Auditor") is None  # left as it was, and said so

    # Other fields differing as well: they are updated, the expiry is named as left behind.
    document = json.loads(exported.read_text())
    for application in document["applications"]:
        if application["name"] == "Auditor":
            application["permissions"] = ["token:read"]
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(document))
    code, out, err = run(capsys, "apply", str(edited), "--profile", "prod", "--yes")
    assert code == 0, err
    assert "~ update          Auditor  (expires_at is left behind: the service cannot change" in out
    (auditor,) = prod.named("/applications", "Auditor")
    assert auditor["permissions"] == ["token:read"] and auditor["expires_at"] is None
    code, out, _ = run(capsys, "diff", str(edited), "prod", "--exit-code")
    assert code == 3 and "Nothing can be done: the target still differs" in out


async def test_a_promotion_carries_the_expiry(tenants) -> None:
    """As the console's copy to profile does it: the named objects read, planned, applied."""
    staging, prod = tenants
    staging.application("Auditor", expires_at=EXPIRY)
    staging_key = staging.http.headers["SVC-API-KEY"]
    prod_key = prod.http.headers["SVC-API-KEY"]
    base_url = str(staging.http.base_url).rstrip("/")
    source, target = AdminClient(base_url, staging_key), AdminClient(base_url, prod_key)
    async with source, target:
        only = {"applications": {"Auditor"}, "proxies": set(), "reactor_formulas": set()}
        read = await read_objects(source, only)
        plan = compute_plan(read.document, await read_objects(target, only), only=only)
        assert [(s.action, s.name) for s in plan.to_do] == [(CREATE, "Auditor")]
        result = await apply_plan(target, plan)
        assert result.complete
        assert expiry_of(prod, "Auditor") == datetime.fromisoformat(IN_UTC)
        again = compute_plan(read.document, await read_objects(target, only), only=only)
        assert again.nothing_to_do and not again.differs


def test_a_file_with_an_expiry_reads_in_utc_and_a_bad_one_is_refused(tmp_path: Path, capsys):
    from console.estate.document import FORMAT, loads

    app = {"name": "A", "type": "private", "permissions": ["token:read"]}
    read = loads(json.dumps({"format": FORMAT, "applications": [{**app, "expires_at": EXPIRY}]}))
    assert read["applications"][0]["expires_at"] == IN_UTC
    bad = {"format": FORMAT, "applications": [{**app, "expires_at": "2099-12-31 23:00"}]}
    bad["applications"].append({**app, "name": "B", "expires_at": "next week"})
    source = tmp_path / "bad.json"
    source.write_text(json.dumps(bad))
    code, _out, err = run(capsys, "diff", str(source), str(source))
    assert code == 2
    assert "applications[0].expires_at: has no time zone" in err
    assert "applications[1].expires_at: is not a time" in err


def test_an_expiry_that_has_passed_is_refused_before_anything_is_sent(tenants, tmp_path, capsys):
    """An export kept past a temporary key's expiry: the service would refuse that create
    half-way, after the objects before it; the whole file is refused first instead."""
    from console.estate.document import FORMAT

    _staging, prod = tenants
    before = prod.all("/applications")
    apps = [
        {"name": "A first", "type": "private", "permissions": ["token:read"]},
        {
            "name": "Auditor",
            "type": "private",
            "permissions": ["token:read"],
            "expires_at": "2020-01-01T00:00:00Z",
        },
    ]
    source = tmp_path / "old.json"
    source.write_text(json.dumps({"format": FORMAT, "applications": apps}))
    code, out, err = run(capsys, "apply", str(source), "--profile", "prod", "--yes")
    assert code == 2, (out, err)
    assert "  applications[1].expires_at: 2020-01-01T00:00:00Z has passed" in err
    assert prod.all("/applications") == before
