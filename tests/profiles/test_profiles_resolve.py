"""Which URL and key the console uses: profile file, environment, keyring."""

from __future__ import annotations

from pathlib import Path

import pytest
from keyring.backends import fail

from console.profiles.config import ConfigError, Profile, ProfileError, ProfilesFile
from console.profiles.keys import set_key
from console.profiles.resolve import ResolvedConnection, check_profile, resolve_connection

PROD_KEY = "prod-key-0123456789abcdef0123456789"
DEV_KEY = "dev-key-0123456789abcdef0123456789"


@pytest.fixture
def two_profiles(config_dir: Path) -> ProfilesFile:
    profiles = ProfilesFile.load()
    profiles.add(Profile("prod", "https://prod.example.com"))
    profiles.add(Profile("dev", "http://127.0.0.1:8400"))
    profiles.save()
    set_key("prod", PROD_KEY)
    set_key("dev", DEV_KEY)
    return profiles


def test_active_profile_and_keyring_by_default(two_profiles) -> None:
    connection = resolve_connection(env={})
    assert connection == ResolvedConnection("prod", "https://prod.example.com", PROD_KEY, "keyring")


def test_explicit_name_beats_the_environment_profile(two_profiles) -> None:
    env = {"TENANT_CONSOLE_PROFILE": "prod"}
    assert resolve_connection("dev", env=env).base_url == "http://127.0.0.1:8400"
    assert resolve_connection(env={"TENANT_CONSOLE_PROFILE": "dev"}).key == DEV_KEY


def test_environment_overrides_url_and_key(two_profiles) -> None:
    connection = resolve_connection(
        env={"TENANT_CONSOLE_BASE_URL": "https://other.example.com/", "TENANT_CONSOLE_PROFILE": ""}
    )
    assert connection == ResolvedConnection(
        "prod", "https://other.example.com", PROD_KEY, "keyring"
    )

    connection = resolve_connection("dev", env={"TENANT_CONSOLE_API_KEY": "from-env"})
    assert connection == ResolvedConnection("dev", "http://127.0.0.1:8400", "from-env", "env")


def test_both_variables_need_no_file_and_no_keyring(config_dir: Path, use_keyring) -> None:
    config_dir.mkdir(parents=True)
    damaged = config_dir / "config.toml"
    damaged.write_text("this is [not toml\n")
    use_keyring(fail.Keyring())
    env = {
        "TENANT_CONSOLE_BASE_URL": "http://127.0.0.1:9999",
        "TENANT_CONSOLE_API_KEY": "env-key",
        "TENANT_CONSOLE_PROFILE": "whatever",
    }
    assert resolve_connection(env=env) == ResolvedConnection(
        None, "http://127.0.0.1:9999", "env-key", "env"
    )
    with pytest.raises(ConfigError):
        resolve_connection(env={"TENANT_CONSOLE_API_KEY": "env-key"})


def test_key_from_env_does_not_touch_the_keyring(two_profiles, use_keyring) -> None:
    use_keyring(fail.Keyring())
    connection = resolve_connection(env={"TENANT_CONSOLE_API_KEY": "env-key"})
    assert (connection.key, connection.key_source, connection.key_problem) == (
        "env-key",
        "env",
        None,
    )


def test_unusable_keyring_is_reported_not_raised(two_profiles, use_keyring) -> None:
    use_keyring(fail.Keyring())
    connection = resolve_connection(env={})
    assert connection.profile == "prod"
    assert connection.key is None
    assert connection.key_source == "none"
    assert "No usable OS keyring" in connection.key_problem
    assert "TENANT_CONSOLE_API_KEY" in connection.key_problem


def test_missing_key_says_how_to_store_one(config_dir: Path) -> None:
    profiles = ProfilesFile.load()
    profiles.add(Profile("prod", "https://prod.example.com"))
    profiles.save()
    connection = resolve_connection(env={})
    assert connection.key is None and connection.key_source == "none"
    assert "tenant-console profile add prod --base-url https://prod.example.com" in (
        connection.key_problem
    )


def test_no_profile_at_all_says_how_to_add_one(config_dir: Path) -> None:
    with pytest.raises(ProfileError, match=r"No profile yet\. Add one with: tenant-console"):
        resolve_connection(env={})
    with pytest.raises(ProfileError, match="TENANT_CONSOLE_API_KEY is not"):
        resolve_connection(env={"TENANT_CONSOLE_BASE_URL": "https://x.example.com"})


def test_no_active_profile_lists_the_known_ones(two_profiles) -> None:
    two_profiles.remove("prod")
    two_profiles.save()
    with pytest.raises(ProfileError, match=r"No active profile.*known: dev"):
        resolve_connection(env={})


def test_unknown_profile_is_one_clear_line(two_profiles) -> None:
    with pytest.raises(ProfileError) as caught:
        resolve_connection(env={"TENANT_CONSOLE_PROFILE": "qa"})
    message = str(caught.value)
    assert message.startswith('Unknown profile "qa" (from TENANT_CONSOLE_PROFILE).')
    assert "Known profiles: dev, prod" in message
    assert "\n" not in message


def test_bad_base_url_in_the_environment(two_profiles) -> None:
    with pytest.raises(ProfileError, match="TENANT_CONSOLE_BASE_URL is not usable"):
        resolve_connection(env={"TENANT_CONSOLE_BASE_URL": "ftp://x"})


def test_the_key_never_shows_in_repr(two_profiles) -> None:
    connection = resolve_connection(env={})
    assert PROD_KEY not in repr(connection)
    assert PROD_KEY not in str(connection)


def test_process_environment_is_the_default(two_profiles, monkeypatch) -> None:
    monkeypatch.setenv("TENANT_CONSOLE_PROFILE", "dev")
    monkeypatch.setenv("TENANT_CONSOLE_API_KEY", "env-key")
    connection = resolve_connection()
    assert (connection.profile, connection.key, connection.key_source) == ("dev", "env-key", "env")


def test_check_profile_fails_fast_on_unknown_names(two_profiles, use_keyring) -> None:
    use_keyring(fail.Keyring())  # it never needs the keyring
    check_profile("dev", env={})
    check_profile(None, env={})
    with pytest.raises(ProfileError, match=r'^Unknown profile "qa"\. Known profiles: dev, prod'):
        check_profile("qa", env={})
    with pytest.raises(ProfileError, match=r"from TENANT_CONSOLE_PROFILE"):
        check_profile(env={"TENANT_CONSOLE_PROFILE": "qa"})
    both = {"TENANT_CONSOLE_BASE_URL": "http://127.0.0.1:1", "TENANT_CONSOLE_API_KEY": "k"}
    check_profile("qa", env=both)
