"""The table: placements, their legality, their score, and the legal placements of a rack.

The board keeps, besides the placements, three dictionaries that make every check a handful
of look-ups: the value shown at each touched corner point, how many tiles touch each point
(a point touched by five tiles closes a hexagon with the sixth), and the open cells with the
number of sides each shares with the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, KeysView
from enum import StrEnum
from typing import Final, NamedTuple

from scoring.errors import IllegalPlacement, InvalidCell
from scoring.geometry import _GEOMETRY, Cell, Point, cells_around, geometry
from scoring.rules import DEFAULT_RULES, RuleSet
from scoring.tiles import _BY_CORNERS, ALL_TILES, Corners, Tile

__all__ = [
    "Bonus",
    "Score",
    "Placement",
    "Board",
    "ORIGIN",
    "min_tiles_for_bonus",
]

#: Where the engine puts an opening when the position does not matter.
ORIGIN: Final = Cell(0, 0, "U")


class Bonus(StrEnum):
    """The bonus names of record-format.md.

    >>> Bonus("two-sides"), str(Bonus.DOUBLE_HEXAGON)
    (<Bonus.TWO_SIDES: 'two-sides'>, 'double-hexagon')
    """

    OPENING = "opening"
    BRIDGE = "bridge"
    TWO_SIDES = "two-sides"
    HEXAGON = "hexagon"
    DOUBLE_HEXAGON = "double-hexagon"
    TRIPLE_HEXAGON = "triple-hexagon"


_HEXAGONS: Final = (Bonus.HEXAGON, Bonus.DOUBLE_HEXAGON, Bonus.TRIPLE_HEXAGON)
#: Six cells surround a point: a point touched by five tiles is closed by the sixth.
_ONE_SHORT_OF_A_HEXAGON: Final = len(cells_around(Point(0, 0))) - 1

#: The fewest tiles that must already be on the table for a placement to earn a bonus: a
#: geometric fact, not a rule number (the table is connected by sides, so its possible shapes
#: can be enumerated). A hexagon needs the five other cells of a ring; two hexagons, the nine
#: other cells of two rings sharing the tile; three, the twelve other cells around its
#: corners. Two sides without a hexagon needs a ring of cells around an empty one, eleven
#: tiles at least; a bridge, eight. tests/scoring/test_board.py checks every figure by
#: enumerating all the shapes of a table up to that size.
_MIN_TILES: Final[dict[Bonus, int]] = {
    Bonus.OPENING: 0,
    Bonus.BRIDGE: 8,
    Bonus.TWO_SIDES: 11,
    Bonus.HEXAGON: 5,
    Bonus.DOUBLE_HEXAGON: 9,
    Bonus.TRIPLE_HEXAGON: 12,
}


def min_tiles_for_bonus(bonus: Bonus) -> int:
    """The fewest tiles on the table before a placement can earn ``bonus`` (opening: 0).

    >>> min_tiles_for_bonus(Bonus.HEXAGON)
    5
    """
    return _MIN_TILES[bonus]


class Score(NamedTuple):
    """What a turn scores, as a breakdown: tile value, bonus, draw penalty.

    >>> s = Score(10, Bonus.BRIDGE, 40, penalty=5)
    >>> s.total, s.explain()
    (45, '10 + 40 (bridge) - 5 (draws) = 45')
    """

    tile_value: int
    bonus: Bonus | None = None
    bonus_points: int = 0
    penalty: int = 0

    @property
    def total(self) -> int:
        """The points of the turn: tile value + bonus - penalty."""
        return self.tile_value + self.bonus_points - self.penalty

    def with_penalty(self, penalty: int) -> Score:
        """The same score with a draw penalty."""
        return self._replace(penalty=penalty)

    def explain(self) -> str:
        """The sum in words, for a message: ``"10 + 40 (bridge) - 5 (draws) = 45"``."""
        text = str(self.tile_value)
        if self.bonus is not None:
            text += f" + {self.bonus_points} ({self.bonus.value})"
        if self.penalty:
            text += f" - {self.penalty} (draws)"
        if self.bonus is None and not self.penalty:
            return text
        return f"{text} = {self.total}"


_new: Final = tuple.__new__
#: The score of a tile without bonus, by its value (0 to 15): shared, as a score is immutable.
_PLAIN: Final[tuple[Score, ...]] = tuple(Score(value) for value in range(16))


def _bonus_score(value: int, bonus: Bonus, points: int) -> Score:
    """``Score(value, bonus, points)`` without the Python-level ``__new__`` of NamedTuple."""
    return _new(Score, (value, bonus, points, 0))


class Placement(NamedTuple):
    """A tile in a cell: the cell and the corner values clockwise from the apex.

    Its notation is ``"U(0,0):2-0-1"`` (cell, then corners), and round-trips.

    >>> p = Placement.parse("U(0,0):2-0-1")
    >>> p, str(p), p.tile
    (Placement(Cell(0, 0, 'U'), (2, 0, 1)), 'U(0,0):2-0-1', Tile('0-1-2'))
    """

    cell: Cell
    corners: Corners

    @property
    def tile(self) -> Tile:
        """The tile shown; raises UnknownTile or MirrorTile when there is none."""
        return Tile.from_corners(self.corners)

    @property
    def points(self) -> tuple[Point, Point, Point]:
        """The corner points, in the order of ``corners``."""
        return geometry(self.cell).points

    def __str__(self) -> str:
        return f"{self.cell}:{'-'.join(str(v) for v in self.corners)}"

    def __repr__(self) -> str:
        return f"Placement({self.cell!r}, {self.corners!r})"

    @classmethod
    def parse(cls, text: str) -> Placement:
        """Read ``"U(0,0):2-0-1"``; raises InvalidCell. The corners are not checked here: the
        board says whether they show a tile."""
        if not isinstance(text, str):
            raise InvalidCell(f"{text!r} is not a placement like 'U(0,0):2-0-1'")
        cell_text, sep, corners_text = text.partition(":")
        if not sep:
            raise InvalidCell(f"{text!r} is not a placement like 'U(0,0):2-0-1'")
        parts = corners_text.split("-")
        digits = [p.strip() for p in parts]
        if len(digits) != 3 or not all(d.isascii() and d.isdigit() and len(d) < 10 for d in digits):
            raise InvalidCell(f"{text!r}: corners must be three values like 2-0-1")
        a, b, c = (int(p) for p in parts)
        return cls(Cell.parse(cell_text), (a, b, c))


def _tile_or_raise(placement: Placement) -> Tile:
    try:
        return placement.tile
    except ValueError as error:
        code = getattr(error, "code", "unknown-tile")
        raise IllegalPlacement(
            code,
            f"{'-'.join(map(str, placement.corners))} at {placement.cell}: "
            + str(error).split(": ", 1)[-1],
            cell=placement.cell,
            corners=placement.corners,
        ) from None


# For each tile, every (demanded corner values, corners) pair: the corner values a cell
# demands are None where no tile touches the corner yet. A rack is indexed by these keys so
# that an open cell is one look-up. Made on first use: checking a record never needs it, and
# it is a measurable part of the command's start-up.
_DemandKeys = dict[Tile, tuple[tuple[tuple[int | None, ...], Corners], ...]]
_DEMAND_KEYS: _DemandKeys = {}


def _demand_keys() -> _DemandKeys:
    if not _DEMAND_KEYS:
        _DEMAND_KEYS.update(
            (
                tile,
                tuple(
                    (
                        tuple(v if mask >> i & 1 else None for i, v in enumerate(rotation)),
                        rotation,
                    )
                    for rotation in tile.rotations()
                    for mask in range(8)
                ),
            )
            for tile in ALL_TILES
        )
    return _DEMAND_KEYS


class Board:
    """The tiles on the table in one round.

    >>> board = Board()
    >>> board.place(Placement(Cell(0, 0, "U"), (5, 5, 5)))
    Score(tile_value=15, bonus=<Bonus.OPENING: 'opening'>, bonus_points=10, penalty=0)
    >>> board.check(Placement(Cell(0, 0, "D"), (5, 5, 3)))
    Score(tile_value=13, bonus=None, bonus_points=0, penalty=0)
    >>> board.check(Placement(Cell(0, 0, "D"), (4, 5, 5)))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scoring.errors.IllegalPlacement: corner-mismatch: 4-5-5 at D(0,0): corner (1,0) shows 4, ...
    >>> len(board), [str(c) for c in board.open_cells()]
    (1, ['D(0,-1)', 'D(-1,0)', 'D(0,0)'])
    """

    __slots__ = ("rules", "_cells", "_values", "_touch", "_frontier", "_tiles", "_history")

    def __init__(
        self, placements: Iterable[Placement] = (), *, rules: RuleSet = DEFAULT_RULES
    ) -> None:
        self.rules = rules
        self._cells: dict[tuple[int, int, str], Placement] = {}
        self._values: dict[tuple[int, int], int] = {}
        self._touch: dict[tuple[int, int], int] = {}
        self._frontier: dict[Cell, int] = {}
        self._tiles: dict[Tile, Cell] = {}
        self._history: list[tuple[Placement, Tile]] = []
        for placement in placements:
            self.place(placement)

    # -- reading the table ------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._cells)

    def __contains__(self, cell: object) -> bool:
        return cell in self._cells

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self._cells == other._cells

    # Mutable, so unhashable. typeshed types object.__hash__ as a method, and mypy accepts
    # None in its place only with this narrow ignore (as typeshed does for list and dict).
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        rules = "" if self.rules == DEFAULT_RULES else f", rules={self.rules!r}"
        return f"Board({self.placements!r}{rules})"

    @property
    def placements(self) -> list[Placement]:
        """The placements in the order they were made."""
        return [placement for placement, _ in self._history]

    @property
    def last(self) -> Placement | None:
        """The last placement, or None on an empty board."""
        return self._history[-1][0] if self._history else None

    @property
    def tiles_played(self) -> KeysView[Tile]:
        """The tiles on the table (a live, read-only view)."""
        return self._tiles.keys()

    def tile_at(self, cell: Cell) -> Placement | None:
        """The placement in a cell, or None."""
        return self._cells.get(cell)

    def value_at(self, point: tuple[int, int]) -> int | None:
        """The value every tile touching ``point`` shows there, or None when none touches it."""
        return self._values.get(point)

    def shared_sides(self, cell: Cell) -> int:
        """How many sides an empty cell shares with the tiles on the table."""
        return self._frontier.get(cell, 0)

    def open_cells(self) -> list[Cell]:
        """The empty cells sharing at least one side with the table.

        On an empty board, where the opening may go anywhere, the origin ``U(0,0)`` stands for
        everywhere.
        """
        if not self._cells:
            return [ORIGIN]
        return list(self._frontier)

    def demanded(self, cell: Cell) -> tuple[int | None, int | None, int | None]:
        """The value each corner of ``cell`` must show (None where no tile touches it)."""
        get = self._values.get
        p0, p1, p2 = geometry(cell).points
        return (get(p0), get(p1), get(p2))

    # -- legality and score -----------------------------------------------------------------

    def check(self, placement: Placement) -> Score:
        """The score of a placement, without the draw penalty; the board does not change.

        Raises :class:`IllegalPlacement` whose ``code`` says why: ``unknown-tile``,
        ``mirror-tile``, ``tile-already-played``, ``occupied``, ``no-shared-side`` or
        ``corner-mismatch``.
        """
        return self.score(placement)[0]

    def score(self, placement: Placement) -> tuple[Score, Tile]:
        """:meth:`check`, also returning the tile the corners show: the pair that
        :meth:`push` takes, so that a replay checks a placement once and puts it once.

        >>> board = Board()
        >>> score, tile = board.score(Placement(Cell(0, 0, "U"), (5, 5, 5)))
        >>> score.total, tile
        (25, Tile('5-5-5'))
        """
        cell, corners = placement
        tile = _BY_CORNERS.get(corners)
        if tile is None:
            tile = _tile_or_raise(placement)
        tiles = self._tiles
        if tile in tiles:
            raise IllegalPlacement(
                "tile-already-played",
                f"{tile} at {cell}: {tile} is already on the table at {tiles[tile]}",
                tile=tile,
                cell=cell,
                at=tiles[tile],
            )
        cells = self._cells
        if cell in cells:
            raise IllegalPlacement(
                "occupied",
                f"{tile} at {cell}: the cell already holds {cells[cell].tile}",
                tile=tile,
                cell=cell,
                other=cells[cell].tile,
            )
        geo = _GEOMETRY.get(cell)
        if geo is None:
            try:
                geo = geometry(cell)
            except (TypeError, ValueError):
                raise InvalidCell(f"{cell!r} is not a cell like Cell(0, 0, 'U')") from None
        points, neighbours = geo
        rules = self.rules
        value = tile.value
        if not cells:
            if tile.is_triple:
                bonus_points = rules.opening_points(zero_triple=value == 0)
                if bonus_points:
                    return _bonus_score(value, Bonus.OPENING, bonus_points), tile
            return _PLAIN[value], tile
        shared = self._frontier.get(cell, 0)
        if not shared:
            raise IllegalPlacement(
                "no-shared-side",
                f"{tile} at {cell}: shares no side with a tile on the table",
                tile=tile,
                cell=cell,
            )
        get = self._values.get
        p0, p1, p2 = points
        v0, v1, v2 = corners
        s0, s1, s2 = get(p0, v0), get(p1, v1), get(p2, v2)
        if s0 != v0 or s1 != v1 or s2 != v2:
            point, shown, expected = next(
                (p, v, s) for p, v, s in zip(points, corners, (s0, s1, s2)) if s != v
            )
            raise IllegalPlacement(
                "corner-mismatch",
                f"{tile} at {cell}: corner {point} shows {shown}, the table has {expected} there",
                tile=tile,
                cell=cell,
                point=point,
                value=shown,
                expected=expected,
            )
        touch = self._touch.get
        ring = _ONE_SHORT_OF_A_HEXAGON
        hexagons = (touch(p0) == ring) + (touch(p1) == ring) + (touch(p2) == ring)
        if hexagons:
            bonus_points = rules.hexagon_bonuses[hexagons - 1]
            return _bonus_score(value, _HEXAGONS[hexagons - 1], bonus_points), tile
        if shared >= 2:
            if rules.two_sides_bonus is None:
                return _PLAIN[value], tile
            return _bonus_score(value, Bonus.TWO_SIDES, rules.two_sides_bonus), tile
        # One side shared: a bridge when the corner opposite that side touches the table.
        n0, n1, _ = neighbours
        opposite = p0 if n0 in cells else p1 if n1 in cells else p2
        if touch(opposite):
            return _bonus_score(value, Bonus.BRIDGE, rules.bridge_bonus), tile
        return _PLAIN[value], tile

    def is_legal(self, placement: Placement) -> bool:
        """Whether :meth:`check` accepts the placement."""
        try:
            self.check(placement)
        except (IllegalPlacement, InvalidCell):
            return False
        return True

    # -- changing the table -----------------------------------------------------------------

    def place(self, placement: Placement) -> Score:
        """Put a tile on the table and return its score; raises :class:`IllegalPlacement`."""
        score, tile = self.score(placement)
        self.push(placement, tile)
        return score

    def push(self, placement: Placement, tile: Tile | None = None) -> None:
        """Put a placement on the table **without checking it** (as python-chess's
        ``Board.push`` beside ``is_legal``): for a caller that checked it already with
        :meth:`score` (which gives ``tile``) or :meth:`check`, or that lays a table known to
        be legal. An illegal placement pushed leaves the table inconsistent; :meth:`place`
        checks and pushes in one call.

        >>> board = Board()
        >>> board.push(Placement(Cell(0, 0, "U"), (5, 5, 5)))
        >>> len(board), board.value_at((0, 0))
        (1, 5)
        """
        if tile is None:
            tile = placement.tile
        cell, corners = placement
        points, neighbours = _GEOMETRY.get(cell) or geometry(cell)
        cells = self._cells
        cells[cell] = placement
        self._tiles[tile] = cell
        values, frontier = self._values, self._frontier
        touch = self._touch
        count = touch.get
        p0, p1, p2 = points
        values[p0], values[p1], values[p2] = corners
        touch[p0] = count(p0, 0) + 1
        touch[p1] = count(p1, 0) + 1
        touch[p2] = count(p2, 0) + 1
        frontier.pop(cell, None)
        shared = frontier.get
        n0, n1, n2 = neighbours
        if n0 not in cells:
            frontier[n0] = shared(n0, 0) + 1
        if n1 not in cells:
            frontier[n1] = shared(n1, 0) + 1
        if n2 not in cells:
            frontier[n2] = shared(n2, 0) + 1
        self._history.append((placement, tile))

    def undo(self) -> Placement:
        """Take the last tile back; returns its placement. IndexError on an empty board."""
        if not self._history:
            raise IndexError("undo on an empty board")
        placement, tile = self._history.pop()
        cell = placement.cell
        points, neighbours = geometry(cell)
        cells = self._cells
        del cells[cell]
        del self._tiles[tile]
        values, touch, frontier = self._values, self._touch, self._frontier
        for point in points:
            count = touch[point] - 1
            if count:
                touch[point] = count
            else:
                del touch[point]
                del values[point]
        shared = 0
        for neighbour in neighbours:
            if neighbour in cells:
                shared += 1
            else:
                count = frontier[neighbour] - 1
                if count:
                    frontier[neighbour] = count
                else:
                    del frontier[neighbour]
        if shared:
            frontier[cell] = shared
        return placement

    def copy(self) -> Board:
        """An independent copy, history included."""
        other = type(self).__new__(type(self))
        other.rules = self.rules
        other._cells = dict(self._cells)
        other._values = dict(self._values)
        other._touch = dict(self._touch)
        other._frontier = dict(self._frontier)
        other._tiles = dict(self._tiles)
        other._history = list(self._history)
        return other

    # -- what can be played -----------------------------------------------------------------

    def legal_placements(self, rack: Iterable[Tile]) -> Iterator[Placement]:
        """Every legal placement of the rack's tiles, cell by cell (a generator).

        Tiles already on the table are skipped. On an empty board the opening is placed at
        the origin, in each orientation.

        >>> board = Board([Placement(Cell(0, 0, "U"), (5, 5, 5))])
        >>> [str(p) for p in board.legal_placements([Tile.parse("3-5-5"), Tile.parse("0-1-2")])]
        ['D(0,-1):3-5-5', 'D(-1,0):5-3-5', 'D(0,0):5-5-3']
        """
        played = self._tiles
        demand_keys = _demand_keys()
        index: dict[tuple[int | None, ...], list[Corners]] = {}
        for tile in dict.fromkeys(rack):
            if tile in played:
                continue
            for key, corners in demand_keys[tile]:
                found = index.get(key)
                if found is None:
                    index[key] = [corners]
                else:
                    found.append(corners)
        if not index:
            return
        if not self._cells:
            for corners in index.get((None, None, None), ()):
                yield Placement(ORIGIN, corners)
            return
        get = self._values.get
        for cell in self._frontier:
            p0, p1, p2 = geometry(cell).points
            found = index.get((get(p0), get(p1), get(p2)))
            if found:
                for corners in found:
                    yield Placement(cell, corners)

    def legal_orientations(self, tile: Tile, cell: Cell) -> list[Placement]:
        """The placements of ``tile`` in ``cell`` that are legal (rotations, clockwise)."""
        if tile in self._tiles or cell in self._cells:
            return []
        if self._cells and cell not in self._frontier:
            return []
        d0, d1, d2 = self.demanded(cell)
        return [
            Placement(cell, rotation)
            for rotation in tile.rotations()
            if (d0 is None or d0 == rotation[0])
            and (d1 is None or d1 == rotation[1])
            and (d2 is None or d2 == rotation[2])
        ]

    def can_play(self, rack: Iterable[Tile]) -> bool:
        """Whether any tile of the rack has a legal placement."""
        return next(self.legal_placements(rack), None) is not None
