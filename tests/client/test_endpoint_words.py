"""The built-in kinds' endpoint words and 404 subjects, derived from their declarations
(console.kinds), say exactly what the console said when they were a table of their own."""

from __future__ import annotations

from console.client.endpoints import feature_by_endpoint, path_template, subject
from console.client.recording import classify

WORDS = {
    ("GET", "/permissions"): "a permission catalogue",
    ("GET", "/reactor-formulas"): "reactor formulas",
    ("POST", "/reactor-formulas"): "creating reactor formulas",
    ("GET", "/tenants/self"): "reading the tenant",
    ("PUT", "/tenants/self"): "editing the tenant",
    ("DELETE", "/tenants/self"): "deleting the tenant",
    ("GET", "/tenants/self/reports/usage"): "a usage report",
    ("GET", "/proxies"): "proxies",
    ("POST", "/proxies"): "creating proxies",
    ("GET", "/applications"): "listing applications",
    ("POST", "/applications"): "creating applications",
    ("GET", "/applications/key"): "looking up the key's own application",
    ("POST", "/applications/{id}/regenerate"): "regenerating keys",
    ("POST", "/applications/{id}/keys"): "application keys",
    ("GET", "/applications/{id}/keys"): "application keys",
    ("GET", "/applications/{id}/keys/{keyId}"): "application keys",
    ("DELETE", "/applications/{id}/keys/{keyId}"): "application keys",
    ("GET", "/reactors"): "reactors",
    ("POST", "/reactors"): "creating reactors",
    ("POST", "/reactors/{id}/react"): "reacting",
    ("POST", "/reactors/{id}/react-async"): "reacting asynchronously",
    ("GET", "/reactors/{id}/results/{requestId}"): "asynchronous react results",
    # The tenant's people (issue 36).
    ("GET", "/tenants/self/owner"): "the tenant's owner",
    ("GET", "/tenants/self/security-contact"): "a security contact",
    ("PUT", "/tenants/self/security-contact"): "a security contact",
    ("GET", "/logs"): "audit logs",
    ("GET", "/logs/entity-types"): "log entity types",
    ("GET", "/tenants/self/members"): "members",
    ("GET", "/tenants/self/invitations"): "invitations",
    ("POST", "/tenants/self/invitations"): "creating invitations",
    ("POST", "/tenants/self/invitations/{id}/resend"): "resending invitations",
    ("GET", "/roles"): "a role catalogue",
    ("GET", "/webhooks"): "webhooks",
    ("POST", "/webhooks"): "creating webhooks",
    ("GET", "/webhooks/event-types"): "webhook event types",
    ("POST", "/webhooks/trigger"): "triggering sample webhook events",
}


def test_the_words_of_every_endpoint() -> None:
    assert feature_by_endpoint() == WORDS


def test_what_a_404_is_about() -> None:
    assert subject("/proxies/3f2c?x=1") == "proxy 3f2c"
    assert subject("/reactor-formulas/f1") == "reactor formula f1"
    assert subject("/reactors/r1") == "reactor r1"
    assert subject("/reactors/r1/results/q1") == "result q1 of reactor r1"
    assert subject("/applications/a1/regenerate") == "application a1"
    assert subject("/applications/key") == "application of this key"
    assert subject("/applications/a1/keys/k1") == "key k1 of application a1"
    assert subject("/tenants/self/reports/usage") == "tenant"
    assert subject("/permissions/x") is None
    assert subject("/proxies") is None
    assert subject("/nothing/x") is None


def test_path_templates() -> None:
    assert path_template("/applications/a1/keys/k1/") == "/applications/{id}/keys/{keyId}"
    assert path_template("/tenants/self/reports/usage") == "/tenants/self/reports/usage"
    assert path_template("/proxies/3f2c?name=x") == "/proxies/{id}"


def test_the_journal_names_each_write() -> None:
    assert classify("POST", "/applications/a1/regenerate") == ("applications", "regenerate", "a1")
    assert classify("POST", "/applications/a1/keys") == ("applications", "create key", "a1")
    assert classify("DELETE", "/applications/a1/keys/k1") == ("applications", "revoke key", "a1")
    assert classify("PUT", "/tenants/self") == ("tenant", "update", "self")
    assert classify("DELETE", "/reactor-formulas/f1") == ("reactor_formulas", "delete", "f1")
    assert classify("POST", "/proxies") == ("proxies", "create", None)
    assert classify("POST", "/nothing/x/y") == ("nothing", "post y", "x")
