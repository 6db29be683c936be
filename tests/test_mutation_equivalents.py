"""The survivors judged equivalent (tools/mutation-equivalents.toml) still
name lines of their modules: a changed line is a mutant to judge again."""

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tools" / "mutate.py"


def _mutate():
    spec = importlib.util.spec_from_file_location("mutate", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_equivalent_names_a_line_of_a_mutated_module():
    # the check runs without Cosmic Ray (it is not installed for make test)
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--check-equivalents"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    assert "equivalents of" in run.stdout


def test_an_entry_whose_line_changed_is_reported(tmp_path):
    mutate = _mutate()
    (tmp_path / "m.py").write_text("def f(x):\n    if x == 1:\n        return 0\n")
    judged = {
        "m.py": [("if x == 1:", "if x <= 1:"), ("if x == 2:", "*")],
        "gone.py": [("return 0", "*")],
    }
    found = mutate.stale(judged, {"m.py", "gone.py"}, root=tmp_path)
    assert found == [
        "m.py: no line 'if x == 2:' (for => '*')",
        "gone.py: not a mutated module (1 entries)",
    ]
    # the control: lines that are there, of a listed module, are current
    assert mutate.stale({"m.py": [("return 0", "*")]}, {"m.py"}, root=tmp_path) == []
    assert mutate.stale({"m.py": [("return 0", "*")]}, set(), root=tmp_path) == [
        "m.py: not a mutated module (1 entries)"
    ]


def test_a_malformed_file_is_one_line_of_error(tmp_path, capsys, monkeypatch):
    mutate = _mutate()
    monkeypatch.setattr(mutate, "EQUIVALENTS", tmp_path / "equivalents.toml")
    (tmp_path / "equivalents.toml").write_text('[["m.py"]]\nwhy = "no mutants"\n')
    assert mutate.check_equivalents({"m.py"}) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
