"""The operating-system boundary itself, apart from the JavaScript isolation: code that has
already escaped (here: a plain Node.js script with the whole of Node, and plain Python in
the embedded engine's interpreter) runs under the same wrapper as a test-run, and still
kills no process, reaches no listener, reads no file and finds no key."""

from __future__ import annotations

import errno
import json
import os
import shutil
import socket
import sys
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from runner_support import NODE_MISSING
from sandbox_support import INJECTED_KEY, MECHANISMS, Targets, alive, command_line, wait_for

from console.runner import sandbox

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the namespaces boundary is Linux's"
)

NODE_ESCAPED = """
const fs = require('fs'), net = require('net');
const out = {};
try { process.kill(VICTIM, 'SIGKILL'); out.kill = 'sent'; } catch (e) { out.kill = e.code; }
out.env = Object.assign({}, process.env);
try { out.canary = fs.readFileSync(CANARY_PATH, 'utf8'); } catch (e) { out.canary = e.code; }
try { out.home = fs.readdirSync(HOME_PATH); } catch (e) { out.home = e.code; }
try { out.root = fs.readdirSync('/'); } catch (e) { out.root = e.code; }
try { fs.writeFileSync('/usr/planted', 'x'); out.write = 'done'; } catch (e) { out.write = e.code; }
new Promise((resolve) => {
  const socket = net.connect(PORT, '127.0.0.1');
  socket.on('connect', () => { out.net = 'connected'; socket.end(); resolve(); });
  socket.on('error', (e) => { out.net = e.code; resolve(); });
}).then(() => console.log(JSON.stringify(out)));
"""

PYTHON_ESCAPED = """
import ctypes, json, os, socket
out = {}
try:
    os.kill(VICTIM, 9); out["kill"] = "sent"
except OSError as error:
    out["kill"] = error.strerror
libc = ctypes.CDLL(None, use_errno=True)
out["ptrace"] = libc.ptrace(16, VICTIM, 0, 0)  # PTRACE_ATTACH: -1 when refused
try:
    socket.create_connection(("127.0.0.1", PORT), timeout=5).close(); out["net"] = "connected"
except OSError as error:
    out["net"] = error.strerror
try:
    out["canary"] = open(CANARY_PATH).read()
except OSError as error:
    out["canary"] = error.strerror
out["env"] = dict(os.environ)
out["root"] = sorted(os.listdir("/"))
print(json.dumps(out))
"""

ALLOWED_ROOT = {"bin", "dev", "etc", "lib", "lib32", "lib64", "libx32", "proc", "sbin", "tmp"}
ALLOWED_ROOT |= {"usr", "root", "home", "opt", "work"}  # only as parents of bound paths


def _fill(script: str, targets: Targets) -> str:
    return (
        script.replace("VICTIM", str(targets.victim.pid))
        .replace("PORT", str(targets.port))
        .replace("CANARY_PATH", json.dumps(str(targets.canary)))
        .replace("HOME_PATH", json.dumps(str(targets.home)))
    )


def _confined(argv: list[str], reads: list[str], mechanism: str) -> sandbox.Finished:
    return sandbox.confine(
        argv, mechanism=mechanism, reads=reads, stdin=b"", timeout=30, data_mb=256
    )  # type: ignore[arg-type]


@pytest.mark.skipif(shutil.which("node") is None, reason=NODE_MISSING)
@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_escaped_node_code_reaches_no_process_listener_file_or_key(
    mechanism: str, targets: Targets, mechanism_is: Callable[[str], None]
) -> None:
    mechanism_is(mechanism)
    node = shutil.which("node")
    assert node is not None
    finished = _confined(
        [node, "-e", _fill(NODE_ESCAPED, targets)], sandbox.engine_paths(node), mechanism
    )
    output = (finished.stdout + finished.stderr).decode()
    assert finished.returncode == 0, output
    seen = json.loads(finished.stdout)
    assert seen["kill"] in ("ESRCH", "EPERM")
    assert seen["net"] != "connected"
    assert seen["env"] == {}
    assert seen["canary"] == "ENOENT"
    assert seen["home"] == "ENOENT"
    assert seen["write"] in ("EROFS", "EACCES", "EPERM")
    assert set(seen["root"]) <= ALLOWED_ROOT
    targets.assert_untouched(output)


