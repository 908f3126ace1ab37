"""levelgen: procedural level generators for 2D tile games, from Python.

Each generator returns a :class:`Map`: ``.tiles`` (numpy ``uint16``, rows first),
``.legend`` (tile names), ``.to_json()`` (what ``levelgen KIND ... --format json`` writes),
``.native()`` (the generator's own format), ``.report`` (warnings and figures)::

    import levelgen
    m = levelgen.marahel("examples/marahel/cave.json", seed=7)
    m.tiles.shape          # (40, 64)

Inputs (scripts, templates, configs, search specs) may be a path, a JSON string or a dict.
:func:`batch` makes many maps on the crates' threads with the GIL released; :func:`metrics`
measures any 2-D integer array; :func:`search` runs a search spec. :mod:`levelgen.pcg`
converts maps to the PCG Benchmark's representations and :mod:`levelgen.ray` runs batches
and searches as Ray tasks. Errors are :class:`levelgen.Error` subclasses.
"""

from __future__ import annotations

import os as _os
from collections.abc import Mapping

# The annotations are strings (`from __future__ import annotations`): importing `typing`
# only for type checkers keeps `import levelgen` from costing a Python start-up's worth
# of CPU time again (docs/python.md, batch speed).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

    _Document = Union[str, "_os.PathLike[str]", Mapping[str, Any]]
    """A path, a JSON string (starting with ``{``) or a dict."""

from . import _levelgen
from ._levelgen import Map, MetricMap, __version__
from .errors import (
    ArgumentError,
    Error,
    FileError,
    HeroesError,
    MarahelError,
    MarioError,
    SearchError,
    ZonesError,
)

__all__ = [
    "Map",
    "MetricMap",
    "marahel",
    "heroes",
    "mario",
    "zones",
    "batch",
    "metrics",
    "search",
    "SearchResult",
    "Error",
    "FileError",
    "ArgumentError",
    "MarahelError",
    "HeroesError",
    "MarioError",
    "ZonesError",
    "SearchError",
    "__version__",
]

KINDS = ("marahel", "heroes", "mario", "zones")


class _Loaded:
    """A document read from ``path`` already (by :mod:`levelgen.ray`'s driver): its text is
    used, its path names it in messages."""

    def __init__(self, text: str, path: str):
        self.text = text
        self.path = path

    def __reduce__(self):
        return (_Loaded, (self.text, self.path))


def _document(doc: Any, what: str) -> Tuple[Optional[str], Optional[str]]:
    """``(text, path)``: a dict is dumped, a string starting with ``{`` is JSON text,
    anything else is a path the Rust side reads (with the CLI's message on failure)."""
    if isinstance(doc, _Loaded):
        return doc.text, doc.path
    if isinstance(doc, Mapping):
        import json

        return json.dumps(doc), None
    if isinstance(doc, bytes):
        doc = doc.decode("utf-8")
    if isinstance(doc, str) and doc.lstrip().startswith("{"):
        return doc, None
    if isinstance(doc, (str, _os.PathLike)):
        return None, _os.fspath(doc)
    raise ArgumentError(f"{what}: expected a path, a JSON string or a dict, got {type(doc).__name__}")


def _overrides(overrides: Any, what: str = "overrides") -> List[str]:
    """``PATH=VALUE`` strings (the CLI's ``--set``) from a dict ``{path: value}`` (values as
    JSON) or a list of such strings."""
    if overrides is None:
        return []
    if isinstance(overrides, Mapping):
        import json

        return [f"{k}={json.dumps(v)}" for k, v in overrides.items()]
    if isinstance(overrides, str):
        return [overrides]
    out = list(overrides)
    if not all(isinstance(s, str) for s in out):
        raise ArgumentError(f"{what}: expected a dict {{path: value}} or a list of 'PATH=VALUE' strings")
    return out


def _size(size: Any) -> Optional[Tuple[int, int]]:
    return None if size is None else _pair(size)


def _pair(size: Any) -> Tuple[int, int]:
    if isinstance(size, str):
        parts = size.lower().split("x")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise ArgumentError(f"size {size!r}: expected 'WxH' or (width, height)")
        return int(parts[0]), int(parts[1])
    try:
        w, h = size
        return int(w), int(h)
    except (TypeError, ValueError):
        raise ArgumentError(f"size {size!r}: expected 'WxH' or (width, height)") from None


