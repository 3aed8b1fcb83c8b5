"""Schemathesis against the served OpenAPI document: zero failures.

Two in-process engine runs (schemathesis 4's Python API, `schemathesis.engine.from_schema`):

* stateless (coverage and fuzzing phases) as one tenant, with every check, `ignored_auth`,
  `positive_data_acceptance` and `negative_data_rejection` included;
* stateful with two tenants as peers (a Web Fuzzing Commons auth document listing both, with
  `peers`), so `object_level_authorization` replays each tenant's reads as the other, next to
  `use_after_free` and `ensure_resource_availability`.

The runs must not destroy their own identities: DELETE /tenants/self is left out (the matrix
covers it) and writes aimed at the callers' own applications are pointed at an unknown id.
"""

from __future__ import annotations

import json
import re
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from schemathesis.engine import events, from_schema
from schemathesis.hooks import GLOBAL_HOOK_DISPATCHER

from console.models import permissions_for
from console.models.proxies import DESTINATION_URL_MAX
from console.models.webhooks import URL_MAX

# Fuzzing the whole API: minutes of CPU, so outside the fast lane (-m 'not slow').
pytestmark = pytest.mark.slow

MAX_EXAMPLES = 5
STATEFUL_MAX_STEPS = 10
STATEFUL_SCENARIOS = 20
SEED = 20261122
STATELESS_SERVED = [
    "GET /permissions",
    "POST /reactor-formulas",
    "GET /reactor-formulas",
    "GET /tenants/self",
    "PUT /tenants/self",
    "GET /tenants/self/reports/usage",
    "POST /proxies",
    "GET /proxies",
    "POST /applications",
    "GET /applications",
    "GET /applications/key",
    "GET /logs",
    "GET /logs/entity-types",
    "GET /tenants/self/members",
    "POST /tenants/self/invitations",
    "GET /tenants/self/invitations",
    "GET /roles",
    "GET /tenants/self/security-contact",
    "PUT /tenants/self/security-contact",
    "GET /webhooks",
    "POST /webhooks",
    "GET /webhooks/event-types",
]


@dataclass(frozen=True)
class Finding:
    operation: str
    check: str
    message: str

    def __str__(self) -> str:
        return f"{self.operation} [{self.check}]: {self.message}"


@dataclass
class Outcome:
    findings: list[Finding]
    errors: list[str]
    statuses: dict[str, Counter[int]]
    """Response statuses per operation label, to prove the run reached the API's logic."""

    def report(self) -> str:
        lines = [f"{len(self.findings)} finding(s), {len(self.errors)} engine error(s):"]
        lines += [f"- {f}" for f in self.findings]
        lines += [f"- engine error: {e}" for e in self.errors]
        return "\n".join(lines)

    def served(self, label: str) -> int:
        return sum(n for status, n in self.statuses.get(label, Counter()).items() if status < 300)


def run(schema: Any) -> Outcome:
    """Runs the engine; returns the check failures (deduplicated) and engine errors."""
    findings: dict[tuple[str, str, str], Finding] = {}
    errors: list[str] = []
    statuses: dict[str, Counter[int]] = {}
    for event in from_schema(schema).execute():
        recorder = getattr(event, "recorder", None)
        if recorder is not None:
            for case_id, interaction in recorder.interactions.items():
                node = recorder.cases.get(case_id)
                if interaction.response is not None and node is not None:
                    label = node.value.operation.label
                    statuses.setdefault(label, Counter())[interaction.response.status_code] += 1
            for nodes in recorder.checks.values():
                for node in nodes:
                    if node.failure_info is None:
                        continue
                    failure = node.failure_info.failure
                    title = getattr(failure, "title", "") or type(failure).__name__
                    message = f"{title}. {getattr(failure, 'message', '')}".strip()
                    code = node.failure_info.code_sample.strip().splitlines()
                    finding = Finding(recorder.label, node.name, f"{message}\n    {' '.join(code)}")
                    findings.setdefault((recorder.label, node.name, title), finding)
        if isinstance(event, events.NonFatalError):
            errors.append(f"{event.label}: {event.value!r}")
        elif isinstance(event, events.FatalError):
            errors.append(f"fatal: {event.exception!r}")
    return Outcome(list(findings.values()), errors, statuses)


