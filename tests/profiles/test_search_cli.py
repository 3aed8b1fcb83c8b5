"""`tenant-console search NAME` in-process against the real local service, on a saved profile
(key in the in-memory keyring): the first search fills the profile's index, the next
answers from it at once and then confirms live (confirmed, new, gone), JSON and --kind,
and the profile's `rate_limit` setting."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import httpx
import pytest
from benchmarks.seeding import seed_applications

from console.cli import main
from console.client.index import index_path
from console.profiles.config import ConfigError, Profile, ProfilesFile
from console.profiles.keys import set_key
from console.profiles.resolve import resolve_connection


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TENANT_CONSOLE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def tenant(service, cache):  # type: ignore[no-untyped-def]
    """A tenant of 250 seeded applications (three pages) and two named Checkout, on the
    saved profile "prod"."""
    info = service.new_tenant("Search CLI")
    seed_applications(service.data_dir, info.tenant_id, info.application_id, 250)
    keys = [info.key]
    with httpx.Client(base_url=service.base_url, headers={"SVC-API-KEY": info.key}) as http:
        for name in ("Checkout alpha", "Checkout beta"):
            body = {"name": name, "type": "private", "permissions": ["token:read"]}
            created = http.post("/applications", json=body)
            assert created.status_code == 201, created.text
            keys.append(created.json()["key"])
    profiles = ProfilesFile.load()
    profiles.add(Profile("prod", service.base_url))
    profiles.save()
    set_key("prod", info.key)
    return info, keys


def test_the_first_search_fills_the_index_and_the_next_answers_from_it(
    service, tenant, capsys, cache
) -> None:  # type: ignore[no-untyped-def]
    _info, keys = tenant
    assert main(["search", "checkout"]) == 0
    out, _err = capsys.readouterr()
    assert "(nothing in the index yet; searching the service…)" in out
    assert "Checkout alpha" in out and "Checkout beta" in out
    assert out.count(" new") == 2

    path = index_path("prod")
    assert path.parent.parent == cache
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    raw = path.read_bytes()
    assert b"Application 00250" in raw, "every page walked went into the index"
    assert not any(key.encode() in raw for key in keys), "no key in the index"
    assert b"token:read" not in raw, "nothing but names and ids"

    assert main(["search", "checkout"]) == 0
    out, _err = capsys.readouterr()
    index_part, live_part = out.split("Confirming with the service…")
    assert index_part.startswith("From the index, less than a minute old:")
    assert "Checkout alpha" in index_part and "Checkout beta" in index_part
    assert live_part.count("confirmed") == 2


def test_rows_gone_from_the_service_are_marked_and_new_ones_added(service, tenant, capsys) -> None:  # type: ignore[no-untyped-def]
    info, _keys = tenant
    assert main(["search", "checkout"]) == 0
    capsys.readouterr()
    with httpx.Client(base_url=service.base_url, headers={"SVC-API-KEY": info.key}) as http:
        listed = http.get("/applications", params={"size": 100, "page": 3}).json()["data"]
        beta = next(item for item in listed if item["name"] == "Checkout beta")
        assert http.delete(f"/applications/{beta['id']}").status_code == 204
        body = {"name": "Checkout gamma", "type": "private", "permissions": ["token:read"]}
        assert http.post("/applications", json=body).status_code == 201

    assert main(["search", "checkout", "--format", "json"]) == 0
    out, _err = capsys.readouterr()
    document = json.loads(out)
    states = {row["name"]: row["state"] for row in document["results"]}
    assert states == {
        "Checkout alpha": "confirmed",
        "Checkout gamma": "new",
        "Checkout beta": "gone",
    }
    assert {row["kind"] for row in document["results"]} == {"applications"}

    assert main(["search", "checkout", "--format", "json"]) == 0
    again = json.loads(capsys.readouterr()[0])
    assert "Checkout beta" not in {row["name"] for row in again["results"]}, "gone stays gone"


def test_kind_narrows_the_search_and_nothing_found_exits_3(service, tenant, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["search", "checkout", "--kind", "proxies", "--format", "json"]) == 3
    document = json.loads(capsys.readouterr()[0])
    assert document["kinds"] == ["proxies"] and document["results"] == []
    assert main(["search", "Application 0024*", "--kind", "applications"]) == 0
    out = capsys.readouterr()[0]
    assert "Application 00240" in out and "Application 00249" in out


def test_a_name_is_required(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["search", "  "]) == 2
    assert "give a name" in capsys.readouterr()[1]


def test_a_profile_sets_its_requests_a_minute(tmp_path: Path) -> None:
    path = tmp_path / "profiles.toml"
    profiles = ProfilesFile(path)
    profiles.add(Profile("slow", "http://127.0.0.1:9", rate_limit=60))
    profiles.add(Profile("default", "http://127.0.0.1:9"))
    profiles.save()
    assert "rate_limit = 60" in path.read_text()
    loaded = ProfilesFile.load(path)
    assert loaded.profiles["slow"].rate_limit == 60
    assert loaded.profiles["default"].rate_limit is None
    env = {"TENANT_CONSOLE_API_KEY": "k" * 32}
    assert resolve_connection("slow", env=env, path=path).budget().per_minute == 60
    assert resolve_connection("default", env=env, path=path).budget().per_minute == 200

    path.write_text('[profiles.bad]\nbase_url = "http://127.0.0.1:9"\nrate_limit = 0\n')
    with pytest.raises(ConfigError) as caught:
        ProfilesFile.load(path)
    assert "line 3: Invalid rate limit 0" in str(caught.value)
