"""The kinds of the service's specification: one declaration each.

Adding a kind is a declaration here (or beside it), its models, its service routes and its
look and form in the console (docs/development/adding-a-kind.md).
"""

from __future__ import annotations

from console.kinds.configured import (
    application_body,
    application_item,
    application_type,
    application_unchangeable,
    formula_body,
    formula_item,
    private_formula,
    proxy_item,
    reactor_body,
    reactor_item,
    webhook_body,
    webhook_created_note,
    webhook_item,
)
from console.kinds.declaration import READ_ONLY, Features, Kind, Models, Nouns
from console.kinds.estate_checks import (
    check_application,
    check_applications_on_target,
    check_formula,
    check_webhook,
    proxy_check,
    reactor_check,
)
from console.kinds.estate_facet import CodeField
from console.kinds.facets import EstateFacet, IndexFacet, Reference, UndoFacet
from console.kinds.registry import KINDS
from console.kinds.routes import Route, Routes
from console.kinds.undo_hooks import (
    INVITATION_RESTORE_NOTE,
    MEMBER_RESTORE_NOTE,
    RESEND_IS_FINAL,
    WEBHOOK_RESTORE_NOTE,
    application_creation,
    application_update,
    invitation_fields,
    key_of,
    member_invitation,
    member_restore_summary,
    member_role,
    proxy_fields,
    reactor_fields,
    tenant_update,
    webhook_fields,
    webhook_update,
)

_APPLICATION_KEYS = "application keys"


def _application_models() -> Models:
    from console.models.applications import Application, ApplicationCreate, ApplicationUpdate

    return Models(Application, ApplicationCreate, ApplicationUpdate)


def _proxy_models() -> Models:
    from console.models.proxies import Proxy, ProxyCreate, ProxyUpdate

    return Models(Proxy, ProxyCreate, ProxyUpdate)


def _formula_models() -> Models:
    from console.models.formulas import ReactorFormula, ReactorFormulaCreate, ReactorFormulaUpdate

    return Models(ReactorFormula, ReactorFormulaCreate, ReactorFormulaUpdate)


def _reactor_models() -> Models:
    from console.models.reactors import Reactor, ReactorCreate, ReactorUpdate

    return Models(Reactor, ReactorCreate, ReactorUpdate)


def _permission_models() -> Models:
    from console.models.permissions import Permission

    return Models(Permission)


def _log_models() -> Models:
    from console.models.logs import Log

    return Models(Log)


def _member_models() -> Models:
    from console.models.people import Member, MemberUpdate

    return Models(Member, None, MemberUpdate)


def _invitation_models() -> Models:
    from console.models.people import Invitation, InvitationCreate

    return Models(Invitation, InvitationCreate)


def _role_models() -> Models:
    from console.models.people import RoleItem

    return Models(RoleItem)


def _webhook_models() -> Models:
    from console.models.webhooks import Webhook, WebhookCreate, WebhookUpdate

    return Models(Webhook, WebhookCreate, WebhookUpdate)


def _tenant_models() -> Models:
    from console.models.tenants import Tenant, TenantUpdate

    return Models(Tenant, None, TenantUpdate)


APPLICATIONS = KINDS.register(
    Kind(
        key="applications",
        path="/applications",
        nouns=Nouns("application", "applications"),
        load_models=_application_models,
        log_entity="application",
        permission="application",
        features=Features(keys=True),
        id_filter=True,
        routes=Routes(
            (
                Route("GET", "", "read", feature="listing applications"),
                Route(
                    "GET",
                    "/key",
                    "read",
                    feature="looking up the key's own application",
                    subject="application of this key",
                ),
                Route(
                    "POST", "/{id}/regenerate", "update", "regenerating keys", action="regenerate"
                ),
                # Application Keys: beyond the spec, as the hosted service has them
                # (docs/local-service-keys.md says what the local service does).
                Route("POST", "/{id}/keys", "update", _APPLICATION_KEYS, action="create key"),
                Route("GET", "/{id}/keys", "read", _APPLICATION_KEYS),
                Route(
                    "GET",
                    "/{id}/keys/{keyId}",
                    "read",
                    _APPLICATION_KEYS,
                    subject="key {keyId} of application {id}",
                ),
                Route(
                    "DELETE",
                    "/{id}/keys/{keyId}",
                    "update",
                    _APPLICATION_KEYS,
                    subject="key {keyId} of application {id}",
                    action="revoke key",
                ),
            )
        ),
        # -- export / apply
        estate=EstateFacet(
            order=1,
            form=application_item,
            check=check_application,
            body=application_body,
            cannot_change=application_unchangeable,
            target_check=check_applications_on_target,
            created_note=application_type,
        ),
        # -- undo
        undo=UndoFacet(
            creation_body=application_creation,
            update_body=application_update,
            new_key=key_of,
        ),
        # -- local index
        index=IndexFacet(name="applications"),
    )
)

