"""The built-in kinds as the console shows them: one look per kind declared in console.kinds
(columns, filter, server query, detail fields, code blocks), registered in `LOOKS`.

A ResourceList widget shows any list look; forms attach to the same looks
(console.tui.forms.registry). Lists hold objects as the service sent them (JSON dicts: rows
need no pydantic, so the first page shows before the models load); `model_of` makes the typed
object a detail or form needs.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING
from uuid import UUID

from rich.text import Text

from console import kinds
from console.kinds import field_of
from console.kinds.builtin import REACTORS as REACTORS_KIND
from console.terminal_text import printable
from console.tui.base import formatting as fmt
from console.tui.base.columns import Column, Labels, Renderable
from console.tui.base.pipeline_steps import has_pipelines, pipeline_of, step_summary
from console.tui.base.shown import JsonObject, Query, Shown
from console.tui.browse.live import LiveMapping, LiveSequence
from console.tui.browse.looks import (
    LOOKS,
    CodeBlock,
    Fetched,
    FilterInvalid,
    ListLook,
    Look,
    modified_column,
)
from console.tui.browse.looks import PAGE_SIZE as PAGE_SIZE  # re-exported: the lists read both
from console.tui.browse.looks import list_page as list_page
from console.tui.browse.people_looks import INVITATIONS as INVITATIONS  # People: registered
from console.tui.browse.people_looks import MEMBERS as MEMBERS
from console.tui.browse.webhooks_look import WEBHOOKS as WEBHOOKS  # registered after People

if TYPE_CHECKING:
    from console.client.client import AdminClient
    from console.models import (
        Application,
        Permission,
        Proxy,
        Reactor,
        ReactorFormula,
        Tenant,
        TransformView,
    )
    from console.models.formulas import ContractItemView
    from console.tui.base.shown import Model
    from console.tui.browse.row_filter import RowFilter

log = logging.getLogger("console.tui")

Kind = Look
"""The name the console's modules knew a look by (a look is how a kind looks)."""
ResourceKind = ListLook
"""The name the console's modules knew a list look by."""


_MARKS = "?—"
"""What any cell may show instead of its value: unreadable, missing."""
DATE_CHARS = "0123456789-: " + _MARKS
"""A list's date cell (`2026-11-20 10:00`)."""


def unknown_fields(model: Model) -> list[tuple[str, Renderable]]:
    """The fields the service sent that the console does not know, as `name: JSON` rows:
    shown as text, never dropped (see console.models.LenientModel)."""
    rows: list[tuple[str, Renderable]] = []
    for name, value in model.unknown_fields.items():
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        rows.append((name, Text(text, style="italic")))
    return rows


def raw_fields(item: object) -> list[tuple[str, Renderable]]:
    """Every top-level field of an object as sent, as text: for one the console cannot read."""
    if not isinstance(item, dict):
        return [("Value", Text(json.dumps(item, ensure_ascii=False, default=str)))]
    return [
        (str(name), Text(value if isinstance(value, str) else json.dumps(value, default=str)))
        for name, value in item.items()
    ]


def _id_query(row_filter: RowFilter, what: str) -> Query | None:
    """`{"ids": ...}` for full ids typed (alone or after `id:`); an `id:` that holds no
    full id is refused, as the service matches whole ids only."""
    if row_filter.column not in (None, "id"):
        return None
    ids = _uuids(row_filter.term)
    if ids:
        return {"ids": tuple(ids)}
    if row_filter.column == "id":
        raise FilterInvalid(f"{what} are filtered by id on the server: enter a full id.")
    return None


def _uuids(text: str) -> list[str] | None:
    parts = [p for p in text.replace(",", " ").split() if p]
    try:
        return [str(UUID(p)) for p in parts] if parts else None
    except ValueError:
        return None


def _count(items: Sequence[object] | None, word: str) -> str:
    n = len(items or ())
    return f"{n} {word}{'' if n == 1 else 's'}"


def _expiry_cell(value: str | None) -> Renderable:
    moment = fmt.wire_time(value)
    if moment is None:
        return Text("never", style="dim")
    return Text(fmt.short_date(moment), style=fmt.expiry_style(moment))


def _date_cell(value: str | None) -> str:
    return fmt.short_date(fmt.wire_time(value))


def _id_text(value: object) -> Renderable:
    return str(value) if value else Text("—", style="dim")


