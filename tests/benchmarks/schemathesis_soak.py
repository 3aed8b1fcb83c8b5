"""A long schemathesis run against a local service: `python -m tests.benchmarks.schemathesis_soak`.

The suite's tests/service/test_schemathesis.py runs 5 examples per operation so CI stays
quick. This runs the same two engine runs (stateless coverage and fuzzing as one tenant;
stateful with two tenants as peers), with the same checks and guards, with many more
examples and a seed of its own, against a service of its own. Not in CI: it takes minutes.

It prints every finding and exits 1 if any is not in DOCUMENTED (findings the README's
"Local service: behaviour" explains), 0 otherwise. Reproduce a run with `--seed`.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make `tests.benchmarks` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import argparse
import json
import random
import tempfile
import time
from collections.abc import Callable

TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS), str(TESTS / "service")]  # the suite's helpers, as pytest sees them

from local_service import RunningService  # noqa: E402
from test_schemathesis import Finding, Outcome, guarded, load, run  # noqa: E402

DOCUMENTED: dict[tuple[str, str], str] = {}
"""(operation, check) -> why it is expected. Empty: every finding is a failure."""


def _say(message: str) -> None:
    print(f"[soak {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def stateless(service: RunningService, tenant, examples: int, seed: int) -> Outcome:
    schema = load(
        service,
        {
            "seed": seed,
            "generation": {"max-examples": examples, "database": "none"},
            "phases": {"examples": {"enabled": False}, "stateful": {"enabled": False}},
            "auth": {"openapi": {"ApiKey": {"api_key": tenant.key}}},
        },
    )
    with guarded(service, [tenant]):
        return run(schema)


def stateful(
    service: RunningService, peers, scenarios: int, steps: int, seed: int, root: Path
) -> Outcome:
    a, b = peers
    document = {
        "schemaVersion": "0.1.0",
        "auth": [
            {"name": "tenant-a", "fixedHeaders": [{"name": "SVC-API-KEY", "value": a.key}]},
            {"name": "tenant-b", "fixedHeaders": [{"name": "SVC-API-KEY", "value": b.key}]},
        ],
    }
    wfc = root / "auth.json"
    wfc.write_text(json.dumps(document))
    schema = load(
        service,
        {
            "seed": seed,
            "generation": {"max-examples": scenarios, "database": "none"},
            "phases": {
                "examples": {"enabled": False},
                "coverage": {"enabled": False},
                "fuzzing": {"enabled": False},
                "stateful": {
                    "max-steps": steps,
                    "generation": {"max-examples": scenarios, "database": "none"},
                },
            },
            "auth": {"wfc": {"path": str(wfc), "peers": ["tenant-a", "tenant-b"]}},
        },
    )
    with guarded(service, [a, b]):
        return run(schema)


def _requests(outcome: Outcome) -> int:
    return sum(sum(counter.values()) for counter in outcome.statuses.values())


def _server_errors(outcome: Outcome) -> dict[str, int]:
    errors: dict[str, int] = {}
    for label, counter in outcome.statuses.items():
        count = sum(n for status, n in counter.items() if status >= 500)
        if count:
            errors[label] = count
    return errors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=100, help="per operation (suite: 5)")
    parser.add_argument("--scenarios", type=int, default=100, help="stateful (suite: 20)")
    parser.add_argument("--steps", type=int, default=20, help="per scenario (suite: 10)")
    parser.add_argument("--seed", type=int, default=None, help="default: a random one")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(2**31)

    runs: list[tuple[str, Callable[[], Outcome]]] = []
    with tempfile.TemporaryDirectory(prefix="tenant-console-soak-") as tmp:
        root = Path(tmp)
        service = RunningService(root / "service")
        service.start()
        try:
            peers = (service.new_tenant("Soak A"), service.new_tenant("Soak B"))
            runs = [
                ("stateless", lambda: stateless(service, peers[0], args.examples, seed)),
                (
                    "stateful",
                    lambda: stateful(service, peers, args.scenarios, args.steps, seed, root),
                ),
            ]
            outcomes: dict[str, Outcome] = {}
            for name, start in runs:
                _say(f"{name} run, seed {seed}...")
                started = time.monotonic()
                outcomes[name] = start()
                _say(
                    f"{name}: {_requests(outcomes[name])} requests in "
                    f"{time.monotonic() - started:.0f} s"
                )
        finally:
            service.stop()
        stderr = service.logs()[1]

    unexpected: list[Finding] = []
    print(
        f"schemathesis soak, seed {seed}: {args.examples} examples per operation, "
        f"{args.scenarios} stateful scenarios of up to {args.steps} steps"
    )
    for name, outcome in outcomes.items():
        print(f"\n{name}: {_requests(outcome)} requests; statuses per operation:")
        for label, counter in sorted(outcome.statuses.items()):
            print(f"  {label}: {dict(sorted(counter.items()))}")
        errors = _server_errors(outcome)
        print(f"  5xx responses: {errors or 'none'}")
        for finding in outcome.findings:
            why = DOCUMENTED.get((finding.operation, finding.check))
            print(f"  {'documented' if why else 'FAILURE'}: {finding}")
            if why:
                print(f"    ({why})")
            else:
                unexpected.append(finding)
        for error in outcome.errors:
            print(f"  ENGINE ERROR: {error}")
    tracebacks = stderr.count("Traceback")
    print(f"\nservice log: {tracebacks} traceback(s)")
    failed = bool(unexpected) or any(o.errors for o in outcomes.values()) or tracebacks > 0
    print("result:", "FAILED" if failed else "no failures but documented ones")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