def _seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ArgumentError(f"seed {seed!r}: expected an integer in 0..2**64")
    return seed


# --- preparing a generator (what the CLI does before its first map) ---------------------


def _prepare_marahel(script: _Document, size=None, overrides=None, strict: bool = False):
    text, path = _document(script, "script")
    return _levelgen.prepare_marahel(text, path, _size(size), _overrides(overrides), bool(strict))


def _side(size: Any) -> Optional[int]:
    if size is None:
        return None
    if isinstance(size, int) and not isinstance(size, bool):
        return size
    w, h = _pair(size)
    if w != h:
        raise ArgumentError(f"size {w}x{h}: a Heroes map is square (32, 64, 128 or 256)")
    return w


def _prepare_heroes(template: _Document, size=None, players=None, config=None,
                    template_name=None, overrides=None, config_overrides=None):
    text, path = _document(template, "template")
    ctext, cpath = (None, None) if config is None else _document(config, "config")
    return _levelgen.prepare_heroes(
        text, path, _side(size), players, template_name, ctext, cpath,
        _overrides(overrides), _overrides(config_overrides, "config_overrides"),
    )


def _difficulty(d: Any) -> Optional[Tuple[float, float]]:
    if d is None:
        return None
    if isinstance(d, (int, float)):
        return float(d), float(d)
    if isinstance(d, str):
        parts = d.split(":")
        try:
            vals = [float(p) for p in parts]
        except ValueError:
            raise ArgumentError(f"difficulty {d!r}: expected 'A' or 'A:B' (numbers)") from None
        if len(vals) not in (1, 2):
            raise ArgumentError(f"difficulty {d!r}: expected 'A' or 'A:B' (numbers)")
        return vals[0], vals[-1]
    a, b = d
    return float(a), float(b)


def _prepare_mario(difficulty=None, theme: str = "overground", length: int = 0, height: int = 16,
                   sequence=None, check: bool = True, reference: bool = False, strict: bool = False,
                   rooms=None, sections=None, macros=None, overrides=None):
    path = lambda p: None if p is None else _os.fspath(p)  # noqa: E731
    if isinstance(sequence, str):
        sequence = sequence.split(",")
    return _levelgen.prepare_mario(
        path(rooms), path(sections), path(macros), theme, bool(strict), int(height), int(length),
        _difficulty(difficulty), None if sequence is None else list(sequence), bool(reference),
        bool(check), _overrides(overrides),
    )


def _prepare_zones(zones=(20, 20), origin=(0, 0), noise: str = "worley", distance: str = "chebyshev",
                   worley: str = "f1", scale=None, octaves: int = 1, persistence: float = 0.5,
                   threshold=None, fill=None, seamless: bool = False, connected=None,
                   zone_size: int = 60, stride: int = 2, biomes: bool = False, overrides=None):
    flags = ["--noise", str(noise), "--distance", str(distance), "--worley", str(worley),
             "--octaves", str(int(octaves)), "--persistence", repr(float(persistence)),
             "--zone-size", str(int(zone_size)), "--stride", str(int(stride))]
    if scale is not None:
        flags += ["--scale", repr(float(scale))]
    if threshold is not None:
        flags += ["--threshold", repr(float(threshold))]
    if fill is not None:
        flags += ["--fill", repr(float(fill))]
    if seamless:
        flags.append("--seamless")
    if connected:
        flags.append("--connected" if connected is True else "--connected=" + str(connected))
    w, h = _pair(zones)
    ox, oy = origin
    return _levelgen.prepare_zones(flags, _overrides(overrides), bool(biomes), (w, h), (int(ox), int(oy)))


_PREPARE: Dict[str, Callable[..., Any]] = {
    "marahel": _prepare_marahel,
    "heroes": _prepare_heroes,
    "mario": _prepare_mario,
    "zones": _prepare_zones,
}


def _prepare(kind: str, *args, **kwargs):
    try:
        prepare = _PREPARE[kind]
    except (KeyError, TypeError):
        raise ArgumentError(f"kind {kind!r}: expected one of {', '.join(KINDS)}") from None
    return prepare(*args, **kwargs)


# --- one map ---------------------------------------------------------------------------