async def _application_names(client: AdminClient, ids: list[str]) -> Labels:
    """The names of these applications, in one request; none if the key may not read them."""
    try:
        found = await client.applications.page_json(page=1, size=100, ids=ids)
    except Exception:
        log.info("application names not looked up", exc_info=True)
        return {}
    return {str(a["id"]): str(a.get("name")) for a in found["data"]}


def named_id(value: object, labels: Labels | None) -> Renderable:
    """An id with the name of the application it is, when the console knows it: "Name  id"."""
    if not value:
        return _id_text(value)
    name = (labels or {}).get(str(value))
    return Text.assemble(name, (f"  {value}", "dim")) if name else str(value)


def audit_ids(item: Shown) -> list[str]:
    """The ids a detail shows that may be applications: who created and last changed it,
    and a proxy's or a reactor's application. Looked up by id (an id of no application stays
    as it is)."""
    names = ("created_by", "modified_by", "application_id")
    found = {str(v) for v in (field_of(item, n) for n in names) if v}
    application = field_of(item, "application")  # a reactor's: {id, ...}
    if application is not None and not isinstance(application, str | int | float | bool):
        nested = field_of(application, "id")
        if nested and not field_of(application, "name"):
            found.add(str(nested))
    return sorted(found)


async def application_names(client: AdminClient, ids: list[str]) -> Labels:
    """The names of the applications among `ids` (others are left out); {} on a failure."""
    return await _application_names(client, ids) if ids else {}


def _audit(
    item: Application | Proxy | ReactorFormula | Reactor, labels: Labels | None = None
) -> list[tuple[str, Renderable]]:
    return [
        ("Created", fmt.when(item.created_at)),
        ("Created by", named_id(item.created_by, labels)),
        ("Modified", fmt.when(item.modified_at)),
        ("Modified by", named_id(item.modified_by, labels)),
    ]


class ApplicationsLook(ListLook):
    delete_consequences = "Its API key stops working at once."
    short_title = "Apps"
    filter_placeholder = "any column or column:value; enter searches the tenant"
    columns = (
        Column("name", "Name", lambda a: a["name"], min_width=16, grow=True),
        Column("type", "Type", lambda a: a["type"]),
        Column(
            "grants",
            "Permissions / rules",
            lambda a: (
                f"{_count(a.get('permissions'), 'permission')}, {_count(a.get('rules'), 'rule')}"
            ),
            min_width=16,
            drop_order=2,
            charset="0123456789 ,permissionrule" + _MARKS,
        ),
        Column(
            "expires",
            "Expires",
            lambda a: _expiry_cell(a.get("expires_at")),
            16,
            charset=DATE_CHARS + "never",
        ),
        Column(
            "created",
            "Created",
            lambda a: _date_cell(a.get("created_at")),
            16,
            drop_order=1,
            charset=DATE_CHARS,
        ),
    )

    def server_query(self, row_filter: RowFilter) -> Query | None:
        return _id_query(row_filter, self.title)

    def fields(
        self, item: Application, labels: Labels | None = None
    ) -> list[tuple[str, Renderable]]:
        expires: Renderable = Text("never", style="dim")
        if item.expires_at is not None:
            expires = Text(fmt.when(item.expires_at), style=fmt.expiry_style(item.expires_at))
        rules = Text()
        for rule in item.rules:
            if rules:
                rules.append("\n")
            priority = "?" if rule.priority is None else rule.priority
            rules.append(f"#{priority} ", style="bold")
            rules.append(f"{rule.description or ''} — {rule.transform or '?'}")
            if rule.container:
                rules.append(f" in {rule.container}")
            rules.append(f": {', '.join(rule.permissions)}", style="dim")
        return [
            ("Id", str(item.id)),
            ("Name", item.name),
            ("Type", item.type),
            ("Permissions", ", ".join(item.permissions) or Text("none", style="dim")),
            ("Rules", rules or Text("none", style="dim")),
            ("Expires", expires),
            ("Tenant", _id_text(item.tenant_id)),
            *_audit(item, labels),
        ]


def _application_cell(proxy: JsonObject, labels: Labels) -> Renderable:
    if proxy.get("application_id") is None:
        return Text("—", style="dim")
    key = str(proxy["application_id"])
    return labels.get(key) or Text(key[:8] + "…", style="dim")


