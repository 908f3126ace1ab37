"""Measures the CPU time (user + system) of a batch written as text by the CLI and by
`examples/python/batch_text.py`, in interleaved runs, and checks that both write the same
bytes: the figures of docs/python.md.

    python examples/python/batch_cpu.py examples/marahel/cave.json 10000 --runs 7

The CLI is `levelgen` on PATH (or `--cli PATH`). Each run writes to a temporary file;
the medians and the ratio are printed as a Markdown table. The levelgen package's modules
are byte-compiled first, as `pip install` leaves them (with PYTHONDONTWRITEBYTECODE set
and no cache, every start would compile them again).
"""

import argparse
import filecmp
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def cpu_seconds(cmd, out_path):
    """Runs `cmd` with stdout to `out_path`; its CPU time (user + system) in seconds."""
    with open(out_path, "wb") as out:
        proc = subprocess.Popen(cmd, stdout=out)
        _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(cmd)} failed")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("script")
    ap.add_argument("count", type=int)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--cli", default=shutil.which("levelgen") or "levelgen")
    args = ap.parse_args()
    import compileall

    import levelgen

    compileall.compile_dir(os.path.dirname(levelgen.__file__), quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        cli_out, py_out = os.path.join(tmp, "cli.txt"), os.path.join(tmp, "py.txt")
        cli = [args.cli, "marahel", args.script, "--count", str(args.count), "-q"]
        py = [sys.executable, os.path.join(HERE, "batch_text.py"), args.script, str(args.count)]
        start = [sys.executable, "-c", "import levelgen"]
        times = {"cli": [], "py": [], "import": []}
        for _ in range(args.runs):
            times["cli"].append(cpu_seconds(cli, cli_out))
            times["py"].append(cpu_seconds(py, py_out))
            times["import"].append(cpu_seconds(start, os.devnull))
        if not filecmp.cmp(cli_out, py_out, shallow=False):
            sys.exit("the CLI and Python wrote different bytes")
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"| {args.count} maps, {args.runs} interleaved runs | CPU median (s) | min | max |")
    print("|---|---|---|---|")
    names = {"cli": "`levelgen marahel --count`", "py": "`levelgen.batch` (batch_text.py)",
             "import": "`python -c 'import levelgen'`"}
    for k in ("cli", "py", "import"):
        print(f"| {names[k]} | {med[k]:.3f} | {min(times[k]):.3f} | {max(times[k]):.3f} |")
    print(f"\nPython / CLI: {med['py'] / med['cli']:.3f} (same bytes written)")


if __name__ == "__main__":
    main()