def marahel(script: _Document, seed: int = 0, size=None, overrides=None, strict: bool = False) -> Map:
    """Runs a Marahel script (``levelgen marahel SCRIPT --seed SEED``).

    ``size``: ``(width, height)`` or ``"WxH"`` overriding the script's metadata (``--size``).
    ``overrides``: ``{path: value}`` or ``["PATH=VALUE", ...]`` changed in the script first
    (``--set``). ``strict``: warnings are errors (``--strict``).
    """
    return _prepare_marahel(script, size, overrides, strict).generate(_seed(seed))


def heroes(template: _Document, seed: int = 0, size=None, players: Optional[int] = None,
           config: Optional[_Document] = None, template_name: Optional[str] = None,
           overrides=None, config_overrides=None) -> Map:
    """A Heroes zone map from a template (``levelgen heroes TEMPLATE --seed SEED``).

    ``size``: the side, 32, 64, 128 or 256 (or ``"64x64"``; default: the config's
    ``mapSize``). ``players`` and ``template_name`` pick from a VCMI template file.
    ``config``: the config document (default: the built-in one). ``overrides`` and
    ``config_overrides`` are ``--set`` and ``--config-set``. ``Map.native()`` is the ``.hmm``.
    """
    return _prepare_heroes(template, size, players, config, template_name, overrides,
                           config_overrides).generate(_seed(seed))


def mario(seed: int = 0, difficulty=None, theme: str = "overground", length: int = 0,
          height: int = 16, sequence=None, check: bool = True, reference: bool = False,
          strict: bool = False, rooms=None, sections=None, macros=None, overrides=None) -> Map:
    """A Mario level from the embedded room library (``levelgen mario --seed SEED``).

    ``difficulty``: ``D``, ``(A, B)`` or ``"A:B"`` from 1 to 5 (default 1:3). ``theme``:
    overground, underground, athletic or castle. ``length``: minimum columns. ``sequence``:
    section roles (``"intro,intro,hard,twist,hard"``). ``check=False`` skips the playability
    check. ``rooms``/``sections``/``macros``: directories replacing the theme's parts.
    ``Map.native()`` is the Mario AI level text.
    """
    return _prepare_mario(difficulty, theme, length, height, sequence, check, reference, strict,
                          rooms, sections, macros, overrides).generate(_seed(seed))


def zones(seed: int = 0, zones=(20, 20), origin=(0, 0), noise: str = "worley",
          distance: str = "chebyshev", worley: str = "f1", scale=None, octaves: int = 1,
          persistence: float = 0.5, threshold=None, fill=None, seamless: bool = False,
          connected=None, zone_size: int = 60, stride: int = 2, biomes: bool = False,
          overrides=None) -> Map:
    """A zones world (``levelgen zones --seed SEED``): each keyword is the CLI flag of the
    same name (``zones`` is ``--zones WxH``, ``origin`` is ``--origin X,Y``).

    ``Map.tiles`` is the cell map (3x3 cells per zone), ``Map.states`` the zone states,
    ``Map.to_json()`` the state grid the CLI writes; ``Map.save("w.tmx")`` writes TMX.
    """
    return _prepare_zones(zones, origin, noise, distance, worley, scale, octaves, persistence,
                          threshold, fill, seamless, connected, zone_size, stride, biomes,
                          overrides).generate(_seed(seed))


# --- batches ---------------------------------------------------------------------------


def _chunks(seeds: Iterable[int], size: int) -> Iterator[List[int]]:
    if isinstance(seeds, range):
        # A range is checked at its ends, not seed by seed.
        if len(seeds):
            _seed(seeds[0])
            _seed(seeds[-1])
        for i in range(0, len(seeds), size):
            yield list(seeds[i:i + size])
        return
    chunk: List[int] = []
    for s in seeds:
        chunk.append(_seed(s))
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def batch(kind: str, *args, seeds: Iterable[int] = range(1), threads: Optional[int] = None,
          chunk: int = 1024, **kwargs) -> Iterator[Map]:
    """Maps of one input for many seeds, yielded in seed order.

    ``kind`` is ``"marahel"``, ``"heroes"``, ``"mario"`` or ``"zones"``; the other arguments
    are those of that function (without ``seed``). The input is read and checked once; maps
    are made ``chunk`` seeds at a time on rayon's threads (``threads``: a pool of that many,
    default all cores) with the GIL released, the next chunk while the last is consumed.
    Every map equals ``levelgen.KIND(..., seed=s)`` whatever the thread count. A seed whose
    map fails raises its error when reached.
    """
    if chunk < 1:
        raise ArgumentError(f"chunk {chunk}: expected at least 1")
    job = _prepare(kind, *args, **kwargs)
    if threads is not None:
        if threads < 1:
            raise ArgumentError(f"threads {threads}: expected at least 1")
        job.set_threads(threads)
    return _run(job, seeds, chunk)