class ProxiesLook(ListLook):
    delete_consequences = "Calls to the proxy fail at once, and its key stops working."
    filter_placeholder = "any column or column:value; enter asks the service by name or id"
    columns = (
        Column("name", "Name", lambda p: p["name"], min_width=16, grow=True),
        Column(
            "destination",
            "Destination",
            lambda p: p["destination_url"],
            40,
            min_width=20,
            grow=True,
        ),
        Column(
            "auth", "Auth", lambda p: fmt.yes_no(p.get("require_auth")), 5, charset="yesno" + _MARKS
        ),
        Column(
            "application",
            "Application",
            _application_cell,
            22,
            uses_labels=True,
            min_width=14,
            drop_order=2,
            grow=True,
        ),
        Column(
            "created",
            "Created",
            lambda p: _date_cell(p.get("created_at")),
            16,
            drop_order=1,
            charset=DATE_CHARS,
        ),
    )

    def server_query(self, row_filter: RowFilter) -> Query | None:
        by_id = _id_query(row_filter, self.title)
        if by_id is None and row_filter.column in (None, "name") and row_filter.term:
            return {"name": row_filter.term}
        return by_id

    async def fetch(self, client: AdminClient, page: int, size: int, query: Query) -> Fetched:
        fetched = await super().fetch(client, page, size, query)
        ids = sorted({str(p["application_id"]) for p in fetched.items if p.get("application_id")})
        if ids:
            fetched.labels.update(await _application_names(client, ids))
        return fetched

    def fields(self, item: Proxy, labels: Labels | None = None) -> list[tuple[str, Renderable]]:
        application = named_id(item.application_id, labels)
        return [
            ("Id", str(item.id)),
            ("Name", item.name),
            ("Destination", item.destination_url or ""),
            ("Requires auth", fmt.yes_no(item.require_auth)),
            ("Application", application),
            ("Proxy key", fmt.mask_key(item.key)),
            ("Configuration", masked_configuration(item.configuration)),
            *_transform_fields(item),
            *_beyond_spec_fields(item),
            ("Tenant", _id_text(item.tenant_id)),
            *_audit(item, labels),
        ]

    def code_blocks(self, item: Proxy) -> list[CodeBlock]:
        if has_pipelines(item):
            return _pipeline_blocks(item)
        blocks = []
        for title, transform in (
            ("Request transform", item.request_transform),
            ("Response transform", item.response_transform),
        ):
            if transform is None:
                continue
            if transform.is_code:
                blocks.append(CodeBlock(title, transform.code or ""))
            else:  # another kind of transform: every field, as sent
                body = json.dumps(transform.model_dump(exclude_none=True), indent=2)
                blocks.append(CodeBlock(f"{title} ({transform.kind})", body, "json"))
        return blocks


PIPELINE_SIDES = (("request", "Request transforms"), ("response", "Response transforms"))
"""A proxy's two pipelines, in the order they run, and what the detail calls them."""


def _transform_fields(item: Proxy) -> list[tuple[str, Renderable]]:
    """A proxy read with pipelines: each side's steps, one line each (type and what it does,
    as the form's step list says it); a proxy with the single transforms only (a service of
    the specification): each transform, as before."""
    if not has_pipelines(item):
        return [
            ("Request transform", _transform_summary(item.request_transform)),
            ("Response transform", _transform_summary(item.response_transform)),
        ]
    return [(label, _steps_text(pipeline_of(item, side))) for side, label in PIPELINE_SIDES]


def _beyond_spec_fields(item: Proxy) -> list[tuple[str, Renderable]]:
    """What a service beyond the specification says of a proxy (its state, host, timeout,
    detokenization), each only when the service sent it."""
    fields: list[tuple[str, Renderable]] = []
    if item.state is not None:
        fields.append(("State", state_text(printable(item.state))))
    if item.proxy_host is not None:
        fields.append(("Proxy host", printable(item.proxy_host)))
    if item.timeout is not None:
        fields.append(("Timeout", f"{item.timeout} s"))
    if item.disable_detokenization is not None:
        fields.append(("Detokenization", "off" if item.disable_detokenization else "on"))
    return fields


def _steps_text(steps: list[JsonObject]) -> Renderable:
    if not steps:
        return Text("none", style="dim")
    text = Text(no_wrap=True, overflow="ellipsis")  # one line a step, cut where narrow
    for index, step in enumerate(steps):
        if index:
            text.append("\n")
        text.append(f"{index + 1:>2}  ")
        text.append(f"{printable(str(step.get('type') or 'code')):<14}", style="bold")
        text.append(step_summary(step), style="dim")
    return text


