"""`tenant-console search NAME [--kind KIND] [--format table|json]`: KIND is one the local
index records (console.kinds' IndexFacet: applications, proxies, formulas, reactors, webhooks).

Objects whose names contain NAME (case-insensitively, `*` matching any run, as the
service's name filter); live, a kind's IndexFacet may match other fields too (a webhook's
URL), which the index never holds. The table prints what the profile's local index knows at once
("from the index, 3 minutes old"), then the live answer: each row confirmed, new, or gone
(the index knew it, the service no longer has it). JSON prints the live answer only, each
object with its state. The walks keep within the profile's request budget, and say on
stderr when they wait for it. Exit codes: 0 found some, 1 the service or the profile
failed, 2 unusable arguments, 3 nothing found. Never imports Textual.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from typing import TYPE_CHECKING

from console.cli_support import Command, admin_client, quiet_logging

if TYPE_CHECKING:
    from console.client.find import Found, IndexAnswer
    from console.client.index import LocalIndex
    from console.profiles.resolve import ResolvedConnection

OK, FAILED, USAGE, NONE_FOUND = 0, 1, 2, 3


def kind_word(index_name: str) -> str:
    """One object's kind in the table ("application", "formula"), from its declaration."""
    from console.kinds import KINDS

    kind = KINDS.by_index_name(index_name)
    if kind is None or kind.index is None:
        return index_name
    return kind.index.word or kind.nouns.singular


COMMAND = Command("tenant-console search", escape=False)
_error = COMMAND.error


def _printable(text: str) -> str:
    """A name as the service sent it, with control characters shown as escapes: a name may
    carry terminal escape sequences."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def table(rows: list[Found], *, states: bool = True) -> str:
    """Kind, name, id (and state) in columns."""
    header = ["KIND", "NAME", "ID"] + (["STATE"] if states else [])
    lines = [header] + [
        [kind_word(r.kind), _printable(r.name), _printable(r.id)] + ([r.state] if states else [])
        for r in rows
    ]
    widths = [max(len(line[n]) for line in lines) for n in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(widths[n]) for n, cell in enumerate(line)).rstrip() for line in lines
    )


def _open_index(connection: ResolvedConnection) -> LocalIndex | None:
    """The profile's index; None without a profile (a connection from the environment only)
    or when it cannot be opened (said once on stderr: the search still runs, live)."""
    if connection.profile is None:
        return None
    from console.client.index import LocalIndex

    try:
        return LocalIndex.for_profile(connection.profile, connection.base_url)
    except Exception as error:
        logging.getLogger("console").debug("The local index could not be opened", exc_info=True)
        _error(f"the local index could not be opened ({error}); searching live only.")
        return None


async def _search(
    connection: ResolvedConnection, query: str, kinds: list[str], output: str
) -> list[Found]:
    from console.client.budget import waiting_text
    from console.client.find import confirm_live, from_index

    index = _open_index(connection)
    try:
        answer = from_index(index, query, kinds)
        if output == "table":
            _print_index_answer(answer)
        async with admin_client(connection) as client:
            client.index = index

            def waiting(seconds: float) -> None:
                if seconds > 0:
                    print(f"tenant-console search: {waiting_text(seconds)}", file=sys.stderr)

            client.budget.watch(waiting)
            return await confirm_live(client, query, answer, kinds, index=index)
    finally:
        if index is not None:
            index.close()


def _print_index_answer(answer: IndexAnswer) -> None:
    if not answer.rows:
        print(f"({answer.caption}; searching the service…)", flush=True)
        return
    print(f"{answer.caption.capitalize()}:")
    print(table(answer.rows, states=False))
    print("\nConfirming with the service…", flush=True)


def run(args: argparse.Namespace) -> int:
    quiet_logging()
    from console.client import ApiError

    query = (args.name or "").strip()
    if not query:
        _error("give a name (or part of one) to search for.")
        return USAGE
    from console.client.index import indexed_names

    kinds = [args.kind] if args.kind else list(indexed_names())
    connection = COMMAND.connect(getattr(args, "profile", None))
    if connection is None:
        return FAILED
    try:
        found = asyncio.run(_search(connection, query, kinds, args.format))
    except ApiError as error:
        sentence = str(error).rstrip(".")
        if connection.base_url not in sentence:
            sentence += f" ({connection.base_url})"
        _error(f"{sentence}.")
        return FAILED
    if args.format == "json":
        document = {"query": query, "kinds": kinds, "results": [f.to_json() for f in found]}
        print(json.dumps(document, indent=2))
    elif found:
        print(table(found))
    else:
        print(f"No {' or '.join(kinds)} named like “{_printable(query)}”.")
    return OK if any(f.state != "gone" for f in found) else NONE_FOUND
