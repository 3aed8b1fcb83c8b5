"""Success paths of every endpoint, the demo data, and the `serve` / `new-tenant` commands.

The big matrices (authorization, validation, isolation, concurrency, fuzzing) live in the
sibling modules; this one shows that each endpoint does its job when used as intended.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from demo_service import FROZEN
from service_http import masked_cards_rules

KEY_HEADER = "SVC-API-KEY"
UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


@pytest.fixture(scope="module")
def http(service) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=service.base_url, timeout=30.0) as client:
        yield client


class Api:
    """One tenant's bootstrap key against the shared service."""

    def __init__(self, http: httpx.Client, key: str) -> None:
        self.http = http
        self.key = key

    def call(self, method: str, path: str, key: str | None = None, **kw: Any) -> httpx.Response:
        headers = {KEY_HEADER: key or self.key, **kw.pop("headers", {})}
        return self.http.request(method, path, headers=headers, **kw)

    def ok(self, method: str, path: str, status: int = 200, **kw: Any) -> Any:
        response = self.call(method, path, **kw)
        assert response.status_code == status, response.text
        return response.json() if response.content else None


@pytest.fixture
def tenant(service):
    return service.new_tenant("Endpoints")


@pytest.fixture
def api(http, tenant) -> Api:
    return Api(http, tenant.key)


