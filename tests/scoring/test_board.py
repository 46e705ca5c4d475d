"""The board: legality with its codes, the bonus of a placement, place/undo, legal placements."""

from __future__ import annotations

import pytest

from scoring import (
    ALL_TILES,
    ORIGIN,
    Board,
    Bonus,
    Cell,
    IllegalPlacement,
    Placement,
    Score,
    Tile,
    cells_around,
    min_tiles_for_bonus,
    rule_set,
)
from scoring.geometry import geometry


def board_of(*placements: str) -> Board:
    return Board([Placement.parse(p) for p in placements])


def snapshot(board: Board) -> tuple[object, ...]:
    points = {p for c in board.placements for p in c.points} | {
        p for c in board.open_cells() for p in geometry(c).points
    }
    return (
        board.placements,
        sorted(board.open_cells()),
        sorted(board.tiles_played),
        {p: board.value_at(p) for p in points},
        {c: board.shared_sides(c) for c in board.open_cells()},
        len(board),
    )


# -- positions, each a legal table and the tile placed next -----------------------------------
# (found by enumerating the shapes of small tables; values chosen so every tile is distinct)

BRIDGE = (
    ["D(0,0):0-4-0", "U(0,1):4-0-4", "U(1,0):0-1-0", "D(0,1):0-4-5", "D(1,0):1-0-1",
     "U(0,2):5-5-4", "D(0,2):5-5-0", "U(1,2):0-0-5"],
    "D(1,1):1-5-0",
)
HEXAGON = (
    ["D(0,0):3-4-1", "U(0,1):4-1-4", "U(1,0):1-1-3", "D(0,1):1-4-5", "D(1,0):1-1-0"],
    "U(1,1):5-0-1",
)
DOUBLE_HEXAGON = (
    ["D(0,0):0-4-0", "U(0,1):4-0-4", "U(1,0):0-0-0", "D(0,1):0-4-5", "D(1,0):0-0-5",
     "U(0,2):5-5-4", "D(0,2):5-5-2", "U(1,2):2-3-5", "D(1,1):5-5-3"],
    "U(1,1):5-5-0",
)
TRIPLE_HEXAGON = (
    ["D(0,1):3-4-3", "U(0,2):4-3-4", "U(1,1):3-2-3", "D(0,2):3-4-1", "D(1,0):2-3-2",
     "U(1,2):1-1-3", "U(2,0):2-2-2", "D(1,2):1-1-4", "D(2,0):2-2-1", "U(2,2):4-0-1",
     "U(2,1):1-1-2", "D(2,1):1-1-0"],
    "D(1,1):2-3-1",
)
TWO_SIDES = (
    ["D(0,0):0-4-0", "U(0,1):4-0-4", "U(1,0):0-1-0", "D(0,1):0-4-5", "D(1,0):1-0-1",
     "U(0,2):5-5-4", "U(2,0):1-3-1", "D(0,2):5-5-0", "D(2,0):3-1-2", "U(1,2):0-1-5",
     "D(1,1):1-5-1"],
    "U(2,1):1-2-1",
)
THREE_SIDES = (
    ["D(-2,-1):3-4-4", "U(-2,0):4-4-4", "U(-1,-1):4-1-3", "D(-2,0):4-4-2", "D(-1,-2):3-3-1",
     "U(-2,1):5-2-4", "U(-1,0):2-2-4", "U(0,-2):1-1-3", "D(-2,1):2-5-0", "D(-1,0):2-2-2",
     "D(0,-2):1-1-1", "U(-2,2):5-0-5", "U(-1,1):0-2-2", "U(0,-1):2-1-1", "U(1,-2):1-0-1",
     "D(-2,2):0-5-0", "D(0,-1):1-2-5", "D(1,-2):0-1-0", "U(-1,2):0-3-0", "U(1,-1):5-0-1",
     "U(2,-2):0-0-0", "D(-1,2):3-0-3", "D(2,-2):0-0-4", "U(0,2):3-5-3", "U(2,-1):4-4-0",
     "D(0,1):5-3-5", "D(2,-1):4-4-1", "U(1,1):5-1-5", "U(0,1):3-5-2", "U(2,0):1-1-4",
     "D(1,0):4-5-1", "D(0,0):5-2-5", "U(1,0):5-4-5"],
    "U(0,0):2-5-2",
)
#: One shared side; a tile touches an end of that side by a point: not a bridge.
ENDPOINT_TOUCH = (["D(0,0):5-5-3", "U(0,0):5-5-4"], "D(-1,0):4-4-5")
#: One shared side, nothing else near: no bonus.
PLAIN = (["U(0,0):5-5-4"], "D(-1,0):4-4-5")


