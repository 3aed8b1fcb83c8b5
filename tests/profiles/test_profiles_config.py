"""The profiles file: round trip, validation, atomic private writes, damaged files."""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path

import pytest

from console.profiles.config import (
    ConfigError,
    Profile,
    ProfileError,
    ProfilesFile,
    config_path,
)
from console.profiles.config import config_dir as default_config_dir


def test_missing_file_is_empty_and_not_created(config_dir: Path) -> None:
    profiles = ProfilesFile.load()
    assert profiles.profiles == {}
    assert profiles.active is None
    assert profiles.path == config_dir / "config.toml"
    assert not config_dir.exists()


def test_config_dir_honours_the_environment(config_dir: Path, monkeypatch) -> None:
    assert default_config_dir() == config_dir
    assert config_path() == config_dir / "config.toml"
    monkeypatch.delenv("TENANT_CONSOLE_CONFIG_DIR")
    from platformdirs import user_config_dir

    assert default_config_dir() == Path(user_config_dir("tenant-console", appauthor=False))


def test_add_use_remove_round_trip(config_dir: Path) -> None:
    profiles = ProfilesFile.load()
    profiles.add(Profile("prod", "https://api.example.com/"))
    profiles.add(Profile("staging.eu", "http://127.0.0.1:8400"))
    assert profiles.active == "prod", "the first profile added becomes the active one"
    profiles.save()

    again = ProfilesFile.load()
    assert again.profiles == {
        "prod": Profile("prod", "https://api.example.com"),
        "staging.eu": Profile("staging.eu", "http://127.0.0.1:8400"),
    }
    assert again.active == "prod"

    again.use("staging.eu")
    again.save()
    assert ProfilesFile.load().active == "staging.eu"

    again.remove("staging.eu")
    again.save()
    last = ProfilesFile.load()
    assert list(last.profiles) == ["prod"]
    assert last.active is None, "removing the active profile leaves none active"


def test_replacing_a_profile_keeps_one_entry(config_dir: Path) -> None:
    profiles = ProfilesFile.load()
    assert profiles.add(Profile("prod", "https://a.example.com")) is False
    assert profiles.add(Profile("prod", "https://b.example.com")) is True
    profiles.save()
    assert ProfilesFile.load().profiles["prod"].base_url == "https://b.example.com"


def test_unknown_profile_in_use_and_remove(config_dir: Path) -> None:
    profiles = ProfilesFile.load()
    profiles.add(Profile("prod", "https://api.example.com"))
    with pytest.raises(ProfileError, match=r'Unknown profile "nope".*Known profiles: prod'):
        profiles.use("nope")
    with pytest.raises(ProfileError, match="Unknown profile"):
        profiles.remove("nope")


def test_file_and_dir_are_private_and_written_atomically(config_dir: Path) -> None:
    profiles = ProfilesFile.load()
    profiles.add(Profile("prod", "https://api.example.com"))
    profiles.save()
    profiles.add(Profile("dev", "http://localhost:8400"))
    profiles.save()
    path = config_dir / "config.toml"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(config_dir.stat().st_mode) == 0o700
    assert sorted(os.listdir(config_dir)) == ["config.toml"], "no temp file is left behind"


def test_file_is_plain_toml_without_keys(config_dir: Path) -> None:
    profiles = ProfilesFile.load()
    profiles.add(Profile("prod", "https://api.example.com/base"))
    profiles.add(Profile("odd.name", 'https://h.example.com/a"b\\c'))
    profiles.save()
    data = tomllib.loads((config_dir / "config.toml").read_text())
    assert data == {
        "active": "prod",
        "profiles": {
            "prod": {"base_url": "https://api.example.com/base"},
            "odd.name": {"base_url": 'https://h.example.com/a"b\\c'},
        },
    }


