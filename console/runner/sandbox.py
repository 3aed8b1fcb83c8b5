"""The operating-system boundary around a test-run's engine process.

The JavaScript isolation (a vm context, a V8 isolate) is the first wall; this is the second,
for when code gets out of the first: the engine process itself reaches no network, no other
process, no file and no secret. What is used is found at run time and named in the result:

- Linux with bubblewrap (`bwrap`): its user, pid, network, mount, IPC and UTS namespaces,
  a read-only root holding the system libraries and the engine only, plus our seccomp filter.
- Linux without it: the same namespaces and root, built by sandbox_launch.py (ctypes).
- macOS: sandbox-exec with a deny-default profile.
- Elsewhere, or where the kernel refuses namespaces: no boundary. Code from the service then
  runs only once the user has agreed (the console asks; `run` needs --allow-unisolated).

Everywhere: an empty environment, a memory limit on the process, a hard kill at the time
limit, and (Linux) the engine dies with the console.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

log = logging.getLogger(__name__)

Mechanism = Literal["bwrap", "namespaces", "sandbox-exec", "none"]

SANDBOX_ENV = "TENANT_CONSOLE_SANDBOX"
"""auto (default), bwrap, namespaces or none: `none` forces the unisolated path (tests, or a
machine where the probe itself misbehaves); it never weakens anything silently, since an
unisolated run of the service's code still needs the user's agreement."""

SYSTEM_PATHS = (
    "/usr",
    "/lib",
    "/lib64",
    "/lib32",
    "/libx32",
    "/bin",
    "/sbin",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
)
"""What every engine may read: the system's programs and shared libraries. No /etc beyond
the loader's cache, no /home, /root, /run, /var or /tmp of the host."""

REPORT_CAP = 16 * 1024 * 1024
"""Bytes of stdout read from an engine, at most: past it the process is killed and its report
is too large (what the harness lets out stays well under it, see harness.js)."""
STDERR_CAP = 256 * 1024
"""Bytes of stderr kept from an engine (its crash text); the rest is read and dropped."""

LAUNCHER = Path(__file__).with_name("sandbox_launch.py")
EXIT_SETUP = 70  # sandbox_launch.EXIT_SETUP, without importing ctypes here


class NoBoundary(Exception):
    """The run needs the user's agreement: no OS boundary can be had here."""


@dataclass(frozen=True)
class Boundary:
    """What confines an engine process on this machine."""

    mechanism: Mechanism
    reason: str = ""
    """Why there is no boundary (mechanism "none"), for the user."""

    @property
    def isolated(self) -> bool:
        return self.mechanism != "none"

    def protections(self, memory_mb: int, timeout: float) -> list[str]:
        """The protections in force for one run, each as "what: how"."""
        items: list[str] = []
        seccomp = _seccomp_available()
        match self.mechanism:
            case "bwrap" | "namespaces":
                how = "bubblewrap" if self.mechanism == "bwrap" else "kernel namespaces"
                items += [
                    f"network: none (own network namespace, {how})",
                    "processes: own pid namespace"
                    + (
                        "; no new process, signals and tracing of others refused (seccomp)"
                        if seccomp
                        else ""
                    ),
                    "files: read-only minimal root (system libraries and the engine), "
                    "read-only /proc/sys, private empty /tmp, no home",
                ]
            case "sandbox-exec":
                items += [
                    "network: denied (sandbox-exec, deny-default profile)",
                    "processes: signals to others denied (sandbox-exec)",
                    "files: system libraries and the engine only (sandbox-exec)",
                ]
            case _:
                items.append(f"no OS boundary: {self.reason}")
                if seccomp:
                    items.append(
                        "processes: no new process, signals and tracing of others refused; "
                        "network: IP sockets refused (seccomp)"
                    )
        items.append("environment: empty")
        if sys.platform.startswith("linux"):
            shared = "; shared memory refused" if seccomp else ""
            items.append(f"memory: {memory_mb} MB for the code (data limit on the process{shared})")
        else:
            items.append(f"memory: {memory_mb} MB JavaScript heap")
        items.append(f"time: {timeout:g} s, then the process is killed")
        if sys.platform.startswith("linux"):
            items.append("ends with the console (parent-death signal)")
        return items


@functools.cache
def _seccomp_available() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    return os.uname().machine in ("x86_64", "aarch64")