@pytest.mark.parametrize(
    ("position", "bonus", "bonus_points"),
    [
        pytest.param(PLAIN, None, 0, id="one side: no bonus"),
        pytest.param(ENDPOINT_TOUCH, None, 0, id="point touching an end of the side: no bridge"),
        pytest.param(BRIDGE, Bonus.BRIDGE, 40, id="bridge"),
        pytest.param(TWO_SIDES, Bonus.TWO_SIDES, 40, id="two sides"),
        pytest.param(THREE_SIDES, Bonus.TWO_SIDES, 40, id="three sides: the two-sides bonus"),
        pytest.param(HEXAGON, Bonus.HEXAGON, 50, id="hexagon (not two sides as well)"),
        pytest.param(DOUBLE_HEXAGON, Bonus.DOUBLE_HEXAGON, 60, id="double hexagon"),
        pytest.param(TRIPLE_HEXAGON, Bonus.TRIPLE_HEXAGON, 70, id="triple hexagon"),
    ],
)
def test_the_bonus_of_a_placement(
    position: tuple[list[str], str], bonus: Bonus | None, bonus_points: int
) -> None:
    table, move = position
    board = board_of(*table)
    placement = Placement.parse(move)
    score = board.check(placement)
    value = placement.tile.value
    assert score == Score(value, bonus, bonus_points, 0)
    assert score.total == value + bonus_points
    # the table before the move has exactly the fewest tiles that bonus needs
    if bonus is not None and position is not THREE_SIDES:
        assert len(board) == min_tiles_for_bonus(bonus)


def test_the_figures_behind_the_bonuses() -> None:
    board = board_of(*HEXAGON[0])
    move = Placement.parse(HEXAGON[1])
    # the hexagon closes around the corner all five tiles touch, and the tile shares two sides
    assert board.shared_sides(move.cell) == 2
    (centre,) = [
        p for p in move.points if all(c in board for c in cells_around(p) if c != move.cell)
    ]
    assert sum(c in board for c in cells_around(centre)) == 5
    bridge = board_of(*BRIDGE[0])
    move = Placement.parse(BRIDGE[1])
    assert bridge.shared_sides(move.cell) == 1


@pytest.mark.parametrize(
    ("tile", "corners", "bonus", "total"),
    [
        ("5-5-5", (5, 5, 5), Bonus.OPENING, 25),
        ("4-4-4", (4, 4, 4), Bonus.OPENING, 22),
        ("0-0-0", (0, 0, 0), Bonus.OPENING, 40),
        ("4-5-5", (5, 4, 5), None, 14),
        ("0-1-2", (2, 0, 1), None, 3),
    ],
)
def test_the_opening(
    tile: str, corners: tuple[int, int, int], bonus: Bonus | None, total: int
) -> None:
    score = Board().check(Placement(Cell(7, -3, "D"), corners))
    assert (score.bonus, score.total) == (bonus, total)
    assert Tile.parse(tile).value == score.tile_value


def test_the_opening_without_an_opening_bonus() -> None:
    board = Board(rules=rule_set(opening_bonus=False))
    assert board.check(Placement(ORIGIN, (0, 0, 0))) == Score(0)
    assert board.check(Placement(ORIGIN, (5, 5, 5))) == Score(15)


# -- illegal placements -------------------------------------------------------------------------

TABLE = ["U(0,0):5-5-5", "D(0,0):5-5-3"]  # U(0,0) has 5 everywhere; D(0,0) adds 3 at (1,1)


