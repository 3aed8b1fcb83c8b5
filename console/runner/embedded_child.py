"""The embedded engine's own process: one job as JSON on stdin, one outcome as JSON on stdout.

Run by path inside the sandbox (`python -I -S embedded_child.py CONSOLE_ROOT MINI_RACER_ROOT
MEMORY_MB`) so that the V8 isolate, and all the memory the code makes it allocate, live in a
confined child process and never in the console's. The isolate, its memory limit and the
harness are made before the job is read: a process started ahead of its run (the runner's
spares) has them ready.
"""

from __future__ import annotations

import json
import os
import re
import sys

LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def main() -> None:
    # -I -S: no site-packages, no environment; exactly these two folders are importable.
    sys.path[:0] = sys.argv[1:3]
    import py_mini_racer
    from py_mini_racer._dll import DEFAULT_V8_FLAGS

    from console.runner.engines import EmbeddedEngine, Job, outcome_to_json

    # Interpreter only: no executable memory to reserve, so the process's data limit can be
    # the code's memory limit (V8's JIT reserves half a gigabyte of writable code range).
    py_mini_racer.init_mini_racer(flags=[*DEFAULT_V8_FLAGS, "--jitless"])
    engine = EmbeddedEngine()

    def started() -> None:
        # The console's kill at the time limit counts from this byte (JSON allows it).
        sys.stdout.write("\n")
        sys.stdout.flush()

    with engine.prepared(int(sys.argv[3])) as context:
        job = Job(**json.loads(sys.stdin.read()))
        outcome = engine.run_prepared(context, job, on_start=started)
        report = outcome_to_json(outcome)
        report["v8_version"] = engine.v8_version
        # Raw UTF-8 (a third of what \u escapes of non-ASCII text would take of the console's
        # read cap), but lone surrogates escaped: no encoding can write them.
        text = json.dumps(report, ensure_ascii=False)
        sys.stdout.write(LONE_SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", text))
        sys.stdout.flush()
        # Before the context is closed: V8's teardown is of no use to anyone, the process
        # is going.
        os._exit(0)


if __name__ == "__main__":
    main()
