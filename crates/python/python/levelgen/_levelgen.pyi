"""Type stubs of the extension module (the Rust side of levelgen)."""

from typing import Any, Callable, Dict, List, Optional, Tuple, Union
import os

import numpy as np
from typing_extensions import final
import numpy.typing as npt

__version__: str
__all__ = [
    "Evaluator", "Job", "Map", "MetricMap", "__version__", "metrics", "prepare_heroes", "prepare_marahel",
    "prepare_mario", "prepare_zones", "search",
]

@final
class Map:
    """One generated map. Made by :func:`levelgen.marahel`, :func:`levelgen.heroes`,
    :func:`levelgen.mario`, :func:`levelgen.zones` and :func:`levelgen.batch`."""

    @property
    def kind(self) -> str:
        """The generator: ``"marahel"``, ``"heroes"``, ``"mario"`` or ``"zones"``."""
    @property
    def seed(self) -> int:
        """The seed the map was made with."""
    @property
    def width(self) -> int:
        """Width in tiles."""
    @property
    def height(self) -> int:
        """Height in tiles."""
    @property
    def tiles(self) -> npt.NDArray[np.uint16]:
        """Tile ids, shape ``(height, width)``, rows first (a fresh array each call)."""
    @property
    def legend(self) -> List[str]:
        """Tile names: ``legend[id]`` names tile id ``id``."""
    @property
    def chars(self) -> List[str]:
        """The text character of each tile id."""
    @property
    def colors(self) -> List[Tuple[int, int, int]]:
        """The preview colour of each tile id."""
    @property
    def states(self) -> Optional[npt.NDArray[np.uint16]]:
        """Zones only: the zone states (0..511), shape ``(zones_high, zones_wide)``."""
    @property
    def report(self) -> Dict[str, Any]:
        """The run's ``warnings`` and the generator's figures."""
    def to_json(self) -> str:
        """Exactly what ``levelgen KIND ... --format json`` writes for this input and seed."""
    def to_text(self) -> str:
        """The map as text, one character per tile (Mario: the level text)."""
    def native(self) -> Optional[bytes]:
        """The generator's own format: ``.hmm`` (heroes), Mario AI level text (mario);
        None for marahel and zones."""
    def save(self, path: Union[str, os.PathLike[str]], format: Optional[str] = None) -> None:
        """Writes the map as ``levelgen KIND --out PATH`` does (format from the extension:
        txt, json, png, tmx; hmm for heroes; lvl for mario)."""

@final
class Job:
    """A prepared generator (internal: use :func:`levelgen.batch`)."""

    @property
    def warnings(self) -> List[str]: ...
    def set_threads(self, threads: Optional[int] = None) -> None: ...
    def generate(self, seed: int) -> Map: ...
    def run(self, seeds: List[int]) -> List[Union[Map, BaseException]]: ...

def prepare_marahel(
    text: Optional[str], path: Optional[str], size: Optional[Tuple[int, int]],
    overrides: List[str], strict: bool,
) -> Job: ...
def prepare_heroes(
    text: Optional[str], path: Optional[str], side: Optional[int], players: Optional[int],
    template_name: Optional[str], config_text: Optional[str], config_path: Optional[str],
    overrides: List[str], config_overrides: List[str],
) -> Job: ...
def prepare_mario(
    rooms: Optional[str], sections: Optional[str], macros: Optional[str], theme: str,
    strict: bool, height: int, length: int, difficulty: Optional[Tuple[float, float]],
    sequence: Optional[List[str]], reference: bool, check: bool, overrides: List[str],
) -> Job: ...
def prepare_zones(
    flags: List[str], overrides: List[str], biomes: bool, zones: Tuple[int, int],
    origin: Tuple[int, int],
) -> Job: ...
def metrics(
    data: bytes, width: int, height: int, empty: List[int], passable: List[int],
    blocks: Tuple[int, int], connectivity: int, exact_path_cells: int,
    distances: List[Tuple[List[int], List[int]]],
) -> Dict[str, Any]: ...
_Evaluation = Tuple[float, List[float], float, Optional[str]]
"""A candidate's score: ``(fitness, means, feasible, error)``."""

@final
class MetricMap:
    """The map a search metric callable is given (``levelgen.search(spec, metrics=...)``):
    a copy of one map the search made."""

    @property
    def width(self) -> int:
        """Width in tiles."""
    @property
    def height(self) -> int:
        """Height in tiles."""
    @property
    def tiles(self) -> npt.NDArray[np.uint16]:
        """Tile ids, shape ``(height, width)``, rows first (a fresh array each call)."""
    @property
    def legend(self) -> List[str]:
        """Tile names: ``legend[id]`` names tile id ``id``."""
    def to_json(self) -> str:
        """The map's JSON, as an external command metric reads it on standard input
        (``height``, ``legend``, ``rows`` of tile names, ``width``)."""

def search(
    text: Optional[str], path: Optional[str], seed: Optional[int], evaluations: Optional[int],
    threads: Optional[int], check: int,
    scorer: Optional[Callable[[List[List[float]], List[int]], List[_Evaluation]]] = None,
    metrics: List[Tuple[str, Callable[[MetricMap], float]]] = ...,
) -> Tuple[str, str]: ...

@final
class Evaluator:
    """A search spec's evaluator: scores candidates as the search does (internal: the
    worker side of :func:`levelgen.ray.search`)."""

    def __new__(cls, text: Optional[str], path: Optional[str] = None) -> "Evaluator": ...
    def score(
        self, genomes: List[List[float]], seeds: List[int], threads: Optional[int] = None,
    ) -> List[_Evaluation]: ...
