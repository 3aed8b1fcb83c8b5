"""Who holds a permission (`w` on a permission, or the palette's "Who holds PERMISSION"):
every application holding it, directly or through an access rule, with the rule.

One row per way of holding it: an application holding it directly and through two rules has
three rows, so each rule's transform, container and priority can be read.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on

from console.client.review import Holding, holder_pages
from console.tui.browse.kinds import APPLICATIONS
from console.tui.palette.review_commands import ReviewCommands
from console.tui.screens.tenant_walk import TenantWalkScreen
from console.tui.widgets.row_table import Cell, RowTable, TableColumn

if TYPE_CHECKING:
    from console.client.client import AdminClient
    from console.client.review import HoldersPage


def _dim(text: str) -> Text:
    return Text(text, style="dim")


def holding_cells(holding: Holding) -> tuple[Cell, ...]:
    application = holding.application
    rule = holding.rule
    if rule is None:
        rule_cells: tuple[Cell, ...] = (_dim("—"), _dim("—"), _dim("—"), _dim("—"))
    else:
        transform: Cell = rule.transform or _dim("?")
        if rule.transform == "reveal":
            transform = Text("reveal", style="bold yellow")
        rule_cells = (
            _dim("?") if rule.priority is None else f"#{rule.priority}",
            transform,
            rule.container or _dim("—"),
            rule.description or _dim("—"),
        )
    return (
        application.name or _dim("(unnamed)"),
        application.type or _dim("?"),
        holding.how,
        *rule_cells,
    )


class HoldersScreen(TenantWalkScreen["HoldersPage"]):
    """Pushed above the console; enter opens the application, escape stops, then goes back."""

    COMMANDS = {ReviewCommands}

    columns = (
        TableColumn(
            APPLICATIONS.singular, APPLICATIONS.singular.capitalize(), None, min_width=14, grow=True
        ),
        TableColumn("type", "Type", None),
        TableColumn("via", "Via", 6),
        TableColumn("priority", "Prio", 4),
        TableColumn("transform", "Transform", 9),
        TableColumn("container", "Container", None, min_width=9, grow=True),
        TableColumn("rule", "Rule", None, min_width=10, drop_order=1, grow=True),
    )

    def __init__(self, permission: str) -> None:
        super().__init__()
        self.permission_held = permission
        self.title_text = f"Who holds {permission}"
        self.holdings: list[Holding] = []
        self.applications: set[str] = set()

    def walk(self, client: AdminClient) -> AsyncIterator[HoldersPage]:
        return holder_pages(client, self.permission_held)

    def clear(self) -> None:
        super().clear()
        self.holdings, self.applications = [], set()

    def take_page(self, page: HoldersPage) -> None:
        self.applications_read += page.applications
        self.holdings += page.holdings
        self.applications.update(h.application.id for h in page.holdings)
        self.add_rows([holding_cells(h) for h in page.holdings])

    def finished(self) -> None:
        if not self.holdings:
            self.show_state(
                lambda panel: panel.show_empty(
                    f"No application holds {self.permission_held}.",
                    f"Read {self.applications_read:,} applications, their permissions and rules.",
                )
            )

    def summary(self) -> str:
        """ "5 applications hold it (3 directly; 2 rules grant it)"."""
        direct = sum(1 for h in self.holdings if h.rule is None)
        rules = len(self.holdings) - direct
        count = len(self.applications)
        noun = APPLICATIONS.singular if count == 1 else APPLICATIONS.plural
        who = f"{count:,} {noun} hold{'s' if count == 1 else ''} it"
        grant = f"{rules:,} rule{'s grant' if rules != 1 else ' grants'} it"
        return f"{who} ({direct:,} directly; {grant})"

    @on(RowTable.RowSelected)
    def _selected(self, event: RowTable.RowSelected) -> None:
        row = self.table.cursor_row
        if 0 <= row < len(self.holdings):
            self.open_application(self.holdings[row].application.id)
