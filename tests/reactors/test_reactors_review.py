"""The access review includes reactors: what each one's runtime lets its code do (flagged
acts-with-permissions) and the application it uses, in `review --format json|csv`; a
service without reactors reviews as before."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from typing import Any

from hosted_service import FORMULAS_RETIRED, KEY, REACTOR_ID, RUNNER_ID, HostedService

from console.cli import main
from console.client import AdminClient, RetryPolicy
from console.client.review import reactor_grants

FAST_RETRY = RetryPolicy(max_attempts=1)
CODE = "module.exports = async function (req) {\n  return { raw: req.args };\n};\n"


async def make(client: Any) -> tuple[Any, Any]:
    application = await client.applications.create(
        {"name": "Runner", "type": "private", "permissions": ["token:read"]}
    )
    acting = await client.reactors.create(
        {
            "name": "Acting",
            "code": CODE,
            "application": {"id": str(application.id)},
            "configuration": {"API_KEY": "review-secret-0a9b"},
            "runtime": {"image": "node-bt", "permissions": ["token:read"]},
        }
    )
    await client.reactors.create({"name": "Plain", "code": CODE})
    return application, acting


async def review(capsys: Any, *argv: str) -> str:
    assert await asyncio.to_thread(main, ["review", *argv]) == 0
    return capsys.readouterr().out


async def test_review_json_and_csv_include_reactors(client, cli_env, capsys) -> None:
    application, acting = await make(client)
    document = json.loads(await review(capsys, "--format", "json"))
    reactors = {r["name"]: r for r in document["reactors"]}
    assert reactors["Acting"] == {
        "id": str(acting.id),
        "name": "Acting",
        "state": reactors["Acting"]["state"],
        "flags": ["acts-with-permissions"],
        "permissions": ["token:read"],
        "application": {"id": str(application.id), "name": "Runner"},
    }
    assert reactors["Plain"]["flags"] == [] and reactors["Plain"]["application"] is None
    assert "acts-with-permissions" in [f["flag"] for f in document["flags"]]
    out = await review(capsys, "--format", "csv")
    assert "review-secret-0a9b" not in out
    rows = {r["name"]: r for r in csv.DictReader(io.StringIO(out))}
    assert rows["Acting"]["type"] == "reactor"
    assert rows["Acting"]["permissions"] == "token:read"
    assert rows["Acting"]["rules"] == f"application Runner ({application.id})"
    assert rows["Runner"]["type"] == "private"


async def test_a_hosted_shaped_reactor_and_a_service_without_reactors() -> None:
    with HostedService.running(retired=FORMULAS_RETIRED) as hosted:
        async with AdminClient(hosted.base_url, KEY, retry=FAST_RETRY) as client:
            (grant,) = await reactor_grants(client)
    assert (grant.id, grant.application_id, grant.permissions) == (
        REACTOR_ID,
        RUNNER_ID,
        ("token:read",),
    )
    retired = {("GET", "/reactors")}
    with HostedService.running(retired=retired) as hosted:
        async with AdminClient(hosted.base_url, KEY, retry=FAST_RETRY) as client:
            assert await reactor_grants(client) == []
