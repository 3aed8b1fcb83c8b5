"""Issue 33, configuration files checked whole, second round: what the service would refuse
half-way (a code transform with no code, a rule with no permissions, a setting that is an
object, NaN, a formula with no code, a name twice) is refused before any request; what
depends on the target (a proxy's application in neither, a type or a permission the service
does not have) before anything is sent. Exit 2, every problem listed with its path."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from estate_helpers import CODE

from console.cli import main
from console.estate.document import FORMAT


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def tenant_state(tenant: Any) -> list[Any]:
    return [tenant.all(path) for path in ("/applications", "/proxies", "/reactor-formulas")] + [
        tenant.http.get("/tenants/self").json()
    ]


@pytest.fixture
def silent(add_profile) -> Iterator[socket.socket]:
    """A profile "silent" whose service is a loopback listener that must hear nothing."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.setblocking(False)
    add_profile("silent", f"http://127.0.0.1:{listener.getsockname()[1]}", "k" * 40)
    try:
        yield listener
    finally:
        listener.close()


def heard_nothing(listener: socket.socket) -> bool:
    try:
        connection, _ = listener.accept()
    except BlockingIOError:
        return True
    connection.close()
    return False


RULE = {"description": "cards", "priority": 1, "container": "/pci/", "transform": "mask"}
GOOD_APP = {"name": "Made first", "type": "private", "permissions": ["token:read"]}

BAD_JSON = (
    "{"
    f'"format": "{FORMAT}",'
    '"settings": {"region": {"name": "eu"}, "fingerprint_tokens": true, "ratio": NaN},'
    '"applications": ['
    + json.dumps(GOOD_APP)
    + ","
    + json.dumps({**GOOD_APP, "name": "Rules", "rules": [{**RULE, "permissions": []}]})
    + ","
    + json.dumps({**GOOD_APP, "name": "Rule without", "rules": [RULE]})
    + ","
    + json.dumps({"name": "Holds nothing", "type": "private"})
    + ","
    + json.dumps(GOOD_APP)
    + "],"
    '"proxies": ['
    '{"name": "No code", "destination_url": "https://a.example.com", "request_transform": {}},'
    '{"name": "Code type", "destination_url": "https://a.example.com",'
    ' "response_transform": {"type": "code", "code": ""}},'
    '{"name": "Masked", "destination_url": "https://a.example.com",'
    ' "response_transform": {"type": "mask", "pattern": Infinity}}'
    "],"
    '"reactor_formulas": [{"name": "No code", "description": "x"}, {"name": "F", "code": '
    + json.dumps(CODE)
    + "}]"
    "}"
)
BAD_PATHS = {
    "settings.region": "must be text, not an object",
    "settings.fingerprint_tokens": 'must be text, not true or false (write "true", in quotes)',
    "settings.ratio": "is nan",
    "applications[1].rules[0].permissions": "a rule needs at least one permission",
    "applications[2].rules[0].permissions": "a rule needs at least one permission",
    "applications[3].permissions": "an application needs permissions or rules",
    "applications[4].name": '"Made first" is also the name of applications[0]',
    "proxies[0].request_transform.code": "a code transform needs its code",
    "proxies[1].response_transform.code": "a code transform needs its code",
    "proxies[2].response_transform.pattern": "is inf",
    "reactor_formulas[0].code": "the formula's code (non-empty text) is required",
}


def test_a_bad_file_is_refused_before_any_request(silent, tmp_path: Path, capsys) -> None:
    source = tmp_path / "bad.json"
    source.write_text(BAD_JSON)
    code, out, err = run(capsys, "apply", str(source), "--profile", "silent", "--yes")
    assert code == 2, (out, err)
    for path, sentence in BAD_PATHS.items():
        assert f"  {path}: {sentence}" in err, (path, err)
    assert f"has {len(BAD_PATHS)} problems; nothing was read from it" in err
    assert out == "" and "Traceback" not in err
    assert heard_nothing(silent)  # not one request: the file alone was enough
    code, _out, err = run(capsys, "diff", str(source), "silent")
    assert code == 2 and "settings.ratio: is nan" in err
    assert heard_nothing(silent)


def test_the_same_in_yaml(silent, tmp_path: Path, capsys) -> None:
    pytest.importorskip("yaml")
    source = tmp_path / "bad.yaml"
    source.write_text(
        f"format: {FORMAT}\n"
        "settings:\n  deduplicate_tokens: false\n  limits: {per_minute: 5}\n"
        "applications:\n"
        "  - {name: Web, type: private, permissions: [token:read], rules: [{description: a,"
        " priority: .nan, container: /x/, transform: mask, permissions: [token:read]}]}\n"
    )
    code, out, err = run(capsys, "apply", str(source), "--profile", "silent", "--yes")
    assert code == 2, (out, err)
    assert "  settings.deduplicate_tokens: must be text" in err
    assert "  settings.limits: must be text, not an object" in err
    assert "  applications[0].rules[0].priority: is nan" in err
    assert heard_nothing(silent)


def test_what_the_target_cannot_take_is_refused_before_anything_is_sent(
    tenants, tmp_path: Path, capsys
) -> None:
    _staging, prod = tenants
    before = tenant_state(prod)
    document = {
        "format": FORMAT,
        "applications": [
            GOOD_APP,  # would be created first, were the file not refused whole
            {"name": "Auditor", "type": "auditor", "permissions": ["token:read"]},
            {
                "name": "Web",
                "type": "private",
                "permissions": ["token:read", "token:teleport", "tenant:read"],
                "rules": [{**RULE, "permissions": ["token:reed"]}],
            },
        ],
        "proxies": [
            {"name": "Edge", "destination_url": "https://a.example.com", "application": "Web"},
            {"name": "Ghost", "destination_url": "https://a.example.com", "application": "Gone"},
        ],
    }
    source = tmp_path / "wants-too-much.json"
    source.write_text(json.dumps(document))
    code, out, err = run(capsys, "apply", str(source), "--profile", "prod", "--yes")
    assert code == 2, (out, err)
    expected = {
        "proxies[1].application": 'names the application "Gone", which is not in this file '
        "or in the target",
        "applications[1].type": '"auditor" is not a type of application this service has',
        "applications[2].permissions[1]": '"token:teleport" is not a permission this service has',
        "applications[2].permissions[2]": '"tenant:read" is not allowed for private applications',
        "applications[2].rules[0].permissions[0]": '"token:reed" is not a permission this '
        "service has",
    }
    for path, sentence in expected.items():
        assert f"  {path}: {sentence}" in err, (path, err)
    assert f'has {len(expected)} problems on profile "prod"; nothing was sent' in err
    assert "Traceback" not in err
    assert tenant_state(prod) == before  # not one of them created, not even "Made first"

    # diff says the same against the tenant, with the same exit code.
    code, _out, err = run(capsys, "diff", str(source), "prod")
    assert code == 2 and "  applications[1].type:" in err


def test_a_proxy_may_use_an_application_only_the_target_has(tenants, tmp_path, capsys) -> None:
    """A file need not hold every application: one the target has is a good reference."""
    _staging, prod = tenants
    prod.application("Web")
    document = {
        "format": FORMAT,
        "proxies": [
            {"name": "Edge", "destination_url": "https://a.example.com", "application": "Web"}
        ],
    }
    source = tmp_path / "proxy-only.json"
    source.write_text(json.dumps(document))
    code, out, err = run(capsys, "apply", str(source), "--profile", "prod", "--yes")
    assert code == 0, (out, err)
    (web,) = prod.named("/applications", "Web")
    (edge,) = prod.named("/proxies", "Edge")
    assert edge["application_id"] == web["id"]
