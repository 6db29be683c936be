"""The seccomp filter loaded into strict-sandboxed bots (through bubblewrap's
``--seccomp FD``): everything is allowed except the calls a card-game bot
never needs and an attacker would -- tracing or reading other processes,
namespaces and mounts, kernel keyrings, BPF, perf, io_uring, pidfds, and every
socket but AF_UNIX (no network even if a namespace were shared).

It also closes channels *between* bots.  The read-only mounts are the same
inodes in every sandbox, so a lock taken on a shared file (``flock``,
``fcntl`` record and open-file-description locks) is seen by every other bot:
file locks (and leases and dnotify) fail with ``ENOLCK``.  Likewise inotify (an ``open`` of a shared
file is an event in another bot's watch), ``mincore`` (which pages of a shared
file another bot touched) and ``sysinfo`` (the machine-wide process count and
free memory another bot can move) are denied."""

from __future__ import annotations

import errno
import functools
import os
import socket
import tempfile

DENIED = (
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "mount",
    "umount2",
    "pivot_root",
    "unshare",
    "setns",
    "bpf",
    "perf_event_open",
    "keyctl",
    "add_key",
    "request_key",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "pidfd_open",
    "pidfd_send_signal",
    "pidfd_getfd",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "userfaultfd",
    "open_by_handle_at",
    # channels between bots through shared kernel objects
    "inotify_init",
    "inotify_init1",
    "inotify_add_watch",
    "fanotify_init",
    "fanotify_mark",
    "mincore",
    "sysinfo",
)
#: file locks: every lock of ``flock`` and the ``fcntl`` commands below --
#: record and OFD locks, and leases and dnotify, which tell the holder when
#: another process opens or reads a shared file
LOCK_SYSCALLS = ("fcntl", "fcntl64")
LOCK_COMMANDS = (
    5,
    6,
    7,  # F_GETLK, F_SETLK, F_SETLKW
    36,
    37,
    38,  # F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW
    1024,
    1025,
    1026,  # F_SETLEASE, F_GETLEASE, F_NOTIFY
)
#: clone flags that would create namespaces: NEWNS, NEWCGROUP, NEWUTS, NEWIPC,
#: NEWUSER, NEWPID, NEWNET
NAMESPACE_FLAGS = (0x20000, 0x2000000, 0x4000000, 0x8000000, 0x10000000, 0x20000000, 0x40000000)


def available() -> bool:
    try:
        import pyseccomp  # noqa: F401
    except (ImportError, OSError):
        return False
    return True


@functools.lru_cache(maxsize=1)
def filter_program() -> bytes:
    """The BPF program, built once per process with libseccomp."""
    import pyseccomp as seccomp

    rules = seccomp.SyscallFilter(seccomp.ALLOW)
    for name in DENIED:
        rules.add_rule(seccomp.ERRNO(errno.EPERM), name)
    rules.add_rule(seccomp.ERRNO(errno.ENOLCK), "flock")
    for name in LOCK_SYSCALLS:
        if _native(seccomp, name):
            for command in LOCK_COMMANDS:
                rules.add_rule(
                    seccomp.ERRNO(errno.ENOLCK), name, seccomp.Arg(1, seccomp.EQ, command)
                )
    rules.add_rule(
        seccomp.ERRNO(errno.EAFNOSUPPORT), "socket", seccomp.Arg(0, seccomp.NE, socket.AF_UNIX)
    )
    for flag in NAMESPACE_FLAGS:
        rules.add_rule(
            seccomp.ERRNO(errno.EPERM), "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag)
        )
    # clone3 passes its flags in memory a filter cannot read: make libc fall back to clone
    rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    with tempfile.TemporaryFile() as sink:
        rules.export_bpf(sink)
        sink.seek(0)
        return sink.read()


def _native(seccomp, name: str) -> bool:
    """Whether this machine's architecture has the call (``fcntl64`` is 32-bit only)."""
    try:
        return seccomp.resolve_syscall(seccomp.system_arch(), name) >= 0
    except (ValueError, OSError, RuntimeError):
        return False


def program_fd() -> int:
    """A fresh file descriptor holding the program, for one bwrap to read."""
    fd = os.memfd_create("arena-seccomp", 0)
    os.write(fd, filter_program())
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
