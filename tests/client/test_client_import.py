"""Importing the client is cheap and never drags in the TUI or the service."""

from __future__ import annotations

import subprocess
import sys

import console.client


def modules_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print('\\n'.join(sys.modules))"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return set(result.stdout.split())


def test_importing_the_package_loads_only_the_errors() -> None:
    loaded = modules_after("import console.client")
    assert not {"httpx", "pydantic", "textual", "console.service"} & loaded


def test_the_client_never_imports_textual_or_the_service() -> None:
    loaded = modules_after("from console.client import AdminClient, Page, RetryPolicy")
    assert "httpx" in loaded
    assert not {m for m in loaded if m == "textual" or m.startswith("console.service")}
    assert not {m for m in loaded if m.startswith(("console.tui", "fastapi", "uvicorn"))}


def test_every_exported_name_resolves() -> None:
    for name in console.client.__all__:
        assert getattr(console.client, name) is not None
