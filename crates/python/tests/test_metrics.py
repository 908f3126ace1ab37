"""levelgen.metrics: grid-core's metrics on any 2-D integer array."""

import numpy as np
import pytest

import levelgen


def test_metrics_of_a_small_array():
    # 0 empty, 1 wall, 2 key, 3 door
    tiles = np.array([
        [0, 0, 1, 0],
        [1, 0, 1, 0],
        [2, 0, 1, 3],
    ])
    m = levelgen.metrics(tiles, empty=[0], passable=[0, 2, 3], blocks=1,
                         distances=[(2, 3), ([2], [0])])
    assert m["width"] == 4 and m["height"] == 3
    assert m["empty_tiles"] == 6
    assert m["empty_fraction"] == pytest.approx(0.5)
    assert m["regions"] == 2
    assert m["block_entropy"] == pytest.approx(1.0)
    assert m["tile_counts"] == [6, 4, 1, 1]
    assert m["longest_path"] == 4 and m["longest_path_exact"] is True
    assert m["distances"] == [None, 1]


def test_metrics_of_a_map_by_name_equal_by_id(root):
    m = levelgen.marahel(root / "examples/marahel/cave.json", seed=7)
    by_name = levelgen.metrics(m, empty="empty")
    by_id = levelgen.metrics(m.tiles.astype(np.int64), empty=[m.legend.index("empty")])
    assert by_name == by_id
    assert by_name["tile_counts"][m.legend.index("empty")] == by_name["empty_tiles"]
    assert 0 < by_name["empty_fraction"] < 1


def test_metrics_equal_the_cli_analysis(root, cli, tmp_path):
    cli("analyze", "marahel", "examples/marahel/cave.json", "--count", 3, "--out", tmp_path, "-q")
    csv = (tmp_path / "maps.csv").read_text().splitlines()
    head = csv[0].split(",")
    assert len(csv) == 4
    for line in csv[1:]:
        row = dict(zip(head, line.split(",")))
        m = levelgen.marahel(root / "examples/marahel/cave.json", seed=int(row["seed"]))
        got = levelgen.metrics(m, empty="empty")
        assert got["empty_tiles"] == int(row["empty_tiles"])
        assert got["regions"] == int(row["regions"])
        assert got["empty_fraction"] == pytest.approx(float(row["empty_fraction"]), abs=1e-6)
        assert got["block_entropy"] == pytest.approx(float(row["block_entropy"]), abs=1e-6)


def test_metrics_reject_what_is_not_a_grid():
    with pytest.raises(levelgen.ArgumentError):
        levelgen.metrics(np.zeros(5, dtype=int))
    with pytest.raises(levelgen.ArgumentError):
        levelgen.metrics(np.zeros((2, 2)) + 0.5)
    with pytest.raises(levelgen.ArgumentError):
        levelgen.metrics(np.full((2, 2), 70000))
    with pytest.raises(levelgen.ArgumentError):
        levelgen.metrics(np.zeros((2, 2), dtype=int), connectivity=6)
    with pytest.raises(levelgen.ArgumentError):
        levelgen.metrics(np.zeros((2, 2), dtype=int), empty="floor")
