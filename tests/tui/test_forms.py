"""The resource forms against the real local service: create, edit, validation before
sending, the service's 400 at its field, failures that keep the form, unsaved changes,
the lost-update guard, code warnings and read-only forms."""

from __future__ import annotations

from typing import Any

import pytest
from form_host import SIZE, FormHost, screen_is, wait_until
from form_host import steady_cursors as steady_screen_cursors
from textual.widgets import Button, Input, Select, Static, Switch

from console.client import AdminClient
from console.models import Application, Proxy, ReactorFormula, Tenant
from console.tui.forms import ApplicationForm, FormulaForm, ProxyForm, TenantForm
from console.tui.forms.editors import ContractEditor, KeyValueEditor
from console.tui.forms.permissions import PermissionChecklist
from console.tui.forms.pipeline import PipelineEditor
from console.tui.forms.proxy import ApplicationPicker
from console.tui.forms.rules import RulesEditor
from console.tui.modals import (
    MASK,
    CodeWarningModal,
    DiscardChangesModal,
    KeyRevealModal,
    LostUpdateModal,
)

BROKEN_CODE = "module.exports = function (req) {\n  return { raw: req.args ;\n};\n"
PNG_1X1 = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)


@pytest.fixture
def tenant(service: Any) -> Any:
    return service.new_tenant("Forms tenant")


@pytest.fixture
async def client(service: Any, tenant: Any) -> Any:
    async with AdminClient(service.base_url, tenant.key) as c:
        yield c


def host(service: Any, tenant: Any, make: Any, **kwargs: Any) -> FormHost:
    return FormHost(make, base_url=service.base_url, key=tenant.key, **kwargs)


def field(form: Any, path: str) -> Any:
    return form.fields_by_path()[path]


def type_into(form: Any, selector: str, text: str) -> None:
    form.query_one(selector, Input).value = text


async def checklists_loaded(pilot: Any, form: Any) -> None:
    await wait_until(
        pilot,
        lambda: all(c.loaded for c in form.query(PermissionChecklist)),
        what="permission lists",
    )


async def save_and_wait(pilot: Any, app: FormHost) -> None:
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: app.dismissed or not app.form.saving, what="save")


# ----- applications -----