ANSWERING_REACTOR = "module.exports = async (req) => ({ raw: { args: req.args } });"

FUZZ_WEBHOOK_URL = "http://127.0.0.1:9/fuzz"
"""Where the fuzzed webhooks point: the discard port on loopback, where nothing listens."""

DEFAULT_GRANT = {"management": "proxy:read", "private": "token:read", "public": "token:create"}


def _grants_fit(body: dict[str, Any], application_type: str) -> None:
    """Permissions and rules the type allows: per-type rules JSON Schema does not state."""
    allowed = {p.type for p in permissions_for(application_type)}
    if isinstance(body.get("permissions"), list):
        body["permissions"] = [p for p in body["permissions"] if p in allowed]
    rules = body.get("rules")
    if isinstance(rules, list):
        for priority, rule in enumerate(rules, start=1):
            if not isinstance(rule, dict):
                continue
            rule["priority"] = priority
            rule.pop("conditions", None)
            if application_type == "management":
                rule.pop("container", None)
            elif not rule.get("container"):
                rule["container"] = "/fuzz/"
            granted = [p for p in rule.get("permissions") or [] if p in allowed]
            rule["permissions"] = granted or [DEFAULT_GRANT[application_type]]
    if not body.get("permissions") and not body.get("rules"):
        body["permissions"] = [DEFAULT_GRANT[application_type]]


def _in_the_future(value: Any) -> bool:
    try:
        moment = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return False
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment > datetime.now(UTC) + timedelta(minutes=5)


def _unique_names(items: Any) -> None:
    if not isinstance(items, list):
        return
    seen: set[str] = set()
    for i, item in enumerate(items):
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            if item["name"] in seen:
                item["name"] = f"{item['name'][:190]}#{i}"
            seen.add(item["name"])


def satisfy_state_rules(case: Any, application_type: Callable[[str], str | None]) -> None:
    """Makes a positive case meet the rules a schema cannot state: they depend on the clock,
    on stored objects, or on another field's value. Rules a schema can state (patterns, enums,
    lengths) are left alone: the served document must declare those itself."""
    query = case.query
    if isinstance(query, dict) and "start" in query:
        query["start"] = ""  # a cursor is one the service gave: "" is the first page's
    body = case.body
    if not isinstance(body, dict):
        return
    path = case.operation.path
    if path in ("/applications", "/applications/{id}"):
        kind = body.get("type") if path == "/applications" else None
        if path == "/applications/{id}":
            kind = application_type(str((case.path_parameters or {}).get("id")))
        if kind in DEFAULT_GRANT:
            _grants_fit(body, kind)
        if body.get("expires_at") is not None and not _in_the_future(body["expires_at"]):
            body["expires_at"] = None
    elif path in ("/proxies", "/proxies/{id}"):
        # The referenced application must exist in the caller's tenant.
        if body.get("application") is not None:
            body["application"] = None
        _masks_with_a_capture_group(body)
    elif path in ("/reactors", "/reactors/{id}"):
        if body.get("application") is not None:
            body["application"] = None
        # A reactor's code is the tenant's: what it does when invoked is not the API's to
        # state, so the code stored is one that answers (a react of it is served, not the
        # code's own 500 or 422).
        if isinstance(body.get("code"), str):
            body["code"] = ANSWERING_REACTOR
    elif path in ("/webhooks", "/webhooks/{id}") and isinstance(body.get("url"), str):
        # Not a state rule but the run's manners: a service that delivers its events must
        # not send them to whatever host a fuzzed URL names. The URL's pattern is checked
        # against its validator by tests/service/test_webhook_routes.py.
        body["url"] = FUZZ_WEBHOOK_URL
    elif path in ("/reactor-formulas", "/reactor-formulas/{id}"):
        _unique_names(body.get("configuration"))
        _unique_names(body.get("request_parameters"))


