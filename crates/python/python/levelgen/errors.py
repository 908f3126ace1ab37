"""The exceptions levelgen raises.

Every error is a :class:`Error`. Its ``message`` is what the ``levelgen`` CLI prints after
``error:`` for the same input (prefixed with the input's path when it was read from a file),
``location`` names the place inside the input when the generator knows it (a JSON path such
as ``explorers[2].rules[0]``, ``line:column`` for bad JSON, ``file:line:col`` for a Mario
room file), and ``source`` is the input file, if any.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Optional

__all__ = [
    "Error",
    "FileError",
    "ArgumentError",
    "MarahelError",
    "HeroesError",
    "MarioError",
    "ZonesError",
    "SearchError",
]


class Error(Exception):
    """Base class of every levelgen error."""

    message: str
    location: Optional[str]
    source: Optional[str]

    def __init__(self, message: str, location: Optional[str] = None, source: Optional[str] = None):
        super().__init__(message)
        self.message = message
        self.location = location
        self.source = source

    def __reduce__(self):  # picklable, so errors cross Ray task boundaries
        return (type(self), (self.message, self.location, self.source))


class FileError(Error, OSError):
    """A file could not be read or written (the CLI's exit code 1, or 2 for a missing input)."""

    def __init__(self, message: str, location: Optional[str] = None, source: Optional[str] = None):
        Error.__init__(self, message, location, source)


class ArgumentError(Error, ValueError):
    """A bad argument to a levelgen function (a size, a name, a range)."""


class MarahelError(Error):
    """A Marahel script that does not parse or validate, or a map it cannot make."""


class HeroesError(Error):
    """A Heroes template or config that does not validate, or a failed generation."""


class MarioError(Error):
    """A Mario room library or setting that is wrong, or no playable level."""


class ZonesError(Error):
    """Zones settings out of range."""


class SearchError(Error):
    """A search spec that does not parse or check."""
