"""`tenant-console profile ...` in-process, against the real local service."""

from __future__ import annotations

import io
import stat
from pathlib import Path

import pytest
from keyring.backends import fail
from profiles_helpers import closed_port_url

from console.cli import main
from console.profiles.config import Profile, ProfilesFile

SERVICE_NAME = "tenant-console"


@pytest.fixture
def stdin(monkeypatch):
    """Feed standard input: `stdin("key\\n")`."""

    def feed(text: str) -> io.StringIO:
        stream = io.StringIO(text)
        monkeypatch.setattr("sys.stdin", stream)
        return stream

    return feed


def add(name: str, url: str, stdin, key: str) -> int:
    stdin(key + "\n")
    return main(["profile", "add", name, "--base-url", url, "--key-stdin"])


def test_add_checks_the_key_shows_its_owner_and_stores_it(
    service, stdin, capsys, memory_keyring, config_dir: Path
) -> None:
    tenant = service.new_tenant("Acme Prod")
    assert add("prod", service.base_url, stdin, tenant.key) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].startswith('Key belongs to application "')
    assert lines[0].endswith('(management) in tenant "Acme Prod".')
    assert lines[1] == (
        'Saved profile "prod" (key stored in the keyring: in-memory test keyring). '
        "It is the active profile."
    )
    assert err == ""
    assert tenant.key not in out
    assert memory_keyring.entries == {(SERVICE_NAME, "prod"): tenant.key}

    path = config_dir / "config.toml"
    assert tenant.key not in path.read_text()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    saved = Profile("prod", service.base_url, tenant_name="Acme Prod")
    assert ProfilesFile.load().profiles == {"prod": saved}


def test_adding_again_updates_url_and_key(service, stdin, capsys, memory_keyring) -> None:
    first, second = service.new_tenant("Update A"), service.new_tenant("Update B")
    assert add("qa", service.base_url + "/", stdin, first.key) == 0
    assert add("qa", service.base_url, stdin, second.key) == 0
    out = capsys.readouterr().out
    assert 'in tenant "Update B"' in out
    assert 'Updated profile "qa"' in out
    assert memory_keyring.entries == {(SERVICE_NAME, "qa"): second.key}


def test_rejected_key_stores_nothing(service, stdin, capsys, memory_keyring, config_dir) -> None:
    assert add("prod", service.base_url, stdin, "wrong-key-0123456789abcdef") == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("tenant-console: The API key was not accepted")
    assert err.rstrip().endswith("Nothing was stored.")
    assert err.count("\n") == 1
    assert "wrong-key" not in err
    assert memory_keyring.entries == {}
    assert not config_dir.exists()


def test_rejected_update_keeps_the_old_key(service, stdin, capsys, memory_keyring) -> None:
    tenant = service.new_tenant("Keep")
    assert add("prod", service.base_url, stdin, tenant.key) == 0
    assert add("prod", service.base_url, stdin, "wrong-key-0123456789abcdef") == 1
    assert add("prod", closed_port_url(), stdin, "other-key-0123456789abcdef") == 1
    assert "Nothing was stored" in capsys.readouterr().err
    assert memory_keyring.entries == {(SERVICE_NAME, "prod"): tenant.key}
    assert ProfilesFile.load().profiles["prod"].base_url == service.base_url


def test_unreachable_service_stores_nothing(stdin, capsys, memory_keyring, config_dir) -> None:
    url = closed_port_url()
    assert add("prod", url, stdin, "some-key-0123456789abcdef") == 1
    err = capsys.readouterr().err
    assert err == (
        f"tenant-console: Cannot reach the service at {url}: connection refused. "
        "The key was not checked, so nothing was stored.\n"
    )
    assert memory_keyring.entries == {}
    assert not config_dir.exists()


