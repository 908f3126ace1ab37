"""Maps in the representations of the PCG Benchmark's problems.

The PCG Benchmark (``pcg_benchmark.make("binary-v0")`` and so on) scores content given as
2-D integer arrays whose ids each problem documents. These functions turn a levelgen map
into those arrays, by tile name:

========== ================================================================================
problem    ids
========== ================================================================================
binary     0 solid, 1 empty
zelda      0 wall, 1 empty, 2 player, 3 key, 4 door, 5 enemy
sokoban    0 solid, 1 empty, 2 player, 3 crate, 4 target
mdungeons  0 solid, 1 empty, 2 player, 3 exit, 4 potion, 5 treasure, 6 goblin, 7 ogre
smbtile    0 empty, 1 ground, 2 solid block, 3 brick, 4 question block, 5 pipe, 6 coin,
           7 goomba, 8 koopa, 9 spiny (from the Mario AI level characters)
========== ================================================================================

A tile name not in a problem's table raises :class:`levelgen.ArgumentError` unless
``mapping`` names it or ``default`` is given. The problems' sizes exclude the outer border
(binary-v0 is 14x14): make maps of that size (``size=(14, 14)``) or ``crop`` one. Example,
scoring with the benchmark (installed by the user from its repository)::

    import levelgen, pcg_benchmark
    from levelgen import pcg
    maps = levelgen.batch("marahel", "examples/search/binary.json", seeds=range(20))
    env = pcg_benchmark.make("binary-v0")
    quality, diversity, _, details, infos = env.evaluate([pcg.binary(m) for m in maps])
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Tuple

import numpy as np

from ._levelgen import Map
from .errors import ArgumentError

__all__ = ["binary", "zelda", "sokoban", "mdungeons", "smbtile", "convert", "TABLES"]

_SOLID = ("solid", "wall", "rock", "tree", "water", "lava", "out", "unknown")
_EMPTY = ("empty", "floor", "grass")


def _table(groups: Mapping[int, Tuple[str, ...]]) -> Dict[str, int]:
    return {name: i for i, names in groups.items() for name in names}


TABLES: Dict[str, Dict[str, int]] = {
    "binary": _table({0: _SOLID, 1: _EMPTY}),
    "zelda": _table({0: _SOLID, 1: _EMPTY, 2: ("player",), 3: ("key",), 4: ("door", "exit"),
                     5: ("enemy",)}),
    "sokoban": _table({0: _SOLID, 1: _EMPTY, 2: ("player",), 3: ("crate", "box", "block"),
                       4: ("target", "goal")}),
    "mdungeons": _table({0: _SOLID, 1: _EMPTY, 2: ("player",), 3: ("exit", "door"),
                         4: ("potion",), 5: ("treasure", "gold", "coin"),
                         6: ("goblin", "enemy"), 7: ("ogre",)}),
}
"""Tile name -> id, per problem (Marahel entity names, for instance)."""

# The Mario AI Framework's level characters -> smbtile ids (0 for air, markers, decoration).
_SMB_CHARS: Dict[str, int] = {
    **{c: 1 for c in "X"},
    **{c: 2 for c in "#*Bb%D"},
    **{c: 3 for c in "SCUL12"},
    **{c: 4 for c in "?@Q!"},
    **{c: 5 for c in "tT<>[]"},
    **{c: 6 for c in "o"},
    **{c: 7 for c in "gEG"},
    **{c: 8 for c in "kKrR"},
    **{c: 9 for c in "yY"},
}


def _crop(arr: np.ndarray, crop: Optional[int]) -> np.ndarray:
    if not crop:
        return arr
    if 2 * crop >= min(arr.shape):
        raise ArgumentError(f"crop {crop}: the map is only {arr.shape[1]}x{arr.shape[0]}")
    return arr[crop:-crop, crop:-crop]


def convert(m: Map, problem: str, mapping: Optional[Mapping[str, int]] = None,
            default: Optional[int] = None, crop: Optional[int] = None) -> np.ndarray:
    """``m``'s tiles as the ids of ``problem`` (a key of :data:`TABLES`, or ``"smbtile"``):
    a 2-D ``int64`` array, rows first. ``mapping`` adds or replaces names; ``default`` is the
    id of any other name; ``crop`` removes that many border cells on each side."""
    if not isinstance(m, Map):
        raise ArgumentError(f"expected a levelgen.Map, got {type(m).__name__}")
    if problem == "smbtile":
        keys = m.chars
        table: Dict[str, int] = dict(_SMB_CHARS)
        default = 0 if default is None else default
    elif problem in TABLES:
        keys = m.legend
        table = dict(TABLES[problem])
    else:
        raise ArgumentError(f"problem {problem!r}: expected one of {', '.join([*TABLES, 'smbtile'])}")
    table.update(mapping or {})
    lookup = np.empty(len(keys), dtype=np.int64)
    for i, key in enumerate(keys):
        value = table.get(key, default)
        if value is None:
            raise ArgumentError(
                f"{problem}: tile {key!r} has no id (give mapping={{{key!r}: ID}} or default=ID)")
        lookup[i] = value
    return _crop(lookup[m.tiles], crop)


def binary(m: Map, **kw: Any) -> np.ndarray:
    """binary-v0 content: 1 empty, 0 solid."""
    return convert(m, "binary", **kw)


def zelda(m: Map, **kw: Any) -> np.ndarray:
    """zelda-v0 content: 0 wall, 1 empty, 2 player, 3 key, 4 door, 5 enemy."""
    return convert(m, "zelda", **kw)


def sokoban(m: Map, **kw: Any) -> np.ndarray:
    """sokoban-v0 content: 0 solid, 1 empty, 2 player, 3 crate, 4 target."""
    return convert(m, "sokoban", **kw)


def mdungeons(m: Map, **kw: Any) -> np.ndarray:
    """mdungeons-v0 content: 0 solid, 1 empty, 2 player, 3 exit, 4 potion, 5 treasure,
    6 goblin, 7 ogre."""
    return convert(m, "mdungeons", **kw)


def smbtile(m: Map, **kw: Any) -> np.ndarray:
    """smbtile-v0 content (0..9) from a Mario level's characters. The benchmark adds the
    start and flag columns itself: ``crop`` or slice the level's ends off as needed."""
    return convert(m, "smbtile", **kw)
