"""Entry points of `tenant-console` and `tenant-console demo`; kept light so start-up is fast.

Textual and the app are imported inside the functions, after the arguments are known.
"""

from __future__ import annotations

import argparse
import gc
import signal
import sys


def _start_logging() -> None:
    """The log file (see console.tui.base.logs), before anything can go wrong; the key from the
    environment, if any, is masked in it from the start."""
    import os

    from console.tui.base.logs import configure_logging, hide_secret

    configure_logging()
    hide_secret(os.environ.get("TENANT_CONSOLE_API_KEY"))


def _pause_collector() -> None:
    """No cyclic garbage collection while the console's modules import: they create tens of
    thousands of objects and no garbage (a collection after them finds nothing), yet the
    collector would scan them again and again, up to a full collection of ~12 ms."""
    gc.disable()


def _resume_collector() -> None:
    """The imported modules' objects move to the permanent generation (gc.freeze), so later
    collections scan only what the running app creates, and collection resumes."""
    gc.freeze()
    gc.enable()


def open_console(args: argparse.Namespace) -> int:
    """The console on the active (or `--profile`) profile; the welcome screen if there is none."""
    _pause_collector()
    try:
        return _open_console(args)
    finally:
        if not gc.isenabled():  # a profile error returns before the app runs
            gc.enable()


def _open_console(args: argparse.Namespace) -> int:
    _start_logging()
    from console.profiles.config import ProfileError
    from console.profiles.resolve import check_profile

    try:
        check_profile(getattr(args, "profile", None))
    except ProfileError as exc:  # an unknown profile or a damaged file: one line, no screen
        print(f"tenant-console: {exc}", file=sys.stderr)
        return 1

    from console.tui.base.connection import SavedProfiles
    from console.tui.browse.first_page import begin

    profile_name = getattr(args, "profile", None)
    profiles = SavedProfiles()
    early_start = begin(profiles, profile_name)  # while Textual imports

    from console.tui.app import TenantConsoleApp

    app = TenantConsoleApp(
        profiles=profiles,
        profile_name=profile_name,
        read_only=bool(getattr(args, "read_only", False)),
        early_start=early_start,
        persist_preferences=True,
    )
    _resume_collector()
    app.run()
    return 0 if app.return_code in (None, 0) else int(app.return_code or 1)


def _exit_on_hangup() -> None:
    """A closed terminal (SIGHUP) or a kill (SIGTERM) while the service starts or stops
    ends the demo, so the service is stopped and its temporary directory removed. While the
    console runs, its event loop handles them instead (exit_signals): an exception raised
    at any point of the loop could leave Textual half shut down."""

    def leave(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGHUP, leave)
    signal.signal(signal.SIGTERM, leave)


def open_demo(args: argparse.Namespace) -> int:
    """A local service with demo data in a temporary dir, the console on it, and clean-up."""
    from console.tui.start.demo import DemoService, DemoServiceError

    _exit_on_hangup()
    _start_logging()
    service = DemoService(staging=True)
    try:
        print("Starting the local service with demo data…", file=sys.stderr, flush=True)
        try:
            service.start()
        except DemoServiceError as exc:
            print(f"tenant-console demo: {exc}", file=sys.stderr)
            return 1
        from console.tui.app import TenantConsoleApp
        from console.tui.base.connection import MemoryProfiles

        service.use_for_console_data()
        connections = service.connections()
        app = TenantConsoleApp(
            connection=connections[0],
            profiles=MemoryProfiles(connections),
            read_only=bool(getattr(args, "read_only", False)),
            exit_signals=(signal.SIGHUP, signal.SIGTERM),
            demo_service=service,
            persist_preferences=True,
        )
        app.run()
        _exit_on_hangup()  # the app's loop took the signals over; now back to raising
        return 0 if app.return_code in (None, 0) else int(app.return_code or 1)
    finally:
        service.stop()  # also after a failed start, a kill or a hang-up: no service, no dir left