UNIX_ESCAPED = """
const net = require('net'); const out = {}; let n = 0;
for (const [k, p] of [['file', SOCKET_PATH], ['abstract', '\\0ABSTRACT_NAME']]) {
  const s = net.connect(p, () => { s.write('escaped'); out[k] = 'connected'; s.end(); done(); });
  s.on('error', (e) => { out[k] = e.code; done(); });
}
function done() { if (++n === 2) console.log(JSON.stringify(out)); }
"""


@pytest.mark.skipif(shutil.which("node") is None, reason=NODE_MISSING)
@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_escaped_code_reaches_no_local_socket_of_the_host(
    mechanism: str, tmp_path: Path, mechanism_is: Callable[[str], None]
) -> None:
    """The seccomp filter lets AF_UNIX sockets through (the engines use them): the host's
    sockets must still be out of reach, a file socket (the keyring's or D-Bus's kind) hidden
    by the mount namespace, an abstract one by the network namespace."""
    mechanism_is(mechanism)
    node = shutil.which("node")
    assert node is not None
    path = tmp_path / "host.sock"
    name = f"tenant-console-victim-{uuid.uuid4().hex}"
    listeners = [socket.socket(socket.AF_UNIX), socket.socket(socket.AF_UNIX)]
    listeners[0].bind(str(path))
    listeners[1].bind("\0" + name)
    try:
        for listener in listeners:
            listener.listen(1)
            listener.setblocking(False)
        script = UNIX_ESCAPED.replace("SOCKET_PATH", json.dumps(str(path)))
        script = script.replace("ABSTRACT_NAME", name)
        finished = _confined([node, "-e", script], sandbox.engine_paths(node), mechanism)
        output = (finished.stdout + finished.stderr).decode()
        assert finished.returncode == 0, output
        seen = json.loads(finished.stdout)
        assert seen["file"] != "connected" and seen["abstract"] != "connected", seen
        for listener in listeners:  # nothing is waiting to be accepted: nobody came
            with pytest.raises(BlockingIOError):
                listener.accept()
    finally:
        for listener in listeners:
            listener.close()


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_escaped_code_in_the_embedded_engine_s_interpreter_reaches_nothing(
    mechanism: str, targets: Targets, mechanism_is: Callable[[str], None]
) -> None:
    """The embedded engine's child is a Python process: code that took it over is here."""
    mechanism_is(mechanism)
    python = sandbox.python_executable()
    finished = _confined(
        [python, "-I", "-S", "-c", _fill(PYTHON_ESCAPED, targets)],
        sandbox.interpreter_paths(),
        mechanism,
    )
    output = (finished.stdout + finished.stderr).decode()
    assert finished.returncode == 0, output
    seen = json.loads(finished.stdout)
    assert seen["kill"] in ("No such process", "Operation not permitted")
    assert seen["ptrace"] == -1
    assert seen["net"] != "connected"
    assert seen["canary"] == "No such file or directory"
    assert INJECTED_KEY not in json.dumps(seen["env"])
    assert set(seen["env"]) <= {"LC_CTYPE"}  # Python's own locale coercion, nothing of ours
    assert set(seen["root"]) <= ALLOWED_ROOT
    targets.assert_untouched(output)


@pytest.mark.skipif(shutil.which("node") is None, reason=NODE_MISSING)
def test_without_a_boundary_seccomp_still_refuses_signals_and_ip_sockets(
    targets: Targets, mechanism_is: Callable[[str], None]
) -> None:
    """Where no namespace can be had, what the launcher still does holds on its own: no
    signal to another process, no IP socket, an empty environment."""
    mechanism_is("none")
    node = shutil.which("node")
    assert node is not None
    finished = _confined([node, "-e", _fill(NODE_ESCAPED, targets)], [], "none")
    output = (finished.stdout + finished.stderr).decode()
    seen = json.loads(finished.stdout)
    assert seen["kill"] == "EPERM"
    assert seen["net"] == "EPERM"
    assert seen["env"] == {}
    assert targets.victim.poll() is None
    try:
        targets.listener.accept()
    except BlockingIOError:
        pass
    else:
        raise AssertionError("the loopback listener heard a connection")
    assert INJECTED_KEY not in output


