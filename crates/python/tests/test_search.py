"""levelgen.search: the archive `levelgen search` writes, on any thread count."""

import json

import pytest

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


def _top_floor(calls):
    """A metric: the share of the top row that is floor; records each map it is given."""

    def top_floor(m):
        calls.append((m.width, m.height, tuple(m.legend)))
        floor = m.legend.index("empty")
        return float((m.tiles[0] == floor).mean())

    return top_floor


def _with_metric(root, objective):
    spec = json.loads((root / SPEC).read_text())
    spec["objectives"].append(objective)
    return spec


def test_a_python_metric_is_named_in_the_spec_and_steers_the_search(root):
    spec = _with_metric(root, {"metric": "top_floor", "weight": 2.0})
    calls = []
    result = levelgen.search(spec, evaluations=64, check=4, metrics={"top_floor": _top_floor(calls)})
    # A Marahel map's legend: the script's entities, then Marahel's own.
    assert calls and all(c == (14, 14, ("empty", "solid", "unknown", "out")) for c in calls)
    assert "top_floor" in result.archive["metrics"]
    # The value the search reports is the callable's mean on the best generator's maps.
    assert 0.0 < result.best[0]["means"]["top_floor"] <= 1.0
    # Weighted up, the search finds more floor on the top row than without it.
    plain = levelgen.search(root / SPEC, evaluations=64, check=4)
    check = lambda r: sum(  # noqa: E731 - the top row's floor share on seeds 0..7
        float((levelgen.marahel(r.best_script, seed=s).tiles[0] == 0).mean()) for s in range(8))
    assert check(result) > check(plain)


def test_a_python_metric_is_deterministic_on_any_thread_count_and_cached_per_map(root):
    spec = _with_metric(root, {"metric": "top_floor", "weight": 1.0})
    one_calls, two_calls = [], []
    one = levelgen.search(spec, evaluations=48, threads=1, check=4,
                          metrics={"top_floor": _top_floor(one_calls)})
    two = levelgen.search(json.dumps(spec), evaluations=48, threads=2, check=4,
                          metrics={"top_floor": _top_floor(two_calls)})
    assert one == two
    # Called once per distinct map: as often on one thread as on two.
    assert len(one_calls) == len(two_calls)
    maps = 48 * spec["maps"] + 20 * 4
    assert len(one_calls) < maps


def test_the_map_given_is_the_maps_json(root):
    seen = []

    def rows(m):
        doc = json.loads(m.to_json())
        seen.append((doc, m.tiles.copy(), m.legend))
        return float(len(doc["rows"]))

    spec = _with_metric(root, {"metric": "rows", "weight": 0.0})
    levelgen.search(spec, evaluations=1, check=1, metrics={"rows": rows})
    doc, tiles, legend = seen[0]
    assert (doc["width"], doc["height"]) == (14, 14) == tiles.shape[::-1]
    assert [k["name"] for k in doc["legend"]] == legend == ["empty", "solid", "unknown", "out"]
    assert doc["rows"] == [[legend[t] for t in row] for row in tiles.tolist()]


def test_a_failing_python_metric_names_itself(root):
    spec = _with_metric(root, {"metric": "broken", "weight": 1.0})
    # On the skeleton's first map, tried before the search starts: an error.
    with pytest.raises(levelgen.SearchError, match=r'metrics\."broken": metric broken: the callable raised ZeroDivisionError'):
        levelgen.search(spec, evaluations=8, metrics={"broken": lambda m: 1 / 0})
    with pytest.raises(levelgen.SearchError, match=r"metric text: the callable returned 'many', not a number"):
        levelgen.search(_with_metric(root, {"metric": "text"}), evaluations=8,
                        metrics={"text": lambda m: "many"})
    # Later, on a candidate's maps: that candidate is invalid and the search goes on.
    calls = []

    def flaky(m):
        calls.append(1)
        if len(calls) > 1:
            raise ValueError("only once")
        return 0.0

    result = levelgen.search(spec, evaluations=16, threads=1, check=2, metrics={"broken": flaky})
    assert sum(row["batch_invalid"] for row in result.log) == 16
    assert result.best == []
    assert result.archive["first_error"] == "metric broken: the callable raised ValueError: only once"


def test_python_metric_names_are_checked(root):
    spec = json.loads((root / SPEC).read_text())
    with pytest.raises(levelgen.SearchError, match=r'metrics\."regions": a built-in or registered metric has this name'):
        levelgen.search(spec, evaluations=8, metrics={"regions": lambda m: 0.0})
    with pytest.raises(levelgen.ArgumentError, match=r"metrics\['f'\]: expected a callable"):
        levelgen.search(spec, evaluations=8, metrics={"f": 3})


def test_python_metrics_are_called_from_the_search_threads(root):
    """The caller waits with the GIL released: the metric is tried on the calling thread
    when the spec is compiled, then called from the search's worker threads."""
    import threading

    native = set()

    def top(m):
        native.add(threading.get_native_id())
        return float(m.tiles[0].mean())

    spec = _with_metric(root, {"metric": "top", "weight": 0.1})
    levelgen.search(spec, evaluations=80, threads=2, check=2, metrics={"top": top})
    assert threading.get_native_id() in native
    assert len(native) >= 2
