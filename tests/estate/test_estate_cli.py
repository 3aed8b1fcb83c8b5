"""`tenant-console export | diff | apply` in-process, against two tenants of the local service."""

from __future__ import annotations

import io
import json
import logging
import stat
from pathlib import Path

import pytest
from estate_helpers import PROXY_CODE

from console.cli import main


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_export_apply_to_an_empty_tenant_then_nothing_to_do(
    tenants, tmp_path: Path, capsys, caplog
) -> None:
    caplog.set_level(logging.DEBUG)
    _staging, prod = tenants
    exported = tmp_path / "staging.json"
    code, out, err = run(capsys, "export", "--profile", "staging", "-o", str(exported))
    assert code == 0, err
    assert stat.S_IMODE(exported.stat().st_mode) == 0o600
    document = json.loads(exported.read_text())
    names = [a["name"] for a in document["applications"]]
    assert names == ["Batch jobs", "Bootstrap management", "Checkout web"]
    assert not any("key" in a or "id" in a for a in document["applications"])
    assert [p["name"] for p in document["proxies"]] == ["Checkout", "Plain"]
    assert document["proxies"][0]["application"] == "Checkout web"
    assert document["settings"]["region_hint"] == "eu-1"
    assert exported.read_text().endswith("}\n")

    # The same export twice is the same bytes: it diffs cleanly in git.
    again = tmp_path / "again.json"
    assert run(capsys, "export", "--profile", "staging", "-o", str(again))[0] == 0
    assert again.read_bytes() == exported.read_bytes()

    keys_out = tmp_path / "keys.json"
    code, out, err = run(
        capsys, "apply", str(exported), "--profile", "prod", "--yes", "--keys-out", str(keys_out)
    )
    assert code == 0, err
    assert "+ create" in out and "Checkout web" in out
    assert "Applied:" in out
    assert stat.S_IMODE(keys_out.stat().st_mode) == 0o600
    new_keys = json.loads(keys_out.read_text())["keys"]
    assert sorted(k["application"] for k in new_keys) == ["Batch jobs", "Checkout web"]
    # The proxy uses the target's own application of that name.
    (web,) = prod.named("/applications", "Checkout web")
    (checkout,) = prod.named("/proxies", "Checkout")
    assert checkout["application_id"] == web["id"]

    code, out, _ = run(capsys, "diff", "staging", "prod", "--exit-code")
    assert code == 0, out
    assert "Nothing to do." in out

    # Applying the same file again changes nothing.
    before = prod.all("/proxies")
    code, out, _ = run(capsys, "apply", str(exported), "--profile", "prod", "--yes")
    assert code == 0
    assert "Nothing to do." in out
    assert prod.all("/proxies") == before

    # No key anywhere: exports, plans, logs.
    secrets = [k["key"] for k in new_keys] + [p["key"] for p in before]
    texts = [exported.read_text(), out, caplog.text]
    assert not any(secret in text for secret in secrets for text in texts)


def test_yaml_export_reads_back_as_the_same_configuration(tenants, tmp_path, capsys) -> None:
    pytest.importorskip("yaml")
    target = tmp_path / "staging.yaml"
    assert (
        run(capsys, "export", "--profile", "staging", "--format", "yaml", "-o", str(target))[0] == 0
    )
    text = target.read_text()
    assert "code: |" in text  # code as a block: line diffs in git
    code, out, _ = run(capsys, "diff", str(target), "staging", "--exit-code")
    assert code == 0, out