def _pipeline_blocks(item: Proxy) -> list[CodeBlock]:
    """Each code step's code, titled with its side and position; a step of a type the
    console does not know, every field as sent (its one line cannot say what it does)."""
    from console.models import TRANSFORM_TYPES

    blocks = []
    for side, _ in PIPELINE_SIDES:
        steps = pipeline_of(item, side)
        for index, step in enumerate(steps):
            kind = str(step.get("type") or "code")
            title = f"{side.capitalize()} transforms, step {index + 1}"
            if kind == "code":
                blocks.append(CodeBlock(title, str(step.get("code") or "")))
            elif kind not in TRANSFORM_TYPES:
                body = json.dumps(step, indent=2)
                blocks.append(CodeBlock(f"{title} ({printable(kind)})", body, "json"))
    return blocks


def _transform_summary(transform: TransformView | None) -> Renderable:
    if transform is None:
        return Text("none", style="dim")
    if transform.is_code:
        return "code"
    return Text.assemble(transform.kind, (" (not code: shown below, kept as it is)", "dim"))


def _contract(items: Sequence[ContractItemView], optional: bool) -> Renderable:
    if not items:
        return Text("none", style="dim")
    text = Text()
    for item in items:
        if text:
            text.append("\n")
        text.append(str(item.name), style="bold")
        text.append(f": {item.type}")
        if optional and item.optional:
            text.append(" (optional)", style="dim")
        if item.description:
            text.append(f" — {item.description}", style="dim")
    return text


class ReactorFormulasLook(ListLook):
    delete_consequences = "Reactors can no longer be made from it."
    short_title = "Formulas"
    filter_placeholder = "any column or column:value; enter asks the service by name"
    columns = (
        Column("name", "Name", lambda f: f["name"], min_width=16, grow=True),
        Column("type", "Type", lambda f: f["type"]),
        Column("status", "Status", lambda f: str(f["status"]).replace("_", " ")),
        Column(
            "parameters",
            "Parameters",
            lambda f: (
                f"{len(f.get('configuration') or ())} config, "
                f"{len(f.get('request_parameters') or ())} request"
            ),
            min_width=19,
            drop_order=2,
            charset="0123456789 ,configrequest" + _MARKS,
        ),
        modified_column(),
    )

    def server_query(self, row_filter: RowFilter) -> Query | None:
        if row_filter.column in (None, "name") and row_filter.term:
            return {"name": row_filter.term}
        return None

    def is_read_only(self, obj: Shown | None) -> bool:
        # Official formulas (and any type but private, e.g. a partner's) are the operator's.
        return obj is not None and field_of(obj, "type") != "private"

    def read_only_reason(self, obj: Shown) -> str:
        if field_of(obj, "type") == "official":
            return "Official formulas belong to the service operator: no tenant can delete them."
        kind = str(field_of(obj, "type") or "Such").capitalize()
        return f"{kind} formulas are not this tenant's own: it cannot delete them."

    def fields(
        self, item: ReactorFormula, labels: Labels | None = None
    ) -> list[tuple[str, Renderable]]:
        icon: Renderable = Text("none", style="dim")
        if item.icon:
            media = item.icon.split(";", 1)[0].removeprefix("data:")
            icon = f"{media}, {len(item.icon)} characters"
        return [
            ("Id", str(item.id)),
            ("Name", item.name),
            ("Type", item.type),
            ("Status", item.status.replace("_", " ")),
            ("Description", item.description or Text("none", style="dim")),
            ("Icon", icon),
            ("Configuration", _contract(item.configuration, optional=False)),
            ("Request parameters", _contract(item.request_parameters, optional=True)),
            *_audit(item, labels),
        ]

    def code_blocks(self, item: ReactorFormula) -> list[CodeBlock]:
        return [CodeBlock("Code", item.code)] if item.code is not None else []


IN_PROGRESS_STATES = ("creating", "updating")
"""A reactor being provisioned (console.models.reactors.STATES)."""


def state_text(state: object) -> Renderable:
    """A reactor's state: being provisioned shown in progress, failed in the error colour,
    none (a service that provisions nothing) as a dash."""
    if not state:
        return Text("—", style="dim")
    word = str(state)
    if word in IN_PROGRESS_STATES:
        return Text(f"⋯ {word}", style="italic yellow")
    if word == "failed":
        return Text(f"✗ {word}", style="bold red")
    if word == "outdated":
        return Text(word, style="yellow")
    return word


def _reactor_application_id(reactor: JsonObject) -> str | None:
    application = reactor.get("application")
    if isinstance(application, dict) and application.get("id"):
        return str(application["id"])
    return None


