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


def test_ray_search_equals_the_local_search(root, cluster):
    spec = root / "examples/search/binary.json"
    local = levelgen.search(spec, evaluations=32)
    assert lray.search(spec, evaluations=32) == local
    islands = lray.search(spec, seeds=[1, 2], evaluations=32)
    assert islands == [levelgen.search(spec, seed=s, evaluations=32) for s in (1, 2)]