def _masks_with_a_capture_group(body: dict[str, Any]) -> None:
    """A regex mask's expression must compile and hold a capture group: no schema says so."""
    steps: list[Any] = []
    for side in ("request", "response"):
        steps.append(body.get(f"{side}_transform"))
        pipeline = body.get(f"{side}_transforms")
        steps += pipeline if isinstance(pipeline, list) else []
    for step in steps:
        if isinstance(step, dict) and step.get("type") == "mask" and step.get("matcher") == "regex":
            try:
                usable = re.compile(str(step.get("expression"))).groups > 0
            except re.error:
                usable = False
            if not usable:
                step["expression"] = "(\\d+)"


@contextmanager
def guarded(service, tenants: list[Any]) -> Iterator[None]:
    """Keeps the run's own identities alive and its positive data within the state rules.

    Writes aimed at the callers' own applications go to an unknown id instead. `before_call`
    exists only on the global hook dispatcher; it is removed again on exit.
    """
    protected_ids = {t.application_id for t in tenants}
    keys = [t.key for t in tenants]

    def application_type(application_id: str) -> str | None:
        for key in keys:
            response = httpx.get(
                f"{service.base_url}/applications/{application_id}",
                headers={"SVC-API-KEY": key},
                timeout=30.0,
            )
            if response.status_code == 200:
                return response.json().get("type")
        return None

    def before_call(context, case, kwargs) -> None:
        path_parameters = case.path_parameters or {}
        if case.method.upper() != "GET" and str(path_parameters.get("id")) in protected_ids:
            path_parameters["id"] = str(uuid.uuid4())
        meta = case.meta
        if meta is not None and meta.generation.mode.is_positive:
            satisfy_state_rules(case, application_type)

    schemathesis.hook(before_call)
    try:
        yield
    finally:
        GLOBAL_HOOK_DISPATCHER.unregister(before_call)


def without_the_urls_lengths(document: dict[str, Any]) -> dict[str, Any]:
    """The served document, less the destination URL's and the webhook URL's `maxLength`.

    The coverage phase looks for URLs of exactly 400 and 401 characters that match the URL
    pattern by drawing and discarding: about 25 s of CPU, most of the run (a webhook's URL,
    2048 and 2049, would cost more). The length bounds are checked against the validators and
    this document by tests/service/test_destination_url.py and test_webhook_routes.py
    instead; everything else about the fields (the pattern, `minLength`) stays fuzzed.
    """
    schemas = document["components"]["schemas"]
    for body in ("ProxyCreate", "ProxyPatch"):
        field = schemas[body]["properties"]["destination_url"]
        assert field.pop("maxLength") == DESTINATION_URL_MAX, field
    for body in ("WebhookCreate", "WebhookUpdate"):
        field = schemas[body]["properties"]["url"]
        assert field.pop("maxLength") == URL_MAX, field
    return document


def load(service, config: dict[str, Any]) -> Any:
    # No example database and no crash cache: each run stands alone, whatever ran before.
    settings = schemathesis.Config.from_dict(
        {
            "seed": SEED,
            "workers": 1,
            "cache": {"enabled": False},
            "base-url": service.base_url,
            **config,
        }
    )
    served = httpx.get(f"{service.base_url}/openapi.json", timeout=30.0).json()
    schema = schemathesis.openapi.from_dict(without_the_urls_lengths(served), config=settings)
    return schema.exclude(method="DELETE", path="/tenants/self")


@pytest.fixture(scope="module")
def peers(service):
    return service.new_tenant("Schemathesis A"), service.new_tenant("Schemathesis B")


