"""`tenant-console members` in-process against the real local service: list (table, JSON,
CSV), invite, resend, revoke, set-role, remove; the owner refused before sending; the
console's own user guarded by --confirm EMAIL; arguments refused before any request (2);
not found (3); read-only; the service's text escaped; every change journalled."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from people_tenant import OWNER_EMAIL, PeopleTenant

from console.cli import main
from console.journal.store import open_journal


@pytest.fixture(autouse=True)
def own_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The change journal of this test only."""
    data = tmp_path / "data"
    monkeypatch.setenv("TENANT_CONSOLE_DATA_DIR", str(data))
    return data


@pytest.fixture
def people(service: Any) -> PeopleTenant:
    return PeopleTenant.make(service, "Members CLI")


def connect(monkeypatch: pytest.MonkeyPatch, people: PeopleTenant, key: str | None = None) -> None:
    monkeypatch.setenv("TENANT_CONSOLE_BASE_URL", people.service.base_url)
    monkeypatch.setenv("TENANT_CONSOLE_API_KEY", key or people.key)
    monkeypatch.delenv("TENANT_CONSOLE_PROFILE", raising=False)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["members", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_list_as_table_json_and_csv(people, monkeypatch, capsys) -> None:
    # A user is one across tenants (by email): this test's own, without MFA.
    ada = people.member("no-mfa.cli@example.com", "READ_ONLY", mfa=False)
    invited = people.invite("grace@example.com", "ADMIN")
    connect(monkeypatch, people)
    code, out, err = run(capsys, "list")
    assert code == 0, err
    members, invitations = out.split("\n\n")
    assert members.splitlines()[0].split() == ["EMAIL", "NAME", "ROLE", "MFA", "ID"]
    assert OWNER_EMAIL in members and "OWNER" in members
    (ada_line,) = [line for line in members.splitlines() if ada.email in line]
    assert ada_line.split()[-3:] == ["READ_ONLY", "no", ada.member_id]
    assert invitations.splitlines()[0].split() == ["INVITED", "ROLE", "STATUS", "EXPIRES", "ID"]
    assert "grace@example.com" in invitations and "PENDING" in invitations
    assert invited["id"] in invitations

    code, out, _ = run(capsys, "list", "--format", "json")
    assert code == 0
    document = json.loads(out)
    assert set(document) == {"members", "invitations"}
    by_email = {m["email"]: m for m in document["members"]}
    assert by_email[ada.email]["role"] == "READ_ONLY"
    assert by_email[ada.email]["mfa_enrolled"] is False
    assert by_email[ada.email]["id"] == ada.member_id
    assert by_email[OWNER_EMAIL]["role"] == "OWNER"
    (invitation,) = document["invitations"]
    assert invitation["email"] == "grace@example.com" and invitation["status"] == "PENDING"
    assert invitation["expires_at"]

    code, out, _ = run(capsys, "list", "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["type"] for r in rows] == ["member", "member", "invitation"]
    assert {r["email"] for r in rows} == {OWNER_EMAIL, ada.email, "grace@example.com"}


def test_invite_resend_revoke(people, monkeypatch, capsys) -> None:
    connect(monkeypatch, people)
    code, out, err = run(capsys, "invite", "grace@example.com", "--role", "read_only")
    assert code == 0, err
    assert out.startswith("Invited grace@example.com as READ_ONLY: invitation ")
    assert "Undo: tenant-console undo " in out
    (sent,) = people.invitations()
    code, out, err = run(capsys, "resend", "GRACE@example.com")
    assert code == 0, err
    assert out.startswith("Resent the invitation to grace@example.com: it expires ")
    code, out, err = run(capsys, "revoke", sent["id"])
    assert code == 0, err
    assert out.startswith("Revoked the invitation to grace@example.com (READ_ONLY).")
    assert people.invitations() == []
    journal = [(c.kind, c.action, c.origin) for c in open_journal().list()]
    assert journal == [
        ("invitations", "delete", "members"),
        ("invitations", "resend", "members"),
        ("invitations", "create", "members"),
    ]


def test_set_role_and_remove_an_ordinary_member(people, monkeypatch, capsys) -> None:
    ada = people.member("ada@example.com", "ADMIN")
    connect(monkeypatch, people)
    code, out, err = run(capsys, "set-role", ada.email, "READ_ONLY")
    assert code == 0, err
    assert out.startswith("ada@example.com is now READ_ONLY (was ADMIN).")
    code, out, _ = run(capsys, "set-role", ada.member_id, "READ_ONLY")
    assert (code, out) == (0, "ada@example.com is already READ_ONLY: nothing to change.\n")
    code, out, err = run(capsys, "remove", ada.member_id)
    assert code == 0, err
    assert "Removed ada@example.com (READ_ONLY) from the tenant." in out
    assert "invitation, which they must accept" in out
    assert people.role_of(ada.email) is None
    (removed, *_) = open_journal().list()
    assert (removed.kind, removed.action, removed.name) == ("members", "delete", ada.email)
    # and undone: an invitation to the same email and role
    assert main(["undo", str(removed.id), "--yes"]) == 0
    (invited,) = people.invitations()
    assert (invited["email"], invited["role"]) == (ada.email, "READ_ONLY")


def test_the_owner_is_refused_before_anything_is_sent(people, monkeypatch, capsys) -> None:
    connect(monkeypatch, people)
    code, out, err = run(capsys, "remove", OWNER_EMAIL, "--confirm", OWNER_EMAIL)
    assert (code, out) == (1, "")
    assert err == (
        "tenant-console members: The tenant's owner cannot be removed. Nothing was sent.\n"
    )
    code, _, err = run(capsys, "set-role", OWNER_EMAIL, "ADMIN")
    assert code == 1 and "The tenant's owner keeps the OWNER role. Nothing was sent." in err
    assert people.role_of(OWNER_EMAIL) == "OWNER"
    assert open_journal().list() == []  # nothing sent, nothing recorded


def test_the_consoles_own_user_needs_its_email_confirmed(people, monkeypatch, capsys) -> None:
    ada = people.member("ada@example.com", "ADMIN")
    grace = people.member("grace@example.com", "ADMIN")
    connect(monkeypatch, people, people.key_made_by(ada.user_id))
    code, out, err = run(capsys, "remove", ada.email)
    assert (code, out) == (2, "")
    assert "the user who made this console's application" in err
    assert "add --confirm ada@example.com. Nothing was sent." in err
    code, _, err = run(capsys, "set-role", ada.email, "READ_ONLY")
    assert code == 2 and "To make ada@example.com READ_ONLY anyway" in err
    code, _, err = run(capsys, "remove", ada.email, "--confirm", grace.email)
    assert code == 2 and "is not the member's email (ada@example.com)" in err
    assert people.role_of(ada.email) == "ADMIN"
    assert open_journal().list() == []
    # another member needs nothing typed; the own user with its email confirmed goes
    code, _, err = run(capsys, "set-role", grace.email, "READ_ONLY")
    assert code == 0, err
    code, _, err = run(capsys, "set-role", ada.email, "READ_ONLY", "--confirm", ada.email)
    assert code == 0, err
    code, _, err = run(capsys, "remove", ada.email, "--confirm", ada.email)
    assert code == 0, err
    assert people.role_of(ada.email) is None


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["remove", "../self"], "is neither a member id (a UUID) nor an email"),
        (["set-role", "ada", "ADMIN"], "is neither a member id"),
        (["set-role", "ada@example.com", "OWNER"], "the tenant's owner is never made this way"),
        (["set-role", "ada@example.com", "ROOT"], "ADMIN or READ_ONLY"),
        (["revoke", "%2e%2e"], "is neither an invitation id"),
        (["resend", "grace"], "is neither an invitation id"),
        (["invite", "not an email"], "is not an email such as ada@example.com"),
        (["invite", "grace@example.com", "--role", "OWNER"], "ADMIN or READ_ONLY"),
    ],
)
def test_unusable_arguments_are_refused_before_any_request(argv, says, monkeypatch, capsys) -> None:
    monkeypatch.setenv("TENANT_CONSOLE_BASE_URL", "http://127.0.0.1:9")  # nothing listens
    monkeypatch.setenv("TENANT_CONSOLE_API_KEY", "k" * 32)
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert says in err and err.startswith("tenant-console members: ")