_PROXY_APPLICATION = Reference(APPLICATIONS.key, "application", "application_id")
"""A proxy's application: by name in a document, `application_id` as read."""

PROXIES = KINDS.register(
    Kind(
        key="proxies",
        path="/proxies",
        nouns=Nouns("proxy", "proxies"),
        load_models=_proxy_models,
        log_entity="proxy",
        permission="proxy",
        features=Features(patch=True, code=True),
        name_filter=True,
        id_filter=True,
        # -- export / apply
        estate=EstateFacet(
            order=3,
            form=proxy_item,
            check=proxy_check(_PROXY_APPLICATION),
            references=(_PROXY_APPLICATION,),
            code=(
                CodeField("request_transform", "request transform", nested=True),
                CodeField("request_transforms", "request transform", nested=True, each=True),
                CodeField("response_transform", "response transform", nested=True),
                CodeField("response_transforms", "response transform", nested=True, each=True),
            ),
            secret=("configuration",),
            redacted=("configuration",),
        ),
        # -- undo
        undo=UndoFacet(creation_body=proxy_fields, reference=_PROXY_APPLICATION),
        # -- local index
        index=IndexFacet(name="proxies"),
    )
)

REACTOR_FORMULAS = KINDS.register(
    Kind(
        key="reactor_formulas",
        path="/reactor-formulas",
        nouns=Nouns("reactor formula", "reactor formulas"),
        load_models=_formula_models,
        log_entity="reactor_formula",
        permission="reactor",
        features=Features(code=True),
        code_surface="formulas",
        name_filter=True,
        # -- export / apply
        estate=EstateFacet(
            order=2,
            form=formula_item,
            check=check_formula,
            body=formula_body,
            travels=private_formula,
            code=(CodeField("code", "code"),),
            secret=("configuration",),  # as every plan showed it: the contract's changes
        ),
        # -- undo
        undo=UndoFacet(),
        # -- local index
        index=IndexFacet(name="formulas", word="formula"),
    )
)

_REACTOR_APPLICATION = Reference(APPLICATIONS.key, "application", "application.id")
"""A reactor's application: by name in a document, `application.id` as read."""

REACTORS = KINDS.register(
    Kind(
        key="reactors",
        path="/reactors",
        nouns=Nouns("reactor", "reactors"),
        load_models=_reactor_models,
        log_entity="reactor",
        permission="reactor",
        features=Features(patch=True, code=True),
        code_surface="reactors",
        name_filter=True,
        id_filter=True,
        routes=Routes(
            (
                # Invoked on the service, as the hosted service has them (docs/reactors.md
                # says what the local service does).
                Route("POST", "/{id}/react", "invoke", "reacting"),
                Route("POST", "/{id}/react-async", "invoke", "reacting asynchronously"),
                Route(
                    "GET",
                    "/{id}/results/{requestId}",
                    "invoke",
                    "asynchronous react results",
                    subject="result {requestId} of reactor {id}",
                ),
            )
        ),
        # -- export / apply
        estate=EstateFacet(
            order=4,
            form=reactor_item,
            check=reactor_check(_REACTOR_APPLICATION),
            references=(_REACTOR_APPLICATION,),
            body=reactor_body,
            code=(CodeField("code", "code"),),
            secret=("configuration",),
            redacted=("configuration",),
        ),
        # -- undo
        undo=UndoFacet(creation_body=reactor_fields, reference=_REACTOR_APPLICATION),
        # -- local index
        index=IndexFacet(name="reactors"),
    )
)

PERMISSIONS = KINDS.register(
    Kind(
        key="permissions",
        path="/permissions",
        nouns=Nouns("permission", "permissions"),
        load_models=_permission_models,
        features=READ_ONLY,
        id_field="type",
        name_field="type",
        routes=Routes((Route("GET", "", None, feature="a permission catalogue"),), catalogue=True),
    )
)

