"""client.proxies against the local service with pipelines: created with request and
response pipelines, read back as arrays, merge-patched (a pipeline replaced whole, the
configuration merged key by key, a null removing a key)."""

from __future__ import annotations

from console.client import AdminClient
from console.models import ProxyCreate, ProxyPatch

CODE = "module.exports = async function (req) {\n  return req.args;\n};\n"
MASK = {"type": "mask", "matcher": "regex", "expression": "(\\d{12})\\d{4}", "replacement": "*"}


async def test_pipelines_read_back_and_a_merge_patch(client: AdminClient) -> None:
    created = await client.proxies.create(
        ProxyCreate.parse(
            {
                "name": "Piped",
                "destination_url": "https://example.com/in",
                "request_transforms": [{"code": CODE}, {"code": CODE}],
                "response_transforms": [MASK],
                "configuration": {"A": "1", "B": "2"},
            }
        )
    )
    assert created.request_transforms is not None and len(created.request_transforms) == 2
    assert created.request_transform is None  # two steps: no single transform
    assert created.response_transform is not None and created.response_transform.kind == "mask"
    answer = await client.proxies.patch(
        created.id,
        ProxyPatch.model_validate(
            {"request_transforms": [{"code": CODE}], "configuration": {"A": None, "C": "3"}}
        ),
    )
    assert answer is None  # 204
    now = await client.proxies.get(created.id)
    assert [s.code for s in now.request_transforms or []] == [CODE]
    assert now.configuration == {"B": "2", "C": "3"}
    assert [s.kind for s in now.response_transforms or []] == ["mask"]