@pytest.mark.parametrize(
    ("table", "move", "code", "in_message"),
    [
        (TABLE, "U(0,0):4-4-4", "occupied", "the cell already holds 5-5-5"),
        (TABLE, "U(3,0):4-4-4", "no-shared-side", "shares no side"),
        # U(1,1) touches the table only at the point (1,1): a point is not a side
        (TABLE, "U(1,1):4-3-4", "no-shared-side", "U(1,1)"),
        (TABLE, "D(0,-1):5-4-4", "corner-mismatch", "corner (0,0) shows 4, the table has 5"),
        # U(0,1) shares the top side of D(0,0); its corner (1,1) must show 3
        (TABLE, "U(0,1):0-1-5", "corner-mismatch", "corner (1,1) shows 1, the table has 3"),
        # the corner opposite the shared side touches a tile only by a point: it must match too
        (BRIDGE[0], "D(1,1):2-5-0", "corner-mismatch", "corner (2,1) shows 2, the table has 1"),
        (TABLE, "D(-1,0):5-1-0", "mirror-tile", "mirror image of 0-1-5"),
        (TABLE, "D(-1,0):5-6-5", "unknown-tile", "5-6-5"),
        (TABLE, "D(-1,0):5-5-3", "tile-already-played", "already on the table at D(0,0)"),
    ],
)
def test_illegal_placements_say_why(
    table: list[str], move: str, code: str, in_message: str
) -> None:
    board = board_of(*table)
    before = snapshot(board)
    with pytest.raises(IllegalPlacement) as raised:
        board.check(Placement.parse(move))
    assert raised.value.code == code
    assert str(raised.value).startswith(f"{code}: ")
    assert in_message in str(raised.value)
    assert isinstance(raised.value, ValueError)
    assert snapshot(board) == before  # the check never changes the board
    with pytest.raises(IllegalPlacement):
        board.place(Placement.parse(move))
    assert snapshot(board) == before


def test_place_and_undo() -> None:
    board = board_of(*TABLE)
    before = snapshot(board)
    move = Placement.parse("D(-1,0):5-4-5")
    score = board.check(move)
    assert board.place(move) == score == Score(14)
    assert move.cell in board and board.last == move and len(board) == 3
    assert board.undo() == move
    assert snapshot(board) == before
    board.undo()
    board.undo()
    assert len(board) == 0 and board.open_cells() == [ORIGIN]
    with pytest.raises(IndexError):
        board.undo()


def test_copy_and_equality() -> None:
    board = board_of(*TABLE)
    other = board.copy()
    assert other == board
    other.place(Placement.parse("D(-1,0):5-4-5"))
    assert other != board and len(board) == 2


def test_open_cells_and_demanded_values() -> None:
    board = board_of(*TABLE)
    assert set(board.open_cells()) == {
        Cell(0, -1, "D"), Cell(-1, 0, "D"), Cell(0, 1, "U"), Cell(1, 0, "U")
    }
    assert board.demanded(Cell(0, 1, "U")) == (None, 3, 5)
    assert board.demanded(Cell(1, 0, "U")) == (3, None, 5)
    assert board.value_at((1, 1)) == 3 and board.value_at((9, 9)) is None


def test_legal_orientations_of_a_tile_in_a_cell() -> None:
    board = board_of(*TABLE)
    assert [str(p) for p in board.legal_orientations(Tile.parse("3-4-5"), Cell(1, 0, "U"))] == [
        "U(1,0):3-4-5"
    ]
    assert board.legal_orientations(Tile.parse("0-3-5"), Cell(0, 1, "U")) == [
        Placement(Cell(0, 1, "U"), (0, 3, 5))
    ]
    assert board.legal_orientations(Tile.parse("3-5-5"), Cell(0, 1, "U")) == []  # played
    assert board.legal_orientations(Tile.parse("1-2-4"), Cell(0, 1, "U")) == []
    assert board.legal_orientations(Tile.parse("5-5-5"), Cell(0, -1, "D")) == []  # on the table
    assert board.legal_orientations(Tile.parse("0-5-5"), Cell(0, 0, "U")) == []  # occupied
    assert board.legal_orientations(Tile.parse("0-5-5"), Cell(5, 5, "U")) == []  # not open
    assert len(Board().legal_orientations(Tile.parse("0-1-2"), ORIGIN)) == 3


def brute_force(board: Board, rack: list[Tile]) -> set[Placement]:
    return {
        Placement(cell, rotation)
        for cell in board.open_cells()
        for tile in rack
        for rotation in tile.rotations()
        if board.is_legal(Placement(cell, rotation))
    }


