"""Palette commands and openers for the access review and who-holds-a-permission.

Imported when the palette first opens or a review is first asked for (the console screen
names it through factories); the screens, and the client's review module, are imported when
first opened.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING, ClassVar

from textual.command import DiscoveryHit, Hit, Hits, Provider

from console.tui.base.app_access import router, session_host
from console.tui.browse.kinds import APPLICATIONS, PERMISSIONS
from console.tui.palette.command_list import Command, ScreenHit
from console.tui.widgets.resource_list import ResourceList

if TYPE_CHECKING:
    from console.client.client import AdminClient

log = logging.getLogger(__name__)


class ReviewCommands(Provider):
    """ "Access review" (and one per flag), and "Who holds PERMISSION" for every permission
    the service lists (the Permissions section's rows, else one `GET /permissions`)."""

    _catalogue: tuple[AdminClient, list[str]] | None = None
    """(client, permission types) of the last catalogue read, kept while the app runs."""
    opens_the_review: ClassVar[bool] = True
    """Whether "Access review …" is offered (not on the review itself: WhoHoldsCommands)."""

    def _review_commands(self) -> Iterator[Command]:
        from console.client.review import FLAGS

        if not self.opens_the_review:
            return
        yield (
            "Access review",
            router(self).open_access_review,
            "Every application's grants, flagged against minimum scope",
        )
        for flag in FLAGS:
            yield (
                f"Access review: {flag.label}",
                partial(router(self).open_access_review, flag.key),
                flag.explanation,
            )

    def _who_holds(self, permission: str) -> Command:
        return (
            f"Who holds {permission}",
            partial(router(self).open_who_holds, permission),
            "Applications holding it, directly or through an access rule",
        )

    async def _permissions(self) -> list[str]:
        screen = router(self).console_screen
        section = screen.find_section(PERMISSIONS.key) if screen is not None else None
        if isinstance(section, ResourceList) and section.items and not section.query_params:
            return [PERMISSIONS.item_id(item) for item in section.items]  # the whole catalogue
        client = session_host(self).connected_client()
        if client is None:
            return []
        cached = ReviewCommands._catalogue
        if cached is not None and cached[0] is client:
            return cached[1]
        try:
            items = await client.permissions.list_json()
        except Exception:
            log.warning("The palette could not read the permission catalogue", exc_info=True)
            return []
        types = [str(item["type"]) for item in items if item.get("type") is not None]
        ReviewCommands._catalogue = (client, types)
        return types

    async def discover(self) -> Hits:
        app = router(self)
        permission = app.highlighted_permission()
        if permission is not None:
            text, callback, help_text = self._who_holds(permission)
            yield ScreenHit(text, callback, help=help_text)
        screen = app.console_screen
        in_applications = (
            app.screen is screen and screen is not None and (screen.current == APPLICATIONS.key)
        )
        hit = ScreenHit if in_applications else DiscoveryHit  # A's own section: it leads
        for text, callback, help_text in list(self._review_commands())[:1]:
            yield hit(text, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, callback, help_text in self._review_commands():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), callback, help=help_text)
        if len(query.strip()) >= 2:
            for permission in await self._permissions():
                text, callback, help_text = self._who_holds(permission)
                score = matcher.match(text)
                if score > 0:
                    yield Hit(score, matcher.highlight(text), callback, help=help_text)


class WhoHoldsCommands(ReviewCommands):
    """On the review itself: "Who holds PERMISSION" only ("Review: show …" filters there)."""

    opens_the_review = False
