"""Check a key against the service before it is stored, and say whose key it is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class KeyInfo:
    """The Application (and tenant, when the key may read it) that a key belongs to.

    The application fields are None only when the key lacks `application:read`; the tenant
    fields are None when it lacks `tenant:read` (tenant_id still comes from the application).
    """

    application_id: str | None
    application_name: str | None
    application_type: str | None
    tenant_id: str | None
    tenant_name: str | None

    def describe(self) -> str:
        """One sentence for a person, e.g. 'Key belongs to application "X" (management) ...'."""
        if self.application_name is None:
            text = "The service accepts the key, but it may not read its own application"
        else:
            text = f'Key belongs to application "{self.application_name}" ({self.application_type})'
        if self.tenant_name is not None:
            return f'{text} in tenant "{self.tenant_name}".'
        if self.application_name is None:
            return f"{text} or tenant (no application:read or tenant:read permission)."
        return f"{text}; its tenant is not readable with this key (no tenant:read permission)."


async def verify_key(
    base_url: str,
    key: str,
    *,
    timeout: float | None = None,
    transport: object | None = None,
    retry: object | None = None,
    key_header: str | None = None,
) -> KeyInfo:
    """GET /applications/key then GET /tenants/self; a 403 on either only leaves fields None.

    A 401 (rejected key), an unreachable service and other failures propagate as the
    client's ApiError subclasses.
    """
    from console.client import AdminClient, Forbidden

    options: dict[str, Any] = {}
    if timeout is not None:
        options["timeout"] = timeout
    if transport is not None:
        options["transport"] = transport
    if retry is not None:
        options["retry"] = retry
    if key_header is not None:
        options["key_header"] = key_header
    application = tenant = None
    async with AdminClient(base_url, key, **options) as client:
        try:
            application = await client.applications.current()
        except Forbidden:
            application = None
        try:
            tenant = await client.tenant.get()
        except Forbidden:
            tenant = None
    if tenant is not None:
        tenant_id: object = tenant.id
    else:
        tenant_id = application.tenant_id if application is not None else None
    return KeyInfo(
        application_id=_text(application.id) if application is not None else None,
        application_name=application.name if application is not None else None,
        application_type=application.type if application is not None else None,
        tenant_id=_text(tenant_id),
        tenant_name=tenant.name if tenant is not None else None,
    )


def _text(value: object) -> str | None:
    return None if value is None else str(value)