async def test_create_application_with_a_rule_reveals_its_key_masked(service, tenant, client):
    app = host(service, tenant, lambda c: ApplicationForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await checklists_loaded(pilot, form)
        await pilot.click("#name")
        await pilot.press(*"Checkout backend")
        form.query_one("#permissions", PermissionChecklist).selection_list.select("token:create")
        rules = form.query_one(RulesEditor)
        row = await rules.add_rule()
        await pilot.pause()
        row.query_one(".rule-description", Input).value = "Cards, masked"
        row.query_one(".rule-container", Input).value = "/pci/"
        row.query_one(".rule-transform", Select).value = "mask"
        await wait_until(pilot, lambda: row.checklist.loaded)
        row.checklist.selection_list.select("token:read")
        await pilot.press("ctrl+s")
        await wait_until(pilot, screen_is(app, KeyRevealModal), what="key reveal")
        reveal = app.screen
        assert str(reveal.query_one("#key", Static).content) == MASK
        await pilot.press("escape")  # refused: the key must be dismissed on purpose
        assert isinstance(app.screen, KeyRevealModal)
        await pilot.click("#stored")  # the key may close only once it is safe
        await pilot.click("#done")
        await wait_until(pilot, lambda: app.dismissed)
    created = app.result
    assert created is not None and created.key
    stored = await client.applications.get(created.id)
    assert stored.name == "Checkout backend"
    assert stored.type == "private"
    assert stored.permissions == ["token:create"]
    assert [
        (r.description, r.priority, r.container, r.transform, r.permissions) for r in stored.rules
    ] == [("Cards, masked", 1, "/pci/", "mask", ["token:read"])]


async def test_edit_application_changes_name_and_reorders_rules(service, tenant, client):
    original = await client.applications.create(
        {
            "name": "Collector",
            "type": "public",
            "permissions": ["token:create"],
            "rules": [
                {
                    "description": "first",
                    "priority": 1,
                    "container": "/a/",
                    "transform": "mask",
                    "permissions": ["token:create"],
                },
                {
                    "description": "second",
                    "priority": 2,
                    "container": "/b/",
                    "transform": "redact",
                    "permissions": ["token:update"],
                },
            ],
        }
    )
    app = host(service, tenant, lambda c: ApplicationForm(c, original))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await checklists_loaded(pilot, form)
        assert not form.dirty
        type_into(form, "#name", "Collector v2")
        rules = form.query_one(RulesEditor)
        rules.move_rule(rules.rows[1], -1)  # "second" first: priorities swap
        await pilot.pause()
        assert form.dirty
        await save_and_wait(pilot, app)
        assert app.dismissed, form.banner_text
    stored = await client.applications.get(original.id)
    assert stored.name == "Collector v2"
    assert sorted((r.priority, r.description) for r in stored.rules) == [
        (1, "second"),
        (2, "first"),
    ]
    assert stored.type == "public"


async def test_invalid_name_is_flagged_at_its_field_and_nothing_is_sent(service, tenant, client):
    before = (await client.applications.list()).pagination.total_items
    app = host(service, tenant, lambda c: ApplicationForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await checklists_loaded(pilot, form)
        type_into(form, "#name", "x" * 201)
        form.query_one("#permissions", PermissionChecklist).selection_list.select("token:create")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert field(form, "name").invalid
        assert "at most 200 characters" in field(form, "name").errors
        assert "Not saved" in form.banner_text
        assert form._send_count == 0
        assert not app.dismissed
    assert (await client.applications.list()).pagination.total_items == before


async def test_management_application_with_token_read_is_refused_before_sending(
    service, tenant, client
):
    before = (await client.applications.list()).pagination.total_items
    app = host(service, tenant, lambda c: ApplicationForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await checklists_loaded(pilot, form)
        type_into(form, "#name", "Admin tool")
        checklist = form.query_one("#permissions", PermissionChecklist)
        checklist.selection_list.select("token:read")
        form.query_one("#type", Select).value = "management"
        await wait_until(
            pilot, lambda: "tenant:read" in checklist._options if checklist.loaded else False
        )
        assert "token:read" in checklist.selected  # kept, marked, not silently dropped
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "token:read is not allowed for management" in field(form, "permissions").errors
        assert form._send_count == 0
    assert (await client.applications.list()).pagination.total_items == before


async def test_unparseable_expiry_is_flagged(service, tenant):
    app = host(service, tenant, lambda c: ApplicationForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await checklists_loaded(pilot, form)
        type_into(form, "#name", "Temp")
        type_into(form, "#expires-at", "next tuesday")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "2026-12-31 17:00" in field(form, "expires_at").errors
        assert form._send_count == 0


async def test_application_created_with_expiry(service, tenant, client):
    app = host(service, tenant, lambda c: ApplicationForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await checklists_loaded(pilot, form)
        type_into(form, "#name", "Short lived")
        form.query_one("#permissions", PermissionChecklist).selection_list.select("token:create")
        type_into(form, "#expires-at", "2099-12-31 17:00")
        await pilot.press("ctrl+s")
        await wait_until(pilot, screen_is(app, KeyRevealModal))
        await pilot.click("#stored")  # the key may close only once it is safe
        await pilot.click("#done")
        await wait_until(pilot, lambda: app.dismissed)
    stored = await client.applications.get(app.result.id)
    assert stored.expires_at.isoformat() == "2099-12-31T17:00:00+00:00"


async def test_an_expiry_is_typed_and_shown_in_local_time(service, tenant, client, monkeypatch):
    import time

    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    app = host(service, tenant, lambda c: ApplicationForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await checklists_loaded(pilot, form)
        assert "local time" in str(form.query_one("#expires-at", Input).placeholder)
        type_into(form, "#name", "Berlin time")
        form.query_one("#permissions", PermissionChecklist).selection_list.select("token:create")
        type_into(form, "#expires-at", "2099-12-31 18:00")  # CET: 17:00 UTC
        await pilot.press("ctrl+s")
        await wait_until(pilot, screen_is(app, KeyRevealModal))
        await pilot.click("#stored")
        await pilot.click("#done")
        await wait_until(pilot, lambda: app.dismissed)
    stored = await client.applications.get(app.result.id)
    assert stored.expires_at.isoformat() == "2099-12-31T17:00:00+00:00"
    shown = host(service, tenant, lambda c: ApplicationForm(c, stored))
    async with shown.run_test(size=SIZE) as pilot:
        await pilot.pause()
        value = field(shown.form, "expires_at").query_one(".readonly-value", Static)
        assert "2099-12-31 18:00 CET" in str(value.content)


# ----- proxies -----


async def test_create_proxy_with_application_configuration_and_transform(service, tenant, client):
    backend = await client.applications.create(
        {"name": "Proxy backend", "type": "private", "permissions": ["token:use"]}
    )
    app = host(service, tenant, lambda c: ProxyForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        picker = form.query_one("#application", ApplicationPicker)
        await wait_until(pilot, lambda: picker.loaded, what="applications")
        type_into(form, "#name", "Card collection")
        type_into(form, "#destination-url", "https://api.example.com/v1")
        form.query_one("#require-auth", Switch).value = False
        picker.value = str(backend.id)
        editor = form.query_one(KeyValueEditor)
        row = await editor.add_row()
        row.query_one(".kv-key", Input).value = "region"
        row.query_one(".kv-value", Input).value = "eu"
        step = form.query_one("#request-transforms", PipelineEditor).add_step("code")
        await pilot.pause()
        step.code_editor.text = "module.exports = async function (req) { return req.args; };\n"
        await save_and_wait(pilot, app)
        assert app.dismissed, form.banner_text
    stored = await client.proxies.get(app.result.id)
    assert stored.name == "Card collection"
    assert stored.require_auth is False
    assert str(stored.application_id) == str(backend.id)
    assert stored.configuration == {"region": "eu"}
    assert (
        stored.request_transform is not None and "module.exports" in stored.request_transform.code
    )
    assert stored.response_transform is None


async def test_picker_offers_only_public_and_private_applications(service, tenant, client):
    await client.applications.create(
        {"name": "Pub", "type": "public", "permissions": ["token:create"]}
    )
    app = host(service, tenant, lambda c: ProxyForm(c))
    async with app.run_test(size=SIZE) as pilot:
        picker = app.form.query_one("#application", ApplicationPicker)
        await wait_until(pilot, lambda: picker.loaded)
        labels = [str(prompt) for prompt, _ in picker._options]
    assert any(label.startswith("Pub (public)") for label in labels)
    assert not any("management" in label for label in labels)


async def test_http_destination_is_refused_before_sending(service, tenant, client):
    app = host(service, tenant, lambda c: ProxyForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        type_into(form, "#name", "Plain")
        type_into(form, "#destination-url", "http://api.example.com")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "https://" in field(form, "destination_url").errors
        assert form._send_count == 0
    assert (await client.proxies.list()).pagination.total_items == 0


async def test_server_400_on_the_application_lands_at_the_picker(service, tenant, client):
    """An application deleted after it was picked: only the service can tell."""
    doomed = await client.applications.create(
        {"name": "Soon gone", "type": "private", "permissions": ["token:use"]}
    )
    app = host(service, tenant, lambda c: ProxyForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        picker = form.query_one("#application", ApplicationPicker)
        await wait_until(pilot, lambda: picker.loaded)
        type_into(form, "#name", "Orphan")
        type_into(form, "#destination-url", "https://example.com")
        picker.value = str(doomed.id)
        await client.applications.delete(doomed.id)
        await save_and_wait(pilot, app)
        assert not app.dismissed
        assert form._send_count == 1
        assert field(form, "application").invalid
        assert "refused" in form.banner_text
        assert form.query_one("#name", Input).value == "Orphan"
        type_into(form, "#name", "Orphan 2")  # not the field the service refused
        await pilot.pause()
        assert field(form, "application").invalid
        picker.value = Select.NULL  # the refused choice is gone: so is its error
        await pilot.pause()
        assert not field(form, "application").invalid
    assert (await client.proxies.list()).pagination.total_items == 0


async def test_service_stopped_during_save_keeps_the_form_and_its_content(fresh_service):
    tenant = fresh_service.new_tenant("Unreachable tenant")
    app = host(fresh_service, tenant, lambda c: ProxyForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        picker = form.query_one("#application", ApplicationPicker)
        await wait_until(pilot, lambda: picker.loaded)
        type_into(form, "#name", "Kept")
        type_into(form, "#destination-url", "https://kept.example.com")
        fresh_service.stop()
        await save_and_wait(pilot, app)
        assert not app.dismissed
        assert app.screen is form
        assert form.query_one("#name", Input).value == "Kept"
        assert form.query_one("#destination-url", Input).value == "https://kept.example.com"
        assert "Not saved" in form.banner_text
        assert "Cannot reach the service" in form.banner_text
        assert any("Cannot reach the service" in n for n in app.notes)
        # Once the service is back, the very same form saves.
        fresh_service.start()
        await save_and_wait(pilot, app)
        assert app.dismissed, form.banner_text
    assert app.result.name == "Kept"


async def test_forbidden_save_keeps_the_form_and_names_the_permission(service, tenant, client):
    reader = service.new_key(["proxy:read", "application:read"], tenant_key=tenant.key)
    app = FormHost(lambda c: ProxyForm(c), base_url=service.base_url, key=reader)
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        type_into(form, "#name", "Not allowed")
        type_into(form, "#destination-url", "https://no.example.com")
        await save_and_wait(pilot, app)
        assert not app.dismissed
        assert "proxy:create" in form.banner_text
        assert form.query_one("#name", Input).value == "Not allowed"
    assert (await client.proxies.list()).pagination.total_items == 0


async def test_edit_proxy_and_the_lost_update_guard(service, tenant, client):
    proxy = await client.proxies.create(
        {"name": "Shared", "destination_url": "https://one.example.com"}
    )
    app = host(service, tenant, lambda c: ProxyForm(c, proxy))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await wait_until(pilot, lambda: form.query_one(ApplicationPicker).loaded)
        # Someone else renames it while the form is open.
        await client.proxies.update(
            proxy.id, {"name": "Theirs", "destination_url": "https://one.example.com"}
        )
        type_into(form, "#destination-url", "https://two.example.com")
        await pilot.press("ctrl+s")
        await wait_until(pilot, screen_is(app, LostUpdateModal), what="lost-update modal")
        modal = app.screen
        changes = {c.field: (c.theirs, c.yours) for c in modal.changes}
        assert changes == {"Name": ("Theirs", "Shared")}
        await pilot.click("#cancel")
        await wait_until(pilot, lambda: not form.saving)
        assert app.screen is form
        assert "changed by someone else" in form.banner_text
        assert (await client.proxies.get(proxy.id)).destination_url == "https://one.example.com"
        # Saving again overwrites, knowingly.
        await save_and_wait(pilot, app)
        assert app.dismissed, form.banner_text
    stored = await client.proxies.get(proxy.id)
    assert (stored.name, stored.destination_url) == ("Shared", "https://two.example.com")


async def test_lost_update_guard_allows_overwrite_from_the_modal(service, tenant, client):
    proxy = await client.proxies.create({"name": "P", "destination_url": "https://a.example.com"})
    app = host(service, tenant, lambda c: ProxyForm(c, proxy))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await client.proxies.update(
            proxy.id, {"name": "P", "destination_url": "https://theirs.example.com"}
        )
        type_into(form, "#name", "Mine")
        await pilot.press("ctrl+s")
        await wait_until(pilot, screen_is(app, LostUpdateModal))
        fields = [c.field for c in app.screen.changes]
        assert fields == ["Destination URL"]
        await pilot.click("#confirm")
        await wait_until(pilot, lambda: app.dismissed)
    stored = await client.proxies.get(proxy.id)
    assert (stored.name, stored.destination_url) == ("Mine", "https://a.example.com")


async def test_a_second_save_while_saving_sends_nothing(service, tenant, client):
    app = host(service, tenant, lambda c: ProxyForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        type_into(form, "#name", "Once")
        type_into(form, "#destination-url", "https://once.example.com")
        form.action_save()
        form.action_save()  # a second ctrl+s while the first request is on its way
        await wait_until(pilot, lambda: app.dismissed)
        assert form._send_count == 1
        assert any("Already saving" in n for n in app.notes)
    assert (await client.proxies.list(name="Once")).pagination.total_items == 1


# ----- unsaved changes -----


async def test_escape_with_unsaved_changes_asks_first(service, tenant):
    app = host(service, tenant, lambda c: ProxyForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await pilot.pause()
        assert not form.dirty
        type_into(form, "#name", "Draft")
        await pilot.pause()
        assert form.dirty
        await pilot.press("escape")
        await wait_until(pilot, screen_is(app, DiscardChangesModal))
        await pilot.click("#cancel")  # keep editing
        await wait_until(pilot, lambda: app.screen is form)
        assert form.query_one("#name", Input).value == "Draft"
        await pilot.press("escape")
        await wait_until(pilot, screen_is(app, DiscardChangesModal))
        await pilot.click("#confirm")
        await wait_until(pilot, lambda: app.dismissed)
    assert app.result is None


async def test_escape_without_changes_closes_at_once(service, tenant):
    app = host(service, tenant, lambda c: ApplicationForm(c))
    async with app.run_test(size=SIZE) as pilot:
        await checklists_loaded(pilot, app.form)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.dismissed)
    assert app.result is None


# ----- formulas -----


async def test_create_formula_with_icon_and_contracts(service, tenant, client, tmp_path):
    icon = tmp_path / "logo.png"
    icon.write_bytes(PNG_1X1)
    app = host(service, tenant, lambda c: FormulaForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        type_into(form, "#name", "Card fingerprint")
        type_into(form, "#description", "Hashes a card number")
        type_into(form, "#icon-path", str(icon))
        form.load_icon(str(icon))
        await wait_until(pilot, lambda: form.icon is not None, what="icon")
        status = str(form.query_one("#icon-status", Static).content)
        assert f"logo.png ({len(PNG_1X1)} B)" in status
        configuration = form.query_one("#configuration", ContractEditor)
        row = await configuration.add_row()
        row.query_one(".contract-name", Input).value = "salt"
        row.query_one(".contract-type", Select).value = "string"
        parameters = form.query_one("#request-parameters", ContractEditor)
        row = await parameters.add_row()
        row.query_one(".contract-name", Input).value = "card.number"
        row.query_one(".contract-type", Select).value = "string"
        row.query_one(".contract-optional", Switch).value = True
        await save_and_wait(pilot, app)
        assert app.dismissed, form.banner_text
    stored = await client.reactor_formulas.get(app.result.id)
    assert stored.type == "private"
    assert stored.icon is not None and stored.icon.startswith("data:image/png;base64,")
    assert [(c.name, c.type) for c in stored.configuration] == [("salt", "string")]
    assert [(p.name, p.optional) for p in stored.request_parameters] == [("card.number", True)]


async def test_icon_that_is_not_an_image_is_refused_clearly(service, tenant, tmp_path):
    fake = tmp_path / "fake.png"
    fake.write_text("not an image")
    gif = tmp_path / "anim.gif"
    gif.write_bytes(b"GIF89a")
    app = host(service, tenant, lambda c: FormulaForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        form.load_icon(str(fake))
        await wait_until(pilot, lambda: field(form, "icon").invalid)
        assert "not a PNG or JPEG" in field(form, "icon").errors
        form.load_icon(str(gif))
        await wait_until(pilot, lambda: "must be a .png" in field(form, "icon").errors)
        form.load_icon(str(tmp_path / "missing.png"))
        await wait_until(pilot, lambda: "There is no file" in field(form, "icon").errors)
        assert form.icon is None


async def test_syntax_error_is_flagged_before_saving(service, tenant, client):
    app = host(service, tenant, lambda c: FormulaForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        type_into(form, "#name", "Broken")
        form.query_one("#code").text = BROKEN_CODE
        await pilot.press("ctrl+s")
        await wait_until(pilot, screen_is(app, CodeWarningModal), what="code warning")
        body = str(app.screen.body_text)
        assert "syntax error" in body and "(first at 2:" in body
        await pilot.click("#cancel")
        await wait_until(pilot, lambda: app.screen is form and not form.saving)
        assert form._send_count == 0
        assert (await client.reactor_formulas.list(name="Broken")).pagination.total_items == 0
        await pilot.press("ctrl+s")
        await wait_until(pilot, screen_is(app, CodeWarningModal))
        await pilot.click("#confirm")  # save anyway
        await wait_until(pilot, lambda: app.dismissed)
    assert app.result.code == BROKEN_CODE


async def test_missing_module_exports_is_a_warning_in_the_same_modal(service, tenant):
    app = host(service, tenant, lambda c: FormulaForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        type_into(form, "#name", "No export")
        form.query_one("#code").text = "function run(req) { return req; }\n"
        await pilot.press("ctrl+s")
        await wait_until(pilot, screen_is(app, CodeWarningModal))
        assert "module.exports" in app.screen.body_text
        assert "syntax error" not in app.screen.body_text


async def test_edit_formula(service, tenant, client):
    formula = await client.reactor_formulas.create(
        {
            "name": "F",
            "type": "private",
            "code": "module.exports = () => ({});",
            "configuration": [{"name": "a", "type": "number"}],
            "request_parameters": [],
        }
    )
    app = host(service, tenant, lambda c: FormulaForm(c, formula))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await pilot.pause()
        assert not form.dirty
        type_into(form, "#name", "F2")
        configuration = form.query_one("#configuration", ContractEditor)
        configuration.rows[0].query_one(".row-remove", Button).press()
        await wait_until(pilot, lambda: not configuration.rows)
        await save_and_wait(pilot, app)
        assert app.dismissed, form.banner_text
    stored = await client.reactor_formulas.get(formula.id)
    assert (stored.name, stored.configuration) == ("F2", [])


@pytest.mark.parametrize("size", [(80, 24), (200, 60)], ids=["80x24", "200x60"])
async def test_formula_code_contract_and_parameters_are_each_a_key_away(
    service, tenant, client, size
):
    """alt+1..3 bring the code, the configuration contract and the request parameters into
    sight, focused, with no scrolling of one's own; the tabs count what each holds."""
    formula = await client.reactor_formulas.create(
        {
            "name": "Parts",
            "type": "private",
            "code": "module.exports = () => ({});",
            "configuration": [{"name": "a", "type": "number"}, {"name": "b", "type": "string"}],
            "request_parameters": [{"name": "card", "type": "string"}],
        }
    )
    app = host(service, tenant, lambda c: FormulaForm(c, formula))
    async with app.run_test(size=size) as pilot:
        form = app.form
        await pilot.pause()
        body = form.query_one("#form-body")
        tabs = form.query_one("#formula-parts")
        labels = [str(tab.label) for tab in tabs.query("ContentTab")]
        assert labels == ["Code", "Configuration (2)", "Request parameters (1)"]
        for key, part in (
            ("alt+2", "#configuration"),
            ("alt+3", "#request-parameters"),
            ("alt+1", "#code"),
        ):
            await pilot.press(key)
            widget = form.query_one(part)
            await wait_until(pilot, lambda w=widget: w.region.height > 0)  # type: ignore[misc]
            assert widget.region.height > 0, f"{part} is not on screen after {key}"
            assert body.region.overlaps(widget.region), f"{part} is scrolled out of sight"
            assert app.focused is not None and (
                app.focused is widget or widget in app.focused.ancestors
            ), f"{key} left the focus on {app.focused}"


async def test_the_tab_keys_work_from_a_text_field_and_type_nothing_into_it(
    service, tenant, client
):
    formula = await client.reactor_formulas.create(
        {"name": "Typed", "type": "private", "code": "module.exports = () => ({});"}
    )
    app = host(service, tenant, lambda c: FormulaForm(c, formula))
    async with app.run_test(size=(80, 24)) as pilot:
        form = app.form
        await pilot.pause()
        name = form.query_one("#name", Input)
        name.focus()
        await pilot.press("alt+2")
        tabs = form.query_one("#formula-parts")
        await wait_until(pilot, lambda: tabs.active == "part-configuration")
        assert name.value == "Typed"


async def test_a_problem_in_a_formula_tab_out_of_sight_opens_it(service, tenant):
    app = host(service, tenant, lambda c: FormulaForm(c))
    async with app.run_test(size=(80, 24)) as pilot:
        form = app.form
        await pilot.pause()
        tabs = form.query_one("#formula-parts")
        assert tabs.active == "part-code"
        form.show_errors({"request_parameters": ["Name the parameter."]})
        await wait_until(pilot, lambda: tabs.active == "part-parameters")
        labels = [str(tab.label) for tab in tabs.query("ContentTab")]
        assert labels == ["Code", "Configuration (0)", "Request parameters (0) ✗ problems"]


async def test_official_formula_opens_read_only(service, tenant, client):
    page = await client.reactor_formulas.list(size=100)
    official = next(f for f in page.data if f.type == "official")
    app = host(service, tenant, lambda c: FormulaForm(c, official))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await pilot.pause()
        assert form.read_only
        assert not form.query("#form-save")
        assert form.query_one("#name", Input).disabled
        assert form.query_one("#code").read_only
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert any("Read-only" in n for n in app.notes)
        assert form._send_count == 0


# ----- tenant -----


async def test_edit_tenant_name_and_settings(service, tenant, client):
    current = await client.tenant.get()
    app = host(service, tenant, lambda c: TenantForm(c, current))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        type_into(form, "#name", "Renamed tenant")
        form.query_one("#deduplicate-tokens", Switch).value = False
        await save_and_wait(pilot, app)
        assert app.dismissed, form.banner_text
    stored = await client.tenant.get()
    assert stored.name == "Renamed tenant"
    assert stored.settings["deduplicate_tokens"] == "false"
    assert stored.settings["fingerprint_tokens"] == current.settings["fingerprint_tokens"]


# ----- read-only mode -----


async def test_read_only_form_refuses_to_save(service, tenant, client):
    current = await client.tenant.get()
    app = host(service, tenant, lambda c: TenantForm(c, current, read_only=True), read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await pilot.pause()
        assert not form.query("#form-save")
        assert form.query_one("#name", Input).disabled
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert any("Read-only mode" in n for n in app.notes)
        assert form._send_count == 0
        assert not [
            b
            for b in app.screen.active_bindings.values()
            if b.binding.show and b.binding.action == "save"
        ]


# ----- looks (120x40) -----

AT = "2026-11-20T09:30:00+00:00"
IDS = {
    "tenant": "11111111-1111-4111-8111-111111111111",
    "app": "22222222-2222-4222-8222-222222222222",
    "proxy": "33333333-3333-4333-8333-333333333333",
    "formula": "44444444-4444-4444-8444-444444444444",
}


def stamp() -> dict[str, Any]:
    return {"created_at": AT, "modified_at": AT}


def sample_application() -> Application:
    return Application.model_validate(
        {
            "id": IDS["app"],
            "tenant_id": IDS["tenant"],
            "name": "Checkout backend",
            "type": "private",
            "permissions": ["token:create", "token:read"],
            "rules": [
                {
                    "description": "Cards, masked",
                    "priority": 1,
                    "container": "/pci/",
                    "transform": "mask",
                    "permissions": ["token:read"],
                },
                {
                    "description": "Everything else, redacted",
                    "priority": 2,
                    "container": "/",
                    "transform": "redact",
                    "permissions": ["token:read", "token:search"],
                },
            ],
            "expires_at": "2027-01-31T17:00:00+00:00",
            **stamp(),
        }
    )


def sample_proxy() -> Proxy:
    return Proxy.model_validate(
        {
            "id": IDS["proxy"],
            "tenant_id": IDS["tenant"],
            "key": "proxykey",
            "name": "Card collection",
            "destination_url": "https://api.example.com/v1/cards",
            "require_auth": True,
            "configuration": {"region": "eu-west", "timeout_ms": "3000"},
            "request_transform": {"code": "module.exports = async (req) => req.args;\n"},
            **stamp(),
        }
    )


def sample_formula(code: str, *, official: bool = False) -> ReactorFormula:
    return ReactorFormula.model_validate(
        {
            "id": IDS["formula"],
            "name": "Card fingerprint",
            "description": "Hashes a card number with a tenant salt",
            "type": "official" if official else "private",
            "code": code,
            "configuration": [{"name": "salt", "description": "Secret salt", "type": "string"}],
            "request_parameters": [
                {"name": "card.number", "description": "PAN", "type": "string", "optional": False}
            ],
            **stamp(),
        }
    )


def sample_tenant() -> Tenant:
    return Tenant.model_validate(
        {
            "id": IDS["tenant"],
            "owner_id": IDS["tenant"],
            "name": "Acme Payments",
            "settings": {"fingerprint_tokens": "true", "deduplicate_tokens": "false"},
            **stamp(),
        }
    )


def snapshot_host(service: Any, make: Any) -> FormHost:
    tenant = service.new_tenant("Snapshot tenant")
    return FormHost(make, base_url=service.base_url, key=tenant.key)


async def settle(pilot: Any) -> None:
    """Waits for what forms fetch on opening, so the picture is complete."""
    app = pilot.app
    await wait_until(pilot, lambda: app.form is not None and app.form.is_mounted)
    await wait_until(pilot, lambda: all(c.loaded for c in app.form.query(PermissionChecklist)))
    await wait_until(pilot, lambda: all(p.loaded for p in app.form.query(ApplicationPicker)))
    steady_cursors(pilot)


def steady_cursors(pilot: Any) -> None:
    """A blinking cursor would make a picture depend on the moment it is taken."""
    steady_screen_cursors(pilot.app.screen)


def test_snapshot_new_application(service, snap_compare):
    app = snapshot_host(service, lambda c: ApplicationForm(c))
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


def test_snapshot_edit_application_rules(service, snap_compare):
    app = snapshot_host(service, lambda c: ApplicationForm(c, sample_application()))

    async def scrolled(pilot: Any) -> None:
        await settle(pilot)
        pilot.app.form.query_one(RulesEditor).scroll_visible(animate=False, top=True)
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=scrolled)


def test_snapshot_application_errors_at_their_fields(service, snap_compare):
    app = snapshot_host(service, lambda c: ApplicationForm(c))

    async def invalid(pilot: Any) -> None:
        await settle(pilot)
        form = pilot.app.form
        type_into(form, "#name", "x" * 201)
        form.query_one("#permissions", PermissionChecklist).selection_list.select("token:read")
        form.query_one("#type", Select).value = "management"
        await wait_until(
            pilot, lambda: "tenant:read" in (form.query_one("#permissions")._options or [])
        )
        type_into(form, "#name", "Admin tool")
        await pilot.press("ctrl+s")
        await pilot.pause()
        pilot.app.clear_notifications()
        steady_cursors(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=invalid)


def test_snapshot_new_proxy(service, snap_compare):
    app = snapshot_host(service, lambda c: ProxyForm(c))
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


def test_snapshot_edit_proxy(service, snap_compare):
    app = snapshot_host(service, lambda c: ProxyForm(c, sample_proxy()))

    async def scrolled(pilot: Any) -> None:
        await settle(pilot)
        pilot.app.form.query_one(KeyValueEditor).scroll_visible(animate=False, top=True)
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=scrolled)


def test_snapshot_new_formula(service, snap_compare):
    app = snapshot_host(service, lambda c: FormulaForm(c))
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


def test_snapshot_formula_editor_with_a_syntax_error(service, snap_compare):
    app = snapshot_host(service, lambda c: FormulaForm(c, sample_formula(BROKEN_CODE)))

    async def at_the_code(pilot: Any) -> None:
        await settle(pilot)
        form = pilot.app.form
        editor = form.query_one("#code")
        await wait_until(pilot, lambda: editor.query_one("ProblemsStrip").has_class("-error"))
        form.query_one("#form-body").scroll_to_widget(editor, animate=False, top=True)
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=at_the_code)


def test_snapshot_official_formula_read_only(service, snap_compare):
    formula = sample_formula("module.exports = (req) => ({ raw: req.args });\n", official=True)
    app = snapshot_host(service, lambda c: FormulaForm(c, formula))
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


def test_snapshot_edit_tenant(service, snap_compare):
    app = snapshot_host(service, lambda c: TenantForm(c, sample_tenant()))
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


async def test_a_missing_destination_says_url_in_capitals(service, tenant):
    app = host(service, tenant, lambda c: ProxyForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        type_into(form, "#name", "No destination")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: field(form, "destination_url").invalid)
        assert "The destination URL must not be empty." in field(form, "destination_url").errors


# ----- tabbing through a form never changes it -----

TAB_FORMS = [
    "new application",
    "edit application",
    "new proxy",
    "edit proxy",
    "new formula",
    "edit formula",
    "edit tenant",
]


async def _object_for(which: str, client: Any) -> Any:
    if which == "edit application":
        return await client.applications.create(
            {
                "name": "Tabbed",
                "type": "private",
                "permissions": ["token:read"],
                "rules": [
                    {
                        "description": "all",
                        "priority": 1,
                        "container": "/",
                        "transform": "mask",
                        "permissions": ["token:read"],
                    }
                ],
            }
        )
    if which == "edit proxy":
        bound = await client.applications.create(
            {"name": "Bound", "type": "public", "permissions": ["token:create"]}
        )
        return await client.proxies.create(
            {
                "name": "Tabbed proxy",
                "destination_url": "https://t.example.com",
                "application": {"id": str(bound.id)},
                "configuration": {"region": "eu"},
                "request_transform": {"code": "module.exports = (req) => {\n  return req;\n};\n"},
                "response_transform": {"code": "module.exports = (res) => res;\n"},
            }
        )
    if which == "edit formula":
        return await client.reactor_formulas.create(
            {
                "name": "Tabbed formula",
                "type": "private",
                "code": "module.exports = async function (req) {\n  return { raw: 1 };\n};\n",
                "configuration": [{"name": "salt", "description": "s", "type": "string"}],
                "request_parameters": [
                    {"name": "a.b", "description": "d", "type": "number", "optional": True}
                ],
            }
        )
    if which == "edit tenant":
        return await client.tenant.get()
    return None


@pytest.mark.parametrize("which", TAB_FORMS)
async def test_tabbing_through_a_form_leaves_its_payload_unchanged(service, tenant, client, which):
    obj = await _object_for(which, client)
    form_class = {
        "application": ApplicationForm,
        "proxy": ProxyForm,
        "formula": FormulaForm,
        "tenant": TenantForm,
    }[which.split()[1]]
    app = host(service, tenant, lambda c: form_class(c, obj))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await checklists_loaded(pilot, form)
        await wait_until(pilot, lambda: all(p.loaded for p in form.query(ApplicationPicker)))
        await pilot.pause()
        before = (form.build_payload()[0], form.form_state())
        start = app.focused
        assert start is not None
        chain = app.screen.focus_chain
        at = chain.index(start)
        # Once round the chain each way, every stop recorded as focus lands on it; the keys go
        # in one press (Pilot waits for the whole screen once, not after every key).
        visited: list[Any] = []
        app.screen.watch(app.screen, "focused", lambda focused: visited.append(focused), init=False)
        await pilot.press(*["tab"] * len(chain))
        assert visited == chain[at + 1 :] + chain[: at + 1], "Tab did not go once round"
        visited.clear()
        await pilot.press(*["shift+tab"] * len(chain))
        assert visited == (chain[:at][::-1] + chain[at:][::-1]), "Shift+Tab did not go back round"
        assert app.focused is start
        assert (form.build_payload()[0], form.form_state()) == before
        assert not form.dirty
        if which == "new proxy":  # no steps yet: the step lists are stops, n adds a step
            assert sum(type(w).__name__ == "StepList" for w in visited) == 2
        elif which.split()[1] in ("proxy", "formula"):
            assert any(type(w).__name__ == "JavaScriptTextArea" for w in visited)


# ----- errors clear as soon as the value is valid; expiry presets -----


async def test_a_fields_error_clears_as_soon_as_its_value_is_valid(service, tenant):
    app = host(service, tenant, lambda c: ApplicationForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await checklists_loaded(pilot, form)
        type_into(form, "#name", "x" * 201)
        type_into(form, "#expires-at", "next tuesday")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert field(form, "name").invalid and field(form, "expires_at").invalid
        type_into(form, "#name", "x" * 200)
        await pilot.pause()
        assert not field(form, "name").invalid  # at once, before any save
        assert field(form, "expires_at").invalid and form.banner_text
        type_into(form, "#expires-at", "2099-01-01")
        form.query_one("#permissions", PermissionChecklist).selection_list.select("token:read")
        await pilot.pause()
        assert not field(form, "expires_at").invalid
        assert form.banner_text == ""
        type_into(form, "#name", "x" * 201)  # errors only clear: none appears while typing
        await pilot.pause()
        assert not field(form, "name").invalid
        assert form._send_count == 0


async def test_expiry_presets_fill_the_date(service, tenant, client):
    from datetime import UTC, datetime, timedelta

    app = host(service, tenant, lambda c: ApplicationForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await checklists_loaded(pilot, form)
        type_into(form, "#name", "Thirty days")
        form.query_one("#permissions", PermissionChecklist).selection_list.select("token:read")
        type_into(form, "#expires-at", "soon")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert field(form, "expires_at").invalid
        for days in (7, 90, 30):
            form.query_one(f"#expires-in-{days}", Button).press()
            await pilot.pause()
            assert not field(form, "expires_at").invalid
            value = datetime.fromisoformat(form.query_one("#expires-at", Input).value)
            expected = datetime.now(UTC).replace(tzinfo=None) + timedelta(days=days)
            assert abs((value - expected).total_seconds()) < 120
        await pilot.press("ctrl+s")
        await wait_until(pilot, screen_is(app, KeyRevealModal))
        await pilot.click("#stored")  # the key may close only once it is safe
        await pilot.click("#done")
        await wait_until(pilot, lambda: app.dismissed)
    stored = await client.applications.get(app.result.id)
    left = stored.expires_at - datetime.now(UTC)
    assert timedelta(days=29, hours=23) < left <= timedelta(days=30)


# ----- the permission checklist -----


async def test_permission_checklist_filters_and_presets(service, tenant):
    app = host(service, tenant, lambda c: ApplicationForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        form.query_one("#type", Select).value = "management"
        checklist = form.query_one("#permissions", PermissionChecklist)
        await wait_until(
            pilot, lambda: checklist.loaded and "tenant:read" in (checklist._options or [])
        )
        offered = list(checklist._options or [])
        checklist.query_one(".preset-read", Button).press()
        await pilot.pause()
        assert checklist.selected == [p for p in offered if p.endswith((":read", ":search"))]
        assert form.dirty
        filter_input = checklist.query_one(".checklist-filter", Input)
        filter_input.value = "proxy"
        await pilot.pause()
        shown = checklist.selection_list
        visible = [shown.get_option_at_index(i).value for i in range(shown.option_count)]
        assert visible == [p for p in offered if "proxy" in p]
        shown.deselect("proxy:read")
        await pilot.pause()
        # ticked permissions out of sight stay ticked
        assert "tenant:read" in checklist.selected and "proxy:read" not in checklist.selected
        filter_input.value = ""
        await pilot.pause()
        assert shown.option_count == len(offered)
        checklist.query_one(".preset-all", Button).press()
        await pilot.pause()
        assert checklist.selected == offered
        checklist.query_one(".preset-none", Button).press()
        await pilot.pause()
        assert checklist.selected == []
        assert form.build_payload()[0]["permissions"] == []


async def test_checked_boxes_differ_without_colour(service, tenant):
    app = host(service, tenant, lambda c: ApplicationForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await checklists_loaded(pilot, form)
        checklist = form.query_one("#permissions", PermissionChecklist)
        checklist.selection_list.select("token:read")
        await pilot.pause()
        shown = checklist.selection_list
        lines = {
            shown.get_option_at_index(y).value: shown.render_line(y).text
            for y in range(shown.option_count)
        }
        assert lines["token:read"].startswith("[x] token:read")
        assert lines["token:create"].startswith("[ ] token:create")


# ----- looks at 80x24 -----

SMALL = (80, 24)

SMALL_FORMS = {
    "new-application": lambda c: ApplicationForm(c),
    "edit-application": lambda c: ApplicationForm(c, sample_application()),
    "new-proxy": lambda c: ProxyForm(c),
    "edit-proxy": lambda c: ProxyForm(c, sample_proxy()),
    "new-formula": lambda c: FormulaForm(c),
    "edit-formula": lambda c: FormulaForm(c, sample_formula(BROKEN_CODE)),
    "edit-tenant": lambda c: TenantForm(c, sample_tenant()),
}


@pytest.mark.parametrize("name", list(SMALL_FORMS))
def test_snapshot_form_at_80x24(name, service, snap_compare):
    app = snapshot_host(service, SMALL_FORMS[name])
    assert snap_compare(app, terminal_size=SMALL, run_before=settle)


def test_snapshot_permission_checklist_filtered_at_80x24(service, snap_compare):
    app = snapshot_host(service, lambda c: ApplicationForm(c))

    async def filtered(pilot: Any) -> None:
        await settle(pilot)
        form = pilot.app.form
        form.query_one("#type", Select).value = "management"
        checklist = form.query_one("#permissions", PermissionChecklist)
        await wait_until(
            pilot, lambda: checklist.loaded and "tenant:read" in (checklist._options or [])
        )
        checklist.query_one(".preset-read", Button).press()
        checklist.query_one(".checklist-filter", Input).value = "proxy"
        await pilot.pause()
        form.query_one("#form-body").scroll_to_widget(checklist, animate=False, top=True)
        await pilot.pause()
        steady_cursors(pilot)

    assert snap_compare(app, terminal_size=SMALL, run_before=filtered)


def test_snapshot_code_editor_full_screen_at_80x24(service, snap_compare):
    app = snapshot_host(service, lambda c: ProxyForm(c, sample_proxy()))

    async def full_screen(pilot: Any) -> None:
        await settle(pilot)
        editor = pilot.app.form.query_one("#request-transform")
        editor.focus()
        await pilot.press("f11")
        await wait_until(pilot, lambda: editor.full_screen)
        steady_cursors(pilot)

    assert snap_compare(app, terminal_size=SMALL, run_before=full_screen)


def test_snapshot_expiry_presets_at_80x24(service, snap_compare):
    app = snapshot_host(service, lambda c: ApplicationForm(c))

    async def at_expiry(pilot: Any) -> None:
        await settle(pilot)
        form = pilot.app.form
        form.query_one("#form-body").scroll_end(animate=False)
        await pilot.pause()
        steady_cursors(pilot)

    assert snap_compare(app, terminal_size=SMALL, run_before=at_expiry)


async def test_a_code_editor_in_full_screen_fills_the_screen_each_time(service, tenant):
    app = host(service, tenant, lambda c: ProxyForm(c, sample_proxy()))
    async with app.run_test(size=(80, 24)) as pilot:
        form = app.form
        await wait_until(pilot, lambda: form.query_one(ApplicationPicker).loaded)
        editor = form.query_one("#response-transform")
        editor.focus()
        await pilot.pause()
        for _ in range(2):
            await pilot.press("f11")
            await wait_until(pilot, lambda: editor.full_screen)
            assert editor.region.height == 23  # all but the keys line
            assert not [b for b in app.screen.active_bindings.values() if b.binding.key == "escape"]
            await pilot.press("escape")
            await wait_until(pilot, lambda: not editor.full_screen)
            assert editor.region.height < 20 and app.screen is form


async def test_a_form_uses_the_width_of_a_wide_terminal(service, tenant):
    app = host(service, tenant, lambda c: ProxyForm(c))
    async with app.run_test(size=(200, 60)) as pilot:
        await pilot.pause()
        assert app.form.query_one("#form-frame").size.width >= 160
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert app.form.query_one("#form-frame").outer_size.width == 112
