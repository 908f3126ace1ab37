"""The examples of docs/scaling.md and docs/python.md run as written, and print what the
docs say. Shell examples run with `levelgen` on PATH in a scratch folder holding the
repository's examples/; cluster commands (sbatch, kubectl) are not run here."""

import os
import re
import subprocess
import sys

import pytest

from conftest import _cli


def blocks(root, doc, lang):
    text = (root / "docs" / doc).read_text()
    return re.findall(rf"```{lang}\n(.*?)```", text, flags=re.S)


def scratch(root, tmp_path):
    (tmp_path / "examples").symlink_to(root / "examples")
    return tmp_path


def test_scaling_shell_examples_run(root, tmp_path):
    runnable = [b for b in blocks(root, "scaling.md", "sh")
                if "sbatch" not in b and "kubectl" not in b]
    assert runnable, "docs/scaling.md has a shell example that runs on one machine"
    env = dict(os.environ, PATH=f"{_cli().parent}{os.pathsep}{os.environ['PATH']}")
    for block in runnable:
        proc = subprocess.run(["sh", "-eu", "-c", block], cwd=scratch(root, tmp_path), env=env,
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip() == "identical"


def test_merge_names_missing_parts(root, tmp_path):
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "part-000001.txt").write_text("x")
    proc = subprocess.run(["sh", str(root / "examples/scaling/merge.sh"), "parts", "3"],
                          cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 1
    assert "missing parts: 0 2" in proc.stderr


def test_python_examples_run(root, tmp_path, monkeypatch):
    monkeypatch.chdir(scratch(root, tmp_path))
    for block in blocks(root, "python.md", "python"):
        needs = [m for m in ("pcg_benchmark", "ray") if re.search(rf"^import .*\b{m}\b", block, re.M)]
        missing = [m for m in needs if not _importable(m)]
        if missing:
            print(f"skipped a docs/python.md example: {', '.join(missing)} not installed",
                  file=sys.stderr)
            continue
        if "ray" in needs:
            continue  # the Ray examples are run by test_ray.py on a local cluster
        exec(compile(block, "docs/python.md", "exec"), {})


def _importable(name):
    try:
        __import__(name)
        return True
    except ImportError:
        return False


def test_the_batch_cpu_benchmark_runs_and_compares_the_bytes(root, tmp_path):
    """docs/python.md's speed table comes from examples/python/batch_cpu.py: it runs (here
    on 200 maps, one round) and checks that the CLI and Python wrote the same bytes."""
    proc = subprocess.run([sys.executable, str(root / "examples/python/batch_cpu.py"),
                           "examples/marahel/cave.json", "200", "--runs", "1", "--cli", str(_cli())],
                          cwd=root, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "| `levelgen.batch` (batch_text.py) |" in proc.stdout
    assert "(same bytes written)" in proc.stdout
