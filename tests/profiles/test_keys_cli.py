"""`tenant-console keys` in-process against the real local service: list, create (the key in a
0600 file and never on the terminal), revoke (asked, the command's own key refused), rotate
(waiting: exit 3, then finished with --yes --then-revoke, the profile's own key stored in the
keyring first), exit codes, and no key in any output or log."""

from __future__ import annotations

import json
import logging
import stat
from pathlib import Path

import httpx
import keyring
import pytest

from console.cli import main
from console.keys.rotation import load_rotations
from console.profiles.config import Profile, ProfilesFile


@pytest.fixture(autouse=True)
def own_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Rotations and session keys of this test only."""
    data = tmp_path / "data"
    monkeypatch.setenv("TENANT_CONSOLE_DATA_DIR", str(data))
    return data


@pytest.fixture
def tenant(service):  # type: ignore[no-untyped-def]
    info = service.new_tenant("Keys CLI")
    with httpx.Client(base_url=service.base_url, headers={"SVC-API-KEY": info.key}) as http:
        created = http.post(
            "/applications",
            json={"name": "Payments API", "type": "private", "permissions": ["token:create"]},
        )
        assert created.status_code == 201, created.text
    return info, created.json()


def env_connection(monkeypatch: pytest.MonkeyPatch, base_url: str, key: str) -> None:
    monkeypatch.setenv("TENANT_CONSOLE_BASE_URL", base_url)
    monkeypatch.setenv("TENANT_CONSOLE_API_KEY", key)


def _keys(service, key: str, app_id: str) -> list[dict]:  # type: ignore[no-untyped-def]
    with httpx.Client(base_url=service.base_url, headers={"SVC-API-KEY": key}) as http:
        return http.get(f"/applications/{app_id}/keys").json()


def _works(service, key: str) -> bool:  # type: ignore[no-untyped-def]
    with httpx.Client(base_url=service.base_url, headers={"SVC-API-KEY": key}) as http:
        return http.get("/permissions").status_code == 200


def test_list_by_name_and_by_id_as_table_and_json(service, tenant, monkeypatch, capsys) -> None:
    info, app = tenant
    env_connection(monkeypatch, service.base_url, info.key)
    assert main(["keys", "list", "Payments API"]) == 0
    out, err = capsys.readouterr()
    assert app["keys"][0]["id"] in out and "1 key of" in err
    assert main(["keys", "list", app["id"], "--format", "json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [k["id"] for k in listed] == [app["keys"][0]["id"]]
    assert set(listed[0]) == {"id", "version", "created_at", "created_by"}
    assert main(["keys", "list", "No such app"]) == 1
    assert "No application is named" in capsys.readouterr().err


def test_create_to_a_0600_file_never_shows_the_key(
    service, tenant, monkeypatch, capsys, tmp_path, caplog
) -> None:
    caplog.set_level(logging.DEBUG)
    info, app = tenant
    env_connection(monkeypatch, service.base_url, info.key)
    target = tmp_path / "payments.key"
    assert main(["keys", "create", "Payments API", "--key-out", str(target)]) == 0
    out, err = capsys.readouterr()
    key = target.read_text().strip()
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert _works(service, key)  # a valid key of the application
    assert len(_keys(service, info.key, app["id"])) == 2
    assert key not in out + err + caplog.text and "mode 0600" in err
    assert main(["keys", "create", "Payments API", "--key-out", str(tmp_path / "no" / "k")]) == 2
    assert len(_keys(service, info.key, app["id"])) == 2, "no key made for an unusable file"


def test_create_without_a_file_prints_only_the_key(service, tenant, monkeypatch, capsys) -> None:
    info, app = tenant
    env_connection(monkeypatch, service.base_url, info.key)
    assert main(["keys", "create", app["id"]]) == 0
    out, err = capsys.readouterr()
    key = out.strip()
    assert len(key) >= 32 and "\n" not in key and key not in err


def test_revoke_asks_unless_yes_and_refuses_the_commands_own_key(
    service, tenant, monkeypatch, capsys
) -> None:
    info, app = tenant
    env_connection(monkeypatch, service.base_url, info.key)
    key_id = app["keys"][0]["id"]
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert main(["keys", "revoke", "Payments API", key_id]) == 2  # not a terminal, no --yes
    assert len(_keys(service, info.key, app["id"])) == 1
    assert main(["keys", "revoke", "Payments API", key_id, "--yes"]) == 0
    assert _keys(service, info.key, app["id"]) == []
    capsys.readouterr()
    own = _own_application(service, info.key)
    code = main(["keys", "revoke", own["id"], own["keys"][0]["id"], "--yes"])
    assert code == 1 and "keys rotate" in capsys.readouterr().err
    assert _works(service, info.key)


def test_revoke_confirmed_by_typing_the_name(service, tenant, monkeypatch, capsys) -> None:
    info, app = tenant
    env_connection(monkeypatch, service.base_url, info.key)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt="": "Payments")
    assert main(["keys", "revoke", "Payments API", app["keys"][0]["id"]]) == 1
    assert len(_keys(service, info.key, app["id"])) == 1
    monkeypatch.setattr("builtins.input", lambda prompt="": "Payments API")
    assert main(["keys", "revoke", "Payments API", app["keys"][0]["id"]]) == 0
    assert _keys(service, info.key, app["id"]) == []


def _own_application(service, key: str) -> dict:  # type: ignore[no-untyped-def]
    with httpx.Client(base_url=service.base_url, headers={"SVC-API-KEY": key}) as http:
        return http.get("/applications/key").json()


def journal_bytes() -> bytes:
    """The change journal's file as anyone could read it (with SQLite's side files)."""
    from console.journal.store import open_journal

    journal = open_journal()
    journal.close()
    return b"".join(p.read_bytes() for p in journal.path.parent.glob(journal.path.name + "*"))


def test_rotate_waits_then_finishes_with_yes_then_revoke(
    service, tenant, monkeypatch, capsys, tmp_path, own_data_dir
) -> None:
    """The waiting rotation is a row of the change journal (never the key), which the second
    run resumes and marks finished."""
    from console.journal.store import open_journal

    info, app = tenant
    env_connection(monkeypatch, service.base_url, info.key)
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    target = tmp_path / "rotated.key"
    assert main(["keys", "rotate", "Payments API", "--key-out", str(target), "--yes"]) == 2
    assert main(["keys", "rotate", "Payments API", "--key-out", str(target)]) == 3
    err = capsys.readouterr().err
    assert "--yes --then-revoke" in err
    new_key = target.read_text().strip()
    assert stat.S_IMODE(target.stat().st_mode) == 0o600 and new_key not in err
    keys = _keys(service, info.key, app["id"])
    assert len(keys) == 2, "the old key keeps working while the new one is deployed"
    (rotation,) = load_rotations()
    assert rotation.old_key_ids == [app["keys"][0]["id"]] and rotation.stage == "deploying"
    assert new_key not in json.dumps(rotation.__dict__)
    assert (rotation.scope, rotation.profile, rotation.base_url, rotation.tenant) == (
        service.base_url,
        None,
        service.base_url,
        "Keys CLI",
    )
    assert not (own_data_dir / "key-rotations.json").exists()
    assert new_key.encode() not in journal_bytes()

    args = ["keys", "rotate", "Payments API", "--key-out", str(target), "--yes", "--then-revoke"]
    assert main(args) == 0
    assert [k["id"] for k in _keys(service, info.key, app["id"])] == [rotation.new_key_id]
    assert target.read_text().strip() == new_key, "resuming does not make another key"
    assert load_rotations() == []
    (ended,) = open_journal().rotations()
    assert ended.id == rotation.id and ended.finished_at is not None
    assert new_key.encode() not in journal_bytes()

    capsys.readouterr()
    assert main(["history"]) == 0
    listing = capsys.readouterr().out
    started = f"rotation {rotation.id}: started, 1 old key(s) to revoke; finished"
    revoked = f"rotation {rotation.id}: an old key revoked; finished"
    assert started in listing and revoked in listing
    assert listing.index(revoked) < listing.index(started), "newest first"
    assert main(["history", "--format", "json"]) == 0
    entries = json.loads(capsys.readouterr().out)
    by_action = {e["action"]: e for e in entries}
    assert by_action["create key"]["rotation"]["id"] == rotation.id
    assert by_action["revoke key"]["rotation"]["finished_at"] is not None
    assert new_key not in listing


def test_rotate_resumes_a_rotation_an_older_console_kept_in_its_file(
    service, tenant, monkeypatch, tmp_path, own_data_dir
) -> None:
    """`key-rotations.json` (where rotations were kept before the journal) is moved into the
    journal once, and `keys rotate` resumes the rotation it held without a new key."""
    from console.journal.store import open_journal

    info, app = tenant
    env_connection(monkeypatch, service.base_url, info.key)
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    target = tmp_path / "older.key"
    assert main(["keys", "rotate", "Payments API", "--key-out", str(target)]) == 3
    (rotation,) = load_rotations()
    journal = open_journal()
    journal.close()
    for part in journal.path.parent.glob(journal.path.name + "*"):
        part.unlink()  # as an older console left it: the file only
    legacy = own_data_dir / "key-rotations.json"
    legacy.write_text(
        json.dumps(
            {
                "rotations": [
                    {
                        "scope": rotation.scope,
                        "application_id": rotation.application_id,
                        "application_name": rotation.application_name,
                        "new_key_id": rotation.new_key_id,
                        "old_key_ids": rotation.old_key_ids,
                        "started_at": rotation.started_at,
                        "stage": "deploying",
                        "own": False,
                        "new_key_version": None,
                        "notes": [],
                    }
                ]
            }
        )
    )
    args = ["keys", "rotate", "Payments API", "--key-out", str(target), "--yes", "--then-revoke"]
    assert main(args) == 0
    assert not legacy.exists()
    assert [k["id"] for k in _keys(service, info.key, app["id"])] == [rotation.new_key_id]
    assert load_rotations() == []


def test_rotating_the_profiles_own_key_stores_the_new_one_first(
    service, monkeypatch, capsys, tmp_path
) -> None:
    info = service.new_tenant("Own rotation")
    profiles = ProfilesFile.load()
    profiles.add(Profile("own", service.base_url))
    profiles.save()
    keyring.set_password("tenant-console", "own", info.key)
    target = tmp_path / "own.key"
    args = ["keys", "rotate", "Bootstrap management", "--key-out", str(target)]
    assert main([*args, "--profile", "own", "--yes", "--then-revoke"]) == 0
    new_key = target.read_text().strip()
    assert keyring.get_password("tenant-console", "own") == new_key
    assert _works(service, new_key) and not _works(service, info.key)
    assert new_key not in capsys.readouterr().err


def test_read_only_refuses_changes(service, tenant, monkeypatch, capsys) -> None:
    info, app = tenant
    env_connection(monkeypatch, service.base_url, info.key)
    assert main(["keys", "create", "Payments API", "--read-only"]) == 1
    assert len(_keys(service, info.key, app["id"])) == 1


def test_rotate_on_a_terminal_revokes_once_revoke_is_typed(
    service, tenant, monkeypatch, capsys, tmp_path
) -> None:
    info, app = tenant
    env_connection(monkeypatch, service.base_url, info.key)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt="": "")
    target = tmp_path / "tty.key"
    assert main(["keys", "rotate", "Payments API", "--key-out", str(target)]) == 3
    assert len(_keys(service, info.key, app["id"])) == 2
    monkeypatch.setattr("builtins.input", lambda prompt="": "revoke")
    assert main(["keys", "rotate", "Payments API", "--key-out", str(target)]) == 0
    assert len(_keys(service, info.key, app["id"])) == 1
    assert load_rotations() == []


def _something_at(target: Path, what: str, other: Path) -> None:
    """Puts `what` at `target`: another file's bytes, a link to `other`, a dangling link or
    a FIFO that nobody reads (opening it to write would block)."""
    import os

    if what == "text file":
        target.write_bytes(b"someone else's notes\n")
    elif what == "link":
        target.symlink_to(other)
    elif what == "dangling link":
        target.symlink_to(other.parent / "nowhere")
    else:
        os.mkfifo(target)


@pytest.mark.parametrize("what", ["text file", "link", "dangling link", "fifo"])
@pytest.mark.parametrize("action", ["create", "rotate"])
def test_key_out_never_replaces_a_file_it_did_not_create(
    service, tenant, monkeypatch, capsys, tmp_path, what, action
) -> None:
    """Something already at --key-out: exit 2 before any key is made, and it keeps its bytes
    (a FIFO is not opened, so the command does not block on it)."""
    import os

    info, app = tenant
    env_connection(monkeypatch, service.base_url, info.key)
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    other = tmp_path / "other.txt"
    other.write_bytes(b"the link's target\n")
    target = tmp_path / "payments.key"
    _something_at(target, what, other)
    before = os.lstat(target)
    assert main(["keys", action, "Payments API", "--key-out", str(target)]) == 2
    err = capsys.readouterr().err
    assert "already exists" in err and "--force" in err
    after = os.lstat(target)
    assert (after.st_ino, after.st_mode, after.st_size) == (
        before.st_ino,
        before.st_mode,
        before.st_size,
    )
    assert other.read_bytes() == b"the link's target\n"
    assert not (tmp_path / "nowhere").exists()
    if what == "text file":
        assert target.read_bytes() == b"someone else's notes\n"
    assert len(_keys(service, info.key, app["id"])) == 1, "no key was made"
    assert load_rotations() == []


@pytest.mark.parametrize("what", ["text file", "link", "fifo"])
def test_key_out_with_force_replaces_it_with_the_key(
    service, tenant, monkeypatch, capsys, tmp_path, what
) -> None:
    info, app = tenant
    env_connection(monkeypatch, service.base_url, info.key)
    other = tmp_path / "other.txt"
    other.write_bytes(b"the link's target\n")
    target = tmp_path / "payments.key"
    _something_at(target, what, other)
    assert main(["keys", "create", "Payments API", "--key-out", str(target), "--force"]) == 0
    assert not target.is_symlink() and stat.S_ISREG(target.lstat().st_mode)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert _works(service, target.read_text().strip())
    assert other.read_bytes() == b"the link's target\n"
    assert len(_keys(service, info.key, app["id"])) == 2


def test_a_file_that_appears_after_the_check_is_kept_and_the_key_revoked(
    service, tenant, monkeypatch, capsys, tmp_path
) -> None:
    """The file is created exclusively: one made between the check and the write (another
    process) is not replaced, and the key made for it is revoked again."""
    info, app = tenant
    env_connection(monkeypatch, service.base_url, info.key)
    target = tmp_path / "raced.key"
    from console.client.application_keys import ApplicationKeys

    create = ApplicationKeys.create

    async def create_then_race(self, application_id):  # type: ignore[no-untyped-def]
        made = await create(self, application_id)
        target.write_text("written meanwhile\n")
        return made

    monkeypatch.setattr(ApplicationKeys, "create", create_then_race)
    assert main(["keys", "create", "Payments API", "--key-out", str(target)]) == 2
    assert "revoked again" in capsys.readouterr().err
    assert target.read_text() == "written meanwhile\n"
    assert len(_keys(service, info.key, app["id"])) == 1


@pytest.mark.parametrize("shown", ["{short}", "{short}…", "{short}...", "{full}", "{upper}"])
def test_revoke_takes_the_id_as_the_console_shows_it(
    service, tenant, monkeypatch, capsys, shown
) -> None:
    info, app = tenant
    env_connection(monkeypatch, service.base_url, info.key)
    key_id = app["keys"][0]["id"]
    given = shown.format(short=key_id[:8], full=key_id, upper=key_id[:8].upper())
    assert main(["keys", "revoke", "Payments API", given, "--yes"]) == 0
    assert f"Revoked key {key_id}" in capsys.readouterr().err
    assert _keys(service, info.key, app["id"]) == []


def test_revoke_with_an_ambiguous_start_lists_the_candidates(
    service, tenant, monkeypatch, capsys
) -> None:
    info, app = tenant
    env_connection(monkeypatch, service.base_url, info.key)
    with httpx.Client(base_url=service.base_url, headers={"SVC-API-KEY": info.key}) as http:
        ids = [app["keys"][0]["id"]]
        while len({i[0] for i in ids}) == len(ids):  # 17 ids at most share a first digit
            made = http.post(f"/applications/{app['id']}/keys")
            assert made.status_code == 201, made.text
            ids.append(made.json()["id"])
    first = ids[-1][0]
    sharing = sorted(i for i in ids if i[0] == first)
    assert main(["keys", "revoke", "Payments API", first, "--yes"]) == 2
    err = capsys.readouterr().err
    assert f"{len(sharing)} keys of" in err and all(i in err for i in sharing)
    assert len(_keys(service, info.key, app["id"])) == len(ids), "nothing was revoked"
    unused = next(c for c in "0123456789abcdef" if all(not i.startswith(c) for i in ids))
    assert main(["keys", "revoke", "Payments API", unused * 8, "--yes"]) == 1
    assert "No key of" in capsys.readouterr().err


@pytest.mark.parametrize(
    "given", ["../../tenants/self", "..", "", "%2e%2e", "abc/def", "\x1b]0;x\x07", "abc?x=1"]
)
def test_revoke_never_puts_the_argument_in_a_path(
    service, tenant, monkeypatch, capsys, given
) -> None:
    """An id that is not hexadecimal is refused before any request: it cannot reach a path."""
    info, app = tenant
    env_connection(monkeypatch, service.base_url, info.key)
    before = _own_application(service, info.key)
    assert main(["keys", "revoke", "Payments API", given, "--yes"]) == 2
    err = capsys.readouterr().err
    assert "is not a key id" in err and "\x1b" not in err
    assert len(_keys(service, info.key, app["id"])) == 1
    assert _own_application(service, info.key) == before