def python_executable() -> str:
    """The real interpreter (not a virtual environment's link to it), run with -I -S."""
    return os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)


_boundary: Boundary | None = None


def boundary() -> Boundary:
    """The boundary this machine offers, probed once per process (tens of milliseconds)."""
    global _boundary
    if _boundary is None:
        _boundary = _detect()
        log.info("Test-run sandbox: %s %s", _boundary.mechanism, _boundary.reason)
    return _boundary


def forget() -> None:
    """Probe again at the next run (tests that change $TENANT_CONSOLE_SANDBOX)."""
    global _boundary
    _boundary = None
    spares.clear()


def _detect() -> Boundary:
    wanted = os.environ.get(SANDBOX_ENV, "auto").strip().lower() or "auto"
    if wanted == "none":
        return Boundary("none", f"turned off with {SANDBOX_ENV}=none")
    if sys.platform == "darwin":
        if shutil.which("sandbox-exec"):
            return Boundary("sandbox-exec")
        return Boundary("none", "this macOS has no sandbox-exec")
    if not sys.platform.startswith("linux"):
        return Boundary("none", f"no sandbox is known for {sys.platform}")
    failures: list[str] = []
    if wanted in ("auto", "bwrap"):
        problem = _probe("bwrap")
        if problem is None:
            return Boundary("bwrap")
        failures.append(f"bubblewrap: {problem}")
    if wanted in ("auto", "namespaces"):
        problem = _probe("namespaces")
        if problem is None:
            return Boundary("namespaces")
        failures.append(f"namespaces: {problem}")
    return Boundary("none", "; ".join(failures) or f"${SANDBOX_ENV}={wanted} is not known")


def _probe(mechanism: Mechanism) -> str | None:
    """None when `mechanism` can confine a trivial process here, else why not."""
    if mechanism == "bwrap" and shutil.which("bwrap") is None:
        return "not installed"
    python = python_executable()
    try:
        finished = confine(
            [python, "-I", "-S", "-c", "pass"],
            mechanism=mechanism,
            reads=interpreter_paths(),
            stdin=b"",
            timeout=10,
            data_mb=0,
        )
    except OSError as error:
        return str(error)
    if finished.returncode == 0:
        return None
    lines = finished.stderr.decode("utf-8", "replace").strip().splitlines()
    return lines[-1] if lines else f"exit code {finished.returncode}"


def interpreter_paths() -> list[str]:
    """What this Python needs to start inside the sandbox: its binary and its library."""
    python = python_executable()
    prefix = os.path.realpath(sys.base_prefix)
    return [python, os.path.join(prefix, "lib")]


def engine_paths(executable: str) -> list[str]:
    """What an engine binary needs beyond the system paths: itself and, when it is
    installed under a prefix of its own (nvm, a tarball), that prefix's lib folder."""
    real = os.path.realpath(executable)
    paths = [real]
    prefix = os.path.dirname(os.path.dirname(real))
    library = os.path.join(prefix, "lib")
    home = os.path.realpath(os.path.expanduser("~"))
    if prefix not in ("/", home) and os.path.isdir(library) and not _under_system(library):
        paths.append(library)
    return paths


def _under_system(path: str) -> bool:
    return any(path == root or path.startswith(root + "/") for root in SYSTEM_PATHS)


@dataclass
class Finished:
    returncode: int
    stdout: bytes
    stderr: bytes
    timed_out: bool = False
    too_large: bool = False
    """Its stdout went over REPORT_CAP: it was killed and its stdout dropped."""


@dataclass(frozen=True)
class Launch:
    """One engine process to start: what it runs, in which boundary, with what readable."""

    argv: tuple[str, ...]
    mechanism: Mechanism
    reads: tuple[str, ...]
    data_mb: int
    """The data limit on the process (0: none)."""


def confine(
    argv: list[str],
    *,
    mechanism: Mechanism,
    reads: list[str],
    stdin: bytes,
    timeout: float,
    data_mb: int,
) -> Finished:
    """Run `argv` inside `mechanism`'s boundary with `stdin` as its input, an empty
    environment, `reads` (and the system paths) readable and nothing else, a data limit of
    `data_mb` (0: none), killed (with everything it started) after `timeout` seconds."""
    launch = Launch(tuple(argv), mechanism, tuple(reads), data_mb)
    return finish(start(launch), stdin, timeout)