@pytest.mark.parametrize("name", ["", "-x", "has space", "a/b", "ü", "x" * 65, ".hidden"])
def test_bad_names_are_refused(name: str) -> None:
    with pytest.raises(ProfileError, match="Invalid profile name"):
        Profile(name, "https://api.example.com")


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("", "empty"),
        ("api.example.com", "http:// or https://"),
        ("ftp://api.example.com", "http:// or https://"),
        ("https://", "no host"),
        ("https://user:secret@api.example.com", "user name or password"),
        ("https://api.example.com/?key=abc", "query or fragment"),
        ("https://api.example.com/#x", "query or fragment"),
        ("https://api.example.com:99999", "Port"),
        ("https://api.exa mple.com", "spaces"),
    ],
)
def test_bad_base_urls_are_refused(url: str, reason: str) -> None:
    with pytest.raises(ProfileError, match="Invalid base URL") as caught:
        Profile("prod", url)
    assert reason.lower() in str(caught.value).lower()


def test_base_url_is_normalised() -> None:
    assert Profile("p", " HTTPS://Api.example.com:8443/admin/ ").base_url == (
        "https://Api.example.com:8443/admin"
    )


def _damaged(config_dir: Path, text: str) -> tuple[Path, bytes]:
    config_dir.mkdir(parents=True)
    path = config_dir / "config.toml"
    path.write_text(text)
    return path, path.read_bytes()


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('active = "prod"\n\n[profiles.prod\nbase_url = "https://a.example.com"\n', 3, "TOML"),
        ('[profiles.prod]\nbase_url = "https://a.example.com\n', 2, "TOML"),
        ('[profiles.prod]\nbase_url = "ftp://a.example.com"\n', 2, "http"),
        ('[profiles.prod]\nbase_url = "https://a.example.com"\nkey = "s3cret"\n', 3, "never"),
        ('[profiles.prod]\nbase-url = "https://a.example.com"\n', 2, "unknown setting"),
        ('[profiles.ok]\nbase_url = "https://a.example.com"\n[profiles.bad]\n', 3, "no base_url"),
        ('active = "gone"\n[profiles.prod]\nbase_url = "https://a.example.com"\n', 1, "active"),
        ('colour = "blue"\n', 1, "unknown setting"),
        ('[profiles."has space"]\nbase_url = "https://a.example.com"\n', 1, "Invalid profile"),
    ],
)
def test_damaged_file_names_file_and_line(
    config_dir: Path, text: str, line: int, words: str
) -> None:
    path, before = _damaged(config_dir, text)
    with pytest.raises(ConfigError) as caught:
        ProfilesFile.load()
    error = caught.value
    assert error.path == path
    assert error.line == line
    message = str(error)
    assert message.startswith(f"Damaged profiles file {path}, line {line}: ")
    assert words.lower() in message.lower()
    assert "left unchanged" in message
    assert "s3cret" not in message
    assert path.read_bytes() == before


def test_not_utf8_file_is_reported(config_dir: Path) -> None:
    config_dir.mkdir(parents=True)
    path = config_dir / "config.toml"
    path.write_bytes(b'[profiles.prod]\nbase_url = "https://\xff"\n')
    with pytest.raises(ConfigError, match=r"line 2: not UTF-8"):
        ProfilesFile.load()


def test_config_error_is_a_profile_error() -> None:
    assert issubclass(ConfigError, ProfileError)
    assert str(ConfigError(Path("/x/config.toml"), None, "oops")).startswith(
        "Damaged profiles file /x/config.toml: oops."
    )


def test_save_failure_is_one_clear_line(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    profiles = ProfilesFile(path=blocker / "config.toml")
    profiles.add(Profile("prod", "https://api.example.com"))
    with pytest.raises(ProfileError, match="Cannot save the profiles file"):
        profiles.save()


def test_label_colour_and_tenant_name_round_trip_and_bad_ones_name_their_line(
    tmp_path: Path,
) -> None:
    path = tmp_path / "config.toml"
    profiles = ProfilesFile(path=path)
    profiles.add(Profile("prod", "https://x.example.com", "PROD", "red", 'Acme "EU"'))
    profiles.save()
    assert ProfilesFile.load(path).profiles["prod"] == profiles.profiles["prod"]
    text = path.read_text().replace('color = "red"', 'color = "puce"')
    path.write_text(text)
    with pytest.raises(ConfigError) as failure:
        ProfilesFile.load(path)
    assert failure.value.line == text.splitlines().index('color = "puce"') + 1
