"""The baseline sandbox: limits, environment, folder, process group."""

import json
import os
import sys

from arena.sandbox import BotProcess, ResourceLimits

PROBE = r"""
import json, os, resource, sys
print(json.dumps({
    "env": dict(os.environ),
    "cwd": os.getcwd(),
    "cwd_mode": oct(os.stat(".").st_mode & 0o777),
    "sid_is_pid": os.getsid(0) == os.getpid(),
    "as": resource.getrlimit(resource.RLIMIT_AS)[0],
    "cpu": resource.getrlimit(resource.RLIMIT_CPU)[0],
    "fsize": resource.getrlimit(resource.RLIMIT_FSIZE)[0],
    "nofile": resource.getrlimit(resource.RLIMIT_NOFILE)[0],
}))
"""


def run_probe(limits=ResourceLimits()):
    process = BotProcess([sys.executable, "-c", PROBE], limits)
    report = json.loads(process.popen.stdout.readline())
    process.kill()
    return process, report


def without_namespaces(monkeypatch):
    """The basic level as on a kernel that refuses it new namespaces: a
    private folder of the host's (arena.sandbox.namespaces)."""
    from arena.sandbox import namespaces

    monkeypatch.setattr(namespaces, "available", lambda: False)


def test_limits_environment_and_private_folder(monkeypatch):
    without_namespaces(monkeypatch)
    monkeypatch.setenv("ARENA_SECRET_TOKEN", "do-not-leak")
    limits = ResourceLimits(memory=1 << 30, cpu_seconds=77, file_size=1 << 20, open_files=64)
    process, report = run_probe(limits)
    assert (report["as"], report["cpu"], report["fsize"], report["nofile"]) == (
        1 << 30,
        77,
        1 << 20,
        64,
    )
    assert "ARENA_SECRET_TOKEN" not in report["env"]
    assert set(report["env"]) <= {
        "PATH",
        "HOME",
        "TMPDIR",
        "LANG",
        "PYTHONDONTWRITEBYTECODE",
        "PYTHONUNBUFFERED",
        "LC_CTYPE",
    }
    assert report["env"]["HOME"] == report["cwd"] == process.workdir
    assert report["cwd_mode"] == "0o700"
    assert report["sid_is_pid"]
    assert not os.path.exists(process.workdir)


def test_each_bot_gets_its_own_folder(monkeypatch):
    without_namespaces(monkeypatch)
    first, second = run_probe(), run_probe()
    assert first[1]["cwd"] != second[1]["cwd"]


def test_kill_is_idempotent():
    process = BotProcess([sys.executable, "-c", "import time; time.sleep(60)"])
    process.kill()
    process.kill()
    assert process.popen.poll() is not None


def test_a_strict_bot_that_exits_by_itself_leaves_no_zombie():
    from arena.sandbox.layers import strict_available
    from arena.sandbox.process import sandbox_orphans

    assert strict_available()
    process = BotProcess([sys.executable, "-c", "pass"], level="strict")
    process.popen.wait()  # bubblewrap's monitor exited before the kill
    process.kill()
    assert sandbox_orphans() == []


def test_doctor_reports_every_layer_and_passes_its_self_test():
    from typer.testing import CliRunner

    from arena.cli import app

    result = CliRunner().invoke(app, ["doctor"])
    assert result.exit_code == 0, result.output
    for layer in (
        "process group",
        "resource limits",
        "bubblewrap",
        "no network",
        "uid per seat",
        "seccomp",
        "no file locks",
        "bot view",
        "plugin sandbox",
        "cgroups",
    ):
        assert layer in result.output
    assert "default sandbox level: strict" in result.output
    for check in (
        "cannot take file locks",
        "other packages hidden",
        "machine-wide counters hidden",
        "plugins register in the sandbox",
    ):
        assert f"ok      {check}" in result.output
    assert "FAILED" not in result.output
    assert "ok      cannot open a network socket" in result.output


def test_the_doctor_probe_sees_locks_packages_and_counters_at_the_basic_level():
    # the control for the checks above: without the strict layers each is there
    from arena.sandbox import probe

    process = BotProcess([sys.executable, probe.__file__], level="basic")
    report = json.loads(process.popen.stdout.readline())
    process.kill()
    assert report["file_lock"] and report["referee_visible"] and report["counters"]
