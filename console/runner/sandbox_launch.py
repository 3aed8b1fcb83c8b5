"""The launcher that puts an engine process in its sandbox (Linux), run as a script by path.

`python -I -S sandbox_launch.py CONFIG_JSON`: it sets its own limits, ties its life to the
console's, and (mode "namespaces") makes new user, pid, network, mount, IPC and UTS
namespaces, a read-only root that holds only the paths listed, a private /tmp, a seccomp
filter, then executes the engine with an empty environment as pid 1 of its namespace.
Mode "bwrap" leaves the namespaces to bubblewrap (limits and seccomp stay ours); mode "none"
applies only the limits, the seccomp filter and the parent-death signal.

Standard library only and no import of the console: it runs before anything is confined,
and imports nothing a user could plant (-I -S).
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import signal
import struct
import sys
from typing import NamedTuple

PR_SET_PDEATHSIG = 1
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2

CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
NAMESPACES = (
    CLONE_NEWNS
    | CLONE_NEWCGROUP
    | CLONE_NEWUTS
    | CLONE_NEWIPC
    | CLONE_NEWUSER
    | CLONE_NEWPID
    | CLONE_NEWNET
)

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
MNT_DETACH = 2
MS_NOATIME = 1024
MS_NODIRATIME = 2048
MS_RELATIME = 1 << 21
ST_FLAGS = {
    os.ST_NOSUID: MS_NOSUID,
    os.ST_NODEV: MS_NODEV,
    os.ST_NOEXEC: MS_NOEXEC,
    os.ST_NOATIME: MS_NOATIME,
    os.ST_NODIRATIME: MS_NODIRATIME,
    os.ST_RELATIME: MS_RELATIME,
}

INNER_ID = 65534
"""The user and group the engine runs as inside its namespace (nobody): not root there, so
it keeps no capability once it executes the engine."""

EXIT_SETUP = 70
"""The launcher could not build the sandbox; its reason is the last line of stderr."""


class _Table(NamedTuple):
    audit_arch: int
    kill: int
    tkill: int
    tgkill: int
    rt_sigqueueinfo: int
    rt_tgsigqueueinfo: int
    socket: int
    clone: int
    clone3: int
    mmap: int
    no_processes: tuple[int, ...]
    """fork and vfork, where the architecture has them: a new process is refused (EAGAIN)."""
    denied: tuple[int, ...]


# System call numbers (x86_64, aarch64) the seccomp filter refuses with EPERM.
_SYSCALLS: dict[str, _Table] = {
    "x86_64": _Table(
        audit_arch=0xC000003E,
        kill=62,
        tkill=200,
        tgkill=234,
        rt_sigqueueinfo=129,
        rt_tgsigqueueinfo=297,
        socket=41,
        clone=56,
        clone3=435,
        mmap=9,
        no_processes=(57, 58),  # fork, vfork
        denied=(
            101,  # ptrace
            310,  # process_vm_readv
            311,  # process_vm_writev
            440,  # process_madvise
            434,  # pidfd_open
            424,  # pidfd_send_signal
            438,  # pidfd_getfd
            312,  # kcmp
            425,  # io_uring_setup (its requests would bypass this filter)
            426,  # io_uring_enter
            427,  # io_uring_register
            248,  # add_key
            249,  # request_key
            250,  # keyctl
            165,  # mount
            166,  # umount2
            155,  # pivot_root
            161,  # chroot
            272,  # unshare
            308,  # setns
            428,  # open_tree
            429,  # move_mount
            430,  # fsopen
            431,  # fsconfig
            432,  # fsmount
            433,  # fspick
            442,  # mount_setattr
            321,  # bpf
            298,  # perf_event_open
            323,  # userfaultfd
            303,  # name_to_handle_at
            304,  # open_by_handle_at
            246,  # kexec_load
            320,  # kexec_file_load
            175,  # init_module
            313,  # finit_module
            176,  # delete_module
            103,  # syslog
            135,  # personality
            256,  # migrate_pages
            279,  # move_pages
            167,  # swapon
            168,  # swapoff
            169,  # reboot
            163,  # acct
            # Shared memory, which no data limit counts (anonymous shared mappings below):
            29,  # shmget
            30,  # shmat
            68,  # msgget
            240,  # mq_open
            319,  # memfd_create
            447,  # memfd_secret
        ),
    ),
    "aarch64": _Table(
        audit_arch=0xC00000B7,
        kill=129,
        tkill=130,
        tgkill=131,
        rt_sigqueueinfo=138,
        rt_tgsigqueueinfo=240,
        socket=198,
        clone=220,
        clone3=435,
        mmap=222,
        no_processes=(),
        denied=(
            117,  # ptrace
            270,  # process_vm_readv
            271,  # process_vm_writev
            440,  # process_madvise
            434,  # pidfd_open
            424,  # pidfd_send_signal
            438,  # pidfd_getfd
            272,  # kcmp
            425,  # io_uring_setup
            426,  # io_uring_enter
            427,  # io_uring_register
            217,  # add_key
            218,  # request_key
            219,  # keyctl
            40,  # mount
            39,  # umount2
            41,  # pivot_root
            51,  # chroot
            97,  # unshare
            268,  # setns
            428,  # open_tree
            429,  # move_mount
            430,  # fsopen
            431,  # fsconfig
            432,  # fsmount
            433,  # fspick
            442,  # mount_setattr
            280,  # bpf
            241,  # perf_event_open
            282,  # userfaultfd
            264,  # name_to_handle_at
            265,  # open_by_handle_at
            104,  # kexec_load
            294,  # kexec_file_load
            105,  # init_module
            273,  # finit_module
            106,  # delete_module
            116,  # syslog
            92,  # personality
            238,  # migrate_pages
            239,  # move_pages
            224,  # swapon
            225,  # swapoff
            142,  # reboot
            89,  # acct
            194,  # shmget
            196,  # shmat
            186,  # msgget
            180,  # mq_open
            279,  # memfd_create
            447,  # memfd_secret
        ),
    ),
}

AF_UNIX = 1
EPERM = 1
EAGAIN = 11
ENOSYS = 38
CLONE_THREAD = 0x00010000
MAP_SHARED = 0x01
MAP_ANONYMOUS = 0x20
_LD_W_ABS = 0x20
_JEQ = 0x15
_JGE = 0x35
_JSET = 0x45
_RET = 0x06
_ALLOW = 0x7FFF0000
_ERRNO = 0x00050000
_KILL_PROCESS = 0x80000000
_NR, _ARCH, _ARG0, _ARG3 = 0, 4, 16, 40


def _insn(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k & 0xFFFFFFFF)


def seccomp_program(own_pid: int, machine: str | None = None) -> bytes | None:
    """The filter as raw `struct sock_filter`s, or None on an architecture it does not know.

    Refused (EPERM): tracing and reading other processes, signals to any process but this
    one (`own_pid`, as the engine sees itself), sockets other than AF_UNIX, io_uring, the
    kernel keyring, mounts and new namespaces, the kernel's administrative calls, and shared
    memory (System V, POSIX queues, memfd, anonymous shared mappings), which the data limit
    does not count. Refused with EAGAIN: any new process (fork, vfork, a clone that is not a
    thread): an engine starts none, and where the engine's user is root outside its
    namespace no process limit would hold."""
    table = _SYSCALLS.get(machine or os.uname().machine)
    if table is None:
        return None
    eperm = _ERRNO | EPERM
    out = [
        _insn(_LD_W_ABS, 0, 0, _ARCH),
        _insn(_JEQ, 1, 0, table.audit_arch),
        _insn(_RET, 0, 0, _KILL_PROCESS),
        _insn(_LD_W_ABS, 0, 0, _NR),
    ]
    if table is _SYSCALLS["x86_64"]:
        # The x32 ABI's numbers (bit 30) would be a second door to every call above.
        out += [_insn(_JGE, 0, 1, 0x40000000), _insn(_RET, 0, 0, eperm)]
    for number in table.denied:
        out += [_insn(_JEQ, 0, 1, number), _insn(_RET, 0, 0, eperm)]
    # clone3's flags are behind a pointer: ENOSYS makes the C library fall back to clone.
    out += [_insn(_JEQ, 0, 1, table.clone3), _insn(_RET, 0, 0, _ERRNO | ENOSYS)]
    eagain = _ERRNO | EAGAIN
    for number in table.no_processes:
        out += [_insn(_JEQ, 0, 1, number), _insn(_RET, 0, 0, eagain)]

    def first_argument(number: int, test: int, value: int, allow_on_match: bool) -> list[bytes]:
        hit, miss = (_ALLOW, eperm) if allow_on_match else (eperm, _ALLOW)
        return [
            _insn(_JEQ, 0, 4, number),
            _insn(_LD_W_ABS, 0, 0, _ARG0),
            _insn(test, 0, 1, value),
            _insn(_RET, 0, 0, hit),
            _insn(_RET, 0, 0, miss),
        ]

    for number in (table.kill, table.tgkill, table.rt_sigqueueinfo, table.rt_tgsigqueueinfo):
        out += first_argument(number, _JEQ, own_pid, allow_on_match=True)
    out += [_insn(_JEQ, 0, 1, table.tkill), _insn(_RET, 0, 0, eperm)]
    out += first_argument(table.socket, _JEQ, AF_UNIX, allow_on_match=True)
    # clone: a new namespace is refused, a thread allowed, any other (a process) refused.
    out += [
        _insn(_JEQ, 0, 6, table.clone),
        _insn(_LD_W_ABS, 0, 0, _ARG0),
        _insn(_JSET, 0, 1, NAMESPACES),
        _insn(_RET, 0, 0, eperm),
        _insn(_JSET, 0, 1, CLONE_THREAD),
        _insn(_RET, 0, 0, _ALLOW),
        _insn(_RET, 0, 0, eagain),
    ]
    # mmap: an anonymous shared mapping is refused (a shared one of a file is its file's).
    out += [
        _insn(_JEQ, 0, 6, table.mmap),
        _insn(_LD_W_ABS, 0, 0, _ARG3),
        _insn(_JSET, 1, 0, MAP_SHARED),
        _insn(_RET, 0, 0, _ALLOW),
        _insn(_JSET, 0, 1, MAP_ANONYMOUS),
        _insn(_RET, 0, 0, eperm),
        _insn(_RET, 0, 0, _ALLOW),
    ]
    out.append(_insn(_RET, 0, 0, _ALLOW))
    return b"".join(out)


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        number = ctypes.get_errno()
        raise OSError(number, f"{what}: {os.strerror(number)}")


def _prctl(option: int, value: int) -> None:
    _check(_libc.prctl(option, ctypes.c_ulong(value), 0, 0, 0), f"prctl({option})")


def install_seccomp(program: bytes) -> None:
    buffer = ctypes.create_string_buffer(program, len(program))
    prog = _SockFprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    _check(
        _libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0),
        "seccomp",
    )


def _mount(
    source: str | None, target: str, fstype: str | None, flags: int, data: str | None
) -> None:
    def encode(text: str | None) -> bytes | None:
        return None if text is None else os.fsencode(text)

    _check(
        _libc.mount(
            encode(source), encode(target), encode(fstype), ctypes.c_ulong(flags), encode(data)
        ),
        f"mount {source} on {target}",
    )


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="ascii") as file:
        file.write(text)


def _make_place(target: str, source: str) -> str:
    """An empty folder or file at `target` for `source` to be bound on."""
    if os.path.isdir(source):
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.exists(target):
            with open(target, "wb"):
                pass
    return target


def _bind_read_only(source: str, target: str) -> None:
    _make_place(target, source)
    _mount(source, target, None, MS_BIND | MS_REC, None)
    # A remount inside a user namespace must keep the flags the source mount is locked with.
    kept = 0
    flags = os.statvfs(source).f_flag
    for st_flag, ms_flag in ST_FLAGS.items():
        if flags & st_flag:
            kept |= ms_flag
    _mount(None, target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | kept, None)


def _pivot_root(new_root: str, put_old: str) -> None:
    number = _PIVOT_ROOT[os.uname().machine]
    _check(_libc.syscall(number, os.fsencode(new_root), os.fsencode(put_old)), "pivot_root")


def _build_root(config: dict) -> None:
    """A new root: a tmpfs holding a private /tmp, read-only binds of the listed paths,
    /dev's harmless devices and a new /proc; the old root detached. As bubblewrap does it:
    a tmpfs on /tmp becomes the root for a while, the old root under /oldroot (its /tmp
    uncovered again), the binds are made from there, then the new root replaces both."""
    _mount(None, "/", None, MS_REC | MS_PRIVATE, None)
    _mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755")
    os.mkdir("/tmp/newroot")
    os.mkdir("/tmp/oldroot")
    _pivot_root("/tmp", "/tmp/oldroot")
    os.chdir("/")
    old, new = "/oldroot", "/newroot"
    _mount(new, new, None, MS_BIND | MS_REC, None)  # pivot_root needs a mount point
    # The private /tmp first: paths to read that live under the host's /tmp (a checkout or
    # a virtualenv there) are then bound inside it, not hidden by it.
    os.makedirs(new + "/tmp")
    size = int(config.get("tmp_mb", 8))
    _mount("tmpfs", new + "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, f"size={size}m,mode=1777")
    for path in config["binds"]:
        source = old + path
        if os.path.islink(source) and os.path.dirname(path) == "/":
            os.symlink(os.readlink(source), new + path)  # /lib -> usr/lib and the like
        elif os.path.exists(source):
            _bind_read_only(source, new + path)
    os.makedirs(new + "/dev")
    # No /dev/zero: a shared mapping of it is shared memory that no data limit counts.
    for device in ("null", "full", "random", "urandom"):
        target = _make_place(new + "/dev/" + device, old + "/dev/" + device)
        _mount(old + "/dev/" + device, target, None, MS_BIND, None)
    os.makedirs(new + "/proc")
    try:
        _mount("proc", new + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)
    except OSError as error:
        print(f"sandbox: no /proc ({error})", file=sys.stderr)
    else:
        for part in PROC_READ_ONLY:
            if os.path.exists(new + "/proc/" + part):
                _bind_read_only(new + "/proc/" + part, new + "/proc/" + part)
    os.chdir(new)
    _pivot_root(".", ".")
    _check(_libc.umount2(b".", MNT_DETACH), "detach the old root")
    os.chdir("/")
    _mount(None, "/", None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, None)


_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}

PROC_READ_ONLY = ("sys", "sysrq-trigger", "irq", "bus", "fs")
"""What of the new /proc is made read-only, as bubblewrap does. When the console runs as root,
the engine's user (nobody in its namespace) is root outside it, the owner of these files:
/proc/sys and /proc/sysrq-trigger would pass its write checks."""


def _limit(config: dict) -> None:
    data = int(config.get("data_bytes") or 0)
    if data:
        resource.setrlimit(resource.RLIMIT_DATA, (data, data))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_MSGQUEUE, (0, 0))  # no POSIX message queue memory
    size = int(config.get("fsize_bytes") or 16 * 1024 * 1024)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


def _confine_and_exec(config: dict, own_pid: int) -> None:
    _limit(config)
    _prctl(PR_SET_NO_NEW_PRIVS, 1)
    if config.get("seccomp", True):
        program = seccomp_program(own_pid)
        if program is not None:
            install_seccomp(program)
    argv = config["argv"]
    os.execve(argv[0], argv, dict(config.get("env") or {}))


def _die_with_parent(expected_parent: int) -> None:
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != expected_parent:  # the parent died before the line above
        print("sandbox: the console has gone", file=sys.stderr, flush=True)
        os._exit(EXIT_SETUP)


def _namespaces(config: dict) -> None:
    uid, gid = os.getuid(), os.getgid()
    _check(_libc.unshare(NAMESPACES), "unshare")
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{INNER_ID} {uid} 1")
    _write("/proc/self/gid_map", f"{INNER_ID} {gid} 1")
    # Opened before the fork: the child's pivot_root changes this process's root as well.
    null = os.open(os.devnull, os.O_RDWR)
    child = os.fork()
    if child == 0:
        try:
            os.close(null)
            _die_with_parent(0)  # the launcher is outside this pid namespace: seen as 0
            _build_root(config)
            _check(_libc.sethostname(b"sandbox", 7), "sethostname")
            _confine_and_exec(config, own_pid=1)
        except BaseException as error:
            print(f"sandbox: {error}", file=sys.stderr, flush=True)
            os._exit(EXIT_SETUP)
    # The launcher only waits; stdin and stdout belong to the engine alone.
    os.dup2(null, 0)
    os.dup2(null, 1)
    _, status = os.waitpid(child, 0)
    if os.WIFSIGNALED(status):
        os._exit(128 + os.WTERMSIG(status))
    os._exit(os.WEXITSTATUS(status))


def main() -> None:
    config = json.loads(sys.argv[1])
    try:
        _die_with_parent(int(config["parent"]))
        os.setsid()
        mode = config["mode"]
        if mode == "namespaces":
            _namespaces(config)
        elif mode == "bwrap":
            # No no_new_privs here: a setuid bubblewrap (where user namespaces are off)
            # would lose its privilege; bubblewrap sets it for the engine itself.
            _limit(config)
            argv = config["argv"]
            os.execve(argv[0], argv, {})
        else:
            _confine_and_exec(config, own_pid=os.getpid())
    except BaseException as error:
        print(f"sandbox: {error}", file=sys.stderr, flush=True)
        os._exit(EXIT_SETUP)


if __name__ == "__main__":
    main()
