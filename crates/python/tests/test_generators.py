"""Each generator's Map against the CLI's bytes for the same input and seed."""

import json
from pathlib import Path

import numpy as np
import pytest

import levelgen

CAVE = "examples/marahel/cave.json"
DUEL = "examples/heroes/duel.json"


def test_marahel_cave_shape_and_json_equal_the_cli(root, cli, monkeypatch):
    monkeypatch.chdir(root)
    m = levelgen.marahel(CAVE, seed=7)
    assert m.tiles.shape == (40, 64)
    assert m.tiles.dtype == np.uint16
    assert (m.kind, m.seed, m.width, m.height) == ("marahel", 7, 64, 40)
    out = cli("marahel", CAVE, "--seed", 7, "--format", "json").stdout
    assert m.to_json().encode() == out


def test_marahel_tiles_match_the_json_grid(root):
    m = levelgen.marahel(root / CAVE, seed=3)
    doc = json.loads(m.to_json())
    assert doc["width"] == 64 and doc["height"] == 40
    names = m.legend
    assert names[:2] == ["solid", "empty"]
    # every tile id names a legend entry, and the text is the chars of the tiles
    rows = m.to_text().splitlines()
    chars = m.chars
    assert rows == ["".join(chars[t] for t in row) for row in m.tiles]


def test_marahel_text_equals_the_cli(root, cli):
    m = levelgen.marahel(root / CAVE, seed=11)
    assert m.to_text().encode() == cli("marahel", CAVE, "--seed", 11).stdout


def test_marahel_inputs_path_string_dict_agree(root):
    text = (root / CAVE).read_text()
    by_path = levelgen.marahel(str(root / CAVE), seed=5).to_json()
    assert levelgen.marahel(root / CAVE, seed=5).to_json() == by_path
    assert levelgen.marahel(text, seed=5).to_json() == by_path
    assert levelgen.marahel(json.loads(text), seed=5).to_json() == by_path


def test_marahel_size_and_overrides_equal_the_cli(root, cli):
    m = levelgen.marahel(root / CAVE, seed=2, size=(30, 20), overrides={"metadata.min": "10x10"})
    out = cli("marahel", CAVE, "--seed", 2, "--size", "30x20", "--set", "metadata.min=10x10",
              "--format", "json").stdout
    assert m.tiles.shape == (20, 30)
    assert m.to_json().encode() == out
    assert levelgen.marahel(root / CAVE, seed=2, size="30x20",
                            overrides=["metadata.min=10x10"]).to_json() == m.to_json()


def test_heroes_json_and_hmm_equal_the_cli(root, cli, tmp_path):
    m = levelgen.heroes(root / DUEL, seed=4)
    assert m.to_json().encode() == cli("heroes", DUEL, "--seed", 4, "--format", "json").stdout
    hmm = tmp_path / "duel.hmm"
    cli("heroes", DUEL, "--seed", 4, "--out", hmm, "-q")
    assert m.native() == hmm.read_bytes()
    assert m.report["zones"] > 0 and m.report["warnings"] == []


def test_heroes_size_and_config_equal_the_cli(root, cli):
    m = levelgen.heroes(root / DUEL, seed=1, size=32, config=root / "examples/heroes/config.json")
    out = cli("heroes", DUEL, "--seed", 1, "--size", 32, "--config", "examples/heroes/config.json",
              "--format", "json").stdout
    assert m.tiles.shape == (32, 32)
    assert m.to_json().encode() == out


def test_mario_json_and_level_text_equal_the_cli(cli, tmp_path):
    m = levelgen.mario(seed=3)
    assert m.to_json().encode() == cli("mario", "--seed", 3, "--format", "json").stdout
    level = tmp_path / "level.txt"
    cli("mario", "--seed", 3, "--out", level, "-q")
    assert m.native() == level.read_bytes()
    assert m.report["playable"] is True


def test_mario_settings_equal_the_cli(cli):
    m = levelgen.mario(seed=9, difficulty=(2, 4), theme="underground", length=250)
    out = cli("mario", "--seed", 9, "--difficulty", "2:4", "--theme", "underground",
              "--length", 250, "--format", "json").stdout
    assert m.to_json().encode() == out
    assert m.width >= 250


def test_zones_json_equal_the_cli(cli):
    m = levelgen.zones(seed=2)
    assert m.to_json().encode() == cli("zones", "--seed", 2, "--format", "json").stdout
    assert m.states.shape == (20, 20)
    assert m.tiles.shape == (60, 60)
    assert int(m.states.max()) < 512


def test_zones_flags_equal_the_cli(cli):
    m = levelgen.zones(seed=5, zones=(12, 8), origin=(-3, 4), noise="simplex", seamless=True,
                       fill=0.4, connected=True)
    out = cli("zones", "--seed", 5, "--zones", "12x8", "--origin=-3,4", "--noise", "simplex",
              "--seamless", "--fill", 0.4, "--connected", "--format", "json").stdout
    assert m.to_json().encode() == out
    assert m.to_text().encode() + b"\n" == cli("zones", "--seed", 5, "--zones", "12x8",
                                               "--origin=-3,4", "--noise", "simplex",
                                               "--seamless", "--fill", 0.4, "--connected").stdout


def test_save_writes_what_the_cli_writes(root, cli, tmp_path):
    m = levelgen.marahel(root / CAVE, seed=1)
    m.save(tmp_path / "a.json")
    cli("marahel", CAVE, "--seed", 1, "--out", tmp_path / "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    for size in ("30x20", "600x400"):
        big = levelgen.marahel(root / CAVE, seed=1, size=size)
        big.save(tmp_path / "a.png")
        cli("marahel", CAVE, "--seed", 1, "--size", size, "--out", tmp_path / "b.png")
        assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()
    h = levelgen.heroes(root / "examples/heroes/duel.json", seed=2, size=32)
    h.save(tmp_path / "h.png")
    cli("heroes", "examples/heroes/duel.json", "--seed", 2, "--size", 32, "--out", tmp_path / "g.png")
    assert (tmp_path / "h.png").read_bytes() == (tmp_path / "g.png").read_bytes()
    z = levelgen.zones(seed=1, zones=(4, 4))
    z.save(tmp_path / "w.tmx")
    assert (tmp_path / "w.tmx").read_text().startswith("<?xml")
    with pytest.raises(levelgen.ArgumentError):
        m.save(tmp_path / "a.hmm")


def test_help_is_useful():
    assert "Marahel" in levelgen.marahel.__doc__
    assert "--format json" in levelgen.Map.to_json.__doc__
    assert "numpy uint16" in levelgen.Map.tiles.__doc__
    assert "seed order" in levelgen.batch.__doc__
    assert Path(levelgen.__file__).with_name("_levelgen.pyi").exists()
    assert Path(levelgen.__file__).with_name("py.typed").exists()
