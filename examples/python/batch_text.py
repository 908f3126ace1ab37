"""Writes a batch of Marahel maps as text to stdout, the bytes of
`levelgen marahel SCRIPT --seeds 0..COUNT -q`: the Python side of the batch benchmark in
docs/python.md.

    python examples/python/batch_text.py examples/marahel/cave.json 10000 > py.txt
"""

import sys

import levelgen


def main() -> None:
    script, count = sys.argv[1], int(sys.argv[2])
    out = sys.stdout
    for m in levelgen.batch("marahel", script, seeds=range(count)):
        out.write(f"seed {m.seed}\n{m.to_text()}\n")


if __name__ == "__main__":
    main()
