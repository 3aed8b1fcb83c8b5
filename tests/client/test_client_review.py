"""The access review's flags, its lenient reading, its walk and its export (console.client.review
and review_export), against the hosted-shaped stand-in and hand-made objects; the console's
view and the command line have tests of their own (tests/tui/test_console_review.py,
tests/test_review_cli.py)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator

import pytest
from client_helpers import FAST_RETRY
from hosted_service import CHECKOUT_ID, KEY, RUNNER_ID, SESSION_ID, HostedService

from console.client import AdminClient
from console.client.review import (
    CHANGES_KEYS,
    EVERY_PERMISSION,
    MANAGEMENT_WRITE,
    NEVER_EXPIRES,
    REVEAL,
    Catalogue,
    application_pages,
    holdings,
    load_catalogue,
    read_application,
    review_pages,
)
from console.client.review_export import CSV_COLUMNS, format_for, to_csv, to_json

SECRET = "sk-live-THIS-MUST-NEVER-BE-EXPORTED-0123456789"
CATALOGUE = Catalogue(
    {"private": frozenset({"token:read", "token:create"}), "public": frozenset({"token:create"})}
)
LATER = "2030-01-01T00:00:00+00:00"


def app(**fields: object) -> dict[str, object]:
    return {"id": "a1", "name": "App", "type": "private", "expires_at": LATER, **fields}


def rule(transform: str = "mask", *permissions: str, **extra: object) -> dict[str, object]:
    return {
        "description": "Cards",
        "priority": 1,
        "container": "/pci/",
        "transform": transform,
        "permissions": list(permissions or ("token:read",)),
        **extra,
    }


@pytest.mark.parametrize(
    ("fields", "flag", "expected"),
    [
        ({"type": "management", "permissions": ["proxy:delete"]}, MANAGEMENT_WRITE, True),
        ({"type": "management", "permissions": ["tenant:member:update"]}, MANAGEMENT_WRITE, True),
        (
            {"type": "management", "permissions": ["proxy:read", "report:read"]},
            MANAGEMENT_WRITE,
            False,
        ),
        ({"type": "private", "permissions": ["token:update"]}, MANAGEMENT_WRITE, False),
        ({"rules": [rule("reveal")]}, REVEAL, True),
        ({"rules": [rule("mask"), rule("redact")]}, REVEAL, False),
        ({"expires_at": None}, NEVER_EXPIRES, True),
        ({"expires_at": LATER}, NEVER_EXPIRES, False),
        ({"type": "management", "permissions": ["application:update"]}, CHANGES_KEYS, True),
        ({"type": "management", "permissions": ["application:create"]}, CHANGES_KEYS, False),
        ({"permissions": ["token:read", "token:create"]}, EVERY_PERMISSION, True),
        (
            {"permissions": ["token:read"], "rules": [rule("mask", "token:create")]},
            EVERY_PERMISSION,
            True,
        ),
        ({"permissions": ["token:read"]}, EVERY_PERMISSION, False),
        ({"type": "public", "permissions": ["token:create"]}, EVERY_PERMISSION, True),
        (
            {"type": "management", "permissions": ["token:read", "token:create"]},
            EVERY_PERMISSION,
            False,
        ),
    ],
)
def test_each_flag_is_raised_only_where_it_applies(
    fields: dict[str, object], flag: str, expected: bool
) -> None:
    row = read_application(app(**fields), CATALOGUE)
    assert (flag in row.flags) is bool(expected), row.flags


def test_expires_at_absent_counts_as_never() -> None:
    item = app()
    del item["expires_at"]
    assert read_application(item).flags == (NEVER_EXPIRES,)


def test_without_a_catalogue_every_permission_is_not_judged() -> None:
    row = read_application(app(permissions=["token:read", "token:create"]), None)
    assert EVERY_PERMISSION not in row.flags


@pytest.mark.parametrize(
    "item",
    [
        None,
        "text",
        {},
        {"name": "No id", "type": "private"},
        {"id": "x", "permissions": None, "rules": None, "type": None, "name": None},
        {"id": "x", "type": "session", "permissions": ["document:write", None, 7]},
        {"id": "x", "rules": [None, "rule", {"transform": None, "priority": [1]}]},
        {"id": "x", "rules": {"not": "a list"}, "permissions": "token:read"},
    ],
)
def test_odd_items_are_read_without_failing(item: object) -> None:
    row = read_application(item, CATALOGUE)
    assert NEVER_EXPIRES in row.flags or not row.readable
    row.to_json()  # and can be exported
    to_csv([row])


def test_holdings_name_each_rule_that_grants_the_permission() -> None:
    row = read_application(
        app(
            permissions=["token:read"],
            rules=[rule("reveal", "token:read"), rule("mask", "token:search"), rule("redact")],
        )
    )
    found = holdings(row, "token:read")
    assert [h.how for h in found] == ["direct", "rule", "rule"]
    assert [h.rule.transform for h in found if h.rule] == ["reveal", "redact"]
    assert holdings(row, "token:delete") == []


def test_export_has_stable_columns_flags_as_lists_and_no_key_material() -> None:
    item = app(
        name="Payouts, nightly",
        key=SECRET,
        keys=[{"id": "k1", "version": "1", "key": SECRET}],
        rules=[rule("reveal", "token:read", "token:use", key=SECRET)],
        expires_at=None,
    )
    row = read_application(item, CATALOGUE)
    text = to_csv([row])
    parsed = list(csv.reader(io.StringIO(text)))
    assert tuple(parsed[0]) == CSV_COLUMNS
    assert parsed[1][:4] == ["a1", "Payouts, nightly", "private", ""]
    assert parsed[1][4] == "reveal;never-expires"
    assert parsed[1][6] == "#1 reveal in /pci/: token:read, token:use (Cards)"
    document = json.loads(to_json([row], catalogue=CATALOGUE))
    exported = document["applications"][0]
    assert list(exported) == [
        "id",
        "name",
        "type",
        "expires_at",
        "flags",
        "permissions",
        "rules",
        "last_activity_at",
    ]
    assert exported["flags"] == ["reveal", "never-expires"]
    assert list(exported["rules"][0]) == [
        "description",
        "priority",
        "transform",
        "container",
        "permissions",
    ]
    assert document["complete"] is True
    for output in (text, json.dumps(document)):
        assert SECRET not in output
        assert '"key"' not in output and '"keys"' not in output


def test_format_follows_the_file_name() -> None:
    assert format_for("review.JSON") == "json"
    assert format_for("review.csv") == "csv"
    assert format_for("review.txt") == "csv"


@pytest.fixture
def hosted() -> Iterator[HostedService]:
    with HostedService.running() as service:
        yield service


async def test_the_review_of_a_hosted_shaped_tenant_reads_every_item(
    hosted: HostedService,
) -> None:
    """Unknown types and permissions, nulls, an item without an id and one that is not an
    object: every one becomes a row; the catalogue is the service's (with its extra
    permissions), asked for per type."""
    async with AdminClient(hosted.base_url, KEY, retry=FAST_RETRY) as client:
        pages = [page async for page in review_pages(client, size=2)]
    rows = [row for page in pages for row in page.rows]
    assert [page.number for page in pages] == [1, 2, 3]
    assert pages[-1].done and not pages[0].done
    by_id = {row.id: row for row in rows}
    assert len(rows) == 6
    assert by_id[RUNNER_ID].permissions[-1] == "document:read"
    assert by_id[SESSION_ID].type == "session"
    assert EVERY_PERMISSION not in by_id[CHECKOUT_ID].flags
    assert sum(not row.readable for row in rows) == 2
    assert "reactor:invoke" in pages[0].catalogue.allowed["private"]
    asked = [seen.query for seen in hosted.requests if seen.path == "/permissions"]
    assert sorted(q["application_type"][0] for q in asked) == ["private", "public"]


async def test_a_catalogue_that_cannot_be_read_is_said_not_fatal(service) -> None:  # type: ignore[no-untyped-def]
    """`GET /permissions` fails (a rejected key here): the flag is not judged, and the
    catalogue's problem says why."""
    async with AdminClient(service.base_url, "not-a-key-000000000000", retry=FAST_RETRY) as c:
        catalogue = await load_catalogue(c)
    assert catalogue.allowed == {}
    assert catalogue.problem is not None and "every-permission" in catalogue.problem


