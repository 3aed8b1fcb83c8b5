"""Proxies as the hosted service has them now (issue 35): transform pipelines per side, the
single transforms beside them, `PATCH` as JSON merge-patch, `disable_detokenization`,
`timeout` and `state`; and a data dir of the previous schema brought forward."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import httpx
import pytest
from service_http import Caller, assert_invalid, assert_problem, describe, http_client

CODE = "module.exports = async (req) => ({ body: req.args.body, headers: req.args.headers });"
MASK = {"type": "mask", "matcher": "regex", "expression": '"pan":\\s*"(\\d+)"', "replacement": "*"}
TOKENIZE = {
    "type": "tokenize",
    "options": {"token": {"type": "card", "data": "{{ args.body.card }}"}, "identifier": "card"},
}
APPEND_HEADER = {"type": "append_header", "options": {"value": "yes", "location": "X-Masked"}}
APPEND_JSON = {"type": "append_json", "options": {"value": "{{ t.id }}", "location": "$.token"}}
APPEND_TEXT = {"type": "append_text", "options": {"value": "\n-- masked"}}


@pytest.fixture
def api(service) -> Any:  # type: ignore[no-untyped-def]
    tenant = service.new_tenant("Pipelines tenant")
    with http_client(service.base_url) as client:
        yield Caller(client, tenant.key)


def proxy_body(**extra: Any) -> dict[str, Any]:
    return {"name": "Pipelines", "destination_url": "https://example.com/api", **extra}


def test_pipelines_are_kept_as_given_and_read_back_as_arrays(api: Caller) -> None:
    steps = {
        "request_transforms": [{"type": "code", "code": CODE}, TOKENIZE],
        "response_transforms": [MASK, APPEND_HEADER, APPEND_JSON, APPEND_TEXT],
    }
    created = api.created("/proxies", proxy_body(**steps))
    assert created["request_transforms"] == steps["request_transforms"]
    assert created["response_transforms"] == steps["response_transforms"]
    assert created["request_transform"] is None, "two steps: no single transform"
    assert created["response_transform"] is None
    assert created["state"] == "active"
    assert created["disable_detokenization"] is False and created["timeout"] is None
    read = api.get(f"/proxies/{created['id']}").json()
    assert read == created


def test_no_transforms_reads_as_empty_pipelines(api: Caller) -> None:
    created = api.created("/proxies", proxy_body())
    assert created["request_transforms"] == [] and created["response_transforms"] == []
    assert created["request_transform"] is None and created["response_transform"] is None


def test_a_single_transform_is_a_one_step_pipeline_and_back(api: Caller) -> None:
    created = api.created("/proxies", proxy_body(request_transform={"code": CODE}))
    assert created["request_transforms"] == [{"code": CODE}]
    assert created["request_transform"] == {"code": CODE}
    one_step = api.created("/proxies", proxy_body(response_transforms=[MASK]))
    assert one_step["response_transform"] == MASK, "the pipeline's only step"


@pytest.mark.parametrize(
    ("side", "step"),
    [
        ("request", MASK),
        ("request", APPEND_HEADER),
        ("request", APPEND_JSON),
        ("request", APPEND_TEXT),
        ("request", {"type": "sign", "options": {}}),
        ("response", {"type": "sign", "options": {}}),
    ],
)
def test_a_step_its_side_does_not_take_is_refused(api: Caller, side: str, step: Any) -> None:
    body = proxy_body(**{f"{side}_transforms": [{"code": CODE}, step]})
    errors = assert_invalid(api.post("/proxies", json=body), f"{side}_transforms[1].type")
    assert "transforms are code" in errors[f"{side}_transforms[1].type"][0]


@pytest.mark.parametrize(
    ("step", "field"),
    [
        (
            {"type": "mask", "matcher": "regex", "replacement": "*", "expression": "\\d+"},
            "expression",
        ),
        (
            {"type": "mask", "matcher": "regex", "replacement": "**", "expression": "(x)"},
            "replacement",
        ),
        ({"type": "mask", "matcher": "luhn", "replacement": "*"}, "matcher"),
        ({"type": "tokenize", "options": {"identifier": "card"}}, "options.token"),
        ({"type": "append_header", "options": {"value": "v"}}, "options.location"),
        ({"type": "append_text", "options": {}}, "options.value"),
        ({"type": "code"}, "code"),
    ],
)
def test_each_step_is_checked_for_what_its_type_needs(api: Caller, step: Any, field: str) -> None:
    body = proxy_body(response_transforms=[step])
    assert_invalid(api.post("/proxies", json=body), f"response_transforms[0].{field}")


def test_a_pipeline_and_its_single_transform_not_both(api: Caller) -> None:
    body = proxy_body(request_transform={"code": CODE}, request_transforms=[MASK, MASK])
    assert_invalid(api.post("/proxies", json=body), "request_transforms")
    body = proxy_body(response_transform=MASK, response_transforms=[APPEND_TEXT])
    assert_invalid(api.post("/proxies", json=body), "response_transforms")


def test_a_proxy_as_read_can_be_sent_back(api: Caller) -> None:
    """Read, it carries both the pipeline and, for a one-step one, the single transform:
    both are accepted when they say the same (as undo and round trips send them)."""
    created = api.created(
        "/proxies",
        proxy_body(request_transform={"type": "code", "code": CODE}, response_transforms=[MASK]),
    )
    response = api.put(f"/proxies/{created['id']}", json=created)
    assert response.status_code == 200, describe(response)
    assert response.json()["request_transforms"] == [{"code": CODE}]
    assert response.json()["response_transform"] == MASK


def test_a_pipeline_holds_at_most_ten_steps(api: Caller) -> None:
    body = proxy_body(response_transforms=[APPEND_TEXT] * 11)
    assert_invalid(api.post("/proxies", json=body), "response_transforms")
    assert api.post("/proxies", json=proxy_body(response_transforms=[APPEND_TEXT] * 10))


def test_timeout_and_disable_detokenization(api: Caller) -> None:
    created = api.created("/proxies", proxy_body(timeout=12, disable_detokenization=True))
    assert created["timeout"] == 12 and created["disable_detokenization"] is True
    for timeout in (0, 31, "5", 12.5, True):
        assert_invalid(api.post("/proxies", json=proxy_body(timeout=timeout)), "timeout")
    whole = api.created("/proxies", proxy_body(timeout=12.0))
    assert whole["timeout"] == 12, "JSON Schema's integer: 12.0 is 12"
    updated = api.put(f"/proxies/{created['id']}", json=proxy_body())
    assert updated.json()["timeout"] is None, "a full update without it: the default"
    assert updated.json()["disable_detokenization"] is False


def patch(api: Caller, proxy_id: str, body: Any, **kwargs: Any) -> httpx.Response:
    return api.request(
        "PATCH",
        f"/proxies/{proxy_id}",
        content=json.dumps(body),
        headers={"Content-Type": kwargs.get("content_type", "application/merge-patch+json")},
    )


def test_patch_merges_configuration_key_by_key_and_replaces_a_pipeline(api: Caller) -> None:
    created = api.created(
        "/proxies",
        proxy_body(
            configuration={"A": "1", "B": "2"},
            request_transforms=[{"code": CODE}],
            response_transforms=[MASK, APPEND_TEXT],
            timeout=5,
        ),
    )
    response = patch(
        api,
        created["id"],
        {"configuration": {"B": None, "C": "3"}, "response_transforms": [APPEND_HEADER]},
    )
    assert response.status_code == 204, describe(response)
    assert response.content == b""
    read = api.get(f"/proxies/{created['id']}").json()
    assert read["configuration"] == {"A": "1", "C": "3"}
    assert read["response_transforms"] == [APPEND_HEADER]
    assert read["request_transforms"] == [{"code": CODE}], "not given: kept"
    assert read["timeout"] == 5 and read["name"] == "Pipelines"
    assert read["modified_at"] >= created["modified_at"]


def test_patch_with_plain_json_and_null_removing_members(api: Caller) -> None:
    created = api.created(
        "/proxies",
        proxy_body(request_transforms=[{"code": CODE}], timeout=5, configuration={"A": "1"}),
    )
    body = {"request_transforms": None, "timeout": None, "configuration": None, "name": "New"}
    response = patch(api, created["id"], body, content_type="application/json")
    assert response.status_code == 204, describe(response)
    read = api.get(f"/proxies/{created['id']}").json()
    assert read["request_transforms"] == [] and read["timeout"] is None
    assert read["configuration"] is None and read["name"] == "New"


def test_patch_with_a_single_transform_replaces_its_side(api: Caller) -> None:
    created = api.created("/proxies", proxy_body(response_transforms=[MASK, APPEND_TEXT]))
    assert patch(api, created["id"], {"response_transform": MASK}).status_code == 204
    read = api.get(f"/proxies/{created['id']}").json()
    assert read["response_transforms"] == [MASK] and read["response_transform"] == MASK
    assert patch(api, created["id"], {"response_transform": None}).status_code == 204
    assert api.get(f"/proxies/{created['id']}").json()["response_transforms"] == []


def test_patch_validates_the_merged_proxy(api: Caller) -> None:
    created = api.created("/proxies", proxy_body())
    assert_invalid(patch(api, created["id"], {"name": None}), "name")
    assert_invalid(patch(api, created["id"], {"destination_url": "http://x"}), "destination_url")
    assert_invalid(
        patch(api, created["id"], {"request_transforms": [MASK]}), "request_transforms[0].type"
    )
    assert_invalid(patch(api, created["id"], {"require_auth": "yes"}), "require_auth")
    assert_problem(patch(api, created["id"], ["not", "an", "object"]), 400)
    assert api.get(f"/proxies/{created['id']}").json() == created, "nothing changed"


def test_patch_of_an_unknown_proxy_is_404_and_needs_proxy_update(api: Caller, service) -> None:  # type: ignore[no-untyped-def]
    assert_problem(patch(api, "00000000-0000-4000-8000-000000000000", {"name": "x"}), 404)
    created = api.created("/proxies", proxy_body())
    reader = Caller(api.client, service.new_key(["proxy:read"], api.key))
    assert_problem(patch(reader, created["id"], {"name": "x"}), 403)
    writer = Caller(api.client, service.new_key(["proxy:update"], api.key))
    assert patch(writer, created["id"], {"name": "x"}).status_code == 204


def test_a_data_dir_of_the_previous_schema_keeps_its_transforms(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Each single transform becomes a one-step pipeline; the new fields take defaults."""
    from console.service.schema import MIGRATIONS, migrate

    conn = sqlite3.connect(tmp_path / "old.db", isolation_level=None)
    for migration in MIGRATIONS[:4]:
        migration(conn)
    conn.execute("PRAGMA user_version = 4")
    conn.execute(
        "INSERT INTO tenants (id, owner_id, name, created_at) VALUES ('t', 'o', 'T', 'now')"
    )
    conn.execute(
        "INSERT INTO proxies (id, tenant_id, key, name, name_folded, destination_url,"
        " request_transform, response_transform, require_auth, created_at)"
        " VALUES ('p', 't', 'k', 'P', 'p', 'https://x.example', ?, NULL, 1, 'now')",
        (json.dumps({"code": CODE}),),
    )
    assert migrate(conn) == 4
    conn.row_factory = sqlite3.Row
    row = conn.execute("SELECT * FROM proxies").fetchone()
    assert json.loads(row["request_transforms"]) == [{"code": CODE}]
    assert json.loads(row["response_transforms"]) == []
    assert row["state"] == "active" and row["disable_detokenization"] == 0
    assert row["timeout"] is None
    assert "request_transform" not in row.keys()  # noqa: SIM118 (a Row's `in` looks at values)
