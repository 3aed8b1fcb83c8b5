"""Runs every benchmark and prints one table: `python -m tests.benchmarks` (or this file).

Each figure is the median of several runs, beside a baseline measured in the same run. The
services, data and temporary config live in a temporary directory removed at the end.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make `tests.benchmarks` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import argparse
import json
import os
import platform
import subprocess
import tempfile
import time
from collections.abc import Sequence
from typing import Any

from tests.benchmarks import cold_start, throughput
from tests.benchmarks.log_rows import log_rows
from tests.benchmarks.reactor_rows import reactor_rows
from tests.benchmarks.results import REPO_ROOT, Row, median, table
from tests.benchmarks.review_rows import review_rows
from tests.benchmarks.services import seeded_service
from tests.benchmarks.webhook_rows import webhook_rows
from tests.benchmarks.webhooks_listen import listen_rows

APPLICATIONS = 10_000
FIRST_ROW = "Application 00001"


def _say(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def _json_from(module: str, *args: str, env: dict[str, str] | None = None) -> Any:
    """Runs `python -m module args` in a process of its own; its last stdout line as JSON."""
    result = subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=REPO_ROOT,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=600,
    )
    if result.returncode != 0:
        raise RuntimeError(f"{module} failed:\n{result.stderr[-3000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def _machine() -> str:
    cpu = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    for line in cpuinfo.read_text().splitlines() if cpuinfo.exists() else []:
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    return (
        f"{os.cpu_count()} cores ({cpu}), {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}, load average "
        f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )


def cold_start_rows(
    base_url: str, key: str, runs: int, config_dir: Path, clock: str = "wall"
) -> list[Row]:
    _say(f"cold start: {runs} launches of the console and of a minimal Textual app")
    console, baseline = cold_start.measure(base_url, key, FIRST_ROW, runs, config_dir, clock)
    what = " (CPU time used by then)" if clock == "cpu" else ""
    return [
        Row(
            f"Cold start: new process until Applications shows rows{what}",
            median(console),
            median(baseline),
            "s",
            "≤ 1.5x minimal Textual app",
            limit=1.5,
        )
    ]


def large_tenant_rows(base_url: str, key: str, runs: int) -> list[Row]:
    _say(f"large tenant: {runs} console runs on {APPLICATIONS:,} applications")
    runs_data = [
        _json_from("tests.benchmarks.large_tenant", base_url, env={"BENCH_API_KEY": key})
        for _ in range(runs)
    ]
    baseline_rss = [
        _json_from("tests.benchmarks.minimal_app", "--rss")["rss_kb"] for _ in range(runs)
    ]
    frame_s = _json_from("tests.benchmarks.minimal_app", "--frame")["frame_s"]
    last = runs_data[-1]
    page_size = last["page_size"]
    needed = -(-1000 // page_size)  # pages that hold row 1,000
    fetched = [len(run["pages"]) for run in runs_data]
    in_order = all(run["pages"] == list(range(1, len(run["pages"]) + 1)) for run in runs_data)
    assert in_order, f"pages fetched out of order or twice: {[r['pages'] for r in runs_data]}"
    return [
        Row(
            "Large tenant: open Applications until first rows (10,000 apps)",
            median([r["open_s"] for r in runs_data]),
            median([r["raw_request_s"] for r in runs_data]),
            "s",
            "≤ 2x client's raw request",
            limit=2.0,
        ),
        Row(
            "Context: one frame of the minimal Textual app after its content changed",
            median(frame_s) * 1000,
            median([r["raw_request_s"] for r in runs_data]) * 1000,
            "ms",
            "reported; baseline: the same request as above",
        ),
        Row(
            f"Large tenant: pages fetched to reach row 1,000 ({page_size} a page)",
            float(median([float(n) for n in fetched])),
            float(needed + 1),
            "pages",
            f"only those needed ({needed} + 1 read ahead)",
            limit=1.0,
        ),
        Row(
            "Large tenant: resident memory after row 1,000",
            median([r["rss_kb"] / 1024 for r in runs_data]),
            median([kb / 1024 for kb in baseline_rss]),
            "MiB",
            "≤ 2x minimal Textual app",
            limit=2.0,
        ),
    ]


def name_search_rows(base_url: str, key: str, runs: int) -> list[Row]:
    _say(f"name search: {runs} console searches for one of {APPLICATIONS:,} applications")
    data = _json_from(
        "tests.benchmarks.name_search",
        base_url,
        env={"BENCH_API_KEY": key, "BENCH_RUNS": str(runs)},
    )
    assert data["pages"] == data["baseline_pages"], "the search read other pages than the walk"
    assert data["matches"] == ["Application 09995"], data["matches"]
    baseline_rss = [
        _json_from("tests.benchmarks.minimal_app", "--rss")["rss_kb"] for _ in range(runs)
    ]
    pages = data["pages"]
    return [
        Row(
            f"Name search: enter until the match shows (page 100 of {pages}, 100 a page)",
            median(data["first_s"]),
            median(data["baseline_first_s"]),
            "s",
            "≤ 1.3x client walking the same pages",
            limit=1.3,
        ),
        Row(
            f"Name search: enter until the last page is read ({pages} pages)",
            median(data["end_s"]),
            median(data["baseline_end_s"]),
            "s",
            "≤ 1.3x client walking the same pages",
            limit=1.3,
        ),
        Row(
            "Name search: resident memory at the end of the search",
            data["rss_kb"] / 1024,
            median([kb / 1024 for kb in baseline_rss]),
            "MiB",
            "≤ 2x minimal Textual app",
            limit=2.0,
        ),
    ]


def editor_rows() -> list[Row]:
    _say("editor: keystrokes in a 2,000-line formula, highlighted and plain")
    data = _json_from("tests.benchmarks.editor_latency")
    highlighted = median(data["highlighted_s"]) * 1000
    plain = median(data["plain_s"]) * 1000
    return [
        Row(
            "Editor: keystroke to refreshed view, 2,000-line formula",
            highlighted,
            plain,
            "ms",
            "≤ 16 ms (one frame); baseline: no highlighting",
            limit=16.0,
            absolute=True,
        )
    ]


def test_run_rows(runs: int) -> list[Row]:
    """Test-run latency per engine (each engine's cold figure from `runs` fresh processes)."""
    import shutil

    engines = (["node"] if shutil.which("node") else []) + ["embedded"]
    rows: list[Row] = []
    for engine in engines:
        _say(f"test-run: {runs} processes of one cold and {runs} warm runs, {engine} engine")
        data = [_json_from("tests.benchmarks.run_latency", engine, str(runs)) for _ in range(runs)]
        cold = [d["cold"] for d in data]
        warm = [w for d in data for w in d["warm"]]
        for label, samples in (("cold", cold), ("warm", warm)):
            rows.append(
                Row(
                    f"Test-run ({engine}, {label}): ctrl+r to result on screen, trivial formula",
                    median([s["screen_ms"] for s in samples]),
                    median([s["engine_ms"] for s in samples]),
                    "ms",
                    "reported; baseline: the engine's own time to evaluate the code",
                )
            )
        rows.append(
            Row(
                f"Context: test-run ({engine}, warm) in the runner, engine start-up included",
                median([s["runner_ms"] for s in warm]),
                median([s["engine_ms"] for s in warm]),
                "ms",
                "reported; baseline: as above",
            )
        )
    return rows


def service_rows(base_url: str, key: str, rounds: int) -> list[Row]:
    _say(f"service: {rounds} rounds of {throughput.REQUESTS} requests per endpoint")
    listing, catalogue = throughput.measure(base_url, key, APPLICATIONS, rounds)
    return [
        Row(
            "Service: GET /applications?size=20 (any page of 10,000) throughput",
            median([load.requests_per_second for load in listing]),
            median([load.requests_per_second for load in catalogue]),
            "req/s",
            "reported; baseline GET /permissions",
        ),
        Row(
            "Service: GET /applications?size=20 p99 latency",
            median([load.p99_s for load in listing]),
            median([load.p99_s for load in catalogue]),
            "s",
            "reported; baseline GET /permissions",
        ),
    ]


LATENCY_TARGET_RTT = 150


def latency_rows(base_url: str, key: str, rtts: Sequence[int], runs: int) -> list[Row]:
    """The console through a loopback proxy adding each round trip (issue 27)."""
    from tests.benchmarks.latency_proxy import latency_proxy

    rows: list[Row] = []
    for rtt in rtts:
        _say(f"latency: the console through a proxy adding {rtt} ms of round trip")
        with (
            tempfile.TemporaryDirectory(prefix="tenant-console-cache-") as cache,
            latency_proxy(base_url, rtt) as proxied,
        ):
            env = {
                "BENCH_API_KEY": key,
                "BENCH_RUNS": str(runs),
                "TENANT_CONSOLE_CACHE_DIR": cache,
                "BENCH_UPSTREAM": base_url,
            }
            data = _json_from("tests.benchmarks.latency", proxied, env=env)
        rows += _latency_rows(data, rtt)
    return rows


def _latency_rows(data: dict[str, Any], rtt_ms: int) -> list[Row]:
    rtt = rtt_ms / 1000
    judged = rtt_ms == LATENCY_TARGET_RTT
    pages = data["pages"]
    floor = -(-pages // 4) * rtt  # pages ÷ requests in flight x round trip

    def row(
        measure: str, values: list[float], baseline: float, target: str, limit: float | None
    ) -> Row:
        return Row(
            f"{measure} ({rtt_ms} ms round trip)",
            median(values),
            baseline,
            "s",
            target if judged else "reported (targets at 150 ms)",
            limit=limit if judged else None,
            absolute=True,
        )

    return [
        row(
            "Latency: first rows of Applications",
            data["first_rows_s"],
            rtt,
            "≤ one round trip + 0.3 s",
            rtt + 0.3,
        ),
        row(
            "Latency: section switch (Permissions) until rows",
            data["section_s"],
            rtt,
            "reported; baseline: one round trip",
            None,
        ),
        row(
            "Latency: an application's detail by id",
            data["detail_s"],
            rtt,
            "reported; baseline: one round trip",
            None,
        ),
        row(
            f"Latency: name search of 10,000 applications, first match (page 100 of {pages})",
            data["search_first_s"],
            floor,
            "≤ 4 s; baseline: pages ÷ 4 in flight x round trip",
            4.0,
        ),
        row(
            "Latency: name search of 10,000 applications, to the end",
            data["search_end_s"],
            floor,
            "≤ 4 s; baseline: pages ÷ 4 in flight x round trip",
            4.0,
        ),
        row(
            "Latency: the same search again, first answer (local index)",
            data["again_first_s"],
            rtt,
            "≤ 0.3 s; baseline: one round trip",
            0.3,
        ),
        row(
            "Latency: the palette's open by name, first answer (local index)",
            data["palette_first_s"],
            rtt,
            "≤ 0.3 s; baseline: one round trip",
            0.3,
        ),
        row(
            f"Latency: access review of {data['review_rows']:,} applications",
            data["review_s"],
            floor,
            "≤ 4 s; baseline: pages ÷ 4 in flight x round trip",
            4.0,
        ),
        Row(
            "Context: the same access review on loopback (no round trip added)",
            median(data["review_loopback_s"]),
            None,
            "s",
            "reported: what the service and the console spend on this machine",
        ),
        row(
            f"Latency: export's read of the tenant ({data['export_applications']:,} applications)",
            data["export_s"],
            floor,
            "reported; baseline: applications' pages ÷ 4 x round trip",
            None,
        ),
    ]


def rate_limited_rows(root: Path, rtt_ms: int, spent: int) -> list[Row]:
    """A search under `serve --rate-limit 200`, right after another client of the same key
    spent `spent` requests: it waits the service's 429 out and completes."""
    from tests.benchmarks.latency_proxy import latency_proxy

    _say(f"rate limit: a search under serve --rate-limit 200 after {spent} requests elsewhere")
    with (
        seeded_service(root / "limited", APPLICATIONS, rate_limit=200) as service,
        latency_proxy(service.base_url, rtt_ms) as proxied,
    ):
        env = {
            "BENCH_API_KEY": service.key,
            "BENCH_PART": "limited",
            "BENCH_UPSTREAM": service.base_url,
            "BENCH_SPENT": str(spent),
        }
        data = _json_from("tests.benchmarks.latency", proxied, env=env)
    assert data["limited_found"] == ["Application 09995"], data["limited_found"]
    return [
        Row(
            f"Rate limit: name search of 10,000 under serve --rate-limit 200, {spent} requests "
            f"spent elsewhere ({rtt_ms} ms; {data['limited_pushbacks']} x 429 waited out, "
            f"{data['limited_waited_s']:.0f} s)",
            data["limited_s"],
            None,
            "s",
            "completes (the match found, no failure)",
        )
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks", description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median shown)")
    parts = (
        "cold",
        "large",
        "search",
        "editor",
        "test-run",
        "service",
        "review",
        "latency",
        "limit",
        "reactors",
        "logs",
        "listen",
        "webhooks",
    )
    parser.add_argument("--only", choices=parts, nargs="*")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="cold start: wall time (default), or the CPU time each process had used by then "
        "(steadier on a busy machine; Linux only)",
    )
    parser.add_argument(
        "--rtt", type=int, nargs="*", default=[50, 150], help="latency: round trips in ms"
    )
    args = parser.parse_args(argv)
    only = set(args.only or parts)
    started = time.monotonic()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="tenant-console-bench-") as root:
        _say(f"starting a local service and seeding {APPLICATIONS:,} applications")
        with seeded_service(Path(root) / "service", APPLICATIONS) as service:
            if "cold" in only:
                config_dir = Path(root) / "config"
                rows += cold_start_rows(
                    service.base_url, service.key, args.runs, config_dir, args.clock
                )
            if "large" in only:
                rows += large_tenant_rows(service.base_url, service.key, max(3, args.runs - 2))
            if "search" in only:
                rows += name_search_rows(service.base_url, service.key, max(5, args.runs))
            if "editor" in only:
                rows += editor_rows()
            if "test-run" in only:
                rows += test_run_rows(args.runs)
            if "service" in only:
                rows += service_rows(service.base_url, service.key, 3)
            if "review" in only:
                _say(f"access review: the console's and the client's walks of {APPLICATIONS:,}")
                rows += review_rows(
                    service.base_url, service.key, max(3, args.runs - 2), _json_from
                )
            if "latency" in only:
                rows += latency_rows(service.base_url, service.key, args.rtt, min(args.runs, 3))
            if "reactors" in only:
                _say("reactors: a react and the section of 1,000 reactors at 150 ms round trip")
                rows += reactor_rows(service, Path(root), args.runs, _json_from)
            if "logs" in only:
                rows += log_rows(service, Path(root), args.runs, _json_from, _say)
            if "listen" in only:
                _say("webhooks listen: signed deliveries POSTed until their lines are printed")
                rows += listen_rows(max(20, args.runs * 10))
            if "webhooks" in only:
                rows += webhook_rows(service, args.runs, _json_from, _say)
        if "limit" in only:
            rows += rate_limited_rows(Path(root), LATENCY_TARGET_RTT, spent=150)
    print(table(rows))
    print(f"\nMachine: {_machine()}. Took {time.monotonic() - started:.0f} s.")
    return 0 if all(row.met is not False for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
