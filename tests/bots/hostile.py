"""A bot that attacks the arena, one way per MODE (first argument).

It answers the hello, then on its first ``act`` runs the attack.  An attack
that *succeeds* is reported by playing the illegal action ``PWNED:<what>``,
so a test only has to look for ``PWNED`` in the fault detail; an attack that
is contained leaves the bot playing legal moves (or faulted by the referee
for the resources it burned).  Further arguments: the referee's pid, a
secret the referee holds in its environment, a localhost port.
"""

import ctypes
import glob
import os
import signal
import socket
import sys
import time

from arena.botkit import protocol

MODE, REFEREE_PID, SECRET, PORT = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
wire_in, wire_out = sys.stdin.buffer, sys.stdout.buffer
libc = ctypes.CDLL(None, use_errno=True)
BAIT = os.urandom(8).hex().encode()  # this bot's own secret, left in its folder
ESCAPED = []


def reply(action):
    protocol.write_message(wire_out, {"type": "action", "action": action})


def readable(path, size=4096):
    try:
        with open(path, "rb") as f:
            return f.read(size)
    except OSError:
        return b""


def memory_of(pid, budget=256 << 20):
    """The writable memory of another process, as far as we may read it."""
    try:
        with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb", 0) as mem:
            for line in maps:
                span, perms = line.split()[:2]
                if not perms.startswith("rw"):
                    continue
                start, end = (int(x, 16) for x in span.split("-"))
                try:
                    mem.seek(start)
                    chunk = mem.read(min(end - start, budget))
                except (OSError, OverflowError, ValueError):
                    continue
                budget -= len(chunk)
                yield chunk
                if budget <= 0:
                    return
    except OSError:
        return


def fill(folder):
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    block = b"x" * (1 << 20)
    for n in range(100_000):
        try:
            with open(os.path.join(folder, f"fill{n}"), "wb") as f:
                while True:
                    f.write(block)
        except OSError:
            if n > 200:
                return


def attack(legal):
    """Return a legal action when contained; ``PWNED:...`` on success."""
    if MODE == "fork-bomb":
        while True:
            try:
                os.fork()
            except OSError:
                pass
    if MODE == "memory-hog":
        hoard = []
        while True:
            hoard.append(bytearray(64 << 20))
    if MODE in ("disk-filler", "shm-filler"):
        fill(os.environ["HOME"] if MODE == "disk-filler" else "/dev/shm")
        return legal[0]
    if MODE == "stdout-flood":
        while True:
            wire_out.write(b"x" * (1 << 20))
    if MODE == "stderr-flood":
        for _ in range(50):
            sys.stderr.write("y" * (1 << 20))
        return legal[0]
    if MODE == "infinite-loop":
        while True:
            pass
    if MODE == "setsid-escapee":
        if not ESCAPED and os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                time.sleep(3600)
            os._exit(0)
        ESCAPED.append(True)  # once: more would only exhaust our own process limit
        return legal[0]
    if MODE == "network":
        try:
            socket.create_connection(("127.0.0.1", PORT), timeout=1).close()
            return "PWNED:network"
        except OSError:
            return legal[0]
    if MODE == "referee-proc":
        if REFEREE_PID not in (os.getpid(), 1):
            if readable(f"/proc/{REFEREE_PID}/environ"):
                return "PWNED:referee-environ"
            if any(SECRET.encode() in chunk for chunk in memory_of(REFEREE_PID)):
                return "PWNED:referee-mem"
        return legal[0]
    if MODE == "other-seat":
        # another seat's folder and memory: any bait that is not our own
        for path in glob.glob("/tmp/**/bait.txt", recursive=True) + glob.glob(
            "/proc/[0-9]*/root/tmp/bait.txt"
        ):
            found = readable(path)
            if found and found != BAIT:
                return f"PWNED:{path}"
        for pid in (
            p for p in os.listdir("/proc") if p.isdigit() and int(p) not in (os.getpid(), 1)
        ):
            if any(memory_of(pid, budget=1)):
                return f"PWNED:mem-{pid}"
        return legal[0]
    if MODE == "ptrace":
        for pid in (REFEREE_PID, 1, os.getppid()):
            if libc.ptrace(16, pid, 0, 0) == 0:  # PTRACE_ATTACH
                return f"PWNED:ptrace-{pid}"
        return legal[0]
    if MODE == "kill":
        for pid in [REFEREE_PID] + [
            int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) not in (os.getpid(), 1)
        ]:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        return legal[0]
    if MODE == "write-outside":
        for path in (
            "/work/PWNED",
            "/root/PWNED",
            "/etc/PWNED",
            "/usr/PWNED",
            os.path.join(os.path.dirname(protocol.__file__), "PWNED"),
        ):
            try:
                with open(path, "w") as f:
                    f.write("x")
            except OSError:
                continue
        return legal[0]
    if MODE == "inherited-fds":
        # anything the referee left open to us: its state, its store, other pipes
        for fd in os.listdir("/proc/self/fd"):
            target = (
                os.readlink(f"/proc/self/fd/{fd}") if os.path.exists(f"/proc/self/fd/{fd}") else ""
            )
            if int(fd) > 2 and "/proc" not in target and target:
                return f"PWNED:fd-{fd}-{target}"[:100]
        return legal[0]
    if MODE == "header-2g":
        wire_out.write(protocol.HEADER.pack(2**31))
        wire_out.flush()
        time.sleep(3600)
    raise SystemExit(f"unknown mode {MODE}")


while (message := protocol.read_message(wire_in)) is not None:
    if message["type"] == "hello":
        protocol.write_message(wire_out, {"type": "ready"})
        with open(os.path.join(os.environ["HOME"], "bait.txt"), "wb") as f:
            f.write(BAIT)  # for the other seat's attack to find, if it can
    elif message["type"] == "act":
        reply(attack(message["legal"]))
    elif message["type"] == "goodbye":
        break