def test_an_update_of_a_proxys_code_shows_a_line_diff(tenants, tmp_path, capsys) -> None:
    staging, _prod = tenants
    exported = tmp_path / "staging.json"
    assert run(capsys, "export", "--profile", "staging", "-o", str(exported))[0] == 0
    assert run(capsys, "apply", str(exported), "--profile", "prod", "--yes")[0] == 0
    (proxy,) = staging.named("/proxies", "Checkout")
    new_code = PROXY_CODE.replace("'x'", "'masked'")
    body = {k: proxy[k] for k in ("name", "destination_url", "configuration", "require_auth")}
    body["request_transform"] = {"code": new_code}
    body["application"] = {"id": proxy["application_id"]}
    body["configuration"] = {**proxy["configuration"], "API_TOKEN": "rotated-secret"}
    staging.put(f"/proxies/{proxy['id']}", body)

    code, out, _ = run(capsys, "diff", "staging", "prod", "--exit-code")
    assert code == 3
    assert "~ update          Checkout" in out
    assert "request_transform.code:" in out
    assert "-  req.body.card = 'x';" in out
    assert "+  req.body.card = 'masked';" in out
    assert "configuration.API_TOKEN: changed (value not shown)" in out
    assert "rotated-secret" not in out and "s3cret-token-value" not in out
    assert "= unchanged" not in out  # only with --all


def test_duplicate_names_are_reported_and_left_alone(tenants, tmp_path, capsys) -> None:
    _staging, prod = tenants
    prod.proxy("Checkout", None, configuration={"A": "1"})
    prod.proxy("Checkout", None, configuration={"A": "2"})
    exported = tmp_path / "staging.json"
    assert run(capsys, "export", "--profile", "staging", "-o", str(exported))[0] == 0
    code, out, _ = run(capsys, "apply", str(exported), "--profile", "prod", "--yes")
    assert code == 0
    assert (
        "! duplicate name  Checkout  (the name is not unique (2 in the target): left alone)" in out
    )
    assert len(prod.named("/proxies", "Checkout")) == 2  # neither was touched
    assert {p["configuration"]["A"] for p in prod.named("/proxies", "Checkout")} == {"1", "2"}
    assert len(prod.named("/proxies", "Plain")) == 1


def test_redacted_export_round_trip_refuses_to_apply(tenants, tmp_path, capsys) -> None:
    _staging, prod = tenants
    exported = tmp_path / "redacted.json"
    assert run(capsys, "export", "--profile", "staging", "--redact", "-o", str(exported))[0] == 0
    text = exported.read_text()
    assert "s3cret-token-value" not in text and "<redacted>" in text
    code, _out, err = run(capsys, "apply", str(exported), "--profile", "prod", "--yes")
    assert code == 1
    assert "redacted configuration values" in err and "proxy Checkout: API_TOKEN" in err
    assert "Nothing was changed." in err
    assert prod.all("/proxies") == []
    assert len(prod.all("/applications")) == 1  # only its own bootstrap application


def test_read_only_refuses_apply(tenants, tmp_path, capsys) -> None:
    _staging, prod = tenants
    exported = tmp_path / "staging.json"
    assert run(capsys, "export", "--profile", "staging", "-o", str(exported))[0] == 0
    for args in (
        ["--read-only", "apply", str(exported), "--profile", "prod", "--yes"],
        ["apply", str(exported), "--profile", "prod", "--yes", "--read-only"],
    ):
        code, _, err = run(capsys, *args)
        assert code == 1
        assert "Read-only mode: apply is refused" in err
    assert prod.all("/proxies") == []


def test_apply_asks_first_and_refuses_without_a_terminal(
    tenants, tmp_path, capsys, monkeypatch
) -> None:
    _staging, prod = tenants
    exported = tmp_path / "staging.json"
    assert run(capsys, "export", "--profile", "staging", "-o", str(exported))[0] == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))  # not a terminal
    code, out, err = run(capsys, "apply", str(exported), "--profile", "prod")
    assert code == 1
    assert "pass --yes" in err
    assert prod.all("/proxies") == []

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdin", Terminal("\n"))  # enter: the default is no
    code, out, _ = run(capsys, "apply", str(exported), "--profile", "prod")
    assert code == 1 and "[y/N]" in out and "Not applied" in out
    assert prod.all("/proxies") == []
    monkeypatch.setattr("sys.stdin", Terminal("y\n"))
    code, out, _ = run(capsys, "apply", str(exported), "--profile", "prod")
    assert code == 0
    assert len(prod.all("/proxies")) == 2
    assert "New applications' keys (shown once" in out


