"""The vendor's Python SDK (`basistheoryclient`) against the local service, as an independent
client (issue 35): its pagers walk every list both by page and from a cursor, a proxy's
pipelines and merge-patch, `create_key=False`, the `type` filter and `total_tokens`.

The SDK lives in its own virtual environment (its pydantic and httpx are not this project's):
the script below runs there, in a child process, and prints what it saw as JSON. Without
that environment (`BT_SDK_PYTHON`, default /tmp/sdkvenv/bin/python) the test is skipped.
The Node SDK (`@basis-theory/node-sdk`, `BT_NODE_SDK`) walks the proxies the same way.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

SDK_PYTHON = Path(os.environ.get("BT_SDK_PYTHON", "/tmp/sdkvenv/bin/python"))
NODE_SDK = Path(os.environ.get("BT_NODE_SDK", "/tmp/nodesdk/node_modules/@basis-theory/node-sdk"))

SCRIPT = r"""
import json, sys
from basis_theory import BasisTheory

base_url, key = sys.argv[1], sys.argv[2]
bt = BasisTheory(api_key=key, base_url=base_url)
seen = {}
for i in range(5):
    bt.proxies.create(name=f"P{i}", destination_url="https://example.com/x")
    bt.applications.create(name=f"A{i}", type="private", permissions=["token:read"])
keyless = bt.applications.create(
    name="Keyless", type="public", permissions=["token:create"], create_key=False
)
seen["keyless"] = {"key": keyless.key, "keys": keyless.keys}
seen["proxies_by_page"] = [p.name for p in bt.proxies.list(size=2)]
first = bt.proxies.list(size=2, start="").response.pagination
seen["first_after"] = first.after
seen["proxies_from_cursor"] = [p.name for p in bt.proxies.list(size=2, start=first.after)]
seen["applications_by_page"] = [a.name for a in bt.applications.list(size=3)]
seen["public"] = [a.name for a in bt.applications.list(type="public")]
seen["private_or_public"] = sorted(a.name for a in bt.applications.list(type=["private", "public"]))
masked = bt.proxies.create(
    name="Masked",
    destination_url="https://example.com/cards",
    request_transforms=[{"code": "module.exports = async (r) => r.args;"}],
    response_transforms=[
        {"type": "mask", "matcher": "regex", "expression": "(\\d{12})", "replacement": "*"},
        {"type": "append_header", "options": {"value": "1", "location": "X-Masked"}},
    ],
    configuration={"A": "1", "B": "2"},
)
bt.proxies.patch(masked.id, configuration={"B": None}, disable_detokenization=True)
after = bt.proxies.get(masked.id)
seen["patched"] = {
    "configuration": after.configuration,
    "disable_detokenization": after.disable_detokenization,
    "state": after.state,
    "response_types": [t.type for t in after.response_transforms],
    "request_transform": after.request_transform.code,
}
seen["total_tokens"] = bt.tenants.self_.get_usage_reports().total_tokens
print(json.dumps(seen))
"""


NODE_SCRIPT = r"""
const { BasisTheoryClient } = require(process.env.BT_NODE_SDK);
(async () => {
  const [baseUrl, apiKey] = process.argv.slice(2);
  const bt = new BasisTheoryClient({ apiKey, baseUrl });
  const seen = {};
  for (let i = 0; i < 5; i++) {
    await bt.proxies.create({ name: `P${i}`, destinationUrl: "https://example.com/x" });
  }
  const byPage = [];
  for await (const p of await bt.proxies.list({ size: 2 })) byPage.push(p.name);
  seen.byPage = byPage;
  const first = await bt.proxies.list({ size: 2, start: "" });
  seen.after = first.response.pagination.after;
  const fromCursor = [];
  const pager = await bt.proxies.list({ size: 2, start: seen.after });
  for await (const p of pager) fromCursor.push(p.name);
  seen.fromCursor = fromCursor;
  const made = await bt.proxies.create({
    name: "Masked", destinationUrl: "https://example.com/cards",
    responseTransforms: [
      { type: "mask", matcher: "regex", expression: "(\\d{12})", replacement: "*" },
    ],
    configuration: { A: "1", B: "2" },
  });
  await bt.proxies.patch(made.id, { configuration: { B: null }, timeout: 5 });
  const read = await bt.proxies.get(made.id);
  seen.patched = { configuration: read.configuration, state: read.state,
                   types: read.responseTransforms.map((t) => t.type) };
  console.log(JSON.stringify(seen));
})().catch((e) => { console.error(e); process.exit(1); });
"""


@pytest.fixture
def sdk_service(start_service) -> Any:  # type: ignore[no-untyped-def]
    return start_service(key_header="BT-API-KEY")


def test_the_python_sdk_walks_lists_and_changes_proxies(sdk_service) -> None:  # type: ignore[no-untyped-def]
    if not SDK_PYTHON.exists():
        pytest.skip(f"the vendor's Python SDK is not installed ({SDK_PYTHON})")
    done = subprocess.run(
        [str(SDK_PYTHON), "-c", SCRIPT, sdk_service.base_url, sdk_service.key],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout)
    assert seen["keyless"] == {"key": None, "keys": []}
    assert seen["proxies_by_page"] == [f"P{i}" for i in range(5)]
    assert seen["first_after"], "a cursor page names the next"
    assert seen["proxies_from_cursor"] == ["P2", "P3", "P4"]
    assert seen["applications_by_page"][1:] == [*(f"A{i}" for i in range(5)), "Keyless"]
    assert seen["public"] == ["Keyless"]
    assert seen["private_or_public"] == [*(f"A{i}" for i in range(5)), "Keyless"]
    assert seen["patched"] == {
        "configuration": {"A": "1"},
        "disable_detokenization": True,
        "state": "active",
        "response_types": ["mask", "append_header"],
        "request_transform": "module.exports = async (r) => r.args;",
    }
    assert seen["total_tokens"] == 0


def test_the_node_sdk_walks_proxies_and_patches_one(sdk_service, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    node = shutil.which("node")
    if node is None or not NODE_SDK.exists():
        pytest.skip(f"Node.js or the vendor's Node SDK is not installed ({NODE_SDK})")
    script = tmp_path / "walk.js"
    script.write_text(NODE_SCRIPT, encoding="utf-8")
    done = subprocess.run(
        [node, str(script), sdk_service.base_url, sdk_service.key],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "BT_NODE_SDK": str(NODE_SDK)},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout)
    assert seen["byPage"] == [f"P{i}" for i in range(5)]
    assert seen["after"], "a cursor page names the next"
    assert seen["fromCursor"] == ["P2", "P3", "P4"]
    assert seen["patched"] == {"configuration": {"A": "1"}, "state": "active", "types": ["mask"]}
