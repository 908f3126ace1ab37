"""levelgen.batch: seed order, equality with single maps and the CLI, any thread count."""

import threading
import time

import pytest

import levelgen

CAVE = "examples/marahel/cave.json"


def jsons(maps):
    return [m.to_json() for m in maps]


def test_batch_equals_single_maps_in_seed_order(root):
    maps = list(levelgen.batch("marahel", root / CAVE, seeds=range(10, 30), chunk=7))
    assert [m.seed for m in maps] == list(range(10, 30))
    assert jsons(maps) == [levelgen.marahel(root / CAVE, seed=s).to_json() for s in range(10, 30)]


def test_batch_is_the_same_on_any_thread_count(root):
    seeds = range(40)
    one = jsons(levelgen.batch("marahel", root / CAVE, seeds=seeds, threads=1))
    two = jsons(levelgen.batch("marahel", root / CAVE, seeds=seeds, threads=2, chunk=5))
    every = jsons(levelgen.batch("marahel", root / CAVE, seeds=seeds))
    assert one == two == every


@pytest.mark.parametrize("kind,args,kwargs", [
    ("heroes", ("examples/heroes/duel.json",), {"size": 32}),
    ("mario", (), {"length": 120}),
    ("zones", (), {"zones": (6, 5)}),
])
def test_batch_of_each_generator_equals_the_cli_count(root, cli, tmp_path, monkeypatch, kind, args, kwargs):
    monkeypatch.chdir(root)
    maps = list(levelgen.batch(kind, *args, seeds=range(3, 6), threads=2, **kwargs))
    flags = {"heroes": ["--size", 32], "mario": ["--length", 120], "zones": ["--zones", "6x5"]}[kind]
    cli(kind, *args, *flags, "--seed", 3, "--count", 3, "--format", "json", "--out", tmp_path, "-q")
    stem = {"heroes": "duel"}.get(kind, kind)
    for m in maps:
        assert m.to_json().encode() == (tmp_path / f"{stem}_{m.seed}.json").read_bytes()


def test_cli_seed_range_pieces_equal_one_batch(root, cli, tmp_path):
    cli("marahel", CAVE, "--seeds", "100..104", "--format", "json", "--out", tmp_path, "-q")
    maps = levelgen.batch("marahel", root / CAVE, seeds=range(100, 104))
    for m in maps:
        assert m.to_json().encode() == (tmp_path / f"cave_{m.seed}.json").read_bytes()


def test_batch_takes_any_seed_sequence(root):
    maps = list(levelgen.batch("marahel", root / CAVE, seeds=[9, 2, 9]))
    assert [m.seed for m in maps] == [9, 2, 9]
    assert maps[0].to_json() == maps[2].to_json() != maps[1].to_json()
    assert list(levelgen.batch("marahel", root / CAVE, seeds=[])) == []


def test_batch_checks_its_input_before_iterating(root):
    with pytest.raises(levelgen.MarahelError):
        levelgen.batch("marahel", {"entities": ["a"]}, seeds=range(3))
    with pytest.raises(levelgen.ArgumentError):
        levelgen.batch("marahel", root / CAVE, seeds=range(3), threads=0)


def test_batch_releases_the_gil(root):
    """Python keeps running while a batch generates: the main thread's loop never stalls
    for long while another thread is inside the batch (holding the GIL, it would stall for
    the whole batch)."""
    job = levelgen._prepare("marahel", root / CAVE, size=(300, 300))
    spans = []

    def work():
        t0 = time.perf_counter()
        job.run(list(range(256)))
        spans.append(time.perf_counter() - t0)

    t = threading.Thread(target=work)
    t.start()
    stamps = []
    while t.is_alive():
        stamps.append(time.perf_counter())
    t.join()
    gaps = [b - a for a, b in zip(stamps, stamps[1:])]
    assert spans[0] > 0.05, "the batch is long enough to tell"
    assert max(gaps) < spans[0] / 2
