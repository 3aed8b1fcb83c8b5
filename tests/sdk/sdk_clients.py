"""The vendor's SDKs as clients of the local service: the Python SDK in this process, the
Node SDK through tests/sdk/node/calls.mjs (one Node start per batch of calls).

Import it as `from sdk_clients import ...`. The SDKs are the hosted service's published
clients: what they cannot parse, a program written against the hosted service could not
either. Both are pinned (the `test` extra in pyproject.toml, tests/sdk/node/package.json).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest

NODE_DIR = Path(__file__).parent / "node"
NODE_SDK = NODE_DIR / "node_modules" / "@basis-theory" / "node-sdk"
NODE_INSTALL = "npm ci --prefix tests/sdk/node --no-audit --no-fund"
NODE_TIMEOUT = 60.0
"""Seconds one batch may take (the slowest call in it polls for at most 15 s)."""

SDK_HEADER = "BT-API-KEY"
"""The header both SDKs send keys in (`serve --key-header`)."""

WAIT_SECONDS = 15.0
"""How long a test waits for a condition (a reactor active, an async result done)."""

ECHO_CODE = """module.exports = async function (req) {
  return {
    raw: { args: req.args, configuration: req.configuration },
    body: { echoed: req.args },
    headers: { "x-echo": "yes" },
  };
};
"""
"""A reactor answering with what it was given (its `raw`, `body` and `headers`)."""

SLOW_CODE = """module.exports = async function (req) {
  const until = Date.now() + 500;
  while (Date.now() < until) {}
  return { raw: { slept: true, args: req.args } };
};
"""
"""A reactor that runs for half a second: an async request for it is pending at first (the
runner's timers are virtual, so it keeps the clock busy instead)."""

THROWING_CODE = """module.exports = async function (req) {
  throw new Error("card declined");
};
"""

STATUS_CODE = """module.exports = async function (req) {
  const error = new Error("Invalid card");
  error.status = 402;
  error.errors = { card: ["Invalid card"] };
  throw error;
};
"""
"""A reactor throwing an error with a status, as the vendor's reactor error types do."""

NO_FUNCTION_CODE = "module.exports = 42;\n"
"""Code that exports no function: the service answers 422 when it is invoked."""

T = TypeVar("T")


@dataclass(frozen=True)
class SdkTenant:
    """A tenant of the SDK service: its bootstrap management key (every management
    permission) and a private application's key holding only `reactor:invoke`."""

    base_url: str
    tenant_id: str
    management_key: str
    invoke_key: str
    invoke_application_id: str

    def __repr__(self) -> str:  # never a key in a test report
        return f"SdkTenant(base_url={self.base_url!r}, tenant_id={self.tenant_id!r})"


def python_client(base_url: str, key: str) -> Any:
    """The Python SDK's client for the service at `base_url`. No retries: the SDK would send
    a POST again after a 5xx or a 409 (never retry a POST), and a test sees each answer."""
    from basis_theory import BasisTheory

    return BasisTheory(api_key=key, base_url=base_url, max_retries=0, timeout=30.0)


def wait_for(read: Callable[[], T], done: Callable[[T], bool], what: str) -> T:
    """Reads until `done(value)`, for at most WAIT_SECONDS (a condition with a deadline)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        value = read()
        if done(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: still {value!r} after {WAIT_SECONDS} s")
        time.sleep(0.02)  # polling with a deadline, not synchronising


def node_calls(
    base_url: str, keys: str | dict[str, str], calls: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Runs `calls` through the Node SDK (the protocol is in tests/sdk/node/calls.mjs) and
    returns one result a call. `keys`: the key, or keys by name (a call names its own with
    "key"; "default" otherwise): one Node start (~1 s with the SDK loaded) for a whole test.
    Skips when Node.js is absent; fails, with the command to run, when the SDK is not
    installed (CI always installs it: .ci/run)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed here: the Node SDK's tests need `node`")
    if not NODE_SDK.is_dir():
        pytest.fail(f"The Node SDK is not installed: run `{NODE_INSTALL}` from the repository root")
    named = {"default": keys} if isinstance(keys, str) else keys
    finished = subprocess.run(
        [node, str(NODE_DIR / "calls.mjs"), base_url],
        input=json.dumps(calls),
        capture_output=True,
        text=True,
        timeout=NODE_TIMEOUT,
        # The keys never on the command line (ps shows it).
        env={**os.environ, "BT_API_KEYS": json.dumps(named)},
        check=False,
    )
    if finished.returncode != 0:
        raise AssertionError(f"calls.mjs failed ({finished.returncode}): {finished.stderr}")
    results: list[dict[str, Any]] = json.loads(finished.stdout)
    assert len(results) == len(calls)
    return results


def value_of(result: dict[str, Any]) -> Any:
    """A Node call's value, or a failure naming the call's error (status and body)."""
    assert result["ok"], f"the SDK raised {result['error']} {result['status']}: {result['body']}"
    return result["value"]


__all__ = [
    "ECHO_CODE",
    "NODE_INSTALL",
    "NO_FUNCTION_CODE",
    "SDK_HEADER",
    "SLOW_CODE",
    "STATUS_CODE",
    "THROWING_CODE",
    "SdkTenant",
    "node_calls",
    "python_client",
    "value_of",
    "wait_for",
]
