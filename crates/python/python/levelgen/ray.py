"""levelgen on a Ray cluster: batches sharded by seed range, search evaluations as tasks.

Nothing here distributes work itself: each shard of seeds, each share of a search's batch
of candidates, or each island search is one Ray task running the same code as the local
call, so the results equal the local ones byte for byte (a map is a pure function of its
input and seed; a candidate's evaluation of its genome and map seeds; a search under an
evaluation budget of its spec and seed). Connect first with ``ray.init(...)`` (or let these functions start a
local Ray)::

    import ray, levelgen, levelgen.ray
    ray.init(num_cpus=2)
    maps = list(levelgen.ray.batch("marahel", "examples/marahel/cave.json",
                                   seeds=range(1000), shard=250))
    assert maps == [levelgen.ray.record(m) for m in
                    levelgen.batch("marahel", "examples/marahel/cave.json", seeds=range(1000))]

Inputs given as paths are read here, on the driver, and shipped as text (messages still
name the path); Mario's ``rooms``/``sections``/``macros`` directories must be readable on
the workers. Results come back as :class:`MapRecord` (a :class:`levelgen.Map` is a Rust
object and does not cross processes).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from . import _levelgen
from . import SearchResult, _document, _Loaded, _seed, batch as _local_batch, search as _local_search
from ._levelgen import Map
from .errors import ArgumentError

__all__ = ["MapRecord", "record", "batch", "search"]


@dataclass(frozen=True)
class MapRecord:
    """A map's exports as plain Python values (picklable, comparable with ``==``)."""

    kind: str
    seed: int
    width: int
    height: int
    tile_bytes: bytes
    legend: Tuple[str, ...]
    json: str
    text: str
    native_bytes: Optional[bytes]
    report_json: str

    @property
    def tiles(self):
        """The tile ids, numpy uint16 (height, width), as :attr:`levelgen.Map.tiles`."""
        import numpy as np

        return np.frombuffer(self.tile_bytes, dtype=np.uint16).reshape(self.height, self.width)

    def to_json(self) -> str:
        """As :meth:`levelgen.Map.to_json`."""
        return self.json

    def to_text(self) -> str:
        """As :meth:`levelgen.Map.to_text`."""
        return self.text

    def native(self) -> Optional[bytes]:
        """As :meth:`levelgen.Map.native`."""
        return self.native_bytes

    @property
    def report(self) -> Dict[str, Any]:
        """As :attr:`levelgen.Map.report`."""
        import json

        return json.loads(self.report_json)


def record(m: Map) -> MapRecord:
    """A map's :class:`MapRecord`."""
    import json

    return MapRecord(m.kind, m.seed, m.width, m.height, m.tiles.tobytes(), tuple(m.legend),
                     m.to_json(), m.to_text(), m.native(), json.dumps(m.report, sort_keys=True))


def _ray():
    try:
        import ray  # type: ignore[import-not-found, unused-ignore]  # an optional dependency
    except ImportError:
        raise ImportError("levelgen.ray needs Ray: pip install 'ray>=2.9'") from None
    if not ray.is_initialized():
        ray.init()
    return ray


def _load(doc: Any) -> Any:
    """A path read on the driver (its name kept for messages); other documents as given."""
    if isinstance(doc, (str, os.PathLike)) and not str(doc).lstrip().startswith("{"):
        path = os.fspath(doc)
        try:
            with open(path, encoding="utf-8") as f:
                return _Loaded(f.read(), path)
        except OSError:
            return doc  # the worker reports it with the CLI's message
    return doc


def _shard(kind: str, args: tuple, kwargs: dict, seeds: List[int], threads: Optional[int]):
    return [record(m) for m in _local_batch(kind, *args, seeds=seeds, threads=threads, **kwargs)]


def _search_task(spec: Any, seed: Optional[int], evaluations: Optional[int],
                 threads: Optional[int], check: int) -> SearchResult:
    return _local_search(spec, seed=seed, evaluations=evaluations, threads=threads, check=check)


_EVALUATORS: Dict[Tuple[Optional[str], Optional[str]], _levelgen.Evaluator] = {}


def _score_task(spec: Tuple[Optional[str], Optional[str]], genomes: List[List[float]],
                seeds: List[int], threads: Optional[int]) -> list:
    """A worker's share of a batch: the spec compiled once per worker process, then each
    genome scored on ``seeds`` as the search does."""
    evaluator = _EVALUATORS.get(spec)
    if evaluator is None:
        if len(_EVALUATORS) >= 4:
            _EVALUATORS.clear()
        evaluator = _EVALUATORS[spec] = _levelgen.Evaluator(*spec)
    return evaluator.score(genomes, seeds, threads)


