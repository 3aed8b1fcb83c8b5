"""One session per connection (console.tui.base.session): replaced on connect, nothing of one
profile kept for the next; the header follows the current session and relative times follow
the clock signal, with no walk over the screens (issue 24)."""

from __future__ import annotations

import ast
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from console_support import SIZE, Seeder, console, open_first_detail, settle, two_profile_app
from form_host import wait_until
from textual.dom import DOMNode

from console.tui.actions.key_permissions import (
    known_permissions,
    lacking_now,
    session_application_id,
)
from console.tui.base.clock_ticks import follow_clock
from console.tui.browse.kinds import PROXIES
from console.tui.widgets.console_header import ConsoleHeader
from console.tui.widgets.fields_view import FieldsView

TUI = Path(__file__).resolve().parents[2] / "console" / "tui"


async def test_a_profile_switch_makes_a_new_session_and_keeps_nothing_of_the_old(
    service: Any,
) -> None:
    first = service.new_tenant("Session One")
    second = service.new_tenant("Session Two")
    narrow = service.new_key(["application:read", "proxy:read", "tenant:read"], second.key)
    app = two_profile_app(("one", service.base_url, first.key), ("two", service.base_url, narrow))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        old = app.session
        assert old.connection is not None and old.connection.profile == "one"
        known_permissions(app)  # asked in the background, kept in the session
        await wait_until(pilot, lambda: old.key_known, what="the first key's permissions")
        assert old.key_application_id == first.application_id
        assert lacking_now(app, PROXIES, "new") is None  # the bootstrap key holds everything
        app.mark_unavailable("reactor_formulas")
        old_client = app.client
        assert console(app).header.unavailable == {"reactor_formulas"}

        app.switch_profile("two")
        await settle(pilot)
        new = app.session
        assert new is not old
        assert new.connection is not None and new.connection.profile == "two"
        assert app.connection is new.connection and app.usage_line == new.usage_line
        assert app.client is not old_client and new.client is app.client
        assert old.client is old_client  # closed with the old session, never reused
        assert app.unavailable == set() and console(app).header.unavailable == frozenset()
        assert not app.key_rejected
        # The second key's own application and permissions, asked over its own session:
        assert await session_application_id(app, app.client) != first.application_id
        assert lacking_now(app, PROXIES, "new") == "proxy:create"
        assert new.key_permissions is not None and "proxy:create" not in new.key_permissions
        assert old.key_permissions is not None and "proxy:create" in old.key_permissions


async def test_the_header_follows_the_session_on_every_screen(service: Any) -> None:
    info = service.new_tenant("Followed Corp")
    other = service.new_tenant("Other Corp")
    seed = Seeder(service.base_url, info.key)
    seed.proxy("Followed proxy")
    seed.close()
    app = two_profile_app(("one", service.base_url, info.key), ("two", service.base_url, other.key))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        under = console(app).header
        assert under.tenant == "Followed Corp"
        detail = await open_first_detail(pilot, "2")
        above = detail.query_one(ConsoleHeader)
        session = app.session

        session.tenant_name = "Renamed Elsewhere"  # no sync_header: the header follows
        session.header_notice = "Service unreachable (10:00)"
        for header in (under, above):
            assert header.tenant == "Renamed Elsewhere"
            assert header.notice == "Service unreachable (10:00)"
        await pilot.pause()
        assert "Renamed Elsewhere" in above.render().plain

        app.switch_profile("two")
        await settle(pilot)
        assert console(app).header.tenant == "Other Corp"
        assert console(app).header.notice == ""
        session.tenant_name = "A late answer for profile one"  # the replaced session
        assert console(app).header.tenant == "Other Corp"
        assert console(app).header.profile == "two"


async def test_the_clock_reaches_its_followers_without_walking_the_screens(
    service: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    info = service.new_tenant("Ticking Corp")
    seed = Seeder(service.base_url, info.key)
    seed.proxy("Ticking proxy")
    seed.close()
    app = two_profile_app(("one", service.base_url, info.key), ("two", service.base_url, info.key))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("6")  # the Tenant section also shows relative times
        await settle(pilot)
        tenant = console(app).tenant_view()
        assert tenant is not None and tenant.tenant is not None
        detail = await open_first_detail(pilot, "2")
        assert "just now" in detail.fields_view.value_of("Created")

        later = datetime.now(UTC) + timedelta(minutes=5, seconds=10)
        monkeypatch.setenv("TENANT_CONSOLE_FROZEN_NOW", later.isoformat())

        def no_walk(*args: Any, **kwargs: Any) -> Any:
            raise AssertionError("the clock walked the DOM")

        monkeypatch.setattr(DOMNode, "walk_children", no_walk)

        def broken() -> None:
            raise RuntimeError("a broken follower")

        follow_clock(tenant, broken)  # after the tenant's own, before the detail's
        with caplog.at_level(logging.WARNING, logger="console.tui.base.clock_ticks"):
            app.refresh_times()  # what the app's timer calls: one publish on the signal
        monkeypatch.undo()
        assert "5 minutes ago" in detail.fields_view.value_of("Created")
        # the section on the screen under the detail is reached too
        assert "5 minutes ago" in tenant.query_one(FieldsView).value_of("Created")
        assert any("refresh the times" in r.getMessage() for r in caplog.records)


# ---- no walk over the screens for the header or the clock ------------------------------------

_WALKS = ("screen_stack", "walk_children", "query", "children")


def getattr_walks(source: str) -> list[str]:
    """Functions that loop over screens or widgets (screen_stack, walk_children, query,
    children) and look members up by name (getattr/hasattr) inside the loop."""
    found = []
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for loop in ast.walk(function):
            if not isinstance(loop, ast.For | ast.AsyncFor | ast.comprehension):
                continue
            walked = {
                n.attr if isinstance(n, ast.Attribute) else getattr(n, "id", "")
                for n in ast.walk(loop.iter)
            }
            if not walked & set(_WALKS):
                continue
            body = loop.body if isinstance(loop, ast.For | ast.AsyncFor) else loop.ifs
            lookups = [
                n
                for part in body
                for n in ast.walk(part)
                if isinstance(n, ast.Call)
                and isinstance(n.func, ast.Name)
                and n.func.id in ("getattr", "hasattr")
            ]
            if lookups:
                found.append(function.name)
                break
    return found


OLD_REFRESH_TIMES = """
def refresh_times(self) -> None:
    for screen in self.screen_stack:
        for node in (screen, *screen.walk_children()):
            refresh = getattr(node, "refresh_times", None)
            if callable(refresh):
                refresh()
"""


def test_the_walk_check_finds_a_getattr_walk() -> None:
    assert getattr_walks(OLD_REFRESH_TIMES) == ["refresh_times"]


def test_no_module_walks_the_screens_with_getattr_or_syncs_headers_by_hand() -> None:
    walks, syncs = {}, []
    for path in sorted(TUI.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        name = str(path.relative_to(TUI))
        if found := getattr_walks(source):
            walks[name] = found
        for node in ast.walk(ast.parse(source)):
            called = node.attr if isinstance(node, ast.Attribute) else None
            defined = getattr(node, "name", None) if isinstance(node, ast.FunctionDef) else None
            if {called, defined} & {"sync_header", "update_headers"}:
                syncs.append(name)
    assert walks == {}
    assert syncs == []