def start(launch: Launch) -> subprocess.Popen[bytes]:
    """The confined process, started and waiting for its input (see `finish`)."""
    argv = list(launch.argv)
    binds = [*SYSTEM_PATHS, *(path for path in launch.reads if not _under_system(path))]
    if sys.platform.startswith("linux"):
        config = {
            "parent": os.getpid(),
            "mode": launch.mechanism,
            "binds": binds,
            "data_bytes": launch.data_mb * 1024 * 1024,
            "argv": argv,
        }
        pass_fds: tuple[int, ...] = ()
        if launch.mechanism == "bwrap":
            seccomp_fd = _seccomp_fd()
            pass_fds = () if seccomp_fd is None else (seccomp_fd,)
            config["argv"] = _bwrap_argv(argv, binds, seccomp_fd)
        command = [python_executable(), "-I", "-S", str(LAUNCHER), json.dumps(config)]
        try:
            return _popen(command, pass_fds)
        finally:
            for fd in pass_fds:
                os.close(fd)
    if launch.mechanism == "sandbox-exec":
        profile = _macos_profile(argv[0], list(launch.reads))
        return _popen(["sandbox-exec", "-p", profile, *argv], ())
    return _popen(argv, ())


class Spares:
    """Engine processes started ahead of their run, one per launch, so that a run in the
    console does not wait for an interpreter and V8 to start. Started from one thread that
    lives as long as the console: a process's parent-death signal follows the thread that
    forked it, and a worker thread that ends would take its spare with it."""

    def __init__(self) -> None:
        self.enabled = False
        """Off for one-shot runs (`tenant-console run`); the console's run screen turns it on."""
        self._ready: dict[Launch, subprocess.Popen[bytes]] = {}
        self._lock = threading.Lock()
        self._starter: ThreadPoolExecutor | None = None

    def take(self, launch: Launch) -> subprocess.Popen[bytes] | None:
        with self._lock:
            process = self._ready.pop(launch, None)
        if process is not None and process.poll() is not None:
            log.warning("A spare engine process ended by itself (%s)", process.returncode)
            process.wait()
            return None
        return process

    def prepare(self, launch: Launch) -> None:
        """Starts a spare for `launch` in the background, unless one is ready."""
        if not self.enabled:
            return
        with self._lock:
            if launch in self._ready:
                return
            if self._starter is None:
                self._starter = ThreadPoolExecutor(1, thread_name_prefix="sandbox-spares")
            self._starter.submit(self._start, launch)

    def _start(self, launch: Launch) -> None:
        try:
            process = start(launch)
        except OSError:
            log.warning("A spare engine process could not be started", exc_info=True)
            return
        with self._lock:
            stale = self._ready.pop(launch, None)
            self._ready[launch] = process
        if stale is not None:
            _kill(stale)

    def clear(self) -> None:
        """Ends every spare (the boundary changed, or the console no longer needs them)."""
        with self._lock:
            ready, self._ready = list(self._ready.values()), {}
        for process in ready:
            _kill(process)


spares = Spares()


def _seccomp_fd() -> int | None:
    """A file holding our seccomp filter for bubblewrap's --seccomp (the engine is pid 1)."""
    from console.runner.sandbox_launch import seccomp_program

    program = seccomp_program(1)
    if program is None:
        return None
    with tempfile.TemporaryFile() as file:
        file.write(program)
        file.flush()
        file.seek(0)
        return os.dup(file.fileno())


def _bwrap_argv(argv: list[str], binds: list[str], seccomp_fd: int | None) -> list[str]:
    bwrap = shutil.which("bwrap") or "bwrap"
    command = [
        os.path.realpath(bwrap),
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--as-pid-1",
        "--cap-drop",
        "ALL",
        "--clearenv",
        "--hostname",
        "sandbox",
        "--uid",
        "65534",
        "--gid",
        "65534",
    ]
    # The private /tmp first, so that paths to read under the host's /tmp are bound in it.
    command += ["--tmpfs", "/tmp"]
    for path in binds:
        if os.path.islink(path) and os.path.dirname(path) == "/":
            command += ["--symlink", os.readlink(path), path]
        elif os.path.exists(path):
            command += ["--ro-bind", path, path]
    command += ["--dev", "/dev", "--proc", "/proc", "--chdir", "/"]
    command += ["--remount-ro", "/"]
    if seccomp_fd is not None:
        command += ["--seccomp", str(seccomp_fd)]
    # bubblewrap sets PWD whatever it is told; env -i leaves the engine nothing at all.
    return [*command, "--", "/usr/bin/env", "-i", *argv]