async def test_the_walk_asks_the_largest_page_and_never_the_whole_tenant(
    hosted: HostedService,
) -> None:
    async with AdminClient(hosted.base_url, KEY, retry=FAST_RETRY) as client:
        pages = [page async for page in application_pages(client)]
    assert len(pages) == 1
    sizes = {seen.query["size"][0] for seen in hosted.requests if seen.path == "/applications"}
    assert sizes == {"100"}


def _keys(*created: str) -> list[dict[str, object]]:
    return [
        {"id": f"k{i}", "version": str(i), "created_at": when} for i, when in enumerate(created)
    ]


@pytest.mark.parametrize(
    ("keys", "days", "expected"),
    [
        (_keys("2020-01-01T00:00:00+00:00"), 90, True),
        (_keys("2099-01-01T00:00:00+00:00", "2020-01-01T00:00:00+00:00"), 90, True),  # oldest
        (_keys("2099-01-01T00:00:00+00:00"), 90, False),
        ([], 90, False),
        (None, 90, False),  # a service that does not list keys: not judged
        ([{"id": "k", "created_at": "not a time"}, "odd", None], 90, False),
    ],
)
def test_an_application_whose_oldest_key_is_past_the_threshold_is_flagged(
    keys: object, days: int, expected: bool
) -> None:
    from console.client.review import OLD_KEY, key_age_limit

    row = read_application(app(keys=keys), CATALOGUE, old_before=key_age_limit(days))
    assert (OLD_KEY in row.flags) is expected
    assert "k0" not in json.dumps(row.to_json()), "no key id reaches an export"


def test_the_key_age_threshold_moves() -> None:
    from datetime import timedelta

    from console.client.review import OLD_KEY, key_age_limit
    from console.clock import now

    made = (now() - timedelta(days=30)).isoformat()
    item = app(keys=_keys(made))
    assert OLD_KEY not in read_application(item, old_before=key_age_limit(90)).flags
    assert OLD_KEY in read_application(item, old_before=key_age_limit(7)).flags
