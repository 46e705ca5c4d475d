"""Board coordinates (docs/record-format.md): corner points and cells of a triangular lattice.

Point ``(x, y)`` sits at ``(x + y/2, y*sqrt(3)/2)`` on the table, y upwards.

- ``U(x, y)`` points up: corners ``(x, y)``, ``(x+1, y)``, apex ``(x, y+1)``.
- ``D(x, y)`` points down: corners ``(x, y+1)``, ``(x+1, y+1)``, apex ``(x+1, y)``.

A cell's corners are listed clockwise starting at the apex, the order of a placement's
``corners``. The geometry of a cell (its points, side neighbours, the point opposite each
side) is computed once per cell and cached, so the board's hot path is dictionary look-ups.
"""

from __future__ import annotations

import re
from typing import Final, Literal, NamedTuple

from scoring.errors import InvalidCell

__all__ = ["Point", "Cell", "CellGeometry", "geometry", "cells_around"]

Orientation = Literal["U", "D"]


class Point(NamedTuple):
    """A corner point of the lattice; it is a plain ``(x, y)`` tuple.

    >>> Point(1, -2), str(Point(1, -2)), Point(1, -2) == (1, -2)
    (Point(1, -2), '(1,-2)', True)
    """

    x: int
    y: int

    def __str__(self) -> str:
        return f"({self.x},{self.y})"

    def __repr__(self) -> str:
        return f"Point({self.x}, {self.y})"


#: Compiled by ``re`` on first use (its cache): a check never reads a cell as text.
_CELL_PATTERN: Final = (
    r"^\s*([UD])\s*\(\s*(-?\d{1,9})\s*,\s*(-?\d{1,9})\s*\)\s*$"
)


class Cell(NamedTuple):
    """The place of one tile: ``Cell(x, y, "U")`` or ``Cell(x, y, "D")``.

    It is a plain ``(x, y, o)`` tuple, prints as ``U(0,0)`` and parses back.

    >>> c = Cell.parse("D(1,-1)")
    >>> c, str(c), c.points
    (Cell(1, -1, 'D'), 'D(1,-1)', (Point(2, -1), Point(1, 0), Point(2, 0)))
    >>> [str(n) for n in Cell(0, 0, "U").neighbours]
    ['D(0,-1)', 'D(-1,0)', 'D(0,0)']
    """

    x: int
    y: int
    o: Orientation

    def __str__(self) -> str:
        return f"{self.o}({self.x},{self.y})"

    def __repr__(self) -> str:
        return f"Cell({self.x}, {self.y}, '{self.o}')"

    @classmethod
    def parse(cls, text: str) -> Cell:
        """Read ``"U(0,0)"``; raises :class:`InvalidCell`."""
        match = re.match(_CELL_PATTERN, text, re.ASCII) if isinstance(text, str) else None
        if match is None:
            raise InvalidCell(f"{text!r} is not a cell like 'U(0,0)' or 'D(-1,2)'")
        o, x, y = match.groups()
        return cls(int(x), int(y), o)  # type: ignore[arg-type]

    @property
    def points(self) -> tuple[Point, Point, Point]:
        """The three corner points, clockwise starting at the apex."""
        return geometry(self).points

    @property
    def neighbours(self) -> tuple[Cell, Cell, Cell]:
        """The three cells sharing a side, each opposite the corner of the same index."""
        return geometry(self).neighbours


class CellGeometry(NamedTuple):
    """What the board needs to know about a cell, precomputed.

    ``neighbours[i]`` shares the side opposite ``points[i]``.

    >>> points, neighbours = geometry(Cell(0, 0, "U"))
    >>> str(points[0]), str(neighbours[0])
    ('(0,1)', 'D(0,-1)')
    """

    points: tuple[Point, Point, Point]
    neighbours: tuple[Cell, Cell, Cell]


def _compute(cell: tuple[int, int, str]) -> CellGeometry:
    x, y, o = cell
    if o == "U":
        points = (Point(x, y + 1), Point(x + 1, y), Point(x, y))
        neighbours = (Cell(x, y - 1, "D"), Cell(x - 1, y, "D"), Cell(x, y, "D"))
    elif o == "D":
        points = (Point(x + 1, y), Point(x, y + 1), Point(x + 1, y + 1))
        neighbours = (Cell(x, y + 1, "U"), Cell(x + 1, y, "U"), Cell(x, y, "U"))
    else:
        raise InvalidCell(f"{cell!r}: orientation must be 'U' or 'D'")
    return CellGeometry(points, neighbours)


#: Every cell's geometry, computed once on first use (the lattice is unbounded, so it cannot
#: all be computed at import) and then one dictionary look-up away.
_GEOMETRY: Final[dict[tuple[int, int, str], CellGeometry]] = {}


def geometry(cell: tuple[int, int, str]) -> CellGeometry:
    """The geometry of a cell, cached."""
    geo = _GEOMETRY.get(cell)
    if geo is None:
        geo = _GEOMETRY[cell] = _compute(cell)
    return geo


def cells_around(point: tuple[int, int]) -> tuple[Cell, ...]:
    """The six cells around a point; the hexagon there is complete when all six are filled.

    >>> [str(c) for c in cells_around(Point(0, 0))]
    ['U(0,0)', 'U(-1,0)', 'U(0,-1)', 'D(-1,0)', 'D(0,-1)', 'D(-1,-1)']
    """
    x, y = point
    return (
        Cell(x, y, "U"),
        Cell(x - 1, y, "U"),
        Cell(x, y - 1, "U"),
        Cell(x - 1, y, "D"),
        Cell(x, y - 1, "D"),
        Cell(x - 1, y - 1, "D"),
    )

