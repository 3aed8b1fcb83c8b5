"""Reactors on the local service: the routes, their errors and permissions, provisioning,
and invoking them (react, react-async, results), as docs/reactors.md describes.

Provisioning is timed on the wall clock (`serve --provision-delay`): the shared service's
default (0.5 s) is waited out by polling with a deadline, and a service of this module's own
holds every build for an hour, so that `creating` and `updating` can be looked at without a
race.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from local_service import RunningService, serving
from service_http import (
    Caller,
    assert_invalid,
    assert_problem,
    describe,
    http_client,
    private_application_body,
    unique,
    unknown_id,
)

ECHO = "module.exports = async function (req) { return { raw: req.args }; };"
MERGE_PATCH = {"content-type": "application/merge-patch+json"}
DEADLINE = 20.0


def reactor_body(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": unique("Reactor"),
        "code": ECHO,
        "configuration": {"REGION": "eu"},
    }
    return {**body, **overrides}


@pytest.fixture
def tenant(service: RunningService) -> Any:
    return service.new_tenant("Reactors")


@pytest.fixture
def client(service: RunningService) -> Iterator[httpx.Client]:
    with http_client(service.base_url) as http:
        yield http


@pytest.fixture
def api(client: httpx.Client, tenant: Any) -> Caller:
    return Caller(client, tenant.key)


def until(condition: Callable[[], Any], what: str, deadline: float = DEADLINE) -> Any:
    """Polls `condition` until it answers something true, within a deadline."""
    ends = time.monotonic() + deadline
    while True:
        found = condition()
        if found:
            return found
        if time.monotonic() > ends:
            raise AssertionError(f"waited {deadline:g} s for {what}")
        time.sleep(0.05)  # polling with a deadline, not synchronising


def state_becomes(api: Caller, reactor_id: str, state: str) -> dict[str, Any]:
    def read() -> dict[str, Any] | None:
        body = api.get(f"/reactors/{reactor_id}").json()
        return body if body["state"] == state else None

    return until(read, f"reactor {reactor_id} to be {state}")


def patch(api: Caller, reactor_id: str, body: Any, **headers: str) -> httpx.Response:
    return api.request(
        "PATCH",
        f"/reactors/{reactor_id}",
        content=json.dumps(body),
        headers=headers or MERGE_PATCH,
    )


# -- create, read, update, delete ----------------------------------------------------------


def test_create_get_put_delete(api: Caller) -> None:
    created = api.created("/reactors", reactor_body(name="Card lookup"))
    assert created["name"] == "Card lookup"
    assert created["code"] == ECHO
    assert created["configuration"] == {"REGION": "eu"}
    assert created["state"] == "active"  # no runtime: the legacy runtime, active at once
    assert created["runtime"] is None and created["requested"] is None
    assert created["application"] is None
    reactor_id = created["id"]
    assert api.get(f"/reactors/{reactor_id}").json() == created

    changed = api.put(f"/reactors/{reactor_id}", json=reactor_body(name="Renamed", code="x"))
    assert changed.status_code == 200, describe(changed)
    assert changed.json()["name"] == "Renamed" and changed.json()["code"] == "x"
    assert changed.json()["created_at"] == created["created_at"]

    assert api.delete(f"/reactors/{reactor_id}").status_code == 204
    assert_problem(api.get(f"/reactors/{reactor_id}"), 404)
    assert_problem(api.delete(f"/reactors/{reactor_id}"), 404)


def test_an_application_is_named_by_id_and_read_with_its_name_and_type(api: Caller) -> None:
    app = api.created("/applications", private_application_body(name="Runtime key"))
    created = api.created("/reactors", reactor_body(application={"id": app["id"]}))
    assert created["application"] == {"id": app["id"], "name": "Runtime key", "type": "private"}


def test_an_unknown_or_management_application_is_refused(api: Caller) -> None:
    response = api.post("/reactors", json=reactor_body(application={"id": unknown_id()}))
    assert_invalid(response, "application.id")
    management = api.created(
        "/applications", {"name": unique("M"), "type": "management", "permissions": ["log:read"]}
    )
    response = api.post("/reactors", json=reactor_body(application={"id": management["id"]}))
    assert_invalid(response, "application.id")


def test_an_expired_application_is_refused_and_no_longer_shown(
    api: Caller, service: RunningService
) -> None:
    from service_http import future

    app = api.created("/applications", private_application_body(expires_at=future(2)))
    created = api.created("/reactors", reactor_body(application={"id": app["id"]}))
    assert created["application"]["id"] == app["id"]
    until(
        lambda: api.get(f"/reactors/{created['id']}").json()["application"] is None,
        "the application to expire",
    )
    response = api.put(f"/reactors/{created['id']}", json=reactor_body(application=app))
    assert_invalid(response, "application.id")


def test_bodies_are_validated(api: Caller) -> None:
    assert_invalid(api.post("/reactors", json={"code": ECHO}), "name")
    assert_invalid(api.post("/reactors", json={"name": "No code"}), "code")
    assert_invalid(
        api.post("/reactors", json=reactor_body(configuration={"A": 1})), "configuration.A"
    )
    bad_runtime = reactor_body(runtime={"image": "python3"})
    assert_invalid(api.post("/reactors", json=bad_runtime), "runtime.image")
    too_long = reactor_body(runtime={"timeout": 31})
    assert_invalid(api.post("/reactors", json=too_long), "runtime.timeout")
    unknown_grant = reactor_body(runtime={"permissions": ["token:read", "token:fly"]})
    errors = assert_invalid(api.post("/reactors", json=unknown_grant), "runtime.permissions")
    assert "token:fly" in errors["runtime.permissions"][0]
    bad_package = reactor_body(runtime={"image": "node22", "dependencies": {"Not A Name": "1"}})
    assert_invalid(api.post("/reactors", json=bad_package), "runtime.dependencies")


def test_list_pages_and_filters_by_name_and_id(api: Caller) -> None:
    made = [api.created("/reactors", reactor_body(name=f"Batch {i} reactor")) for i in range(5)]
    made.append(api.created("/reactors", reactor_body(name="Other")))
    first = api.get("/reactors", params={"page": 1, "size": 2}).json()
    assert first["pagination"] == {
        "total_items": 6,
        "page_number": 1,
        "page_size": 2,
        "total_pages": 3,
    }
    assert [r["id"] for r in first["data"]] == [made[0]["id"], made[1]["id"]]
    third = api.get("/reactors", params={"page": 3, "size": 2}).json()
    assert [r["id"] for r in third["data"]] == [made[4]["id"], made[5]["id"]]

    named = api.get("/reactors", params={"name": "batch*REACTOR"}).json()
    assert [r["id"] for r in named["data"]] == [r["id"] for r in made[:5]]
    chosen = [made[1]["id"], made[5]["id"]]
    by_id = api.get("/reactors", params={"id": chosen}).json()
    assert [r["id"] for r in by_id["data"]] == chosen
    assert_invalid(api.get("/reactors", params={"size": 0}), "size")


# -- merge-patch ---------------------------------------------------------------------------


def test_merge_patch_changes_what_it_names_and_answers_204(api: Caller) -> None:
    app = api.created("/applications", private_application_body())
    created = api.created(
        "/reactors",
        reactor_body(configuration={"A": "1", "B": "2"}, application={"id": app["id"]}),
    )
    reactor_id = created["id"]
    response = patch(api, reactor_id, {"name": "Patched", "configuration": {"A": None, "C": "3"}})
    assert response.status_code == 204, describe(response)
    assert not response.content
    read = api.get(f"/reactors/{reactor_id}").json()
    assert read["name"] == "Patched"
    assert read["configuration"] == {"B": "2", "C": "3"}
    assert read["code"] == ECHO and read["application"]["id"] == app["id"]

    # Plain JSON is accepted too; a null application removes it.
    response = patch(api, reactor_id, {"application": None}, **{"content-type": "application/json"})
    assert response.status_code == 204, describe(response)
    assert api.get(f"/reactors/{reactor_id}").json()["application"] is None

    response = patch(api, reactor_id, {"configuration": None})
    assert response.status_code == 204, describe(response)
    assert api.get(f"/reactors/{reactor_id}").json()["configuration"] == {}


def test_merge_patch_refuses_what_a_reactor_cannot_be(api: Caller) -> None:
    reactor_id = api.created("/reactors", reactor_body())["id"]
    assert_invalid(patch(api, reactor_id, {"name": None}), "name")
    assert_invalid(patch(api, reactor_id, {"code": None}), "code")
    assert_invalid(patch(api, reactor_id, {"runtime": {"timeout": 0}}), "runtime.timeout")
    assert_invalid(patch(api, reactor_id, {"configuration": {"A": 5}}), "configuration.A")
    assert_problem(patch(api, reactor_id, ["not", "an", "object"]), 400)
    response = patch(api, reactor_id, {"name": "x"}, **{"content-type": "text/plain"})
    assert_problem(response, 415)
    assert_problem(patch(api, unknown_id(), {"name": "x"}), 404)
    assert api.get(f"/reactors/{reactor_id}").json()["name"].startswith("Reactor ")


# -- permissions and tenants ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "permission"),
    [
        ("GET", "/reactors", "reactor:read"),
        ("POST", "/reactors", "reactor:create"),
        ("GET", "/reactors/{id}", "reactor:read"),
        ("PUT", "/reactors/{id}", "reactor:update"),
        ("PATCH", "/reactors/{id}", "reactor:update"),
        ("DELETE", "/reactors/{id}", "reactor:delete"),
    ],
)
def test_each_route_needs_its_permission(
    service: RunningService,
    api: Caller,
    tenant: Any,
    method: str,
    path: str,
    permission: str,
) -> None:
    reactor_id = api.created("/reactors", reactor_body())["id"]
    url = path.format(id=reactor_id)
    body = {"name": "Renamed"} if method == "PATCH" else reactor_body()
    send = {"content": json.dumps(body), "headers": MERGE_PATCH} if method != "GET" else {}
    if method == "DELETE":
        send = {}
    others = {
        "reactor:read",
        "reactor:create",
        "reactor:update",
        "reactor:delete",
        "reactor:invoke",
    } - {permission}
    without = Caller(api.client, service.new_key(sorted(others), tenant.key))
    response = without.request(method, url, **send)
    body_403 = assert_problem(response, 403)
    assert permission in body_403["detail"]
    holder = Caller(api.client, service.new_key([permission], tenant.key))
    response = holder.request(method, url, **send)
    assert response.status_code in (200, 201, 204), describe(response)


def test_tenants_do_not_see_each_others_reactors(service: RunningService, api: Caller) -> None:
    mine = api.created("/reactors", reactor_body())
    other = Caller(api.client, service.new_tenant("Other").key)
    assert other.get("/reactors").json()["data"] == []
    assert_problem(other.get(f"/reactors/{mine['id']}"), 404)
    assert_problem(other.put(f"/reactors/{mine['id']}", json=reactor_body()), 404)
    assert_problem(patch(other, mine["id"], {"name": "Mine now"}), 404)
    assert_problem(other.delete(f"/reactors/{mine['id']}"), 404)
    assert other.get("/reactors", params={"id": mine["id"]}).json()["data"] == []
    assert api.get(f"/reactors/{mine['id']}").json()["name"] == mine["name"]


def test_the_catalogue_offers_reactor_invoke(api: Caller) -> None:
    catalogue = {p["type"]: p for p in api.get("/permissions").json()}
    assert set(catalogue["reactor:invoke"]["application_types"]) == {"private", "management"}
    app = api.created(
        "/applications",
        {"name": unique("Invoker"), "type": "private", "permissions": ["reactor:invoke"]},
    )
    assert app["permissions"] == ["reactor:invoke"]


# -- provisioning --------------------------------------------------------------------------

RUNTIME = {"image": "node22", "timeout": 5, "permissions": ["token:read"]}


@pytest.fixture(scope="module")
def held(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningService]:
    """A service whose provisioning takes an hour: `creating` and `updating` stay put."""
    with serving(
        RunningService(tmp_path_factory.mktemp("held-service"), provision_delay=3600)
    ) as running:
        yield running


@pytest.fixture
def held_api(held: RunningService) -> Iterator[Caller]:
    with http_client(held.base_url) as http:
        yield Caller(http, held.new_tenant("Held").key)


@pytest.mark.slow
def test_a_reactor_with_a_runtime_is_creating_then_updating_while_its_old_version_serves(
    held_api: Caller,
) -> None:
    api = held_api
    created = api.created("/reactors", reactor_body(runtime=RUNTIME))
    assert created["state"] == "creating"
    assert created["requested"] == {
        "reactor": {"code": ECHO, "runtime": RUNTIME, "configuration": {"REGION": "eu"}}
    }
    assert created["runtime"] == RUNTIME  # what is being built: nothing served before
    # A legacy reactor given a runtime keeps serving its old version while it is built.
    legacy = api.created("/reactors", reactor_body())
    response = api.put(f"/reactors/{legacy['id']}", json=reactor_body(code="y", runtime=RUNTIME))
    updating = response.json()
    assert updating["state"] == "updating", describe(response)
    assert updating["code"] == ECHO and updating["runtime"] is None
    assert updating["requested"]["reactor"]["code"] == "y"
    # A patch applies to the version asked for, and renames at once.
    response = patch(api, legacy["id"], {"name": "Renamed", "configuration": {"NEW": "1"}})
    assert response.status_code == 204, describe(response)
    read = api.get(f"/reactors/{legacy['id']}").json()
    assert read["name"] == "Renamed" and read["state"] == "updating"
    assert read["requested"]["reactor"] == {
        "code": "y",
        "runtime": RUNTIME,
        "configuration": {"REGION": "eu", "NEW": "1"},
    }
    assert read["configuration"] == {"REGION": "eu"}
    # Back to no runtime: the legacy runtime needs no build, active at once.
    response = api.put(f"/reactors/{legacy['id']}", json=reactor_body(code="z"))
    assert response.json()["state"] == "active" and response.json()["requested"] is None
    assert response.json()["code"] == "z"


def test_provisioning_ends_active(api: Caller) -> None:
    created = api.created("/reactors", reactor_body(runtime=RUNTIME))
    assert created["state"] in ("creating", "active")
    active = state_becomes(api, created["id"], "active")
    assert active["requested"] is None and active["runtime"] == RUNTIME

    response = patch(api, created["id"], {"code": "module.exports = async () => ({})"})
    assert response.status_code == 204, describe(response)
    changed = until(
        lambda: (r := api.get(f"/reactors/{created['id']}").json())["code"] != ECHO and r,
        "the change to be provisioned",
    )
    assert changed["state"] == "active" and changed["requested"] is None


def test_a_reactor_with_dependencies_fails_to_be_created(api: Caller) -> None:
    runtime = {"image": "node22", "dependencies": {"lodash": "^4.17.21", "@scope/pkg": "1.0.0"}}
    created = api.created("/reactors", reactor_body(runtime=runtime))
    failed = state_becomes(api, created["id"], "failed")
    requested = failed["requested"]
    assert requested["error_code"] == "dependencies_unavailable"
    assert "@scope/pkg, lodash" in requested["error_message"]
    assert requested["reactor"]["runtime"] == runtime


def test_a_change_with_dependencies_fails_and_the_old_version_keeps_serving(api: Caller) -> None:
    created = api.created("/reactors", reactor_body(runtime={"image": "node22"}))
    state_becomes(api, created["id"], "active")
    runtime = {"image": "node22", "dependencies": {"left-pad": "1.3.0"}}
    response = patch(api, created["id"], {"code": "x", "runtime": runtime})
    assert response.status_code == 204, describe(response)

    def failed() -> dict[str, Any] | None:
        body = api.get(f"/reactors/{created['id']}").json()
        return body if (body["requested"] or {}).get("error_code") else None

    read = until(failed, "the change to fail")
    assert read["state"] == "active" and read["code"] == ECHO
    assert read["runtime"] == {"image": "node22"}
    assert read["requested"]["error_code"] == "dependencies_unavailable"
    assert read["requested"]["reactor"]["code"] == "x"
    # The next change clears the error: here one that drops the dependencies.
    response = patch(api, created["id"], {"runtime": {"dependencies": None}})
    assert response.status_code == 204, describe(response)
    done = until(
        lambda: (r := api.get(f"/reactors/{created['id']}").json())["requested"] is None and r,
        "the next change to be provisioned",
    )
    assert done["state"] == "active" and done["code"] == "x"


# -- react ---------------------------------------------------------------------------------


def react(api: Caller, reactor_id: str, args: Any = None, path: str = "react") -> httpx.Response:
    return api.post(f"/reactors/{reactor_id}/{path}", json={"args": args})


def reactor_with(api: Caller, code: str, **fields: Any) -> str:
    return api.created("/reactors", reactor_body(code=code, **fields))["id"]


@pytest.mark.slow
def test_react_answers_what_the_code_returned(api: Caller) -> None:
    code = (
        "module.exports = async function (req) {\n"
        "  return { raw: { got: req.args, region: req.configuration.REGION },\n"
        "           body: 'text', headers: { 'X-One': '1' } };\n"
        "};\n"
    )
    response = react(api, reactor_with(api, code), {"card": {"number": "4242"}})
    assert response.status_code == 200, describe(response)
    assert response.json() == {
        "tokens": None,
        "raw": {"got": {"card": {"number": "4242"}}, "region": "eu"},
        "body": "text",
        "headers": {"X-One": "1"},
    }
    assert "BT-Local-Note" not in response.headers
    # Any JSON for args; what was not returned is not answered; tokenize makes no tokens.
    tokenizing = "module.exports = async (req) => ({ raw: req.args, tokenize: { a: 1 } });"
    response = react(api, reactor_with(api, tokenizing), [1, "two"])
    assert response.status_code == 200, describe(response)
    assert response.json() == {"tokens": None, "raw": [1, "two"]}
    assert "keeps no tokens" in response.headers["BT-Local-Note"]


THROWN = "module.exports = async function (req) {\n  const error = new Error('declined');\n"

FAILURES = [
    pytest.param(
        THROWN + "  throw error;\n};",
        500,
        {"error": ["declined"]},
        id="thrown error",
    ),
    pytest.param(
        THROWN + "  error.status = 402; error.errors = { card: ['expired', 'declined'] };\n"
        "  throw error;\n};",
        402,
        {"card": ["expired", "declined"]},
        id="thrown with a status and errors",
    ),
    pytest.param(
        "module.exports = async () => { throw { status: 429, errors: 'slow down' }; };",
        429,
        {"error": ["slow down"]},
        id="thrown object with a status",
    ),
    pytest.param(
        THROWN + "  error.status = 200; error.errors = ['one', 'two'];\n  throw error;\n};",
        500,
        {"error": ["one", "two"]},
        id="a status that is no error",
    ),
    pytest.param("module.exports = async function (req) {", 422, None, id="syntax error"),
    pytest.param("module.exports = 42;", 422, None, id="no function exported"),
    pytest.param(
        "module.exports = async () => ({ headers: 'not an object' });",
        500,
        {"result": ["headers must be an object, not string."]},
        id="result outside the contract",
    ),
    pytest.param(
        "module.exports = async () => { const a = []; for (;;) a.push(new Array(1e6).fill(1)); };",
        500,
        None,
        id="memory",
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize(("code", "status", "errors"), FAILURES)
def test_react_maps_each_failure_to_its_problem(
    api: Caller, code: str, status: int, errors: dict[str, list[str]] | None
) -> None:
    body = assert_problem(react(api, reactor_with(api, code), {"n": 1}), status)
    if errors is not None:
        assert body["errors"] == errors
    if status == 500:
        assert body["title"] == "Reactor Runtime Error"
    if status == 422:
        assert body["detail"].startswith("Reactor code is not a valid function")
        assert body["errors"]["code"]


@pytest.mark.slow
def test_react_stops_at_the_runtime_s_timeout(api: Caller) -> None:
    spin = "module.exports = async () => { for (;;) {} };"
    reactor_id = reactor_with(api, spin, runtime={"timeout": 1})
    state_becomes(api, reactor_id, "active")
    started = time.monotonic()
    body = assert_problem(react(api, reactor_id), 500)
    assert "timed out after 1 s" in body["detail"]
    assert time.monotonic() - started < 10


@pytest.mark.slow
def test_react_refuses_args_deeper_than_the_runner_takes(api: Caller) -> None:
    deep: Any = "bottom"
    for _ in range(150):
        deep = [deep]
    body = assert_problem(react(api, reactor_with(api, ECHO), deep), 400)
    assert "deeper" in body["errors"]["args"][0]
    assert_problem(api.post(f"/reactors/{reactor_with(api, ECHO)}/react", json=[1]), 400)


@pytest.mark.slow
def test_a_reactor_not_active_does_not_react(api: Caller, held_api: Caller) -> None:
    creating = reactor_with(held_api, ECHO, runtime=RUNTIME)
    body = assert_problem(react(held_api, creating), 409)
    assert "not active (state creating)" in body["detail"]
    assert_problem(react(held_api, creating, path="react-async"), 409)

    failing = reactor_with(api, ECHO, runtime={"image": "node22", "dependencies": {"a": "1"}})
    state_becomes(api, failing, "failed")
    body = assert_problem(react(api, failing), 409)
    assert "cannot install npm packages (a)" in body["detail"]


@pytest.mark.slow
def test_the_active_version_serves_while_a_change_is_provisioned(held_api: Caller) -> None:
    api = held_api
    reactor_id = reactor_with(api, "module.exports = async () => ({ raw: { version: 1 } });")
    changed = api.put(
        f"/reactors/{reactor_id}",
        json=reactor_body(
            code="module.exports = async () => ({ raw: { version: 2 } });", runtime=RUNTIME
        ),
    )
    assert changed.json()["state"] == "updating", describe(changed)
    response = react(api, reactor_id)
    assert response.status_code == 200, describe(response)
    assert response.json()["raw"] == {"version": 1}


# -- react-async and results -----------------------------------------------------------------


def result_of(api: Caller, reactor_id: str, request_id: str) -> httpx.Response:
    return api.get(f"/reactors/{reactor_id}/results/{request_id}")


def finished(api: Caller, reactor_id: str, request_id: str) -> httpx.Response:
    def done() -> httpx.Response | None:
        response = result_of(api, reactor_id, request_id)
        return None if response.status_code == 202 else response

    return until(done, f"the result of {request_id}")


@pytest.mark.slow
def test_react_async_is_pending_then_answers_as_react_does(api: Caller) -> None:
    slow = (
        "module.exports = async (req) => {\n"
        "  const until = Date.now() + 1500; while (Date.now() < until) {}\n"
        "  return { raw: { got: req.args } };\n"
        "};\n"
    )
    reactor_id = reactor_with(api, slow)
    response = react(api, reactor_id, {"n": 1}, path="react-async")
    assert response.status_code == 202, describe(response)
    request_id = response.json()["asyncReactorRequestId"]
    pending = result_of(api, reactor_id, request_id)
    assert pending.status_code == 202, describe(pending)
    assert pending.json() == {"status": "pending"}
    done = finished(api, reactor_id, request_id)
    assert done.status_code == 200, describe(done)
    assert done.json() == {"tokens": None, "raw": {"got": {"n": 1}}}
    assert result_of(api, reactor_id, request_id).json() == done.json()  # kept


@pytest.mark.slow
def test_a_failed_async_react_answers_its_problem(api: Caller) -> None:
    failing = THROWN + "  error.status = 402;\n  throw error;\n};"
    reactor_id = reactor_with(api, failing)
    request_id = react(api, reactor_id, path="react-async").json()["asyncReactorRequestId"]
    body = assert_problem(finished(api, reactor_id, request_id), 402)
    assert body["errors"] == {"error": ["declined"]}


@pytest.mark.slow
def test_an_unknown_result_is_404(service: RunningService, api: Caller) -> None:
    reactor_id = reactor_with(api, ECHO)
    other_reactor = reactor_with(api, ECHO)
    assert_problem(result_of(api, reactor_id, unknown_id()), 404)
    assert_problem(result_of(api, reactor_id, "not-a-uuid"), 404)
    request_id = react(api, reactor_id, path="react-async").json()["asyncReactorRequestId"]
    assert_problem(result_of(api, other_reactor, request_id), 404)
    assert_problem(result_of(api, unknown_id(), request_id), 404)
    other = Caller(api.client, service.new_tenant("Other").key)
    assert_problem(result_of(other, reactor_id, request_id), 404)
    assert_problem(react(other, reactor_id), 404)
    assert_problem(react(other, reactor_id, path="react-async"), 404)
    assert finished(api, reactor_id, request_id).status_code == 200


# -- who may react -----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("application_type", "permissions", "allowed"),
    [
        ("management", ["reactor:invoke"], True),
        ("private", ["reactor:invoke"], True),
        ("private", ["token:use"], True),
        ("private", ["token:create", "token:read"], False),
        ("management", ["reactor:read", "reactor:create", "reactor:update"], False),
    ],
)
def test_reacting_needs_reactor_invoke_or_token_use(
    api: Caller, application_type: str, permissions: list[str], allowed: bool
) -> None:
    reactor_id = reactor_with(api, ECHO)
    request_id = react(api, reactor_id, path="react-async").json()["asyncReactorRequestId"]
    finished(api, reactor_id, request_id)
    app = api.created(
        "/applications",
        {"name": unique("Caller"), "type": application_type, "permissions": permissions},
    )
    caller = Caller(api.client, app["key"])
    answers = [
        react(caller, reactor_id, {"n": 1}),
        react(caller, reactor_id, path="react-async"),
        result_of(caller, reactor_id, request_id),
    ]
    for response in answers:
        if allowed:
            assert response.status_code in (200, 202), describe(response)
        else:
            assert "reactor:invoke" in assert_problem(response, 403)["detail"]


# -- the code stays in its sandbox -------------------------------------------------------------


@pytest.mark.slow
def test_a_reactor_reaches_no_listener_and_no_file(api: Caller, tmp_path: Any) -> None:
    import socket

    secret = tmp_path / "secret.txt"
    canary = f"canary-{unique('x').split()[1]}"
    secret.write_text(canary)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    code = r"""