def _reactor_application_cell(reactor: JsonObject, labels: Labels) -> Renderable:
    """The application's name: as the reactor was sent with it, else looked up by id."""
    key = _reactor_application_id(reactor)
    if key is None:
        return Text("—", style="dim")
    application = reactor["application"]
    name = application.get("name") if isinstance(application, dict) else None
    return str(name) if name else labels.get(key) or Text(key[:8] + "…", style="dim")


def _reactor_image(reactor: JsonObject) -> str:
    runtime = reactor.get("runtime")
    image = runtime.get("image") if isinstance(runtime, dict) else None
    return str(image or "node-bt")


def masked_configuration(configuration: dict[str, str | None] | None) -> Renderable:
    """A configuration's names with their values masked: they are secrets (keys, tokens),
    never shown whole on a screen (nor in a snapshot); the form holds them as typed."""
    if not configuration:
        return Text("none", style="dim")
    text = Text()
    for name, value in configuration.items():
        if text:
            text.append("\n")
        text.append(str(name), style="bold")
        text.append(" = ")
        if value is None:
            text.append("(null)", style="dim")
        else:
            text.append(fmt.mask_secret(value), style="dim")
    return text


def _names_versions(packages: dict[str, str | None] | None) -> Renderable:
    if not packages:
        return Text("none", style="dim")
    return "\n".join(f"{name}@{version or '?'}" for name, version in packages.items())


def provisioning_error(reactor: Reactor) -> Renderable | None:
    """The failed provisioning's error as the service said it (`requested.error_*`), or None."""
    requested = reactor.requested
    if requested is None or not (requested.error_code or requested.error_message):
        return None
    text = Text()
    if requested.error_code:
        text.append(requested.error_code, style="bold red")
        text.append(": " if requested.error_message else "")
    if requested.error_message:
        text.append(requested.error_message, style="red")
    if reactor.state != "failed":
        text.append("\nThe previous version keeps serving until the next change.", style="dim")
    return text


REACT_KEY = "ctrl+l"
"""React's key on every screen that offers it (the lists, a reactor's detail and form, the
React screen itself, where it sends again): a control key, as a form's fields take letters.
Declared with the action (console.tui.actions.declarations.REACT); here, below the forms and
the actions, so that both read it without loading each other."""
REACT_LABEL = "React"


class ReactorsLook(ListLook):
    delete_consequences = "Reacting with it fails at once; its code and configuration are gone."
    filter_placeholder = "any column or column:value; enter asks the service by name or id"
    columns = (
        Column("name", "Name", lambda r: r["name"], min_width=16, grow=True),
        Column(
            "state",
            "State",
            lambda r: state_text(r.get("state")),
            10,
            charset="⋯✗ creatingupdatedfailedoutdatedactive" + _MARKS,
        ),
        Column("image", "Image", _reactor_image, 7, charset="node-bt22" + _MARKS),
        Column(
            "application",
            "Application",
            _reactor_application_cell,
            22,
            uses_labels=True,
            min_width=14,
            drop_order=2,
            grow=True,
        ),
        modified_column(),
    )

    def server_query(self, row_filter: RowFilter) -> Query | None:
        by_id = _id_query(row_filter, self.title)
        if by_id is None and row_filter.column in (None, "name") and row_filter.term:
            return {"name": row_filter.term}
        return by_id

    async def fetch(self, client: AdminClient, page: int, size: int, query: Query) -> Fetched:
        fetched = await super().fetch(client, page, size, query)
        unnamed = {
            key
            for r in fetched.items
            if isinstance(r, dict)
            and (key := _reactor_application_id(r))
            and not (r.get("application") or {}).get("name")
        }
        if unnamed:
            fetched.labels.update(await _application_names(client, sorted(unnamed)))
        return fetched

    def fields(self, item: Reactor, labels: Labels | None = None) -> list[tuple[str, Renderable]]:
        runtime = item.runtime
        application: Renderable = Text("none", style="dim")
        if item.application is not None and item.application.id is not None:
            known = item.application.name or (labels or {}).get(str(item.application.id))
            application = (
                Text.assemble(known, (f"  {item.application.id}", "dim"))
                if known
                else str(item.application.id)
            )
        none = Text("default", style="dim")
        rows: list[tuple[str, Renderable]] = [
            ("Id", str(item.id)),
            ("Name", item.name),
            ("State", state_text(item.state)),
        ]
        error = provisioning_error(item)
        if error is not None:
            rows.append(("Provisioning", error))
        rows += [
            ("Image", item.image),
            ("Timeout", f"{runtime.timeout} s" if runtime and runtime.timeout else none),
            ("Resources", (runtime.resources if runtime else None) or none),
            (
                "Warm concurrency",
                str(runtime.warm_concurrency)
                if runtime and runtime.warm_concurrency is not None
                else none,
            ),
            (
                "Permissions",
                ", ".join(runtime.permissions)
                if runtime and runtime.permissions
                else Text("none", style="dim"),
            ),
            ("Dependencies", _names_versions(runtime.dependencies if runtime else None)),
            ("Application", application),
            ("Configuration", masked_configuration(item.configuration)),
        ]
        if item.formula:
            rows.append(("Formula", str(item.formula.get("name") or item.formula.get("id"))))
        rows += [("Tenant", _id_text(item.tenant_id)), *_audit(item, labels)]
        return rows

    def code_blocks(self, item: Reactor) -> list[CodeBlock]:
        blocks = [CodeBlock("Code", item.code)] if item.code is not None else []
        pending = item.requested.reactor if item.requested else None
        if pending is not None and pending.code is not None and pending.code != item.code:
            title = "Code being provisioned" if item.provisioning else "Code that failed"
            blocks.append(CodeBlock(title, pending.code))
        return blocks