class _RayScorer:
    """Scores each batch of a search as Ray tasks of ``chunk`` candidates (default: the
    batch cut into one task per CPU of the cluster), results in batch order."""

    def __init__(self, ray, spec: Tuple[Optional[str], Optional[str]], chunk: Optional[int],
                 threads: Optional[int], num_cpus: Union[int, float]):
        self._ray = ray
        self._spec = ray.put(spec)
        self._chunk = chunk
        self._threads = _task_threads(threads, num_cpus)
        self._task = _remote("score", _score_task).options(num_cpus=num_cpus)
        self.tasks = 0

    def __call__(self, genomes: List[List[float]], seeds: List[int]) -> list:
        size = self._chunk
        if size is None:
            cpus = max(1, int(self._ray.cluster_resources().get("CPU", 1)))
            size = max(1, -(-len(genomes) // cpus))
        refs = [self._task.remote(self._spec, genomes[i:i + size], seeds, self._threads)
                for i in range(0, len(genomes), size)]
        self.tasks += len(refs)
        out: list = []
        for part in self._ray.get(refs):
            out.extend(part)
        return out


def _task_threads(threads: Optional[int], num_cpus: Union[int, float]) -> int:
    """A task's threads: as many as it asked CPUs unless told (Ray places tasks by their
    CPUs, and a task on rayon's global pool would use every core of its node)."""
    return threads if threads is not None else max(1, int(num_cpus))


_REMOTE: Dict[str, Any] = {}


def _remote(name: str, fn):
    ray = _ray()
    if name not in _REMOTE:
        _REMOTE[name] = ray.remote(fn)
    return _REMOTE[name]


def batch(kind: str, *args, seeds: Iterable[int], shard: int = 1000, threads: Optional[int] = None,
          num_cpus: Union[int, float] = 1, **kwargs) -> Iterator[MapRecord]:
    """:func:`levelgen.batch` as Ray tasks: the seeds cut into shards of ``shard`` seeds
    (consecutive, so a ``range`` shards by seed range), each shard one task (asking
    ``num_cpus`` CPUs, its maps made on ``threads`` threads, default ``num_cpus``), records
    yielded in seed order.
    Every record equals ``record(levelgen.KIND(..., seed=s))``."""
    if shard < 1:
        raise ArgumentError(f"shard {shard}: expected at least 1")
    ray = _ray()
    task = _remote("shard", _shard).options(num_cpus=num_cpus)
    if kind in ("marahel", "heroes") and args:
        args = (_load(args[0]),) + tuple(args[1:])
    for key in ("script", "template", "config"):
        if key in kwargs:
            kwargs[key] = _load(kwargs[key])
    seeds = list(seeds)
    threads = _task_threads(threads, num_cpus)
    refs = [task.remote(kind, args, kwargs, seeds[i:i + shard], threads)
            for i in range(0, len(seeds), shard)]
    for ref in refs:
        yield from ray.get(ref)


def search(spec: Any, seed: Optional[int] = None, evaluations: Optional[int] = None,
           check: int = 100, seeds: Optional[Sequence[int]] = None, chunk: Optional[int] = None,
           threads: Optional[int] = None, num_cpus: Union[int, float] = 1
           ) -> Union[SearchResult, List[SearchResult]]:
    """:func:`levelgen.search` on Ray.

    Without ``seeds``: one search (``seed`` replacing the spec's), driven here, whose
    candidates are scored as Ray tasks: each batch the algorithm draws is cut into tasks of
    ``chunk`` candidates (default: one task per CPU of the cluster), each asking
    ``num_cpus`` CPUs and scoring on ``threads`` threads (default: ``num_cpus``);
    MAP-Elites' remeasure of its
    elites goes the same way. The final check (``check`` map seeds) runs here. The result
    equals the local ``levelgen.search(spec, seed=seed, evaluations=..., check=check)``
    whatever the chunk size or number of workers.

    With ``seeds``: one independent search (an island) per seed, each a single Ray task
    (asking ``num_cpus`` CPUs, on ``threads`` threads),
    returned in the order given, each equal to the local ``levelgen.search(spec, seed=s,
    evaluations=..., check=check)``.
    """
    if chunk is not None and chunk < 1:
        raise ArgumentError(f"chunk {chunk}: expected at least 1")
    if seeds is not None and seed is not None:
        raise ArgumentError("seed and seeds: give one search's seed or the islands' seeds, not both")
    ray = _ray()
    spec = _load(spec)
    if seeds is not None:
        task = _remote("search", _search_task).options(num_cpus=num_cpus)
        threads = _task_threads(threads, num_cpus)
        return ray.get([task.remote(spec, s, evaluations, threads, check) for s in seeds])
    text, path = _document(spec, "spec")
    if text is None:  # unreadable here: the local call reports it with the CLI's message
        return _local_search(spec, seed=seed, evaluations=evaluations, check=check)
    scorer = _RayScorer(ray, (text, path), chunk, threads, num_cpus)
    archive_json, log_csv = _levelgen.search(
        text, path, None if seed is None else _seed(seed), evaluations, None, int(check), scorer)
    return SearchResult(json.loads(archive_json), archive_json, log_csv)