TENANT = KINDS.register(
    Kind(
        key="tenant",
        path="/tenants/self",
        nouns=Nouns("tenant", "tenants", title="Tenant"),
        load_models=_tenant_models,
        log_entity="tenant",
        permission="tenant",
        features=Features(create=False),
        singleton=True,
        routes=Routes(
            (
                Route("GET", "/reports/usage", "report:read", "a usage report"),
                # The tenant's people, as the hosted service has them (docs/people.md).
                Route("GET", "/owner", "read", "the tenant's owner", subject="owner"),
                Route("GET", "/security-contact", "read", "a security contact"),
                Route(
                    "PUT",
                    "/security-contact",
                    "update",
                    "a security contact",
                    action="set security contact",
                ),
            )
        ),
        # -- undo
        undo=UndoFacet(update_body=tenant_update),
    )
)

LOGS = KINDS.register(
    Kind(
        key="logs",
        path="/logs",
        nouns=Nouns("log entry", "log entries", title="Logs"),
        load_models=_log_models,
        permission="log",
        features=READ_ONLY,
        name_field="message",
        routes=Routes(
            (
                Route("GET", "", "read", "audit logs"),
                Route("GET", "/entity-types", "read", "log entity types"),
            ),
            objects=False,
        ),
    )
)
"""The audit logs: read only, newest first, with no path of their own (docs/logs.md)."""

MEMBERS = KINDS.register(
    Kind(
        key="members",
        path="/tenants/self/members",
        nouns=Nouns("member", "members"),
        load_models=_member_models,
        log_entity="tenant_member",
        permission="tenant:member",
        features=Features(create=False),
        name_field="user.email",
        # -- undo: a role written back; a removal by inviting the member again
        undo=UndoFacet(
            creation_body=member_invitation,
            update_body=member_role,
            restored_as="invitations",
            restore_summary=member_restore_summary,
            restore_note=MEMBER_RESTORE_NOTE,
        ),
    )
)
"""The tenant's members: made by accepting an invitation, never created here; their role
changes (PUT) and they are removed (DELETE)."""

INVITATIONS = KINDS.register(
    Kind(
        key="invitations",
        path="/tenants/self/invitations",
        nouns=Nouns("invitation", "invitations"),
        load_models=_invitation_models,
        log_entity="tenant_invitation",
        permission="tenant:invitation",
        features=Features(update=False),
        name_field="email",
        routes=Routes(
            (
                Route(
                    "POST",
                    "/{id}/resend",
                    "update",
                    "resending invitations",
                    subject="invitation {id}",
                    action="resend",
                ),
            )
        ),
        # -- undo: a revoked invitation sent again, a sent one revoked; a resend is final
        undo=UndoFacet(
            creation_body=invitation_fields,
            restore_note=INVITATION_RESTORE_NOTE,
            delete_verb="Revoke",
            nothing_to_undo=(("resend", RESEND_IS_FINAL),),
        ),
    )
)
"""Invitations to join the tenant: sent, resent (a new expiry), revoked (DELETE)."""

ROLES = KINDS.register(
    Kind(
        key="roles",
        path="/roles",
        nouns=Nouns("role", "roles"),
        load_models=_role_models,
        features=READ_ONLY,
        id_field="name",
        name_field="name",
        routes=Routes((Route("GET", "", None, feature="a role catalogue"),), catalogue=True),
    )
)
"""The roles a member may have (`GET /roles`), any valid key may read them."""

WEBHOOKS = KINDS.register(
    Kind(
        key="webhooks",
        path="/webhooks",
        nouns=Nouns("webhook", "webhooks"),
        load_models=_webhook_models,
        log_entity="webhook",
        permission="webhook",
        cursor_pages=True,
        routes=Routes(
            (
                Route("GET", "", "read", "webhooks"),
                Route("GET", "/event-types", "read", "webhook event types"),
                # The local service's own (the hosted service has no such route):
                # `tenant-console webhooks trigger` (docs/webhooks.md).
                Route("POST", "/trigger", "update", "triggering sample webhook events"),
            )
        ),
        # -- export / apply: by name; at most five a tenant (MAX_WEBHOOKS)
        estate=EstateFacet(
            order=5,
            form=webhook_item,
            check=check_webhook,
            body=webhook_body,
            created_note=webhook_created_note,
            limit=5,
        ),
        # -- undo: made again from its fields; written back whole, its status with it
        undo=UndoFacet(
            creation_body=webhook_fields,
            update_body=webhook_update,
            restore_note=WEBHOOK_RESTORE_NOTE,
        ),
        # -- local index; a live search matches its URL too
        index=IndexFacet(name="webhooks", also=("url",)),
    )
)
"""Where the service sends the tenant's events (at most five a tenant), as the hosted
service has them (docs/webhooks.md); the local service's deliveries are signed as
console.webhooks.signing says."""
