"""Shared fixtures: the repository root and the `levelgen` CLI the bindings are compared with.

The CLI is `$LEVELGEN_BIN`, else `levelgen` in the cargo target directory's release folder
(`$CARGO_TARGET_DIR` or the workspace's `target/`), built with `cargo build --release` when
missing.
"""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _cli() -> Path:
    given = os.environ.get("LEVELGEN_BIN")
    if given:
        return Path(given).resolve()
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    exe = target / "release" / "levelgen"
    if not exe.exists():
        subprocess.run(["cargo", "build", "--release", "--bin", "levelgen"], cwd=ROOT, check=True)
    return exe


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def cli():
    exe = _cli()

    def run(*args, ok=True):
        proc = subprocess.run([str(exe), *map(str, args)], cwd=ROOT, capture_output=True)
        if ok and proc.returncode != 0:
            raise AssertionError(f"levelgen {' '.join(map(str, args))}: {proc.stderr.decode()}")
        return proc

    return run