def private_app(name: str = "Checkout backend", **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": "private", "permissions": ["token:create", "token:use"], **extra}


def proxy_body(name: str = "Stripe", **extra: Any) -> dict[str, Any]:
    return {"name": name, "destination_url": "https://api.stripe.com/v1/charges", **extra}


def formula_body(name: str = "Normalize", **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "type": "private",
        "code": "module.exports = async function (req) { return { raw: req.args }; };",
        "configuration": [{"name": "REGION", "type": "string"}],
        "request_parameters": [{"name": "card.number", "type": "string", "optional": False}],
        **extra,
    }


def problem(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["status"] == status and body["title"] and body["detail"]
    return body


# -- permissions -----------------------------------------------------------------------------


def test_permissions_lists_the_catalogue_and_filters_by_type(api: Api) -> None:
    everything = api.ok("GET", "/permissions")
    # the specification's, reactor:invoke, webhook:read|create|update|delete
    assert len(everything) == 30 + 1 + 4
    assert {"type", "description", "application_types"} <= set(everything[0])
    management = api.ok("GET", "/permissions", params={"application_type": "management"})
    assert {p["type"] for p in management} >= {"application:read", "report:read"}
    assert all("management" in p["application_types"] for p in management)
    public = api.ok("GET", "/permissions", params={"application_type": "public"})
    assert {p["type"] for p in public} == {"token:create", "token:update"}
    errors = problem(api.call("GET", "/permissions", params={"application_type": "x"}), 400)
    assert "application_type" in errors["errors"]


# -- applications ----------------------------------------------------------------------------


def test_application_create_get_update_delete(api: Api, tenant) -> None:
    rules = masked_cards_rules()
    created = api.ok("POST", "/applications", 201, json=private_app(rules=rules))
    assert UUID_RE.match(created["id"]) and created["tenant_id"] == tenant.tenant_id
    assert len(created["key"]) >= 22  # >= 128 bits of randomness
    assert created["rules"] == rules
    assert created["created_by"] == tenant.application_id == created["modified_by"]
    assert created["created_at"].endswith("+00:00")

    fetched = api.ok("GET", f"/applications/{created['id']}")
    assert "key" not in fetched or fetched["key"] is None
    assert {k: v for k, v in created.items() if k != "key"} == fetched

    updated = api.ok(
        "PUT",
        f"/applications/{created['id']}",
        json={"name": "Checkout backend v2", "permissions": ["token:read"], "rules": []},
    )
    assert updated["name"] == "Checkout backend v2" and updated["permissions"] == ["token:read"]
    assert updated["rules"] == [] and updated["type"] == "private"
    assert updated["created_at"] == created["created_at"]
    assert updated["modified_at"] >= created["modified_at"]

    assert api.call("DELETE", f"/applications/{created['id']}").status_code == 204
    problem(api.call("GET", f"/applications/{created['id']}"), 404)


def test_applications_key_returns_the_callers_own_application(api: Api, tenant) -> None:
    me = api.ok("GET", "/applications/key")
    assert me["id"] == tenant.application_id and me["type"] == "management"
    assert "key" not in me


def test_regenerate_returns_a_new_key_and_kills_the_old_one(api: Api) -> None:
    created = api.ok(
        "POST",
        "/applications",
        201,
        json={"name": "Rotating", "type": "management", "permissions": ["application:read"]},
    )
    old = created["key"]
    regenerated = api.ok("POST", f"/applications/{created['id']}/regenerate")
    assert regenerated["key"] and regenerated["key"] != old
    problem(api.call("GET", "/applications/key", key=old), 401)
    assert (
        api.call("GET", "/applications/key", key=regenerated["key"]).json()["id"] == created["id"]
    )


def test_application_list_pages_in_creation_order_and_filters_by_id(api: Api, tenant) -> None:
    made = [api.ok("POST", "/applications", 201, json=private_app(f"App {i}")) for i in range(5)]
    page = api.ok("GET", "/applications", params={"page": 2, "size": 2})
    assert page["pagination"] == {
        "total_items": 6,
        "page_number": 2,
        "page_size": 2,
        "total_pages": 3,
    }
    assert [a["id"] for a in page["data"]] == [made[1]["id"], made[2]["id"]]
    first = api.ok("GET", "/applications")["data"][0]
    assert first["id"] == tenant.application_id  # the bootstrap application is the oldest
    chosen = api.ok("GET", "/applications", params={"id": [made[4]["id"], made[0]["id"]]})
    assert [a["id"] for a in chosen["data"]] == [made[0]["id"], made[4]["id"]]
    assert chosen["pagination"]["total_items"] == 2
    past = api.ok("GET", "/applications", params={"page": 9})
    assert past["data"] == [] and past["pagination"]["total_items"] == 6


def test_an_expiring_application_is_listed_until_it_expires(api: Api) -> None:
    soon = (datetime.now(UTC) + timedelta(days=2)).isoformat()
    app = api.ok("POST", "/applications", 201, json=private_app(expires_at=soon))
    assert datetime.fromisoformat(app["expires_at"]) == datetime.fromisoformat(soon)
    assert app["id"] in [a["id"] for a in api.ok("GET", "/applications")["data"]]


# -- proxies ---------------------------------------------------------------------------------


def test_proxy_create_get_update_delete(api: Api, tenant) -> None:
    backend = api.ok("POST", "/applications", 201, json=private_app())
    body = proxy_body(
        request_transform={"code": "module.exports = async (req) => req.args;"},
        application={"id": backend["id"]},
        configuration={"STRIPE_API_VERSION": "2024-06-20"},
    )
    created = api.ok("POST", "/proxies", 201, json=body)
    assert created["key"].isalnum() and len(created["key"]) >= 16
    assert created["application_id"] == backend["id"] and "application" not in created
    assert created["require_auth"] is True and created["response_transform"] is None
    assert created["tenant_id"] == tenant.tenant_id
    assert api.ok("GET", f"/proxies/{created['id']}") == created

    updated = api.ok(
        "PUT", f"/proxies/{created['id']}", json=proxy_body("Stripe v2", require_auth=False)
    )
    assert updated["name"] == "Stripe v2" and updated["require_auth"] is False
    assert updated["application_id"] is None and updated["request_transform"] is None
    assert updated["key"] == created["key"]  # the invocation key survives an update

    assert api.call("DELETE", f"/proxies/{created['id']}").status_code == 204
    problem(api.call("GET", f"/proxies/{created['id']}"), 404)


def test_proxy_list_filters_by_wildcard_name_and_id(api: Api) -> None:
    empty = api.ok("GET", "/proxies")
    assert empty == {
        "pagination": {"total_items": 0, "page_number": 1, "page_size": 20, "total_pages": 0},
        "data": [],
    }
    names = ["Stripe charges", "Adyen payouts", "stripe refunds", "Webhook relay"]
    made = {n: api.ok("POST", "/proxies", 201, json=proxy_body(n)) for n in names}
    found = api.ok("GET", "/proxies", params={"name": "STRIPE"})
    assert [p["name"] for p in found["data"]] == ["Stripe charges", "stripe refunds"]
    found = api.ok("GET", "/proxies", params={"name": "a*pay"})
    assert [p["name"] for p in found["data"]] == ["Adyen payouts"]
    found = api.ok("GET", "/proxies", params={"name": "%"})
    assert found["data"] == []  # LIKE's own wildcards are plain characters
    by_id = api.ok("GET", "/proxies", params={"id": made["Webhook relay"]["id"]})
    assert [p["name"] for p in by_id["data"]] == ["Webhook relay"]


# -- reactor formulas ------------------------------------------------------------------------


def test_formula_list_shows_the_official_catalogue_to_every_tenant(api: Api, service) -> None:
    listed = api.ok("GET", "/reactor-formulas", params={"size": 100})["data"]
    official = [f for f in listed if f["type"] == "official"]
    assert len([f for f in official if f["status"] == "verified"]) >= 3
    other = Api(api.http, service.new_tenant("Another").key)
    theirs = other.ok("GET", "/reactor-formulas", params={"size": 100})["data"]
    assert [f["id"] for f in theirs] == [f["id"] for f in official]
    one = official[0]
    assert api.ok("GET", f"/reactor-formulas/{one['id']}") == one
    assert "module.exports" in one["code"]
    problem(api.call("PUT", f"/reactor-formulas/{one['id']}", json=formula_body()), 403)
    problem(api.call("DELETE", f"/reactor-formulas/{one['id']}"), 403)
    problem(api.call("POST", "/reactor-formulas", json=formula_body(type="official")), 403)


def test_private_formula_create_get_update_delete(api: Api, tenant) -> None:
    created = api.ok("POST", "/reactor-formulas", 201, json=formula_body())
    assert created["type"] == "private" and created["status"] == "verified"
    assert created["configuration"] == [{"name": "REGION", "description": None, "type": "string"}]
    assert created["request_parameters"][0]["name"] == "card.number"
    assert created["created_by"] == tenant.application_id
    assert api.ok("GET", f"/reactor-formulas/{created['id']}") == created

    listed = api.ok("GET", "/reactor-formulas", params={"name": "normal"})["data"]
    assert created["id"] in [f["id"] for f in listed]

    updated = api.ok(
        "PUT",
        f"/reactor-formulas/{created['id']}",
        json=formula_body("Normalize v2", description="Second cut", configuration=[]),
    )
    assert updated["name"] == "Normalize v2" and updated["description"] == "Second cut"
    assert updated["configuration"] == [] and updated["status"] == "verified"

    assert api.call("DELETE", f"/reactor-formulas/{created['id']}").status_code == 204
    problem(api.call("GET", f"/reactor-formulas/{created['id']}"), 404)


# -- tenant ----------------------------------------------------------------------------------


def test_tenant_get_and_update_keeps_settings_unless_sent(api: Api, tenant) -> None:
    me = api.ok("GET", "/tenants/self")
    assert me["id"] == tenant.tenant_id and me["name"] == "Endpoints"
    assert me["settings"] == {"fingerprint_tokens": "true", "deduplicate_tokens": "true"}
    settings = {"fingerprint_tokens": "false", "deduplicate_tokens": "true"}
    changed = api.ok("PUT", "/tenants/self", json={"name": "Renamed", "settings": settings})
    assert changed["settings"] == settings and changed["modified_by"] == tenant.application_id
    renamed = api.ok("PUT", "/tenants/self", json={"name": "Renamed again"})
    assert renamed["name"] == "Renamed again" and renamed["settings"] == settings


def test_usage_report_starts_at_zero_and_shows_what_was_set(api: Api, service, tenant) -> None:
    report = api.ok("GET", "/tenants/self/reports/usage")["token_report"]
    assert report["metrics_by_type"] == {} and report["monthly_active_tokens"] == 0
    assert report["included_monthly_active_tokens"] > 0
    last = datetime(2026, 11, 20, 8, 30, tzinfo=UTC)
    service.set_usage(tenant.tenant_id, 1000, 850, {"card": (12, last), "bank": (3, None)})
    report = api.ok("GET", "/tenants/self/reports/usage")["token_report"]
    assert report["included_monthly_active_tokens"] == 1000
    assert report["monthly_active_tokens"] == 850
    assert report["metrics_by_type"]["card"] == {
        "count": 12,
        "last_created_at": "2026-11-20T08:30:00+00:00",
    }
    assert report["metrics_by_type"]["bank"] == {"count": 3, "last_created_at": None}


def test_tenant_delete_removes_everything_and_its_keys(api: Api, http: httpx.Client) -> None:
    other = api.ok(
        "POST",
        "/applications",
        201,
        json={"name": "Reader", "type": "management", "permissions": ["tenant:read"]},
    )
    api.ok("POST", "/proxies", 201, json=proxy_body())
    assert api.call("DELETE", "/tenants/self").status_code == 204
    problem(api.call("GET", "/permissions"), 401)
    problem(api.call("GET", "/tenants/self", key=other["key"]), 401)


# -- protocol details ------------------------------------------------------------------------


def test_errors_are_problem_details(api: Api) -> None:
    problem(api.call("GET", "/nothing-here"), 404)
    wrong = problem(api.call("PATCH", "/proxies"), 405)
    assert wrong
    allow = api.call("PATCH", "/proxies").headers["allow"]
    assert set(allow.replace(" ", "").split(",")) == {"GET", "POST"}
    assert api.call("PUT", "/applications/key").headers["allow"] == "GET"
    problem(api.call("GET", "/proxies/not-a-uuid"), 404)
    problem(api.call("POST", "/proxies", content=b"{not json", headers=_json_type()), 400)
    problem(
        api.call("POST", "/proxies", content=b"name=x", headers={"content-type": "text/plain"}), 415
    )
    problem(api.call("GET", "/proxies", params={"size": 101}), 400)
    problem(api.call("GET", "/proxies", params={"page": "two"}), 400)
    problem(api.call("GET", "/proxies", key="not-a-key"), 401)


def test_json_types_are_strict_and_bodies_bounded(api: Api) -> None:
    coerced = api.call("POST", "/proxies", json=proxy_body(require_auth="true"))
    assert list(problem(coerced, 400)["errors"]) == ["require_auth"]
    rule = {"description": "d", "priority": 1.0, "transform": "redact", "permissions": ["log:read"]}
    floaty = api.call(
        "POST", "/applications", json={"name": "n", "type": "management", "rules": [rule]}
    )
    assert "rules[0].priority" in problem(floaty, 400)["errors"]
    huge = b'{"name": "' + b"x" * (5 * 1024 * 1024) + b'"}'
    problem(api.call("POST", "/proxies", content=huge, headers=_json_type()), 413)
    deep = b"[" * 100_000
    problem(api.call("POST", "/proxies", content=deep, headers=_json_type()), 400)


def _json_type() -> dict[str, str]:
    return {"content-type": "application/json"}


def test_openapi_describes_the_operations_of_the_specification_and_beyond(
    http: httpx.Client,
) -> None:
    document = http.get("/openapi.json").json()
    operations = [(m, p) for p, ops in document["paths"].items() for m in ops]
    # the specification, Application Keys; Reactors; PATCH /proxies; Logs; the tenant's
    # people; Webhooks (list, create, event types, get, put, delete; the local trigger)
    assert len(operations) == 26 + 9 + 1 + 2 + 13 + 6 + 1
    assert set(document["paths"]["/applications/{id}/keys/{keyId}"]) == {"get", "delete"}
    scheme = document["components"]["securitySchemes"]["ApiKey"]
    assert scheme == {"type": "apiKey", "in": "header", "name": KEY_HEADER}
    create = document["paths"]["/applications"]["post"]
    assert set(create["responses"]) >= {"201", "400", "401", "403", "415"}
    problem_ref = create["responses"]["400"]["content"]["application/problem+json"]["schema"]
    assert problem_ref == {"$ref": "#/components/schemas/ProblemDetails"}
    body = create["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/ApplicationCreate"}
    assert "204" in document["paths"]["/proxies/{id}"]["delete"]["responses"]
    assert http.get("/docs").status_code == 200


def test_rate_limit_answers_429_with_retry_after(start_service) -> None:
    limited = start_service(rate_limit=3)
    headers = {KEY_HEADER: limited.key}
    with httpx.Client(base_url=limited.base_url, headers=headers, timeout=30.0) as client:
        assert [client.get("/permissions").status_code for _ in range(3)] == [200] * 3
        response = client.get("/permissions")
    body = problem(response, 429)
    assert 1 <= int(response.headers["retry-after"]) <= 60
    assert "retry" in body["detail"].lower()


def test_data_survives_a_restart(fresh_service) -> None:
    headers = {KEY_HEADER: fresh_service.key}
    made = httpx.post(
        f"{fresh_service.base_url}/proxies", json=proxy_body(), headers=headers
    ).json()
    fresh_service.stop()
    fresh_service.start()
    again = httpx.get(f"{fresh_service.base_url}/proxies/{made['id']}", headers=headers)
    assert again.status_code == 200 and again.json() == made


# -- demo data -------------------------------------------------------------------------------


def _everything(base_url: str, key: str) -> dict[str, Any]:
    with httpx.Client(base_url=base_url, headers={KEY_HEADER: key}, timeout=30.0) as c:
        return {
            path: c.get(path, params={"size": 100} if "/" not in path[1:] else None).json()
            for path in (
                "/applications",
                "/proxies",
                "/reactor-formulas",
                "/reactors",
                "/tenants/self",
                "/tenants/self/reports/usage",
            )
        }


def test_demo_data_fills_every_screen(demo) -> None:
    data = _everything(demo.base_url, demo.key)
    assert data["/tenants/self"]["name"] == "Acme Payments (demo)"
    apps = data["/applications"]["data"]
    assert len(apps) >= 12
    assert {a["type"] for a in apps} == {"private", "public", "management"}
    assert any(a["rules"] for a in apps if a["type"] == "private")
    frozen = datetime.fromisoformat(FROZEN)
    expiring = [a for a in apps if a["expires_at"]]
    assert expiring
    assert all(
        timedelta(0) < datetime.fromisoformat(a["expires_at"]) - frozen <= timedelta(days=2)
        for a in expiring
    )
    assert all(datetime.fromisoformat(a["created_at"]) <= frozen for a in apps)
    proxies = data["/proxies"]["data"]
    assert len(proxies) >= 4
    assert any(p["request_transform"] and p["response_transform"] for p in proxies)
    assert any(p["application_id"] for p in proxies) and any(p["configuration"] for p in proxies)
    private = [f for f in data["/reactor-formulas"]["data"] if f["type"] == "private"]
    assert len(private) >= 3
    assert all("module.exports" in f["code"] for f in private)
    assert any(f["configuration"] and f["request_parameters"] for f in private)
    reactors = data["/reactors"]["data"]  # issue 35: one of each runtime, provisioned
    assert {r["runtime"]["image"] for r in reactors} == {"node-bt", "node22"}
    assert {r["state"] for r in reactors} == {"active"}
    assert all("module.exports" in r["code"] and r["configuration"] for r in reactors)
    assert any(len(p["response_transforms"]) > 1 for p in proxies)  # and a pipeline
    report = data["/tenants/self/reports/usage"]["token_report"]
    assert len(report["metrics_by_type"]) >= 4
    share = report["monthly_active_tokens"] / report["included_monthly_active_tokens"]
    assert 0.85 <= share <= 0.95


def test_demo_data_is_the_same_on_every_run_under_a_frozen_clock(demo, start_service) -> None:
    again = start_service(demo_data=True, frozen_now=FROZEN)
    assert _everything(again.base_url, again.key) == _everything(demo.base_url, demo.key)
    assert again.key != demo.key  # keys are never fixed


def test_demo_data_is_only_seeded_into_an_empty_data_dir(demo) -> None:
    demo.stop()
    demo.start()
    assert "no demo data added" in demo.output
    assert "API key:" not in demo.output
    apps = _everything(demo.base_url, demo.key)["/applications"]["data"]
    assert len({a["id"] for a in apps}) == len(apps)


# -- the command line ------------------------------------------------------------------------


def _console(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "console", *args], capture_output=True, text=True, timeout=timeout
    )


def _one_clear_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_serve_on_a_port_in_use_fails_with_one_line(tmp_path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = _console("serve", "--port", str(port), "--data-dir", str(tmp_path / "d"))
    line = _one_clear_line(result)
    assert str(port) in line and "in use" in line
    assert "API key" not in result.stdout  # no tenant bootstrapped for nothing


def test_serve_with_an_unwritable_data_dir_fails_with_one_line(tmp_path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    result = _console("serve", "--port", "0", "--data-dir", str(blocker / "data"))
    assert "data dir" in _one_clear_line(result)


@pytest.mark.parametrize(
    "args",
    [("serve", "--bogus"), ("serve", "--port", "eighty"), ("serve", "--rate-limit", "0")],
)
def test_serve_with_a_bad_flag_fails_with_one_line(args: tuple[str, ...], tmp_path) -> None:
    line = _one_clear_line(_console(*args, "--data-dir", str(tmp_path)))
    assert line.startswith("tenant-console")


def test_new_tenant_works_while_the_service_runs(fresh_service) -> None:
    result = _console("new-tenant", "--data-dir", str(fresh_service.data_dir), "Side door")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1
    import json

    made = json.loads(lines[0])
    assert set(made) == {"tenant_id", "application_id", "key"}
    response = httpx.get(
        f"{fresh_service.base_url}/tenants/self", headers={KEY_HEADER: made["key"]}
    )
    assert response.status_code == 200
    assert response.json()["id"] == made["tenant_id"]
    assert response.json()["name"] == "Side door"


def test_no_api_key_is_stored_in_plain_text(fresh_service) -> None:
    headers = {KEY_HEADER: fresh_service.key}
    made = httpx.post(
        f"{fresh_service.base_url}/applications", json=private_app(), headers=headers
    ).json()
    renewed = httpx.post(
        f"{fresh_service.base_url}/applications/{made['id']}/regenerate", headers=headers
    ).json()
    keys = [fresh_service.key, made["key"], renewed["key"]]
    files = [p for p in fresh_service.data_dir.rglob("*") if p.is_file()]
    assert files
    for path in files:
        content = path.read_bytes()
        for key in keys:
            assert key.encode() not in content, f"a key in plain text in {path.name}"


def test_help_and_serve_do_not_load_the_console_or_the_web_stack_early() -> None:
    probe = (
        "import sys\n"
        "from console.cli import build_parser\n"
        "build_parser().parse_args(['serve'])\n"
        "import console.service.cli\n"
        "assert 'fastapi' not in sys.modules and 'uvicorn' not in sys.modules\n"
        "import console.service.server, console.service.demo\n"
        "assert 'textual' not in sys.modules\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_a_data_dir_from_a_newer_release_is_refused(tmp_path) -> None:
    import sqlite3

    data = tmp_path / "data"
    data.mkdir()
    conn = sqlite3.connect(data / "tenant-console.sqlite3")
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    line = _one_clear_line(_console("serve", "--port", "0", "--data-dir", str(data)))
    assert "newer" in line


def test_expired_applications_are_swept_from_the_data_dir(fresh_service) -> None:
    import time

    from console.service.store import Store
    from console.service.store import applications as rows

    fresh_service.stop()
    store = Store(fresh_service.data_dir)
    try:
        with store.write() as conn:
            row, key = rows.insert(
                conn,
                tenant_id=fresh_service.tenant_id,
                name="Long gone",
                type="management",
                permissions=["application:read"],
                rules=[],
                expires_at="2001-01-01T00:00:00.000000+00:00",
                by=None,
                at="2000-01-01T00:00:00.000000+00:00",
            )
        fresh_service.start()
        response = httpx.get(
            f"{fresh_service.base_url}/applications/key", headers={KEY_HEADER: key}
        )
        problem(response, 401)
        deadline = time.monotonic() + 10
        while True:  # the sweep runs at start-up, next to the first requests
            with store.read() as conn:
                if (
                    conn.execute("SELECT 1 FROM applications WHERE id = ?", (row["id"],)).fetchone()
                    is None
                ):
                    break
            assert time.monotonic() < deadline, "the expired application was not swept"
            time.sleep(0.05)
    finally:
        store.close()