def test_prune_deletes_only_what_it_lists_and_never_its_own_key(tenants, tmp_path, capsys) -> None:
    _staging, prod = tenants
    extra_app = prod.application("Old app")
    prod.proxy("Old proxy", extra_app["id"])
    exported = tmp_path / "staging.json"
    assert run(capsys, "export", "--profile", "staging", "-o", str(exported))[0] == 0
    code, out, _ = run(capsys, "apply", str(exported), "--profile", "prod", "--yes")
    assert "? only in target  Old proxy  (kept; apply --prune deletes it)" in out
    assert prod.named("/proxies", "Old proxy")

    code, out, err = run(capsys, "apply", str(exported), "--profile", "prod", "--yes", "--prune")
    assert code == 0, err
    lines = out.splitlines()
    assert "  - delete          Old proxy" in lines
    assert "  - delete          Old app" in lines
    done = [line for line in lines if line.startswith("  done: deleted")]
    assert done == ["  done: deleted proxy Old proxy", "  done: deleted application Old app"]
    assert not prod.named("/proxies", "Old proxy") and not prod.named("/applications", "Old app")
    assert run(capsys, "diff", "staging", "prod", "--exit-code")[0] == 0


def test_diff_of_a_file_that_is_not_a_configuration(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"applications": []}')
    code, _, err = run(capsys, "diff", str(bad), str(bad))
    assert code == 2  # an unusable file is an unusable argument (issue 22)
    assert "is not a tenant configuration" in err


def test_prune_never_deletes_the_application_whose_key_applies(tenants, tmp_path, capsys) -> None:
    _staging, prod = tenants
    exported = tmp_path / "staging.json"
    assert run(capsys, "export", "--profile", "staging", "-o", str(exported))[0] == 0
    document = json.loads(exported.read_text())
    document["applications"] = [
        a for a in document["applications"] if a["name"] != "Bootstrap management"
    ]
    exported.write_text(json.dumps(document))
    code, out, err = run(capsys, "apply", str(exported), "--profile", "prod", "--yes", "--prune")
    assert code == 0, err
    kept = "Bootstrap management  (kept: its key is the one this plan is applied with)"
    assert f"? only in target  {kept}" in out
    assert prod.named("/applications", "Bootstrap management")


def test_settings_the_file_does_not_name_are_sent_back_unchanged(tenants, tmp_path, capsys) -> None:
    _staging, prod = tenants
    tenant = prod.http.get("/tenants/self").json()
    settings = {**tenant["settings"], "disable_ephemeral_proxy": "update_existing"}
    prod.put("/tenants/self", {"name": tenant["name"], "settings": settings})
    exported = tmp_path / "staging.json"
    assert run(capsys, "export", "--profile", "staging", "-o", str(exported))[0] == 0
    code, out, _ = run(capsys, "apply", str(exported), "--profile", "prod", "--yes")
    assert code == 0
    assert "? only in target  disable_ephemeral_proxy" in out
    after = prod.http.get("/tenants/self").json()
    assert after["name"] == "Prod"  # the target keeps its own name
    assert after["settings"]["disable_ephemeral_proxy"] == "update_existing"
    assert after["settings"]["region_hint"] == "eu-1"


def test_exports_never_carry_key_ids_or_material(tenants, tmp_path: Path, capsys) -> None:
    """Issue 26: applications now list their keys; neither the ids nor a new key's material
    reaches an export, in either format."""
    staging, _prod = tenants
    apps = staging.all("/applications")
    made = staging.http.post(f"/applications/{apps[0]['id']}/keys").json()
    key_ids = [k["id"] for a in apps for k in a["keys"]] + [made["id"]]
    for fmt in ("json", "yaml"):
        exported = tmp_path / f"staging.{fmt}"
        code, _out, err = run(
            capsys, "export", "--profile", "staging", "--format", fmt, "-o", str(exported)
        )
        assert code == 0, err
        text = exported.read_text()
        assert made["key"] not in text
        assert not [k for k in key_ids if k in text]
        assert "keys" not in text
