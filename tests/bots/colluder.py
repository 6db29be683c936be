"""Two bots at one table that try to pass a byte to each other.

``colluder.py send TOKEN VALUE`` (seat 0) and ``colluder.py receive TOKEN``
(seat 1) agree beforehand on ``TOKEN`` (names of the shared objects) and on
the channels below; only the sender knows ``VALUE``.  Each channel carries the
8 bits of VALUE, bit ``i`` set when object ``i`` is held / exists / fired.

The sender sets every channel up before its ``ready`` (so before the first
``act`` of anyone) and fires inotify on its first ``act``; the receiver puts
its inotify watches up before its ``ready`` and reads every channel on its
second ``act`` (the first may be asked at the same time as the sender's).  A channel
that got through is reported by playing the illegal action ``PWNED:channel=value,...``
so the test finds it in the fault detail.
``colluder.py clean TOKEN`` removes what a sender left in the host's IPC
namespace and ``/dev/shm`` (the basic level shares them).
"""

import atexit
import ctypes
import fcntl
import glob
import os
import socket
import struct
import sys

from arena.botkit import protocol

ROLE, TOKEN = sys.argv[1], sys.argv[2]
VALUE = int(sys.argv[3]) if ROLE == "send" else 0
BITS = range(8)
libc = ctypes.CDLL(None, use_errno=True)
libc.mq_open.restype = ctypes.c_int
# files every bot can read: the same inodes in every sandbox
SHARED = sorted(glob.glob(os.path.join(os.path.dirname(os.__file__), "*.py")))[:8]
IPC_KEY = 0x4641_0000 + (int(TOKEN, 16) & 0xFF00)
F_OFD_GETLK, F_OFD_SETLK = 36, 37
FLOCK = struct.Struct("hhqqi")  # struct flock: type, whence, start, len, pid
held = []  # descriptors and sockets kept open while the sender holds its signal


def attempt(action):
    try:
        return action()
    except OSError:
        return None


def lock_query(fd, command):
    """The lock type another process holds on ``fd``'s file (F_UNLCK: none)."""
    answer = fcntl.fcntl(fd, command, FLOCK.pack(fcntl.F_WRLCK, 0, 0, 0, 0))
    return FLOCK.unpack(answer)[0]


def shm_name(bit):
    return f"/dev/shm/farm-collude-{TOKEN}-{bit}"


def mq_name(bit):
    return f"/farm-collude-{TOKEN}-{bit}".encode()


def abstract_name(bit):
    return f"\0farm-collude-{TOKEN}-{bit}"


def send():
    for bit in BITS:
        if not VALUE >> bit & 1:
            continue
        for how in ("flock", "posix", "ofd"):
            fd = os.open(SHARED[bit], os.O_RDONLY)
            held.append(fd)
            if how == "flock":
                attempt(lambda: fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB))
            else:
                command = fcntl.F_SETLK if how == "posix" else F_OFD_SETLK
                attempt(lambda: fcntl.fcntl(fd, command, FLOCK.pack(fcntl.F_RDLCK, 0, 0, 0, 0)))
        attempt(lambda: open(shm_name(bit), "w").close())
        libc.semget(IPC_KEY + bit, 1, 0o1666)  # IPC_CREAT
        fd = libc.mq_open(mq_name(bit), os.O_CREAT | os.O_RDONLY, 0o666, None)
        if fd >= 0:
            held.append(fd)
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        if attempt(lambda: server.bind(abstract_name(bit))) is None:
            held.append(server)
    atexit.register(clean_up)


def clean_up():
    """The basic level shares the host's IPC and /dev/shm: leave nothing there."""
    for bit in BITS:
        attempt(lambda: os.unlink(shm_name(bit)))
        semid = libc.semget(IPC_KEY + bit, 1, 0)
        if semid >= 0:
            libc.semctl(semid, 0, 0)  # IPC_RMID
        libc.mq_unlink(mq_name(bit))


def fire_inotify():
    for bit in BITS:
        if VALUE >> bit & 1:
            attempt(lambda: os.close(os.open(SHARED[bit], os.O_RDONLY)))


def watch():
    """inotify watches on the shared files: the sender's ``open`` shows up here."""
    fd = libc.inotify_init1(os.O_NONBLOCK)
    if fd < 0:
        return None
    return fd, {
        libc.inotify_add_watch(fd, path.encode(), 0x20): bit  # IN_OPEN
        for bit, path in enumerate(SHARED)
    }


def decode(present):
    return sum(1 << bit for bit in BITS if present(bit))


def receive(watches):
    found = {}
    if watches is not None:
        fd, bit_of = watches
        events = attempt(lambda: os.read(fd, 65536)) or b""
        seen = set()
        while len(events) >= 16:
            wd, _, _, length = struct.unpack_from("iIII", events)
            seen.add(bit_of.get(wd))
            events = events[16 + length :]
        found["inotify"] = decode(lambda b: b in seen)
    fds = [os.open(path, os.O_RDONLY) for path in SHARED]  # after reading inotify's events

    def flock_held(bit):
        try:
            fcntl.flock(fds[bit], fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        except OSError:
            return False
        fcntl.flock(fds[bit], fcntl.LOCK_UN)
        return False

    found["flock"] = decode(flock_held)
    found["posix"] = decode(
        lambda b: attempt(lambda: lock_query(fds[b], fcntl.F_GETLK)) == fcntl.F_RDLCK
    )
    found["ofd"] = decode(
        lambda b: attempt(lambda: lock_query(fds[b], F_OFD_GETLK)) == fcntl.F_RDLCK
    )
    found["dev-shm"] = decode(lambda b: os.path.exists(shm_name(b)))
    found["sysv-sem"] = decode(lambda b: libc.semget(IPC_KEY + b, 1, 0) >= 0)
    found["mqueue"] = decode(lambda b: libc.mq_open(mq_name(b), os.O_RDONLY, 0, None) >= 0)

    def abstract_taken(bit):
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.bind(abstract_name(bit))
        except OSError:
            return True
        finally:
            probe.close()
        return False

    found["abstract-socket"] = decode(abstract_taken)
    return ",".join(f"{name}={value}" for name, value in sorted(found.items()) if value)


if ROLE == "clean":
    clean_up()
    sys.exit()
wire_in, wire_out = sys.stdin.buffer, sys.stdout.buffer
watches, acts = None, 0
while (message := protocol.read_message(wire_in)) is not None:
    if message["type"] == "hello":
        if ROLE == "send":
            send()
        else:
            watches = watch()
        protocol.write_message(wire_out, {"type": "ready"})
    elif message["type"] == "act":
        action = message["legal"][0]
        acts += 1
        if acts == 1 and ROLE == "send":
            fire_inotify()
        elif acts == 2 and ROLE == "receive":
            got = receive(watches)
            action = f"PWNED:{got}" if got else action
        protocol.write_message(wire_out, {"type": "action", "action": action})
    elif message["type"] == "goodbye":
        break