def test_not_found_is_3(people, monkeypatch, capsys) -> None:
    connect(monkeypatch, people)
    for argv in (
        ["remove", "nobody@example.com"],
        ["set-role", "00000000-0000-4000-8000-000000000000", "ADMIN"],
        ["revoke", "nobody@example.com"],
        ["resend", "00000000-0000-4000-8000-000000000000"],
    ):
        code, out, err = run(capsys, *argv)
        assert (code, out) == (3, ""), argv
        assert "no member is" in err or "no invitation is" in err


def test_read_only_refuses_every_change(people, monkeypatch, capsys) -> None:
    connect(monkeypatch, people)
    code, _, err = run(capsys, "invite", "grace@example.com", "--read-only")
    assert code == 1 and "read-only: `members invite` changes the tenant" in err
    assert main(["--read-only", "members", "remove", "ada@example.com"]) == 1
    assert people.invitations() == []
    assert run(capsys, "list", "--format", "json")[0] == 0  # reading is fine


def test_the_services_text_is_escaped(people, monkeypatch, capsys) -> None:
    """A name with a terminal escape is shown escaped, in the table as in the JSON."""
    ada = people.member("escaped.cli@example.com", "ADMIN")  # a user of this test's own
    store = people.service._store()
    try:
        with store.write() as conn:
            conn.execute(
                "UPDATE users SET first_name = ? WHERE id = ?", ("Ada\x1b[2J\x07", ada.user_id)
            )
    finally:
        store.close()
    connect(monkeypatch, people)
    code, out, _ = run(capsys, "list")
    assert code == 0 and "\x1b" not in out and "\x07" not in out
    assert "Ada\\x1b[2J\\x07" in out
    code, out, _ = run(capsys, "list", "--format", "json")
    names = {m["email"]: m["name"] for m in json.loads(out)["members"]}
    assert "\x1b" not in out and names[ada.email].startswith("Ada\x1b")


def test_a_service_refusal_is_1_with_its_reason(people, monkeypatch, capsys) -> None:
    people.member("ada@example.com")
    connect(monkeypatch, people)
    code, _, err = run(capsys, "invite", "ada@example.com")
    assert code == 1 and "already a member" in err
    reader = people.service.new_key(["tenant:member:read"], tenant_key=people.key)
    connect(monkeypatch, people, reader)
    code, _, err = run(capsys, "list")
    assert code == 1 and "tenant:invitation:read" in err
