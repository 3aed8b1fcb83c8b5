"""The console's clock: relative times on screen ("3 minutes ago") move on with its ticks.

The app publishes the time on its clock signal (Chrome.clock_signal, console.tui.base.shell)
every TIME_TICK_SECONDS; a screen or widget that shows relative times follows it from
on_mount, so the app never looks for them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from console.tui.base.app_access import chrome

if TYPE_CHECKING:
    from datetime import datetime

    from textual.dom import DOMNode

log = logging.getLogger(__name__)


def follow_clock(node: DOMNode, refresh: Callable[[], object]) -> None:
    """Calls `refresh` on every tick while `node` is mounted (call from its on_mount). A
    failure is logged and the next tick tries again; the other followers still run."""

    def tick(_moment: datetime) -> None:
        try:
            refresh()
        except Exception:
            log.warning("Could not refresh the times of %r", node, exc_info=True)

    chrome(node).clock_signal.subscribe(node, tick, immediate=True)
