"""Errors: levelgen.Error subclasses with the CLI's message and the place in the input."""

import json
import pickle

import pytest

import levelgen

CAVE = "examples/marahel/cave.json"


def cli_message(proc):
    assert proc.returncode == 2, proc.stderr
    text = proc.stderr.decode()
    assert text.startswith("error: ")
    return text[len("error: "):].rstrip("\n")


def test_marahel_error_carries_the_cli_message_and_path(root, cli, tmp_path):
    doc = json.loads((root / CAVE).read_text())
    doc["explorers"][0]["rules"] = ["plsu(solid) > 2 -> self(empty)"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(levelgen.MarahelError) as e:
        levelgen.marahel(bad)
    assert e.value.message == cli_message(cli("marahel", bad, ok=False))
    assert e.value.location == "explorers[0].rules[0]"
    assert e.value.source == str(bad)
    assert str(e.value) == e.value.message
    # the same document as a dict: the same place, no file
    with pytest.raises(levelgen.MarahelError) as d:
        levelgen.marahel(doc)
    assert d.value.location == "explorers[0].rules[0]" and d.value.source is None
    assert e.value.message.endswith(d.value.message)


def test_bad_json_is_located_by_line_and_column(tmp_path, cli):
    bad = tmp_path / "broken.json"
    bad.write_text('{\n  "metadata": {"min": "10x10",\n}')
    with pytest.raises(levelgen.MarahelError) as e:
        levelgen.marahel(bad)
    assert e.value.location == "3:1"
    assert e.value.message == cli_message(cli("marahel", bad, ok=False))


def test_missing_file_is_a_file_error(cli):
    with pytest.raises(levelgen.FileError) as e:
        levelgen.marahel("no/such/script.json")
    assert isinstance(e.value, OSError)
    assert e.value.message == cli_message(cli("marahel", "no/such/script.json", ok=False))


def test_heroes_error_equals_the_cli(root, cli, tmp_path):
    doc = json.loads((root / "examples/heroes/duel.json").read_text())
    doc["zones"][0]["size"] = -5
    bad = tmp_path / "t.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(levelgen.HeroesError) as e:
        levelgen.heroes(bad)
    assert e.value.message == cli_message(cli("heroes", bad, ok=False))
    with pytest.raises(levelgen.ArgumentError):
        levelgen.heroes(bad, size=50)


def test_mario_error_equals_the_cli(cli):
    with pytest.raises(levelgen.MarioError) as e:
        levelgen.mario(theme="lunar")
    assert e.value.message == cli_message(cli("mario", "--theme", "lunar", ok=False))


def test_zones_error_equals_the_cli(cli):
    with pytest.raises(levelgen.ZonesError) as e:
        levelgen.zones(zone_size=61)
    assert e.value.message == cli_message(cli("zones", "--zone-size", 61, ok=False))
    with pytest.raises(levelgen.ArgumentError):
        levelgen.zones(noise="wavy")


def test_search_error_is_located(root, tmp_path, cli):
    spec = json.loads((root / "examples/search/binary.json").read_text())
    spec["vary"][2]["int"] = [50, 10]
    bad = tmp_path / "spec.json"
    bad.write_text(json.dumps(spec))
    with pytest.raises(levelgen.SearchError) as e:
        levelgen.search(bad)
    assert e.value.location is not None
    assert e.value.message == cli_message(cli("search", bad, "--out", tmp_path / "o", ok=False))


def test_argument_errors_are_value_errors():
    with pytest.raises(ValueError):
        levelgen.marahel(CAVE, seed=-1)
    with pytest.raises(levelgen.ArgumentError):
        levelgen.marahel(42)
    with pytest.raises(levelgen.ArgumentError):
        list(levelgen.batch("tetris", seeds=range(2)))


def test_errors_pickle(root):
    with pytest.raises(levelgen.MarahelError) as e:
        levelgen.marahel({"metadata": {"min": "5x5", "max": "5x5"}})
    back = pickle.loads(pickle.dumps(e.value))
    assert type(back) is levelgen.MarahelError
    assert (back.message, back.location, back.source) == (e.value.message, e.value.location, None)
