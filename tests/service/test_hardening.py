"""Issue #14: hostile input gets a 4xx, never a 500, a redirect or a silent misreading.

Each test reproduces one finding of the hostile run the issue reports, against the shared
service over real HTTP.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from service_http import (
    Caller,
    application_body,
    assert_invalid,
    assert_problem,
    describe,
    formula_body,
    future,
    http_client,
    private_application_body,
    proxy_body,
)


@pytest.fixture(scope="module")
def client(service) -> httpx.Client:
    with http_client(service.base_url) as c:
        yield c


@pytest.fixture(scope="module")
def owner(service, client) -> Caller:
    return Caller(client, service.new_tenant("Hardening").key)


# 1. The name filter is bounded: never SQLite's LIKE-pattern limit, never a 500.


@pytest.mark.parametrize("path", ["/proxies", "/reactor-formulas"])
@pytest.mark.parametrize("length", [201, 50_000])
def test_a_name_filter_longer_than_a_name_is_a_400(owner: Caller, path: str, length: int) -> None:
    response = owner.get(path, params={"name": "a" * length})
    assert_invalid(response, "name")


@pytest.mark.parametrize("path", ["/proxies", "/reactor-formulas"])
def test_a_name_filter_as_long_as_a_name_still_filters(owner: Caller, path: str) -> None:
    body = proxy_body if path == "/proxies" else formula_body
    # Characters that the LIKE pattern escapes (and that case folding lengthens) at the limit.
    name = ("ß%_\\" * 50)[:200]
    created = owner.created(path, body(name=name))
    response = owner.get(path, params={"name": name})
    assert response.status_code == 200, describe(response)
    assert [item["id"] for item in response.json()["data"]] == [created["id"]]


# 2. No redirect built from the Host header: an unknown path is a 404 problem.


@pytest.mark.parametrize(
    "path", ["/applications/", "/tenants/self/", "/proxies/%2e%2e%2f", "/proxies/", "/permissions/"]
)
def test_a_trailing_slash_is_a_404_not_a_redirect(owner: Caller, path: str) -> None:
    response = owner.get(path, headers={"Host": "attacker.example"})
    assert "location" not in response.headers, describe(response)
    assert_problem(response, 404)


# 3. NaN and Infinity are not JSON.


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_in_a_body_are_a_400(owner: Caller, constant: str) -> None:
    raw = '{"name": "Numbers", "settings": {"x": "y"}, "extra": ' + constant + "}"
    response = owner.put("/tenants/self", content=raw, headers={"Content-Type": "application/json"})
    body = assert_problem(response, 400)
    assert "errors" not in body  # malformed, not a validation failure
    assert constant.lstrip("-") in body["detail"], body


# 4. Control characters (NUL among them) in names are refused, in bodies and in the filter.

CONTROL_NAMES = ["a\x00b", "\x00", "tab\there", "line\nbreak", "esc\x1b[31m", "del\x7f", "nel\x85"]


@pytest.mark.parametrize("name", CONTROL_NAMES, ids=repr)
@pytest.mark.parametrize("kind", ["proxy", "formula", "application", "tenant"])
def test_a_name_with_a_control_character_is_a_400(owner: Caller, kind: str, name: str) -> None:
    if kind == "tenant":
        response = owner.put("/tenants/self", json={"name": name})
    else:
        path, body = {
            "proxy": ("/proxies", proxy_body),
            "formula": ("/reactor-formulas", formula_body),
            "application": ("/applications", application_body),
        }[kind]
        response = owner.post(path, json=body(name=name))
    errors = assert_invalid(response, "name")
    assert "control character" in " ".join(errors["name"]), errors


@pytest.mark.parametrize("path", ["/proxies", "/reactor-formulas"])
@pytest.mark.parametrize("name", ["\x00", "a\x00", "\t"], ids=repr)
def test_a_name_filter_with_a_control_character_is_a_400(
    owner: Caller, path: str, name: str
) -> None:
    assert_invalid(owner.get(path, params={"name": name}), "name")


def test_names_with_other_unicode_are_kept_as_sent(owner: Caller) -> None:
    name = "Zürich ✓ — 東京 \u200d end"
    created = owner.created("/proxies", proxy_body(name=name))
    assert created["name"] == name
    found = owner.get("/proxies", params={"name": "zÜRICH"}).json()["data"]
    assert created["id"] in [item["id"] for item in found]


def test_the_request_models_refuse_control_characters_as_the_console_forms_use_them() -> None:
    from console.models import PayloadInvalid, ProxyCreate, TenantUpdate

    with pytest.raises(PayloadInvalid) as caught:
        TenantUpdate.parse({"name": "Acme\x00"})
    assert "name" in caught.value.errors
    with pytest.raises(PayloadInvalid):
        ProxyCreate.parse({"name": "x\ny", "destination_url": "https://a.example.com"})


# 5. An expired application is gone from proxies' answers at once, not after the sweep.

EXPIRY_DEADLINE_S = 15.0
EXPIRY_SLACK_S = 2.0


def test_an_expired_application_disappears_from_its_proxies_at_once(owner: Caller) -> None:
    expires_at = datetime.fromisoformat(future(2))
    app = owner.created(
        "/applications", private_application_body(expires_at=expires_at.isoformat())
    )
    proxy = owner.created("/proxies", proxy_body(application={"id": app["id"]}))
    assert proxy["application_id"] == app["id"]

    deadline = time.monotonic() + EXPIRY_DEADLINE_S
    while True:
        shown = owner.get(f"/proxies/{proxy['id']}").json()["application_id"]
        if shown is None:
            cleared_at = datetime.now(UTC)
            break
        assert time.monotonic() < deadline, "the proxy still names its expired application"
        time.sleep(0.1)  # polling with a deadline for the clock to pass expires_at
    assert cleared_at >= expires_at, "the application was dropped before it expired"
    assert cleared_at - expires_at < timedelta(seconds=EXPIRY_SLACK_S), (
        f"application_id cleared {cleared_at - expires_at} after expires_at: not at once"
    )
    # Every answer agrees at that moment: the list, the id filter, and a PUT's response.
    listed = owner.get("/proxies", params={"id": [proxy["id"]]}).json()["data"]
    assert [item["application_id"] for item in listed] == [None]
    assert_problem(owner.get(f"/applications/{app['id']}"), 404)
    renamed = owner.put(f"/proxies/{proxy['id']}", json=proxy_body(name="Renamed"))
    assert renamed.status_code == 200, describe(renamed)
    assert renamed.json()["application_id"] is None


# 9. modified_at follows commit order: the surviving state carries the latest modified_at.

RACING_PUTS = 40
ROUNDS = 10


def test_concurrent_puts_leave_the_latest_modified_at_on_the_surviving_state(
    service, owner: Caller
) -> None:
    proxy = owner.created("/proxies", proxy_body())
    limits = httpx.Limits(max_connections=RACING_PUTS, max_keepalive_connections=RACING_PUTS)
    with (
        http_client(service.base_url, limits=limits) as racing,
        ThreadPoolExecutor(max_workers=RACING_PUTS) as pool,
    ):
        caller = Caller(racing, owner.key)

        def put(n: int) -> dict:
            response = caller.put(f"/proxies/{proxy['id']}", json=proxy_body(name=f"v{n}"))
            assert response.status_code == 200, describe(response)
            return response.json()

        # Each round is a race of its own; the last commit of each must carry its latest time.
        for round_ in range(ROUNDS):
            start = round_ * RACING_PUTS
            answers = list(pool.map(put, range(start, start + RACING_PUTS)))
            final = owner.get(f"/proxies/{proxy['id']}").json()
            latest = max(datetime.fromisoformat(a["modified_at"]) for a in answers)
            assert datetime.fromisoformat(final["modified_at"]) == latest, (
                f"round {round_}: a write committed later carries an earlier modified_at "
                "than one it overwrote"
            )
            winners = [
                a["name"] for a in answers if datetime.fromisoformat(a["modified_at"]) == latest
            ]
            assert final["name"] in winners, (round_, final["name"], winners)


# 10. Grants beyond the caller's own stay allowed (the spec does not forbid them); the README
# says so and the console warns (tests/tui/test_grant_warnings.py). This pins the behaviour
# the README describes, so that a change to it is a decision, not an accident.


def test_a_key_may_grant_more_than_it_holds_as_the_readme_says(service, client) -> None:
    from console.models import MANAGEMENT_PERMISSIONS

    tenant = service.new_tenant("Grants")
    creator = Caller(client, service.new_key(["application:create"], tenant_key=tenant.key))
    everything = list(MANAGEMENT_PERMISSIONS)
    made = creator.created("/applications", application_body(permissions=everything))
    assert made["permissions"] == everything

    updater_app = Caller(client, tenant.key).created(
        "/applications", application_body(permissions=["application:update"])
    )
    updater = Caller(client, updater_app["key"])
    response = updater.put(
        f"/applications/{updater_app['id']}",
        json={"name": "Self-promoted", "permissions": everything},
    )
    assert response.status_code == 200, describe(response)
    response = updater.post(f"/applications/{tenant.application_id}/regenerate")
    assert response.status_code == 200, describe(response)
    assert_problem(Caller(client, tenant.key).get("/tenants/self"), 401)  # locked out
