"""The seccomp filter loaded into strict-sandboxed bots (through bubblewrap's
``--seccomp FD``): everything is allowed except the calls a card-game bot
never needs and an attacker would -- tracing or reading other processes,
namespaces and mounts, kernel keyrings, BPF, perf, io_uring, pidfds, and every
socket but AF_UNIX (no network even if a namespace were shared)."""

from __future__ import annotations

import errno
import functools
import os
import socket
import tempfile

DENIED = (
    "ptrace", "process_vm_readv", "process_vm_writev",
    "mount", "umount2", "pivot_root", "unshare", "setns",
    "bpf", "perf_event_open", "keyctl", "add_key", "request_key",
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    "pidfd_open", "pidfd_send_signal", "pidfd_getfd",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
    "userfaultfd", "open_by_handle_at",
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
    rules.add_rule(seccomp.ERRNO(errno.EAFNOSUPPORT), "socket",
                   seccomp.Arg(0, seccomp.NE, socket.AF_UNIX))
    for flag in NAMESPACE_FLAGS:
        rules.add_rule(seccomp.ERRNO(errno.EPERM), "clone",
                       seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
    # clone3 passes its flags in memory a filter cannot read: make libc fall back to clone
    rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    with tempfile.TemporaryFile() as sink:
        rules.export_bpf(sink)
        sink.seek(0)
        return sink.read()


def program_fd() -> int:
    """A fresh file descriptor holding the program, for one bwrap to read."""
    fd = os.memfd_create("arena-seccomp", 0)
    os.write(fd, filter_program())
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