@pytest.mark.skipif(shutil.which("node") is None, reason=NODE_MISSING)
@pytest.mark.parametrize("mechanism", [*MECHANISMS, pytest.param("none", id="none")])
def test_the_time_limit_kills_the_process_and_all_it_started(
    mechanism: str, mechanism_is: Callable[[str], None]
) -> None:
    mechanism_is(mechanism)
    node = shutil.which("node")
    assert node is not None
    token = f"time-limit-{uuid.uuid4().hex}"
    finished = sandbox.confine(
        [node, "-e", f"for (;;) {{}} // {token}"],
        mechanism=mechanism,  # type: ignore[arg-type]
        reads=sandbox.engine_paths(node),
        stdin=b"",
        timeout=1,
        data_mb=256,
    )
    assert finished.timed_out

    def engine_gone() -> bool:
        return not any(
            token in command_line(int(pid)) and alive(int(pid))
            for pid in os.listdir("/proc")
            if pid.isdigit()
        )

    wait_for(engine_gone, "the engine process to end", 10)


def test_the_result_of_a_probe_names_why_there_is_no_boundary(
    mechanism_is: Callable[[str], None],
) -> None:
    mechanism_is("none")
    found = sandbox.boundary()
    assert not found.isolated
    assert "TENANT_CONSOLE_SANDBOX=none" in found.reason
    protections = found.protections(128, 5)
    assert protections[0].startswith("no OS boundary")
    assert "environment: empty" in protections


def test_the_seccomp_filter_is_a_whole_program() -> None:
    from console.runner.sandbox_launch import seccomp_program

    for machine in ("x86_64", "aarch64"):
        program = seccomp_program(1, machine)
        assert program is not None and len(program) % 8 == 0
        assert len(program) // 8 < 4096  # the kernel's BPF_MAXINSNS
    assert seccomp_program(1, "mips") is None


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_the_engine_runs_as_nobody_without_capabilities_under_seccomp(
    mechanism: str, mechanism_is: Callable[[str], None]
) -> None:
    mechanism_is(mechanism)
    python = sandbox.python_executable()
    script = "print(open('/proc/self/status').read())"
    finished = _confined([python, "-I", "-S", "-c", script], sandbox.interpreter_paths(), mechanism)
    status = dict(
        line.split(":", 1) for line in finished.stdout.decode().splitlines() if ":" in line
    )
    assert status["Uid"].split()[0] == "65534"
    assert int(status["CapEff"], 16) == 0
    assert status["NoNewPrivs"].strip() == "1"
    assert status["Seccomp"].strip() == "2"  # a filter


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_paths_to_read_under_tmp_are_readable_and_tmp_is_still_private(
    mechanism: str, tmp_path: Path, mechanism_is: Callable[[str], None]
) -> None:
    """A checkout or virtualenv under /tmp (a CI clone, pytest's tmp_path) is bound inside
    the private /tmp, not hidden by it nor in its way; the rest of the host's /tmp stays out."""
    mechanism_is(mechanism)
    assert str(tmp_path).startswith("/tmp/")
    engine_dir = tmp_path / "engine"
    engine_dir.mkdir()
    scratch = f"scratch-{uuid.uuid4().hex}"
    (engine_dir / "engine.py").write_text(
        "import os\n"
        "print(open(os.path.join(os.path.dirname(__file__), 'data.txt')).read())\n"
        f"print(sorted(os.listdir({str(tmp_path)!r})))\n"
        f"open('/tmp/{scratch}', 'w').write('written inside')\n"
        # What is bound inside the writable private /tmp stays the host's, read-only:
        "for attempt in (lambda: open(__file__, 'w'),\n"
        f"                lambda: os.rename({str(engine_dir)!r}, '/tmp/moved')):\n"
        "    try:\n"
        "        attempt()\n"
        "        print('changed')\n"
        "    except OSError as error:\n"
        "        print(error.errno)\n"
    )
    (engine_dir / "data.txt").write_text("read inside")
    (tmp_path / "secret.txt").write_text("not bound")
    finished = _confined(
        [sandbox.python_executable(), "-I", "-S", str(engine_dir / "engine.py")],
        [*sandbox.interpreter_paths(), str(engine_dir)],
        mechanism,
    )
    output = (finished.stdout + finished.stderr).decode()
    assert finished.returncode == 0, output
    erofs, ebusy = str(errno.EROFS), str(errno.EBUSY)
    assert finished.stdout.decode().splitlines() == ["read inside", "['engine']", erofs, ebusy]
    assert (engine_dir / "engine.py").read_text().startswith("import os"), "the script untouched"
    assert not (Path("/tmp") / scratch).exists(), "the engine's /tmp is its own"


