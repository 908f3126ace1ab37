"""levelgen.search: the archive `levelgen search` writes, on any thread count."""

import json

import levelgen

SPEC = "examples/search/binary.json"


def test_search_equals_the_cli_archive(root, cli, tmp_path):
    result = levelgen.search(root / SPEC, evaluations=48, seed=3, check=2)
    cli("search", SPEC, "--budget", 48, "--seed", 3, "--check", 2, "--out", tmp_path, "-q")
    assert result.to_json().encode() == (tmp_path / "archive.json").read_bytes()
    assert result.log_csv.encode() == (tmp_path / "log.csv").read_bytes()
    assert result.evaluations == result.log[-1]["evaluations"] <= 48
    assert result.best_script["entities"] == ["empty", "solid"]


def test_search_is_the_same_on_any_thread_count_and_input_form(root):
    spec = json.loads((root / SPEC).read_text())
    one = levelgen.search(spec, evaluations=32, threads=1)
    two = levelgen.search(json.dumps(spec), evaluations=32, threads=2)
    assert one == two
    assert one.best_script == one.best[0]["script"]
    # the best script is a Marahel script levelgen.marahel runs
    assert levelgen.marahel(one.best_script, seed=0).tiles.shape == (14, 14)
