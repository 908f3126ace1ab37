"""levelgen.pcg: maps in the PCG Benchmark's representations."""

import json

import numpy as np
import pytest

import levelgen
from levelgen import pcg


def skeleton(root, name):
    return json.loads((root / "examples/search" / name).read_text())["marahel"]


def test_binary_marks_empty_one_and_solid_zero(root):
    m = levelgen.marahel(skeleton(root, "binary.json"), seed=1)
    b = pcg.binary(m)
    assert b.shape == (14, 14)
    empty = m.legend.index("empty")
    assert np.array_equal(b, (m.tiles == empty).astype(np.int64))


def test_zelda_ids(root):
    m = levelgen.marahel(skeleton(root, "zelda.json"), seed=2)
    z = pcg.zelda(m)
    assert z.shape == (7, 11)
    for name, zid in [("solid", 0), ("empty", 1), ("player", 2), ("key", 3), ("door", 4), ("enemy", 5)]:
        assert np.array_equal(z == zid, m.tiles == m.legend.index(name)), name
    assert (z == 2).sum() == 1


def test_sokoban_mdungeons_and_unknown_names(root):
    doc = {"metadata": {"min": "6x6", "max": "6x6"}, "entities": ["wall", "floor", "crate"],
           "explorers": [{"type": "narrow_horz", "region": "map", "rules": ["-> self(floor)"]},
                         {"type": "narrow_horz", "region": "map", "parameters": {"changes": 1},
                          "rules": ["self(floor) -> self(crate)"]}]}
    m = levelgen.marahel(doc, seed=0)
    s = pcg.sokoban(m, crop=1)
    assert s.shape == (4, 4) and set(np.unique(pcg.sokoban(m))) <= {1, 3}
    with pytest.raises(levelgen.ArgumentError):
        pcg.mdungeons(m)
    d = pcg.mdungeons(m, mapping={"crate": 5})
    assert (d == 5).sum() == (m.tiles == 2).sum()
    with pytest.raises(levelgen.ArgumentError):
        pcg.convert(m, "tetris")


def test_smbtile_from_a_mario_level():
    m = levelgen.mario(seed=3)
    t = pcg.smbtile(m)
    assert t.shape == (16, m.width)
    assert 0 <= t.min() and t.max() <= 9
    chars = m.chars
    ground = chars.index("X")
    assert np.array_equal(t == 1, m.tiles == ground)


def test_scoring_with_the_pcg_benchmark(root):
    """The documented example (docs/python.md), where the benchmark is installed."""
    pcg_benchmark = pytest.importorskip(
        "pcg_benchmark", reason="pcg_benchmark is not installed (the user's install): skipped")
    maps = levelgen.batch("marahel", skeleton(root, "binary.json"), seeds=range(8))
    env = pcg_benchmark.make("binary-v0")
    quality, diversity, _, details, infos = env.evaluate([pcg.binary(m) for m in maps])
    assert 0 <= quality <= 1 and 0 <= diversity <= 1
    zmaps = levelgen.batch("marahel", skeleton(root, "zelda.json"), seeds=range(8))
    env = pcg_benchmark.make("zelda-v0")
    quality, diversity, _, details, infos = env.evaluate([pcg.zelda(m) for m in zmaps])
    assert len(details["quality"]) == 8
