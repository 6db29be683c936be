"""A wheel's requirements, an environment per version: two bots whose
requirements conflict (``dep==1`` and ``dep==2``) each play with their own,
installed from wheels alone, and nothing of them runs at installation."""

from __future__ import annotations

import base64
import hashlib
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest
from test_ladder import LADDER, cli, play, submit

from arena.cli import app
from arena.ladder.entrants import LadderError
from arena.ladder.wheels import wheels_folder
from arena.results.store import Store
from arena.sandbox.view import view_for

#: a bot of module ``{module}`` that says on stderr which ``dep`` it imports
DEPBOT = """import sys

import dep
from arena.botkit import Bot


class Depbot(Bot):
    def new_game(self, game):
        sys.stderr.write(f"{module} sees dep {{dep.VERSION}}\\n")

    def act(self, observation, legal, clock):
        return legal[0]
"""
#: what would leave a mark if anything imported it at installation
MARK = "open('ran-at-install', 'a').write('{name}')\n"


def write_wheel(
    folder: Path, name: str, version: str, files: dict[str, str], requires: tuple[str, ...] = ()
) -> Path:
    """A wheel (written by hand: a zip with METADATA, WHEEL and RECORD) of
    distribution ``name`` ``version`` holding ``files``, requiring ``requires``."""
    info = f"{name}-{version}.dist-info"
    metadata = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
    files = {
        **files,
        f"{info}/METADATA": metadata + "".join(f"Requires-Dist: {r}\n" for r in requires),
        f"{info}/WHEEL": (
            "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        ),
    }
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=")
        record.append(f"{path},sha256={digest.decode()},{len(text.encode())}")
    files[f"{info}/RECORD"] = "\n".join([*record, f"{info}/RECORD,,"]) + "\n"
    wheel = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
    return wheel


def dep_wheel(folder: Path, version: str) -> Path:
    source = MARK.format(name=f"dep{version}") + f"VERSION = '{version}'\n"
    return write_wheel(folder, "dep", version, {"dep/__init__.py": source})


def bot_wheel(folder: Path, module: str, requires: str) -> Path:
    files = {
        f"{module}/__init__.py": MARK.format(name=module),
        f"{module}/bot.py": DEPBOT.format(module=module),
    }
    return write_wheel(folder, module, "1.0", files, (requires,))


def sees(folder: Path, module: str, cwd: Path) -> str:
    """The ``dep`` version the bot's module imports with ``folder`` first
    on its path (as the bot kit's ``--path`` puts it)."""
    probe = (
        f"import sys; sys.path.insert(0, {str(folder)!r}); "
        f"import dep, {module}.bot; print(dep.VERSION)"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_two_bots_with_conflicting_requirements_each_play_with_their_own(tmp_path, monkeypatch):
    results = tmp_path / "results"
    ladder = tmp_path / "ladder.toml"
    ladder.write_text(LADDER.format(results=results))
    monkeypatch.chdir(tmp_path)  # where an import at installation would leave its mark
    house = tmp_path / "house"  # the requirements' wheels, apart from one bot's
    house.mkdir()
    dep_wheel(house, "1"), dep_wheel(house, "2")
    one = bot_wheel(house, "onebot", "dep==1")  # its requirements in its own folder
    (tmp_path / "two").mkdir()
    two = bot_wheel(tmp_path / "two", "twobot", "dep==2")
    submit(results, "one", str(one), "--entry", "onebot.bot:Depbot")
    submit(results, "two", str(two), "--entry", "twobot.bot:Depbot", "--wheels", str(house))
    assert not (tmp_path / "ran-at-install").exists()  # installing ran none of it
    folders = list(wheels_folder(results).iterdir())
    assert len(folders) == 2 and not any(f.name.startswith(".") for f in folders)
    [own_one] = [f for f in folders if (f / "onebot").is_dir()]
    [own_two] = [f for f in folders if (f / "twobot").is_dir()]
    assert (own_one / "dep").is_dir() and (own_two / "dep").is_dir()  # each its requirement

    # the sandbox shows each version its own environment, not the other's
    argv_one = [sys.executable, "-m", "arena.botkit", "--path", str(own_one), "onebot.bot:Depbot"]
    binds = view_for(argv_one).binds
    assert str(own_one) in binds
    assert not any(b == str(own_two) or b.startswith(str(own_two) + "/") for b in binds)
    assert str(own_two) in view_for([*argv_one[:4], str(own_two), "twobot.bot:Depbot"]).binds

    summary = play(ladder, 4)
    assert summary.played and not summary.errors
    said: dict[str, set[str]] = {"one@v1": set(), "two@v1": set()}
    with Store(results, create=False) as store:
        games = list(store.games())
        kept = store.stderr([g.id for g in games])
    for game in games:
        for seat, s in enumerate(game.record.seats):
            assert not s.fault, game.record.seats
            if s.bot in said:
                said[s.bot].add(kept[game.id][seat].strip())
    assert said == {"one@v1": {"onebot sees dep 1"}, "two@v1": {"twobot sees dep 2"}}
    assert any({s.bot for s in g.record.seats} == {"one@v1", "two@v1"} for g in games)

    # the control: one environment shared by both (installed one after the
    # other in one folder, as pip does), one of them imports the wrong dep
    shared = tmp_path / "shared"
    for wheel in (one, two):
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--find-links"]
            + [str(house), "--target", str(shared), str(wheel)],
            check=True,
            capture_output=True,
        )
    assert {sees(shared, "onebot", tmp_path), sees(shared, "twobot", tmp_path)} == {"1"}
    assert sees(own_two, "twobot", tmp_path) == "2"  # its own environment: the right one
    assert (tmp_path / "ran-at-install").exists()  # and importing them does leave the mark


def test_a_requirement_found_only_as_source_is_refused_in_one_line(tmp_path, monkeypatch):
    results = tmp_path / "results"
    monkeypatch.chdir(tmp_path)
    house = tmp_path / "house"
    house.mkdir()
    # dep 3 as a source distribution only, whose setup.py would leave a mark
    sdist = tmp_path / "dep-3"
    sdist.mkdir()
    mark = tmp_path / "ran-at-install"
    (sdist / "setup.py").write_text(
        f"open({str(mark)!r}, 'w').write('setup')\n"
        "from setuptools import setup\nsetup(name='dep', version='3')\n"
    )
    (sdist / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: dep\nVersion: 3\n")
    subprocess.run(
        ["tar", "czf", str(house / "dep-3.tar.gz"), "-C", str(tmp_path), "dep-3"], check=True
    )
    wheel = bot_wheel(house, "threebot", "dep==3")
    done = cli.invoke(
        app,
        ["ladder", "submit", str(results), "three", str(wheel), "--entry", "threebot.bot:Depbot"],
    )
    assert done.exit_code != 0
    [line] = done.output.strip().splitlines()
    assert line.startswith("arena: error: ") and "dep==3" in line and "never from source" in line
    assert "Traceback" not in done.output
    assert not mark.exists()
    assert not any(wheels_folder(results).glob("[!.]*"))  # no environment made
    for extra, complaint in (
        (["--wheels", str(tmp_path / "nowhere"), "--entry", "threebot.bot:Depbot"], "no such"),
        (["--wheels", str(house), "--file", str(house)], "a cmd: line has none"),
    ):
        source = str(wheel) if "nowhere" in extra[1] else f"cmd:{sys.executable} -V"
        done = cli.invoke(app, ["ladder", "submit", str(results), "three", source, *extra])
        assert done.exit_code != 0 and complaint in done.output, done.output
        assert done.output.startswith("arena: error: ") and "Traceback" not in done.output
    # the control: a pip allowed source distributions runs dep 3's setup.py
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--no-build-isolation"]
        + ["--find-links", str(house), "--target", str(tmp_path / "built"), "dep==3"],
        capture_output=True,
    )
    assert mark.read_text() == "setup"


#: a project's setup.py that, when run, leaves a mark at a host path
MARKING_SETUP = """try:
    open({mark!r}, "w").write("built")
except OSError:  # not there in the sandbox: the build goes on
    pass
from setuptools import setup
setup(name="projbot", version="1.0", packages=["projbot"])
"""
#: the project's bot, saying on stderr that it plays
PROJBOT = """import sys

from arena.botkit import Bot


class Projbot(Bot):
    def new_game(self, game):
        sys.stderr.write("projbot plays\\n")

    def act(self, observation, legal, clock):
        return legal[0]
"""


def marking_project(folder: Path, mark: Path) -> Path:
    project = folder / "projbot-src"
    (project / "projbot").mkdir(parents=True)
    (project / "setup.py").write_text(MARKING_SETUP.format(mark=str(mark)))
    (project / "projbot" / "__init__.py").write_text("")
    (project / "projbot" / "bot.py").write_text(PROJBOT)
    return project


def test_a_project_folder_is_built_in_the_sandbox_and_plays(tmp_path, monkeypatch):
    results = tmp_path / "results"
    ladder = tmp_path / "ladder.toml"
    ladder.write_text(LADDER.format(results=results))
    scratch = tmp_path / "scratch"  # where the build's temporary folders go
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    mark = tmp_path / "ran-on-host"
    project = marking_project(tmp_path, mark)
    before = sorted(p.relative_to(project) for p in project.rglob("*"))
    submit(results, "proj", str(project), "--entry", "projbot.bot:Projbot")
    assert not mark.exists()  # its setup.py ran, but in the sandbox
    assert sorted(p.relative_to(project) for p in project.rglob("*")) == before  # no build/
    assert not any(scratch.iterdir())  # the built wheel's folder removed
    [environment] = [f for f in wheels_folder(results).iterdir() if not f.name.startswith(".")]
    assert (environment / "projbot" / "bot.py").read_text() == PROJBOT

    summary = play(ladder, 3)
    assert summary.played and not summary.errors
    with Store(results, create=False) as store:
        games = [g for g in store.games() if "proj@v1" in {s.bot for s in g.record.seats}]
        kept = store.stderr([g.id for g in games])
    assert games
    for game in games:
        seat = [s.bot for s in game.record.seats].index("proj@v1")
        assert not game.record.seats[seat].fault
        assert kept[game.id][seat].strip() == "projbot plays"

    # the control: the same build outside the sandbox runs setup.py on the host
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index"]
        + ["--no-cache-dir", "-w", str(tmp_path / "out"), str(project)],
        capture_output=True,
    )
    assert mark.read_text() == "built"


