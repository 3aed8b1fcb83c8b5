"""Palette commands across tenants: copy the object on screen to another profile, and the
whole-tenant diff with another profile."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from console.tui.actions.declarations import COPY_TO_PROFILE, Target, start, visible
from console.tui.actions.promote import screen_target, start_tenant_diff
from console.tui.base.app_access import flow_host
from console.tui.palette.command_list import Command, CommandListProvider


class EstateCommands(CommandListProvider):
    """ "Copy … to profile…" for the highlighted or open application, proxy or formula (not
    in read-only mode), and "Compare this tenant with another profile…"."""

    def commands(self) -> Iterator[Command]:
        app = flow_host(self)
        if app.connected_client() is None:
            return
        kind, item = screen_target(self.screen)
        target = Target(kind, item)
        if visible(COPY_TO_PROFILE, app, target):  # as its key c: console.tui.actions.declarations
            assert kind is not None and item is not None  # it applies: there are
            yield (
                f"Copy {kind.singular} {kind.item_name(item)} to profile…",
                partial(start, COPY_TO_PROFILE, app, target),
                "Shows the plan in the other tenant before changing anything (key c)",
            )
        yield (
            "Compare this tenant with another profile…",
            partial(start_tenant_diff, app),
            "What it takes to make that tenant like this one: settings, applications, "
            "proxies, formulas",
        )