ROOT_ESCAPED = """
import ctypes, json, mmap, os, threading
out = {}
writable = []
for folder, _, files in os.walk("/proc/sys"):
    writable += [name for name in files if os.access(os.path.join(folder, name), os.W_OK)]
out["proc_sys_writable"] = len(writable)
for path in ("/proc/sys/kernel/hostname", "/proc/sys/vm/drop_caches", "/proc/sysrq-trigger"):
    try:
        open(path, "w").close(); out[path] = "opened"
    except OSError as error:
        out[path] = error.strerror
forked = 0
for _ in range(200):  # a fork bomb, bounded by the test
    try:
        child = os.fork()
    except OSError as error:
        out["fork"] = error.strerror
        break
    if child == 0:
        os._exit(0)
    forked += 1
    os.waitpid(child, 0)
out["forked"] = forked
try:
    os.kill(VICTIM, 9); out["kill"] = "sent"
except OSError as error:
    out["kill"] = error.strerror
try:
    mmap.mmap(-1, 64 << 20, flags=mmap.MAP_SHARED); out["shared_mapping"] = "mapped"
except OSError as error:
    out["shared_mapping"] = error.strerror
libc = ctypes.CDLL(None, use_errno=True)
out["shmget"] = libc.shmget(0, 64 << 20, 0o1000 | 0o600)
out["memfd_create"] = libc.memfd_create(b"x", 0)
out["dev"] = sorted(os.listdir("/dev"))
thread = threading.Thread(target=lambda: None); thread.start(); thread.join()
out["threads"] = "work"
print(json.dumps(out))
"""


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_escaped_code_as_the_console_s_root_writes_no_sysctl_forks_nothing_and_shares_no_memory(
    mechanism: str, targets: Targets, mechanism_is: Callable[[str], None]
) -> None:
    """Issue 33: where the console runs as root (as here, and in CI), the engine's user
    (nobody in its namespace) is root outside it: 762 files under /proc/sys passed its write
    check, no process limit held and shared memory escaped the data limit. /proc/sys is
    read-only, a new process is refused (threads still work) and shared memory is refused."""
    mechanism_is(mechanism)
    python = sandbox.python_executable()
    finished = _confined(
        [python, "-I", "-S", "-c", _fill(ROOT_ESCAPED, targets)],
        sandbox.interpreter_paths(),
        mechanism,
    )
    output = (finished.stdout + finished.stderr).decode()
    assert finished.returncode == 0, output
    seen = json.loads(finished.stdout)
    assert seen["proc_sys_writable"] == 0, seen
    assert seen["/proc/sys/kernel/hostname"] in ("Read-only file system", "Permission denied")
    assert seen["/proc/sys/vm/drop_caches"] in ("Read-only file system", "Permission denied")
    assert seen["/proc/sysrq-trigger"] != "opened"
    assert seen["forked"] == 0 and seen["fork"] == "Resource temporarily unavailable"
    assert seen["kill"] in ("No such process", "Operation not permitted")
    assert seen["shared_mapping"] == "Operation not permitted"
    assert seen["shmget"] == -1 and seen["memfd_create"] == -1
    if mechanism == "namespaces":  # bubblewrap makes its own /dev
        assert "zero" not in seen["dev"] and "shm" not in seen["dev"]
    assert seen["threads"] == "work"
    targets.assert_untouched(output)


@pytest.mark.skipif(shutil.which("node") is None, reason=NODE_MISSING)
@pytest.mark.parametrize("mechanism", [*MECHANISMS, pytest.param("none", id="none")])
def test_escaped_node_code_starts_no_process(
    mechanism: str, targets: Targets, mechanism_is: Callable[[str], None]
) -> None:
    """Node's permission model refuses child_process inside a test-run; escaped code holds the
    whole of Node, and still starts nothing, even without namespaces (seccomp alone)."""
    mechanism_is(mechanism)
    node = shutil.which("node")
    assert node is not None
    script = (
        "const { spawnSync } = require('child_process');\n"
        "const run = spawnSync('/bin/sh', ['-c', 'kill -9 VICTIM']);\n"
        "console.log(JSON.stringify({ error: run.error ? run.error.code : null }));\n"
    )
    finished = _confined(
        [node, "-e", _fill(script, targets)], sandbox.engine_paths(node), mechanism
    )
    output = (finished.stdout + finished.stderr).decode()
    assert finished.returncode == 0, output
    assert json.loads(finished.stdout)["error"] == "EAGAIN"
    targets.assert_untouched(output)