APPLICATION_TYPES = ("private", "public", "management")


class PermissionsLook(ListLook):
    short_title = "Perms"
    filter_placeholder = "any column or column:value; enter asks by application type"
    columns = (
        Column("type", "Type", lambda p: p["type"]),
        Column("description", "Description", lambda p: p["description"], min_width=16, grow=True),
        Column(
            "types",
            "Application types",
            lambda p: ", ".join(p.get("application_types", ())),
            min_width=17,
            grow=True,
        ),
    )

    def server_query(self, row_filter: RowFilter) -> Query | None:
        if row_filter.column not in (None, "types"):
            return None
        value = row_filter.term.lower()
        if value in APPLICATION_TYPES:
            return {"application_type": value}
        if row_filter.column == "types":
            raise FilterInvalid(
                "Permissions are filtered by application type: private, public or management."
            )
        return None

    async def fetch(self, client: AdminClient, page: int, size: int, query: Query) -> Fetched:
        items = await client.permissions.list_json(**query)
        return Fetched(items, len(items), 1, False)

    async def get(self, client: AdminClient, item_id: str) -> Model:
        for item in await client.permissions.list():
            if item.type == item_id:
                return item
        raise LookupError(f"There is no permission {item_id}.")

    def item_id(self, item: Shown) -> str:
        # "None" for a permission sent without a type, as the lists have always shown it.
        return str(field_of(item, self.declaration.id_field))

    def fields(
        self, item: Permission, labels: Labels | None = None
    ) -> list[tuple[str, Renderable]]:
        return [
            ("Type", item.type),
            ("Description", item.description),
            ("Application types", ", ".join(item.application_types)),
        ]


class TenantLook(Look):
    """The tenant itself: one object, edited and deleted from the Tenant section."""

    delete_consequences = (
        "Every application, proxy and formula in it is deleted, and every key of the tenant "
        "stops working at once, including the one this console uses. This cannot be undone."
    )

    async def get(self, client: AdminClient, item_id: str = "") -> Tenant:
        return await client.tenant.get()

    async def delete(self, client: AdminClient, obj: Shown) -> None:
        await client.tenant.delete()


APPLICATIONS = ApplicationsLook(kinds.APPLICATIONS)
PROXIES = ProxiesLook(kinds.PROXIES)
REACTOR_FORMULAS = ReactorFormulasLook(kinds.REACTOR_FORMULAS)
REACTORS = ReactorsLook(REACTORS_KIND)
PERMISSIONS = PermissionsLook(kinds.PERMISSIONS)
TENANT = TenantLook(kinds.TENANT)
for _look in (APPLICATIONS, PROXIES, REACTOR_FORMULAS, REACTORS, PERMISSIONS, TENANT):
    LOOKS.register(_look)

LIST_KINDS: LiveSequence[ListLook] = LiveSequence(LOOKS.lists)
"""The looks of the kinds listed in sections, in the registry's order, as of each use."""
KINDS_BY_KEY: LiveMapping[ListLook] = LiveMapping(lambda: {k.key: k for k in LOOKS.lists()})
"""The same by key, as of each use."""
