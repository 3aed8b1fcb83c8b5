"""Reactors and proxies' pipelines travel: `export` then `apply` into another tenant of the
local service, the reactor's application by name, its configuration redacted by `--redact`
and never shown in a plan, and each pipeline step's code checked and shown item by item."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from estate_helpers import PROXY_CODE

from console.cli import main
from console.estate.document import FORMAT

REACTOR_CODE = "module.exports = async function (req) {\n  return { raw: req.args };\n};\n"
SECRET = "reactor-secret-9b1c2d3e"
STEP_CODE = "module.exports = async function (req) {\n  return req.args;\n};\n"


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def seed_reactor(staging: Any) -> dict[str, Any]:
    (web,) = staging.named("/applications", "Checkout web")
    return staging.post(
        "/reactors",
        {
            "name": "Enricher",
            "code": REACTOR_CODE,
            "application": {"id": web["id"]},
            "configuration": {"API_KEY": SECRET},
        },
    )


def seed_pipeline(staging: Any) -> dict[str, Any]:
    return staging.post(
        "/proxies",
        {
            "name": "Piped",
            "destination_url": "https://example.com/piped",
            "request_transforms": [{"type": "code", "code": PROXY_CODE}, {"code": STEP_CODE}],
            "response_transforms": [
                {
                    "type": "mask",
                    "matcher": "regex",
                    "expression": "(\\d{12})\\d{4}",
                    "replacement": "*",
                }
            ],
        },
    )


def test_reactors_and_pipelines_round_trip_into_another_tenant(
    tenants, tmp_path: Path, capsys
) -> None:
    staging, prod = tenants
    seed_reactor(staging)
    seed_pipeline(staging)
    exported = tmp_path / "staging.json"
    code, _out, err = run(capsys, "export", "--profile", "staging", "-o", str(exported))
    assert code == 0, err
    document = json.loads(exported.read_text())
    (reactor,) = document["reactors"]
    assert reactor == {
        "name": "Enricher",
        "application": "Checkout web",
        "code": REACTOR_CODE,
        "runtime": None,
        "configuration": {"API_KEY": SECRET},
    }
    (piped,) = [p for p in document["proxies"] if p["name"] == "Piped"]
    assert piped["request_transform"] is None
    assert [s.get("code") for s in piped["request_transforms"]] == [PROXY_CODE, STEP_CODE]
    assert piped["response_transform"]["type"] == "mask"  # one step: the single field

    code, out, err = run(capsys, "apply", str(exported), "--profile", "prod", "--yes")
    assert code == 0, err
    assert SECRET not in out
    (web,) = prod.named("/applications", "Checkout web")
    (made,) = prod.named("/reactors", "Enricher")
    assert made["application"]["id"] == web["id"]
    assert (made["code"], made["configuration"]) == (REACTOR_CODE, {"API_KEY": SECRET})
    (copied,) = prod.named("/proxies", "Piped")
    assert [s.get("code") for s in copied["request_transforms"]] == [PROXY_CODE, STEP_CODE]

    code, out, _ = run(capsys, "diff", "staging", "prod", "--exit-code")
    assert code == 0, out


def test_a_reactors_runtime_travels(tenants, tmp_path, capsys) -> None:
    staging, prod = tenants
    (web,) = staging.named("/applications", "Checkout web")
    runtime = {"image": "node22", "timeout": 5, "permissions": ["token:read"], "async": True}
    staging.post(
        "/reactors",
        {
            "name": "Timed",
            "code": REACTOR_CODE,
            "application": {"id": web["id"]},
            "runtime": runtime,
        },
    )
    exported = tmp_path / "staging.json"
    assert run(capsys, "export", "--profile", "staging", "-o", str(exported))[0] == 0
    (reactor,) = json.loads(exported.read_text())["reactors"]
    assert reactor["runtime"] == {k: runtime[k] for k in sorted(runtime)}
    assert run(capsys, "apply", str(exported), "--profile", "prod", "--yes")[0] == 0
    (made,) = prod.named("/reactors", "Timed")
    assert {k: made["runtime"].get(k) for k in runtime} == runtime
    code, out, _ = run(capsys, "diff", "staging", "prod", "--exit-code")
    assert code == 0, out


def test_a_changed_reactor_and_pipeline_step_show_in_the_plan(tenants, tmp_path, capsys) -> None:
    staging, _prod = tenants
    reactor = seed_reactor(staging)
    proxy = seed_pipeline(staging)
    exported = tmp_path / "staging.json"
    assert run(capsys, "export", "--profile", "staging", "-o", str(exported))[0] == 0
    assert run(capsys, "apply", str(exported), "--profile", "prod", "--yes")[0] == 0
    staging.put(
        f"/reactors/{reactor['id']}",
        {
            "name": "Enricher",
            "code": REACTOR_CODE.replace("req.args", "{ seen: true }"),
            "application": {"id": reactor["application"]["id"]},
            "configuration": {"API_KEY": "rotated-reactor-secret"},
        },
    )
    steps = [{"code": PROXY_CODE}, {"code": "module.exports = async function (req) {\n"}]
    staging.put(
        f"/proxies/{proxy['id']}",
        {
            "name": "Piped",
            "destination_url": "https://example.com/piped",
            "request_transforms": steps,
        },
    )
    code, out, _ = run(capsys, "diff", "staging", "prod", "--exit-code")
    assert code == 3
    assert "reactor" in out.lower() and "~ update          Enricher" in out
    assert "configuration.API_KEY: changed (value not shown)" in out
    assert "rotated-reactor-secret" not in out and SECRET not in out
    assert "request_transforms[1].code:" in out
    assert "request_transforms[0]" not in out  # unchanged steps are not listed


def test_redacted_export_hides_a_reactors_configuration(tenants, tmp_path, capsys) -> None:
    staging, _prod = tenants
    seed_reactor(staging)
    exported = tmp_path / "redacted.json"
    assert run(capsys, "export", "--profile", "staging", "--redact", "-o", str(exported))[0] == 0
    text = exported.read_text()
    assert SECRET not in text
    (reactor,) = json.loads(text)["reactors"]
    assert reactor["configuration"] == {"API_KEY": "<redacted>"}


def test_the_file_check_reports_a_reactors_problems(tenants, tmp_path, capsys) -> None:
    document = {
        "format": FORMAT,
        "reactors": [
            {"name": "No code", "runtime": {"image": "node99", "timeout": 99}},
            {"name": "Bad config", "code": REACTOR_CODE, "configuration": {"A": 1}},
        ],
        "proxies": [
            {
                "name": "Both",
                "destination_url": "https://example.com",
                "request_transform": {"code": STEP_CODE},
                "request_transforms": [{"type": "code"}],
            }
        ],
    }
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document))
    code, out, err = run(capsys, "diff", str(path), "staging")
    text = out + err
    assert code == 2, text
    assert "reactors[0].code" in text
    assert "reactors[0].runtime.image" in text and "reactors[0].runtime.timeout" in text
    assert "reactors[1].configuration.A" in text
    assert "proxies[0].request_transforms" in text and "not both" in text
    assert "proxies[0].request_transforms[0].code" in text
