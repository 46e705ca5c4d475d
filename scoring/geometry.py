"""Board coordinates (docs/reference/record-format.md): corner points and cells of a triangular lattice.

Point ``(x, y)`` sits at ``(x + y/2, y*sqrt(3)/2)`` on the table, y upwards.

- ``U(x, y)`` points up: corners ``(x, y)``, ``(x+1, y)``, apex ``(x, y+1)``.
- ``D(x, y)`` points down: corners ``(x, y+1)``, ``(x+1, y+1)``, apex ``(x+1, y)``.

A cell's corners are listed clockwise starting at the apex, the order of a placement's
``corners``. The geometry of a cell (its points, side neighbours, the point opposite each
side) is computed once per cell and cached, so the board's hot path is dictionary look-ups.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Final, Literal, NamedTuple

from scoring.errors import InvalidCell

__all__ = [
    "DIRECTIONS",
    "Point",
    "Cell",
    "CellGeometry",
    "geometry",
    "cells_around",
    "cell_neighbours",
    "corner_tiles",
]

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
        o, x, y = match.groups()  # the pattern allows U or D only
        return cls(int(x), int(y), "U" if o == "U" else "D")

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



# -- where a cell lies, for words ------------------------------------------------------------
# (the placements are ``(cell, corners)`` pairs: scoring.board.Placement, which this module
# cannot import, the board being built on it)

#: Where a cell lies from a tile it touches: the six directions of a triangle's sides,
#: counter-clockwise from the right (as seen on the drawing, up being up).
DIRECTIONS: Final = ("upper right", "above", "upper left", "lower left", "below", "lower right")

_SQRT3_2: Final = math.sqrt(3) / 2


def _centre(cell: Cell) -> tuple[float, float]:
    """The cell's centre as drawn (x to the right, y downwards), a side being 1."""
    corners = [(x + y / 2, -y * _SQRT3_2) for x, y in geometry(cell).points]
    return (sum(x for x, _ in corners) / 3, sum(y for _, y in corners) / 3)


def _tile_name(corners: Iterable[int]) -> str:
    return "-".join(str(v) for v in sorted(corners))


def cell_neighbours(
    cell: Cell, placements: Iterable[tuple[Cell, tuple[int, int, int]]]
) -> tuple[tuple[str, str], ...]:
    """The tiles touching ``cell`` by a side, each with the direction in which ``cell`` lies
    from it (one of :data:`DIRECTIONS`), in the order of the cell's sides.

    >>> from scoring import Placement, Cell
    >>> cell_neighbours(Cell(0, 0, "D"), [Placement(Cell(0, 0, "U"), (5, 4, 3))])
    (('3-4-5', 'upper right'),)
    """
    tiles = dict(placements)
    found = []
    for neighbour in geometry(cell).neighbours:
        corners = tiles.get(neighbour)
        if corners is None:
            continue
        (cx, cy), (nx, ny) = _centre(cell), _centre(neighbour)
        angle = math.degrees(math.atan2(-(cy - ny), cx - nx)) % 360
        direction = DIRECTIONS[int(((angle - 30) % 360 + 30) // 60) % 6]
        found.append((_tile_name(corners), direction))
    return tuple(found)


def corner_tiles(
    points: Iterable[tuple[int, int]],
    placements: Iterable[tuple[Cell, tuple[int, int, int]]],
    *,
    besides: Cell | None = None,
) -> tuple[str, ...]:
    """The tiles that have a corner at one of ``points``, ``besides`` and the tiles sharing a
    side with it left out, in the order of the points and of :func:`cells_around`.

    >>> from scoring import Placement, Cell
    >>> corner_tiles([Point(1, 0)], [Placement(Cell(0, 0, "U"), (5, 4, 3))])
    ('3-4-5',)
    """
    tiles = dict(placements)
    skip = set() if besides is None else {besides, *geometry(besides).neighbours}
    found: list[str] = []
    for point in points:
        for cell in cells_around(point):
            corners = tiles.get(cell)
            if corners is not None and cell not in skip:
                name = _tile_name(corners)
                if name not in found:
                    found.append(name)
    return tuple(found)