def _macos_profile(executable: str, reads: list[str]) -> str:
    """A deny-default sandbox-exec profile: read the system and the engine, nothing else."""
    quoted = " ".join(f'(subpath "{path}")' for path in [*reads, os.path.realpath(executable)])
    return (
        "(version 1)\n"
        "(deny default)\n"
        "(allow process-exec)\n"
        "(allow signal (target self))\n"
        "(allow sysctl-read)\n"
        "(allow file-read-metadata)\n"
        '(allow file-read* (subpath "/usr/lib") (subpath "/System") '
        '(literal "/dev/null") (literal "/dev/urandom") (literal "/dev/random") '
        f"{quoted})\n"
        '(allow file-write* (literal "/dev/null"))\n'
    )


def _popen(command: list[str], pass_fds: tuple[int, ...]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={},
        cwd="/",
        pass_fds=pass_fds,
        start_new_session=not sys.platform.startswith("linux"),  # the launcher does setsid
    )


def finish(
    process: subprocess.Popen[bytes], stdin: bytes, timeout: float, after_start: float | None = None
) -> Finished:
    """Feed a started process `stdin`, read at most REPORT_CAP of its stdout and STDERR_CAP of
    its stderr, and kill it `timeout` seconds from now, or `after_start` seconds after its
    first byte on stdout (an engine writes one when the code starts) if that comes sooner:
    whatever the engine runs, and however long it took to start, the limit holds."""
    try:
        return _exchange(process, stdin, timeout, after_start)
    finally:
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                stream.close()


def _exchange(
    process: subprocess.Popen[bytes], stdin: bytes, timeout: float, after_start: float | None
) -> Finished:
    if not hasattr(selectors, "PollSelector"):  # Windows: no select() on pipes
        try:
            out, err = process.communicate(stdin, timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill(process)
            return Finished(-9, b"", b"", timed_out=True)
        return Finished(process.returncode, out, err)
    deadline = time.monotonic() + timeout
    chunks: dict[int, list[bytes]] = {}
    sizes: dict[int, int] = {}
    assert process.stdin and process.stdout and process.stderr
    with selectors.PollSelector() as selector:
        if stdin:
            os.set_blocking(process.stdin.fileno(), False)
            selector.register(process.stdin, selectors.EVENT_WRITE)
        else:
            process.stdin.close()
        for stream in (process.stdout, process.stderr):
            selector.register(stream, selectors.EVENT_READ)
            chunks[stream.fileno()] = []
            sizes[stream.fileno()] = 0
        view = memoryview(stdin)
        while selector.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                _kill(process)
                return Finished(-9, b"", b"".join(chunks[process.stderr.fileno()]), True)
            for key, _ in selector.select(left):
                if key.fileobj is process.stdin:
                    try:
                        view = view[os.write(key.fd, view[:65536]) :]
                    except BrokenPipeError:
                        view = view[:0]
                    if not view:
                        selector.unregister(key.fileobj)
                        process.stdin.close()
                    continue
                data = os.read(key.fd, 65536)
                if not data:
                    selector.unregister(key.fileobj)
                    continue
                if key.fileobj is process.stdout:
                    if after_start is not None and sizes[key.fd] == 0:
                        deadline = min(deadline, time.monotonic() + after_start)
                    if sizes[key.fd] + len(data) > REPORT_CAP:
                        _kill(process)
                        stderr = b"".join(chunks[process.stderr.fileno()])
                        return Finished(-9, b"", stderr, too_large=True)
                elif sizes[key.fd] >= STDERR_CAP:
                    continue
                chunks[key.fd].append(data)
                sizes[key.fd] += len(data)
    try:
        process.wait(max(0.1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        _kill(process)
        return Finished(-9, b"", b"", timed_out=True)
    return Finished(
        process.returncode,
        b"".join(chunks[process.stdout.fileno()]),
        b"".join(chunks[process.stderr.fileno()]),
    )


def _kill(process: subprocess.Popen[bytes]) -> None:
    """The launcher's death takes its namespace with it (parent-death signals); elsewhere
    the process group goes."""
    if sys.platform.startswith("linux"):
        process.kill()
    else:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (OSError, AttributeError):
            process.kill()
    process.wait()