def test_openapi_document_is_served(service) -> None:
    document = httpx.get(f"{service.base_url}/openapi.json").json()
    operations = {
        f"{method.upper()} {path}"
        for path, item in document["paths"].items()
        for method in item
        if method in ("get", "post", "put", "delete")
    }
    # the spec, Application Keys, Reactors, Logs; the tenant's people; webhooks
    assert len(operations) == 26 + 8 + 2 + 13 + 6 + 1, sorted(operations)
    schemes = document["components"]["securitySchemes"]
    assert {"type": "apiKey", "in": "header", "name": "SVC-API-KEY"} in schemes.values()


@pytest.mark.timeout(300)  # 26 operations since Application Keys; a shared machine is slow
def test_stateless_checks(service, peers) -> None:
    tenant = peers[0]
    schema = load(
        service,
        {
            "generation": {"max-examples": MAX_EXAMPLES, "database": "none"},
            "phases": {"examples": {"enabled": False}, "stateful": {"enabled": False}},
            "auth": {"openapi": {"ApiKey": {"api_key": tenant.key}}},
        },
    )
    with guarded(service, [tenant]):
        outcome = run(schema)
    assert not outcome.findings and not outcome.errors, outcome.report()
    # Not a vacuous pass: every operation without an id was served at least once.
    for label in STATELESS_SERVED:
        assert outcome.served(label), f"{label} was never served: {dict(outcome.statuses)}"


def count_object_probes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Records the peer replays `object_level_authorization` sends for `/{id}` reads, so the
    test fails if the check never ran instead of passing vacuously."""
    from schemathesis.specs.openapi import object_authorization

    sent: list[tuple[str, int]] = []
    send_probe = object_authorization.send_probe

    def recording(ctx: Any, parent: Any, probe: Any) -> Any:
        response = send_probe(ctx, parent, probe)
        if "{id}" in probe.operation.path:
            sent.append((f"{probe.method} {probe.operation.path}", response.status_code))
        return response

    monkeypatch.setattr(object_authorization, "send_probe", recording)
    return sent


def test_stateful_checks_with_two_tenants_as_peers(
    service, peers, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = peers
    probes = count_object_probes(monkeypatch)
    document = {
        "schemaVersion": "0.1.0",
        "auth": [
            {"name": "tenant-a", "fixedHeaders": [{"name": "SVC-API-KEY", "value": a.key}]},
            {"name": "tenant-b", "fixedHeaders": [{"name": "SVC-API-KEY", "value": b.key}]},
        ],
    }
    wfc = tmp_path / "auth.json"
    wfc.write_text(json.dumps(document))
    schema = load(
        service,
        {
            "generation": {"max-examples": MAX_EXAMPLES, "database": "none"},
            "phases": {
                "examples": {"enabled": False},
                "coverage": {"enabled": False},
                "fuzzing": {"enabled": False},
                "stateful": {
                    "max-steps": STATEFUL_MAX_STEPS,
                    "generation": {"max-examples": STATEFUL_SCENARIOS, "database": "none"},
                },
            },
            "auth": {"wfc": {"path": str(wfc), "peers": ["tenant-a", "tenant-b"]}},
        },
    )
    # Invoking a reactor runs its code in a sandbox: seconds of a walk's steps on a busy
    # machine, and no link to follow (the fuzz phases and tests/service/test_reactors.py
    # cover those routes). The walk is of the objects created, read, changed and deleted.
    schema = schema.exclude(path_regex=r"^/reactors/\{id\}/(react|react-async|results)")
    with guarded(service, [a, b]):
        outcome = run(schema)
    assert not outcome.findings and not outcome.errors, outcome.report()
    # Links were followed: an object created was then used by its id (read, changed or
    # deleted: a random id only ever meets a 404), whichever operations the walk drew.
    by_id = sorted(label for label in outcome.statuses if "/{id}" in label)
    assert any(outcome.served(label) for label in by_id), "; ".join(
        f"{label}: {dict(outcome.statuses[label])}" for label in by_id
    )
    assert probes, "object_level_authorization replayed no object read as the other tenant"
    assert all(status == 404 for _, status in probes), probes
