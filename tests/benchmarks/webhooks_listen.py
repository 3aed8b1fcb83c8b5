"""`webhooks listen` prints an event within 100 ms of its delivery (issue 37).

The real command in its own process (`--no-register --signing-key`, `--format json`), and
deliveries signed with a key pair of the benchmark's own POSTed to it over one kept-alive
connection, as the service's deliverer sends them. Measured: from the POST's start to its
line read from listen's standard output (arrival, verification, the answer and the print
all in it); the baseline is the POST's round trip alone (to its 200). The signing is done
before the clock starts: it is the sender's work, not listen's.

`python -m tests.benchmarks.webhooks_listen [RUNS]` prints the figures as JSON;
`listen_rows(runs)` gives the table's rows (tests/benchmarks/run.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.benchmarks.results import REPO_ROOT, Row, median

LIMIT_S = 0.100
WARM_UP = 5
READY_TIMEOUT = 60.0


def _delivery(number: int) -> dict[str, Any]:
    return {
        "event": {
            "id": f"0b8f1d2e-0000-4000-8000-{number:012d}",
            "type": "reactor.created",
            "timestamp": "2026-11-29T01:00:00.000+00:00",
            "tenant_id": "f88da999-b124-4a14-acde-cbc121444f14",
            "data": {
                "reactor": {"id": "3e4d5c6b-0000-4000-8000-000000000030", "name": "Enricher"},
                "actor": {"id": "0a7e3c1e-0000-4000-8000-000000000001", "type": "application"},
            },
        },
        "delivered_at": "2026-11-29T01:00:00.250+00:00",
    }


def measure(runs: int) -> dict[str, list[float]]:
    """Seconds from each POST's start to its printed line, and to its answer."""
    import httpx

    from console.webhooks import signing

    key = signing.new_private_key()
    with tempfile.TemporaryDirectory() as root:
        key_file = Path(root) / "webhooks.v1.key"
        key_file.write_text(signing.public_key_pem(key))
        env = {k: v for k, v in os.environ.items() if not k.startswith("TENANT_CONSOLE_")}
        env.update(TENANT_CONSOLE_CONFIG_DIR=str(Path(root) / "config"), HOME=root)
        command = [sys.executable, "-m", "console", "webhooks", "listen", "--no-register"]
        command += ["--signing-key", str(key_file), "--format", "json"]
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO_ROOT,
            env=env,
        )
        try:
            assert process.stdout is not None and process.stderr is not None
            ready = process.stderr.readline()  # the Ready line comes first
            url = next(w.rstrip(",") for w in ready.split() if w.startswith("http://"))
            printed: list[float] = []
            answered: list[float] = []
            with httpx.Client(timeout=30) as client:
                for number in range(WARM_UP + runs):
                    document = _delivery(number)
                    body = json.dumps(document).encode()
                    headers = {
                        "Content-Type": "application/json",
                        "BT-SIGNATURE-VERSION": "v1",
                        "BT-SIGNATURE": signing.sign(key, document),
                    }
                    start = time.perf_counter()
                    response = client.post(url + "/", content=body, headers=headers)
                    answer_s = time.perf_counter() - start
                    line = process.stdout.readline()
                    line_s = time.perf_counter() - start
                    assert response.status_code == 200, response.status_code
                    assert json.loads(line)["event"]["id"] == document["event"]["id"], line
                    if number >= WARM_UP:
                        printed.append(line_s)
                        answered.append(answer_s)
        finally:
            process.terminate()
            process.wait(READY_TIMEOUT)
    return {"printed_s": printed, "answered_s": answered}


def listen_rows(runs: int = 50) -> list[Row]:
    data = measure(runs)
    return [
        Row(
            "Webhooks: listen prints a delivery's line after its POST starts",
            median(data["printed_s"]),
            median(data["answered_s"]),
            "s",
            "≤ 100 ms; baseline: the POST's round trip to listen's 200",
            limit=LIMIT_S,
            absolute=True,
        ),
        Row(
            "Context: the slowest of those deliveries' lines",
            max(data["printed_s"]),
            None,
            "s",
            "reported",
        ),
    ]


if __name__ == "__main__":
    figures = measure(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
    print(
        json.dumps(
            {
                "printed_ms_median": median(figures["printed_s"]) * 1000,
                "printed_ms_max": max(figures["printed_s"]) * 1000,
                "answered_ms_median": median(figures["answered_s"]) * 1000,
            }
        )
    )