@pytest.mark.parametrize("position", [BRIDGE, HEXAGON, TWO_SIDES, THREE_SIDES, TRIPLE_HEXAGON])
def test_legal_placements_are_exactly_the_legal_ones(position: tuple[list[str], str]) -> None:
    board = board_of(*position[0])
    rack = list(ALL_TILES)
    found = list(board.legal_placements(rack))
    assert len(found) == len(set(found))
    assert set(found) == brute_force(board, rack)
    assert Placement.parse(position[1]) in found
    assert all(board.is_legal(p) for p in found)


def test_legal_placements_on_an_empty_board_put_the_opening_at_the_origin() -> None:
    rack = [Tile.parse("5-5-5"), Tile.parse("0-1-2"), Tile.parse("0-1-2")]
    found = list(Board().legal_placements(rack))
    assert sorted(found) == sorted(
        [Placement(ORIGIN, (5, 5, 5))] + [Placement(ORIGIN, r) for r in rack[1].rotations()]
    )


def test_legal_placements_skip_tiles_already_on_the_table() -> None:
    board = board_of(*TABLE)
    found = list(board.legal_placements([Tile.parse("0-5-5"), Tile.parse("5-5-5")]))
    assert found and {p.tile for p in found} == {Tile.parse("0-5-5")}
    assert list(board.legal_placements([Tile.parse("5-5-5"), Tile.parse("3-5-5")])) == []
    assert board.can_play([Tile.parse("0-5-5")]) and not board.can_play([Tile.parse("0-1-2")])


# -- the fewest tiles each bonus needs (used to check sheet-mode claims) -----------------------


def _shapes_up_to(size: int) -> list[set[frozenset[Cell]]]:
    """Every shape of a table of 1..size tiles (connected by sides), up to translation; the
    counts are those of the fixed polyiamonds (OEIS A001420)."""

    def normal(shape: frozenset[Cell] | set[Cell]) -> frozenset[Cell]:
        dx = min(c.x for c in shape)
        dy = min(c.y for c in shape)
        return frozenset(Cell(c.x - dx, c.y - dy, c.o) for c in shape)

    levels = [set(), {normal({Cell(0, 0, "U")}), normal({Cell(0, 0, "D")})}]
    for _ in range(size - 1):
        levels.append(
            {
                normal(shape | {n})
                for shape in levels[-1]
                for c in shape
                for n in c.neighbours
                if n not in shape
            }
        )
    return levels


def _shape_bonus(shape: frozenset[Cell], cell: Cell) -> Bonus | None:
    points, neighbours = geometry(cell)
    shared = sum(n in shape for n in neighbours)
    hexagons = sum(all(c in shape or c == cell for c in cells_around(p)) for p in points)
    if hexagons:
        return (Bonus.HEXAGON, Bonus.DOUBLE_HEXAGON, Bonus.TRIPLE_HEXAGON)[hexagons - 1]
    if shared >= 2:
        return Bonus.TWO_SIDES
    for n, p in zip(neighbours, points):
        if n in shape:
            return Bonus.BRIDGE if any(c in shape for c in cells_around(p)) else None
    return None


def test_no_table_smaller_than_the_minimum_allows_the_bonus() -> None:
    """Sheet mode calls a claimed bonus impossible below these sizes: enumerate every shape of
    a table of up to ten tiles (about 8000) and the bonuses a next tile can earn on it."""
    levels = _shapes_up_to(10)
    assert [len(level) for level in levels[1:]] == [2, 3, 6, 14, 36, 94, 250, 675, 1838, 5053]
    earned: dict[Bonus, int] = {}
    for size, level in enumerate(levels):
        for shape in level:
            for cell in {n for c in shape for n in c.neighbours if n not in shape}:
                bonus = _shape_bonus(shape, cell)
                if bonus is not None:
                    earned.setdefault(bonus, size)
    assert earned == {Bonus.HEXAGON: 5, Bonus.BRIDGE: 8, Bonus.DOUBLE_HEXAGON: 9}
    # two sides and three hexagons need more than ten tiles; the positions above reach them
    assert min_tiles_for_bonus(Bonus.TWO_SIDES) == len(TWO_SIDES[0]) == 11
    assert min_tiles_for_bonus(Bonus.TRIPLE_HEXAGON) == len(TRIPLE_HEXAGON[0]) == 12
    for bonus, size in earned.items():
        assert min_tiles_for_bonus(bonus) == size
