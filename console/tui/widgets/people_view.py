"""The People section: the tenant's members above, the invitations to join it below, two
lists of one section (each a ResourceList, with its paging, filter, sort and freshness);
tab moves between them, and the keys (e, d, i, I) act on the list that has the focus.

The section is the MEMBERS look's (console.tui.browse.people_looks); the invitations have
no section of their own. The screen reads the list in use through `shown_list`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from console.tui.browse.people_looks import INVITATIONS, MEMBERS
from console.tui.widgets.resource_list import ResourceList
from console.tui.widgets.section_loader import SectionLoader
from console.tui.widgets.section_messages import StatusChanged

if TYPE_CHECKING:
    from console.tui.browse.looks import ListLook

MEMBERS_LIST_ID = "people-members"
"""The members list's id (the section itself has the MEMBERS key's)."""
INVITATIONS_LIST_ID = INVITATIONS.key
"""The invitations list's id: the kind's key, so that a change's refresh finds it."""


class ListTitle(Static):
    """The name of one list of the section, above it; the one in use marked (▸, in the
    accent colour), so that it reads without colour too."""

    DEFAULT_CSS = """
    ListTitle { height: 1; padding: 0 1; text-style: bold; color: $text-muted; }
    ListTitle.-active { color: $text-accent; }
    """

    def __init__(self, name: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.list_name = name

    def render(self) -> str:
        if self.has_class("-active"):
            return f"▸ {self.list_name}"
        return f"  {self.list_name}  (tab)"


class PeopleView(Vertical, SectionLoader):
    """Members and invitations, stacked; the one with the focus is the one acted on."""

    DEFAULT_CSS = """
    PeopleView { height: 1fr; }
    PeopleView > #people-members { height: 3fr; }
    PeopleView > #invitations { height: 2fr; }
    """

    BINDINGS = [Binding("tab", "switch_list", "Members/Invitations", show=False)]

    load_group = "people"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._active: ListLook = MEMBERS

    def compose(self) -> ComposeResult:
        yield ListTitle("Members", id="members-title", classes="-active")
        yield ResourceList(MEMBERS, id=MEMBERS_LIST_ID)
        yield ListTitle("Invitations", id="invitations-title")
        yield ResourceList(INVITATIONS, id=INVITATIONS_LIST_ID)

    # ---- the two lists -------------------------------------------------------------------

    @property
    def members(self) -> ResourceList:
        return self.query_one(f"#{MEMBERS_LIST_ID}", ResourceList)

    @property
    def invitations(self) -> ResourceList:
        return self.query_one(f"#{INVITATIONS_LIST_ID}", ResourceList)

    def lists(self) -> tuple[ResourceList, ...]:
        return (self.members, self.invitations) if self.is_mounted else ()

    def list_of(self, look: ListLook) -> ResourceList:
        """The list of `look`'s objects (members or invitations)."""
        return self.invitations if look is INVITATIONS else self.members

    @property
    def active(self) -> ResourceList:
        """The list the keys act on: the one that had the focus last."""
        return self.list_of(self._active)

    def shown_list(self) -> SectionLoader:
        return self.active

    def action_switch_list(self) -> None:
        """tab: the other list."""
        self.show_list(INVITATIONS if self._active is MEMBERS else MEMBERS)

    def show_list(self, look: ListLook) -> None:
        """The list of `look` in use, with the focus (a new invitation: its list)."""
        self._activate(look)
        self.list_of(look).focus_table()

    def _activate(self, look: ListLook) -> None:
        if look is self._active and self.is_mounted:
            return
        self._active = look
        for title, shown in (("#members-title", MEMBERS), ("#invitations-title", INVITATIONS)):
            self.query_one(title).set_class(look is shown, "-active").refresh()
        self.post_status()
        self.screen.refresh_bindings()

    @on(events.DescendantFocus)
    def _focused(self, event: events.DescendantFocus) -> None:
        for listing in self.lists():
            if event.widget is listing or listing in event.widget.ancestors:
                self._activate(listing.kind)

    def focus(self, scroll_visible: bool = True) -> PeopleView:
        """The section opened: its list in use takes the focus (its rows, once shown)."""
        if self.is_mounted:
            self.active.focus_table()
        return self

    # ---- loading: each list loads itself -------------------------------------------------

    def ensure_loaded(self) -> None:
        for listing in self.lists():
            listing.ensure_loaded()

    def reload(self) -> None:
        """r: both lists read again, rows and cursors staying until fresh ones replace them."""
        for listing in self.lists():
            listing.reload()

    def reset(self) -> None:
        self.reset_load_state()
        for listing in self.lists():
            listing.reset()

    def mark_stale(self, failed_at: str) -> None:
        for listing in self.lists():
            listing.mark_stale(failed_at)

    # ---- the footer's line ---------------------------------------------------------------

    @property
    def status_text(self) -> str:
        """The list in use's (its title, above it, is marked ▸)."""
        return self.active.status_text if self.is_mounted else "loading…"

    def post_status(self) -> None:
        self.post_message(StatusChanged(self, self.status_text))

    @on(StatusChanged)
    def _list_status(self, event: StatusChanged) -> None:
        """A list's line: the section's says the list in use's."""
        if event.section is self:
            return
        event.stop()
        members = self.members
        self.loaded, self.problem = members.loaded, members.problem
        self.fetching = any(listing.fetching for listing in self.lists())
        self.post_status()