module.exports = async function (req) {
  const { port, path } = req.args;
  const tried = [];
  const attempt = (what, f) => {
    try { tried.push([what, String(f())]); } catch (e) { tried.push([what, 'refused: ' + e]); }
  };
  attempt('require net', () => require('net').connect(port, '127.0.0.1'));
  attempt('require fs', () => require('fs').readFileSync(path, 'utf8'));
  attempt('process', () => process.binding('fs'));
  attempt('Function', () => Function('return process')().mainModule.require('fs')
    .readFileSync(path, 'utf8'));
  attempt('constructor', () => this.constructor.constructor('return process')().env);
  attempt('fetch', () => fetch('http://127.0.0.1:' + port));
  try { await import('node:fs'); tried.push(['import', 'imported']); }
  catch (e) { tried.push(['import', 'refused']); }
  return { raw: { tried } };
};
"""
    try:
        reactor_id = reactor_with(api, code)
        response = react(api, reactor_id, {"port": listener.getsockname()[1], "path": str(secret)})
        assert response.status_code == 200, describe(response)
        assert canary not in response.text
        tried = dict(response.json()["raw"]["tried"])
        assert all(result.startswith("refused") for result in tried.values()), tried
        listener.settimeout(0.5)
        with pytest.raises(TimeoutError):
            connection, _ = listener.accept()
            connection.close()
    finally:
        listener.close()


@pytest.mark.slow
def test_without_a_sandbox_react_answers_503_unless_allowed(start_service: Any) -> None:
    no_sandbox = {"TENANT_CONSOLE_SANDBOX": "none"}
    refusing = start_service(env=no_sandbox, provision_delay=0)
    allowing = start_service(env=no_sandbox, provision_delay=0, allow_unisolated=True)
    for running, status in ((refusing, 503), (allowing, 200)):
        with http_client(running.base_url) as http:
            api = Caller(http, running.key)
            response = react(api, reactor_with(api, ECHO), {"n": 1})
            assert response.status_code == status, describe(response)
            if status == 503:
                assert "--allow-unisolated" in assert_problem(response, 503)["detail"]
            else:
                assert response.json()["raw"] == {"n": 1}
