"""What the command-line modules (`members`, `webhooks`, `reactors`, `logs`, `review`,
`keys`) share.

Each said its errors, resolved its connection and mapped the service's failures to an exit
code with the same lines; here they are written once, so a change to how a command fails
(a message, an exit code) is made in one place and the commands cannot drift apart. Every
message stays the command's own: it is prefixed with the command's name, and escaped or not
as that command always did. The commands whose actions are journalled (`members`,
`webhooks`) share how an action is refused, run, recorded and hinted at (`JournalledActions`,
`undo_hint`).

Sits below the workflows (as `console/terminal_text.py` does) and imports the client, the
profiles and the journal only inside functions, so a command's `--help` loads none of them;
never imports Textual.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from console.terminal_text import printable, printable_json

if TYPE_CHECKING:
    from console.client import AdminClient, ApiError
    from console.profiles.resolve import ResolvedConnection

OK, FAILED = 0, 1

Handler = Callable[["AdminClient", argparse.Namespace], Awaitable[int]]
"""One action of a command: it talks to the service with the client, returns the exit code."""

Item = TypeVar("Item")


class Refused(Exception):
    """The command will not go on; str() is the one line said on stderr."""

    def __init__(self, message: str, code: int = FAILED) -> None:
        super().__init__(message)
        self.code = code


def quiet_logging() -> None:
    """The client logs what it carries on from (a catalogue it could not read); a command
    says it on stderr in one line instead, so no traceback reaches the terminal."""
    logger = logging.getLogger("console")
    if not logger.handlers:
        logger.addHandler(logging.NullHandler())


def admin_client(connection: ResolvedConnection) -> AdminClient:
    """The client a command talks to the service with: the connection's URL, key and key
    header, and the profile's request budget (its rate limit), so a script keeps to the
    service's rate as the console does."""
    from console.client import AdminClient

    assert connection.key is not None
    return AdminClient(
        connection.base_url,
        connection.key,
        key_header=connection.key_header,
        budget=connection.budget(),
    )


def print_one(
    output_format: str,
    item: Item,
    as_json: Callable[[Item], object],
    as_text: Callable[[Item], str],
) -> None:
    """One object as a `show` action prints it: `--format json` its JSON (indented, controls
    escaped), any other format its text; so every command's `show` prints alike."""
    if output_format == "json":
        print(printable_json(as_json(item), indent=2))
    else:
        print(as_text(item))


def undo_hint(client: AdminClient, origin: str, object_id: str) -> str:
    """` Undo: tenant-console undo N.` for the change of `object_id` the command (`origin`)
    just recorded, or "" (nothing recorded, or a journal that could not be read)."""
    recording = client.recording
    journal = getattr(recording.recorder, "list", None) if recording is not None else None
    if journal is None or recording is None:
        return ""
    try:
        changes = journal(profile=recording.profile, limit=5)
    except Exception:
        logging.getLogger(__name__).info("Could not read the change just made", exc_info=True)
        return ""
    for change in changes:
        if object_id in (change.object_id, change.result_id) and change.origin == origin:
            return f" Undo: tenant-console undo {change.id}."
    return ""


def _failed(_error: ApiError) -> int:
    return FAILED


@dataclass(frozen=True)
class Command:
    """One command's way of failing: `prog` prefixes each line on stderr; `escape` shows the
    control characters of a message escaped (commands whose messages carry what the service
    sent), as each command did before these lines were shared."""

    prog: str
    escape: bool = True

    def error(self, message: str) -> None:
        """`<prog>: <message>` on stderr."""
        text = printable(message) if self.escape else message
        print(f"{self.prog}: {text}", file=sys.stderr)

    def refused(self, refused: Refused) -> int:
        """Says why the command will not go on; its exit code."""
        self.error(str(refused))
        return refused.code

    def connect(self, profile: str | None) -> ResolvedConnection | None:
        """The profile's connection with its key, or None once the reason (no such profile,
        no key, a keyring that failed) was said."""
        from console.profiles.config import ProfileError
        from console.profiles.keys import KeyStoreError
        from console.profiles.resolve import connection_with_key

        try:
            return connection_with_key(profile)
        except (ProfileError, KeyStoreError) as error:
            self.error(str(error))
            return None

    def run(
        self,
        profile: str | None,
        work: Callable[[ResolvedConnection], Coroutine[Any, Any, int]],
        *,
        failures: Sequence[tuple[type[Exception], str]] = (),
        api_error_code: Callable[[ApiError], int] = _failed,
        on_interrupt: int | None = None,
    ) -> int:
        """Connects, runs `work` and turns how it ended into the exit code.

        Refused says its line and gives its code; each of `failures` (in order, before the
        service's errors) says the error and its sentence after it, exit 1; an ApiError says
        what the service answered and where, with `api_error_code`'s code. `on_interrupt`
        is what ctrl+c returns while the work runs (None: it is not caught)."""
        from console.client import ApiError

        connection = self.connect(profile)
        if connection is None:
            return FAILED
        try:
            return asyncio.run(work(connection))
        except KeyboardInterrupt:
            if on_interrupt is not None:
                return on_interrupt
            raise
        except Refused as refused:
            return self.refused(refused)
        except Exception as error:
            for kind, after in failures:
                if isinstance(error, kind):
                    self.error(f"{error}{after}")
                    return FAILED
            if isinstance(error, ApiError):
                self.error(f"{str(error).rstrip('.')} ({connection.base_url}).")
                return api_error_code(error)
            raise


@dataclass(frozen=True)
class JournalledActions:
    """A command whose actions each are one handler and whose changes are journalled
    (`members`, `webhooks`): its parser puts the action in `<name>_command`, the actions in
    `writes` are refused in read-only mode and recorded in the change journal with the
    command's name as their origin. Written once, so the commands refuse, record and fail
    alike."""

    name: str
    command: Command
    handlers: Mapping[str, Handler]
    writes: frozenset[str]

    def action(self, args: argparse.Namespace) -> str:
        """The action the command line named (`list`, `create`, ...)."""
        return str(getattr(args, f"{self.name}_command"))

    def refuse_read_only(self, args: argparse.Namespace) -> None:
        """Refused when the action changes the tenant and --read-only was given."""
        action = self.action(args)
        if action in self.writes and getattr(args, "read_only", False):
            raise Refused(f"read-only: `{self.name} {action}` changes the tenant and is refused.")

    async def perform(self, connection: ResolvedConnection, args: argparse.Namespace) -> int:
        """Runs the action's handler; a change first opens the journal and settles what an
        earlier run left unsettled, so every change goes into the change journal."""
        action = self.action(args)
        async with admin_client(connection) as client:
            if action in self.writes:
                from console.journal.settle import settle_at_start
                from console.journal.store import open_journal

                client.record_changes(open_journal(), profile=connection.profile, origin=self.name)
                await settle_at_start(client, connection.profile)
            return await self.handlers[action](client, args)

    def run(
        self,
        args: argparse.Namespace,
        checked: Callable[[argparse.Namespace], None],
        api_error_code: Callable[[ApiError], int],
    ) -> int:
        """The command: `checked` refuses what it can before a connection, then the action
        runs; a journal that fails says so and that nothing was sent (exit 1)."""
        quiet_logging()
        from console.journal.store import JournalError

        try:
            checked(args)
        except Refused as refused:
            return self.command.refused(refused)
        return self.command.run(
            getattr(args, "profile", None),
            lambda connection: self.perform(connection, args),
            failures=[(JournalError, " Nothing was sent.")],
            api_error_code=api_error_code,
        )
