"""levelgen.ray on a local Ray cluster: results equal the local run."""

import json
import os

import pytest

import levelgen

if os.environ.get("LEVELGEN_REQUIRE_RAY"):
    import ray  # CI installs Ray: a missing Ray fails there
else:
    ray = pytest.importorskip("ray", reason="Ray is not installed: the levelgen.ray tests are skipped")
import levelgen.ray as lray  # noqa: E402

CAVE = "examples/marahel/cave.json"


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_batch_of_1000_equals_the_local_batch(root, cluster):
    local = [lray.record(m) for m in levelgen.batch("marahel", root / CAVE, seeds=range(1000))]
    remote = list(lray.batch("marahel", root / CAVE, seeds=range(1000), shard=250))
    assert len(remote) == 1000
    assert remote == local
    assert remote[7].to_json() == levelgen.marahel(root / CAVE, seed=7).to_json()


def test_ray_batch_of_other_generators(root, cluster):
    local = [lray.record(m) for m in levelgen.batch("heroes", root / "examples/heroes/duel.json",
                                                     size=32, seeds=range(4))]
    remote = list(lray.batch("heroes", root / "examples/heroes/duel.json", size=32,
                             seeds=range(4), shard=2))
    assert remote == local
    assert remote[0].native() == local[0].native() is not None


def test_ray_errors_keep_their_class_and_message(root, cluster, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"metadata": {"min": "5x5", "max": "5x5"}}))
    with pytest.raises(Exception) as e:
        list(lray.batch("marahel", bad, seeds=range(2)))
    cause = e.value if isinstance(e.value, levelgen.Error) else e.value.cause
    assert isinstance(cause, levelgen.MarahelError)
    assert cause.message.startswith(str(bad))


def test_ray_search_scores_candidates_on_workers_and_equals_the_local_search(root, cluster):
    """One search whose candidates are scored as Ray tasks: the archive and log equal the
    local search's, byte for byte, whatever the number of tasks per batch (the cluster's
    two workers take them in any order)."""
    spec = root / "examples/search/binary.json"
    local = levelgen.search(spec, seed=5, evaluations=40, check=8)
    for chunk in (None, 1, 3, 64):
        remote = lray.search(spec, seed=5, evaluations=40, check=8, chunk=chunk)
        assert remote.to_json() == local.to_json(), chunk
        assert remote.log_csv == local.log_csv, chunk
    assert lray.search(json.loads(spec.read_text()), evaluations=24, check=4) == \
        levelgen.search(spec, evaluations=24, check=4)


def test_ray_search_really_hands_candidates_to_tasks(root, cluster, monkeypatch):
    """Every batch of the algorithm goes through the Ray scorer: with chunk=1 there is one
    task per candidate evaluated (the ES scores its parents again each generation, and those
    count towards the budget too)."""
    made = []
    real = lray._RayScorer

    class Counting(real):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            made.append(self)

    monkeypatch.setattr(lray, "_RayScorer", Counting)
    result = lray.search(root / "examples/search/binary.json", evaluations=20, check=2, chunk=1)
    assert made and made[0].tasks == result.evaluations == 20


def test_ray_map_elites_search_with_its_remeasure_equals_the_local_search(root, cluster):
    """MAP-Elites scores its elites again on fresh seeds before reporting the grid; that
    remeasure goes through the Ray scorer as well, and the grid is the local one."""
    spec = json.loads((root / "examples/search/cave-range.json").read_text())
    spec["algorithm"].update(initial=6, batch=4)
    spec["marahel"]["metadata"] = {"min": "12x12", "max": "12x12"}
    local = levelgen.search(spec, evaluations=14, check=2)
    remote = lray.search(spec, evaluations=14, check=2, chunk=2)
    assert remote.archive["grid"] and remote == local


def test_ray_search_errors_keep_their_class(root, cluster, tmp_path):
    with pytest.raises(levelgen.FileError):
        lray.search(tmp_path / "missing.json", evaluations=8)
    with pytest.raises(levelgen.SearchError):
        lray.search({"marahel": {}}, evaluations=8)
    with pytest.raises(levelgen.ArgumentError):
        lray.search(root / "examples/search/binary.json", evaluations=8, chunk=0)
    with pytest.raises(levelgen.ArgumentError):
        lray.search(root / "examples/search/binary.json", seed=1, seeds=[2], evaluations=8)


def test_ray_search_islands_equal_local_searches(root, cluster):
    spec = root / "examples/search/binary.json"
    islands = lray.search(spec, seeds=[1, 2], evaluations=32, check=4)
    assert islands == [levelgen.search(spec, seed=s, evaluations=32, check=4) for s in (1, 2)]


def test_a_failing_scorer_stops_the_search_with_its_exception(root, cluster, monkeypatch):
    calls = []
    real = lray._RayScorer.__call__

    def flaky(self, genomes, seeds):
        calls.append(len(genomes))
        if len(calls) == 2:
            raise ConnectionError("worker lost")
        return real(self, genomes, seeds)

    monkeypatch.setattr(lray._RayScorer, "__call__", flaky)
    with pytest.raises(ConnectionError, match="worker lost"):
        lray.search(root / "examples/search/binary.json", evaluations=64, check=2)
    assert len(calls) == 2, "no batch is drawn after the failure"