class _Ahead:
    """``job.run(seeds)`` on a thread of its own (the GIL is released inside it), so the
    next chunk is made while the caller consumes the last."""

    def __init__(self, job, seeds: List[int]):
        import threading

        self._result: Any = None
        self._thread = threading.Thread(target=self._work, args=(job, seeds), daemon=True)
        self._thread.start()

    def _work(self, job, seeds: List[int]) -> None:
        try:
            self._result = job.run(seeds)
        except BaseException as e:  # handed to the consumer
            self._result = e

    def result(self) -> list:
        self._thread.join()
        if isinstance(self._result, BaseException):
            raise self._result
        return self._result


def _run(job, seeds: Iterable[int], chunk: int) -> Iterator[Map]:
    parts = _chunks(seeds, chunk)
    first = next(parts, None)
    pending = None if first is None else _Ahead(job, first)
    while pending is not None:
        done = pending.result()
        following = next(parts, None)
        pending = None if following is None else _Ahead(job, following)
        for item in done:
            if isinstance(item, BaseException):
                raise item
            yield item


# --- metrics ---------------------------------------------------------------------------


def _ids(names_or_ids: Any, legend: Optional[Sequence[str]], what: str) -> List[int]:
    if names_or_ids is None:
        return []
    if isinstance(names_or_ids, (str, int)):
        names_or_ids = [names_or_ids]
    out = []
    for x in names_or_ids:
        if isinstance(x, str):
            if legend is None or x not in legend:
                known = "" if legend is None else f" (tiles: {', '.join(legend)})"
                raise ArgumentError(f"{what}: unknown tile {x!r}{known}")
            out.append(legend.index(x))
        else:
            v = int(x)
            if not 0 <= v < 65536:
                raise ArgumentError(f"{what}: tile id {v} is outside 0..65535")
            out.append(v)
    return out


def metrics(tiles: Any, empty: Any = (0,), passable: Any = None, blocks: Any = 5,
            connectivity: int = 4, exact_path_cells: int = 1024,
            distances: Sequence[Tuple[Any, Any]] = ()) -> Dict[str, Any]:
    """grid-core's metrics of a map: a :class:`Map` or any 2-D integer array of tile ids.

    ``empty``: the ids (or, for a Map, tile names) counted as empty space: empty fraction,
    regions (4-connected) and block entropy over ``blocks`` (``n`` or ``(cols, rows)``,
    5x5 as in the Marahel paper). ``passable`` (default: ``empty``): the tiles paths cross,
    for the longest shortest path (exact up to ``exact_path_cells`` passable cells, the
    double-sweep estimate above) and ``distances``: ``[(from, to), ...]`` tiles, each the
    BFS steps from the nearest ``from`` to the nearest ``to`` (None if unreachable).
    ``tile_counts[id]`` counts every id.
    """
    import numpy as np

    legend = None
    if isinstance(tiles, Map):
        legend = tiles.legend
        tiles = tiles.tiles
    arr = np.asarray(tiles)
    if arr.ndim != 2:
        raise ArgumentError(f"tiles: expected a 2-D array, got {arr.ndim} dimensions")
    if arr.dtype == bool:
        arr = arr.astype(np.uint16)
    if not np.issubdtype(arr.dtype, np.integer):
        raise ArgumentError(f"tiles: expected integers, got {arr.dtype}")
    if arr.size and (arr.min() < 0 or arr.max() > 65535):
        raise ArgumentError("tiles: ids must be in 0..65535")
    data = np.ascontiguousarray(arr, dtype=np.uint16).tobytes()
    empty_ids = _ids(empty, legend, "empty")
    pass_ids = empty_ids if passable is None else _ids(passable, legend, "passable")
    cols, rows = (blocks, blocks) if isinstance(blocks, int) else tuple(blocks)
    pairs = [(_ids(a, legend, "distances"), _ids(b, legend, "distances")) for a, b in distances]
    h, w = arr.shape
    return _levelgen.metrics(data, w, h, empty_ids, pass_ids, (int(cols), int(rows)),
                             int(connectivity), int(exact_path_cells), pairs)