@pytest.mark.parametrize(
    ("name", "url", "words"),
    [
        ("prod", "ftp://example.com", "Invalid base URL"),
        ("prod", "https://u:p@example.com", "user name or password"),
        ("bad name", "https://example.com", "Invalid profile name"),
    ],
)
def test_bad_arguments_exit_2_before_asking_for_a_key(
    name, url, words, stdin, capsys, memory_keyring
) -> None:
    stream = stdin("never-read\n")
    assert main(["profile", "add", name, "--base-url", url, "--key-stdin"]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
    assert stream.tell() == 0, "the key was not even read"


def test_no_keyring_refuses_before_asking_for_a_key(
    service, stdin, capsys, use_keyring, config_dir
) -> None:
    use_keyring(fail.Keyring())
    stream = stdin("some-key\n")
    assert main(["profile", "add", "prod", "--base-url", service.base_url, "--key-stdin"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("tenant-console: No usable OS keyring: no keyring backend was found.")
    assert "install or unlock a keyring backend" in err
    assert "set TENANT_CONSOLE_API_KEY for this session" in err
    assert err.count("\n") == 1
    assert stream.tell() == 0
    assert not config_dir.exists()


def test_empty_stdin_is_refused(service, stdin, capsys, memory_keyring) -> None:
    assert add("prod", service.base_url, stdin, "") == 1
    assert "No API key on standard input" in capsys.readouterr().err
    assert memory_keyring.entries == {}


def test_without_key_stdin_a_pipe_still_gives_one_line(
    service, stdin, capsys, memory_keyring
) -> None:
    tenant = service.new_tenant("Piped")
    stdin(tenant.key + "\nignored\n")
    assert main(["profile", "add", "piped", "--base-url", service.base_url]) == 0
    assert memory_keyring.entries == {(SERVICE_NAME, "piped"): tenant.key}


def test_a_terminal_gets_a_hidden_prompt(service, monkeypatch, capsys, memory_keyring) -> None:
    tenant = service.new_tenant("Prompted")
    prompts: list[str] = []

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdin", Terminal(""))
    monkeypatch.setattr("getpass.getpass", lambda prompt: prompts.append(prompt) or tenant.key)
    assert main(["profile", "add", "tty", "--base-url", service.base_url]) == 0
    assert prompts == ['API key for profile "tty" (input hidden): ']
    assert memory_keyring.entries == {(SERVICE_NAME, "tty"): tenant.key}


def seed(config_dir: Path, memory_keyring, *names: str) -> None:
    profiles = ProfilesFile.load()
    for name in names:
        profiles.add(Profile(name, f"https://{name}.example.com"))
    profiles.save()
    memory_keyring.entries[(SERVICE_NAME, names[0])] = "seeded-key-0123456789"


def test_list_shows_an_aligned_table_without_keys(
    config_dir, memory_keyring, capsys, monkeypatch
) -> None:
    seed(config_dir, memory_keyring, "prod", "staging-eu")
    assert main(["profile", "list"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "ACTIVE  NAME        BASE URL                        KEY HEADER   KEY",
        "*       prod        https://prod.example.com        SVC-API-KEY  stored",
        "        staging-eu  https://staging-eu.example.com  SVC-API-KEY  missing",
    ]

    monkeypatch.setenv("TENANT_CONSOLE_API_KEY", "env-key-0123456789")
    assert main(["profile", "list"]) == 0
    out = capsys.readouterr().out
    assert "env (stored)" in out and "env (missing)" in out
    assert "TENANT_CONSOLE_API_KEY is set: it is used instead of any stored key." in out
    assert "seeded-key" not in out and "env-key" not in out


def test_list_with_no_profiles_says_how_to_add(capsys) -> None:
    assert main(["profile", "list"]) == 0
    assert "No profiles yet. Add one with: tenant-console profile add" in capsys.readouterr().out


def test_list_without_keyring_still_lists(config_dir, memory_keyring, use_keyring, capsys) -> None:
    seed(config_dir, memory_keyring, "prod")
    use_keyring(fail.Keyring())
    assert main(["profile", "list"]) == 0
    out, err = capsys.readouterr()
    assert "prod" in out and "unknown" in out
    assert "No usable OS keyring" in err


def test_use_switches_the_active_profile(config_dir, memory_keyring, capsys) -> None:
    seed(config_dir, memory_keyring, "prod", "dev")
    assert main(["profile", "use", "dev"]) == 0
    assert capsys.readouterr().out == 'Active profile: "dev" (https://dev.example.com).\n'
    assert ProfilesFile.load().active == "dev"


def test_remove_deletes_profile_and_key(config_dir, memory_keyring, capsys) -> None:
    seed(config_dir, memory_keyring, "prod", "dev")
    assert main(["profile", "remove", "prod"]) == 0
    assert capsys.readouterr().out == 'Removed profile "prod" and its key.\n'
    assert memory_keyring.entries == {}
    assert list(ProfilesFile.load().profiles) == ["dev"]
    assert main(["profile", "remove", "dev"]) == 0
    assert "(it had no stored key)" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["use", "remove"])
def test_unknown_profile_is_one_line_and_exit_1(command, config_dir, memory_keyring, capsys):
    seed(config_dir, memory_keyring, "prod")
    before = (config_dir / "config.toml").read_bytes()
    assert main(["profile", command, "nope"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith('tenant-console: Unknown profile "nope". Known profiles: prod.')
    assert err.count("\n") == 1
    assert (config_dir / "config.toml").read_bytes() == before
    assert memory_keyring.entries


@pytest.mark.parametrize(
    "argv",
    [
        ["profile", "list"],
        ["profile", "use", "prod"],
        ["profile", "remove", "prod"],
        ["profile", "add", "new", "--base-url", "https://x.example.com", "--key-stdin"],
    ],
)
def test_damaged_file_is_reported_and_left_untouched(
    argv, config_dir, memory_keyring, stdin, capsys
) -> None:
    config_dir.mkdir(parents=True)
    path = config_dir / "config.toml"
    path.write_text('active = "prod"\n[profiles.prod]\nbase_url = https://x.example.com\n')
    before, mtime = path.read_bytes(), path.stat().st_mtime_ns
    memory_keyring.entries[(SERVICE_NAME, "prod")] = "kept-key-0123456789"
    stream = stdin("new-key-0123456789\n")
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"tenant-console: Damaged profiles file {path}, line 3: not valid TOML")
    assert err.rstrip().endswith("it was left unchanged.")
    assert path.read_bytes() == before and path.stat().st_mtime_ns == mtime
    assert memory_keyring.entries == {(SERVICE_NAME, "prod"): "kept-key-0123456789"}
    assert stream.tell() == 0


def test_a_failed_save_takes_the_new_key_back(
    service, stdin, capsys, memory_keyring, monkeypatch
) -> None:
    first, second = service.new_tenant("Disk A"), service.new_tenant("Disk B")
    assert add("prod", service.base_url, stdin, first.key) == 0

    def disk_full(path, text):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("console.profiles.config._write_atomically", disk_full)
    assert add("prod", service.base_url, stdin, second.key) == 1
    assert add("new", service.base_url, stdin, second.key) == 1
    err = capsys.readouterr().err
    assert "Cannot save the profiles file" in err and "No space left on device" in err
    assert memory_keyring.entries == {(SERVICE_NAME, "prod"): first.key}


def test_add_with_a_label_and_colour_lists_them_and_keeps_them(
    service, stdin, capsys, config_dir: Path
) -> None:
    tenant = service.new_tenant("Labelled Corp")
    stdin(tenant.key + "\n")
    argv = ["profile", "add", "prod", "--base-url", service.base_url, "--key-stdin"]
    assert main([*argv, "--label", "PROD", "--color", "Red"]) == 0
    saved = ProfilesFile.load().profiles["prod"]
    assert (saved.label, saved.color, saved.tenant_name) == ("PROD", "red", "Labelled Corp")
    assert 'label = "PROD"' in (config_dir / "config.toml").read_text()
    capsys.readouterr()
    assert main(["profile", "list"]) == 0
    header, row = capsys.readouterr().out.splitlines()[:2]
    assert header.split() == ["ACTIVE", "NAME", "LABEL", "BASE", "URL", "KEY", "HEADER", "KEY"]
    assert "PROD (red)" in row

    assert add("prod", service.base_url, stdin, tenant.key) == 0  # re-adding keeps the label
    assert ProfilesFile.load().profiles["prod"].label == "PROD"


def test_a_bad_colour_or_label_is_refused_before_the_key(stdin, capsys) -> None:
    argv = ["profile", "add", "prod", "--base-url", "https://x.example.com", "--key-stdin"]
    stdin("never-read-key\n")
    assert main([*argv, "--color", "puce"]) == 2
    assert "Invalid colour 'puce'" in capsys.readouterr().err
    assert main([*argv, "--label", "X" * 17]) == 2
    assert ProfilesFile.load().profiles == {}
