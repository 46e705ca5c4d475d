"""Coordinates of record-format.md: points, cells, sides, the six cells around a point."""

from __future__ import annotations

import pytest

from scoring import Cell, InvalidCell, Point, cells_around
from scoring.geometry import geometry

CELLS = [Cell(x, y, o) for x in range(-3, 4) for y in range(-3, 4) for o in ("U", "D")]


@pytest.mark.parametrize(
    ("cell", "points"),
    [
        # U(x,y): apex (x,y+1), then (x+1,y), then (x,y): clockwise from the apex.
        (Cell(0, 0, "U"), ((0, 1), (1, 0), (0, 0))),
        (Cell(2, -1, "U"), ((2, 0), (3, -1), (2, -1))),
        # D(x,y): apex (x+1,y), then (x,y+1), then (x+1,y+1).
        (Cell(0, 0, "D"), ((1, 0), (0, 1), (1, 1))),
        (Cell(-1, 3, "D"), ((0, 3), (-1, 4), (0, 4))),
    ],
)
def test_corners_clockwise_from_the_apex(cell: Cell, points: tuple[tuple[int, int], ...]) -> None:
    assert cell.points == points


@pytest.mark.parametrize(
    ("cell", "neighbours"),
    [
        (Cell(0, 0, "U"), ("D(0,-1)", "D(-1,0)", "D(0,0)")),  # bottom, left, right
        (Cell(0, 0, "D"), ("U(0,1)", "U(1,0)", "U(0,0)")),  # top, right, left
    ],
)
def test_side_neighbours(cell: Cell, neighbours: tuple[str, ...]) -> None:
    assert tuple(str(n) for n in cell.neighbours) == neighbours


@pytest.mark.parametrize("cell", CELLS, ids=str)
def test_each_neighbour_shares_the_side_opposite_its_corner(cell: Cell) -> None:
    points = cell.points
    for point, neighbour in zip(points, cell.neighbours):
        shared = set(points) & set(neighbour.points)
        assert shared == set(points) - {point}
        assert cell in neighbour.neighbours
        assert neighbour.o != cell.o


def test_the_six_cells_around_a_point() -> None:
    around = cells_around(Point(2, -1))
    assert len(set(around)) == 6
    assert all((2, -1) in c.points for c in around)
    # and no other cell touches the point
    touching = {c for c in CELLS if (2, -1) in c.points}
    assert touching == set(around)


@pytest.mark.parametrize("cell", [Cell(0, 0, "U"), Cell(-3, 12, "D"), Cell(100, -7, "U")], ids=str)
def test_notation_round_trips(cell: Cell) -> None:
    assert Cell.parse(str(cell)) == cell
    assert eval(repr(cell), {"Cell": Cell}) == cell
    assert cell == (cell.x, cell.y, cell.o)


@pytest.mark.parametrize("text", ["X(0,0)", "U(0)", "U(0,0", "U(a,b)", "", "0,0,U"])
def test_parse_refuses_what_is_not_a_cell(text: str) -> None:
    with pytest.raises(InvalidCell) as raised:
        Cell.parse(text)
    assert isinstance(raised.value, ValueError)
    assert repr(text) in str(raised.value)


def test_geometry_is_computed_once_per_cell() -> None:
    far = Cell(1000, -1000, "D")
    assert geometry(far) is geometry(far)
    with pytest.raises(InvalidCell):
        geometry((0, 0, "X"))