# --- search ----------------------------------------------------------------------------


class SearchResult:
    """The result of :func:`search`: the archive ``levelgen search`` writes
    (``archive.json``) as Python objects, and its log.

    ``archive``: ``metrics``, ``evaluations``, ``best`` (best first, each with ``script``,
    ``fitness``, ``feasible``, ``means``, ``genome``), ``grid`` (MAP-Elites) and ``log``.
    ``archive_json``: the archive exactly as ``levelgen search`` writes ``archive.json``.
    ``log_csv``: the log as ``levelgen search`` writes ``log.csv``.
    """

    __slots__ = ("archive", "archive_json", "log_csv")

    def __init__(self, archive: Dict[str, Any], archive_json: str, log_csv: str):
        self.archive = archive
        self.archive_json = archive_json
        self.log_csv = log_csv

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SearchResult):
            return NotImplemented
        return (self.archive_json, self.log_csv) == (other.archive_json, other.log_csv)

    def __repr__(self) -> str:
        best = self.archive["best"][0]["fitness"] if self.archive["best"] else None
        return f"<levelgen.SearchResult evaluations={self.evaluations} best fitness={best}>"

    def __reduce__(self):
        return (SearchResult, (self.archive, self.archive_json, self.log_csv))

    @property
    def best(self) -> List[Dict[str, Any]]:
        """The best generators, best first."""
        return self.archive["best"]

    @property
    def best_script(self) -> Dict[str, Any]:
        """The best generator's document (a Marahel script, template or settings)."""
        return self.archive["best"][0]["script"]

    @property
    def log(self) -> List[Dict[str, Any]]:
        """One row per batch of candidates."""
        return self.archive["log"]

    @property
    def evaluations(self) -> int:
        """Candidates evaluated."""
        return self.archive["evaluations"]

    def to_json(self) -> str:
        """``archive.json`` as ``levelgen search`` writes it."""
        return self.archive_json


def search(spec: _Document, seed: Optional[int] = None, evaluations: Optional[int] = None,
           threads: Optional[int] = None, check: int = 100,
           metrics: Optional[Mapping[str, Callable[[MetricMap], float]]] = None) -> SearchResult:
    """Runs a search spec (``levelgen search SPEC``; see docs/search.md) with the GIL
    released. ``seed`` and ``evaluations`` replace the spec's (``--seed``, ``--budget``);
    ``check`` is ``--check``: the final check on map seeds ``1..=check`` picks and orders
    the kept generators. Under an evaluation budget the result is the same on any thread
    count.

    ``metrics`` maps names to your own metrics, ``f(map: MetricMap) -> float``, which the
    spec's constraints, objectives, axes and targets then name like built-in ones. Each
    takes the GIL only for its own call and is called once per distinct map (values are
    cached per map, so it must be a function of the map). An exception or a value that is
    not a finite number makes that candidate invalid, with the metric named, as an
    external command's failure does; on the skeleton's first map, where every metric is
    tried once before the search starts, it raises :class:`SearchError`."""
    text, path = _document(spec, "spec")
    functions = _metric_functions(metrics)
    import json

    archive_json, log_csv = _levelgen.search(
        text, path, None if seed is None else _seed(seed), evaluations, threads, int(check),
        None, functions)
    return SearchResult(json.loads(archive_json), archive_json, log_csv)


def _metric_functions(metrics: Any) -> List[Tuple[str, Any]]:
    """``metrics`` of :func:`search` as ``(name, callable)`` pairs, checked."""
    if metrics is None:
        return []
    if not isinstance(metrics, Mapping):
        raise ArgumentError(f"metrics: expected a dict {{name: callable}}, got {type(metrics).__name__}")
    pairs = []
    for name, f in metrics.items():
        if not isinstance(name, str):
            raise ArgumentError(f"metrics: a name is a string, got {type(name).__name__}")
        if not callable(f):
            raise ArgumentError(f"metrics[{name!r}]: expected a callable f(map) -> float, got {type(f).__name__}")
        pairs.append((name, f))
    return pairs