def test_a_broken_project_is_refused_in_one_line_and_leaves_nothing(tmp_path, monkeypatch):
    results = tmp_path / "results"
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "setup.py").write_text("raise SystemExit('this setup.py is broken')\n")
    other = tmp_path / "other-backend"  # a build backend the arena has not installed
    other.mkdir()
    (other / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["nosuchbackend"]\nbuild-backend = "nosuchbackend.api"\n'
        '[project]\nname = "other"\nversion = "1"\n'
    )
    for project, said in ((broken, "this setup.py is broken"), (other, "nosuchbackend")):
        done = cli.invoke(
            app, ["ladder", "submit", str(results), "b", str(project), "--entry", "b.bot:B"]
        )
        assert done.exit_code != 0
        [line] = done.output.strip().splitlines()
        assert line.startswith(f"arena: error: {project}: its build failed in the sandbox: ")
        assert said in line, line
        assert sorted(p.name for p in project.iterdir()) == sorted(
            ["setup.py"] if project == broken else ["pyproject.toml"]
        )
    assert not any(scratch.iterdir())
    assert not wheels_folder(results).exists() or not any(wheels_folder(results).iterdir())
    # a project without its bot class is refused before anything is built
    done = cli.invoke(app, ["ladder", "submit", str(results), "b", str(broken)])
    assert done.exit_code != 0 and "needs --entry module:Class" in done.output


def test_a_builds_output_is_held_to_a_wheels_size(monkeypatch):
    """The build is the submission's code: what it writes is read up to a
    wheel's size, and its own chatter only to its end, never whole into
    memory (the control: output within the limits comes back whole)."""
    from arena.ladder import projects

    def build(out: int, err: int):
        code = (
            f"import os; os.write(2, b'e' * {err} + b'\\nlast words\\n'); "
            f"[os.write(1, b'w' * 4096) for _ in range({out} // 4096)]"
        )
        popen = subprocess.Popen(
            [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        try:
            return projects._bounded_output(popen.stdout, popen.stderr, "p")
        finally:
            popen.kill()
            popen.wait()

    monkeypatch.setattr(projects, "MAX_WHEEL", 1 << 20)
    out, err = build(1 << 19, 1 << 20)
    assert len(out) == 1 << 19 and err.endswith(b"last words\n")
    assert len(err) == projects.STDERR_TAIL
    with pytest.raises(LadderError, match="over 1 MiB"):
        build(8 << 20, 0)
