"""The 56 Triominos tiles.

A tile carries three values from 0 to 5 at its corners; each multiset of three values exists
exactly once. Read clockwise from its lowest value, a tile's values never decrease, so a tile
has one chirality: ``0-1-2`` shows 0, 1, 2 clockwise, and the mirror image (0, 2, 1) does not
exist. Tiles are named by their values in ascending order, ``"0-1-2"``.

There is exactly one :class:`Tile` object per tile, so tiles compare and hash by identity.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import ClassVar, Final, cast

from scoring.errors import MirrorTile, UnknownTile

__all__ = ["Tile", "ALL_TILES", "Corners", "tile_from_corners"]

#: Three corner values, read clockwise.
Corners = tuple[int, int, int]

_VALUES: Final = range(6)
#: Compiled by ``re`` on first use (its cache): the usual spelling is found without it.
_NAME_PATTERN: Final = r"^\s*(\d)\s*[-\s,/]?\s*(\d)\s*[-\s,/]?\s*(\d)\s*$"


class Tile:
    """One of the 56 tiles: ``Tile(a, b, c)`` with the values in any order, or ``Tile("a-b-c")``.

    >>> t = Tile.parse("2-0-1")
    >>> t, str(t), t.value, t.is_triple
    (Tile('0-1-2'), '0-1-2', 3, False)
    >>> t.rotations()
    ((0, 1, 2), (1, 2, 0), (2, 0, 1))
    >>> Tile(5, 5, 5) is Tile.parse("555")
    True
    """

    __slots__ = ("a", "b", "c", "value", "is_triple", "_name", "_rotations")

    _interned: ClassVar[dict[tuple[int, int, int], Tile]] = {}

    a: int
    b: int
    c: int
    value: int
    is_triple: bool
    _name: str
    _rotations: tuple[Corners, ...]

    def __new__(cls, a: int | str, b: int | None = None, c: int | None = None) -> Tile:
        if isinstance(a, str) and b is None and c is None:
            return cls.parse(a)
        if not all(type(v) is int and v in _VALUES for v in (a, b, c)):
            raise UnknownTile(f"unknown-tile: {a}-{b}-{c}: values must be 0 to 5")
        lo, mid, hi = sorted(cast(tuple[int, int, int], (a, b, c)))
        tile = cls._interned.get((lo, mid, hi))
        if tile is not None:
            return tile
        tile = object.__new__(cls)
        tile.a, tile.b, tile.c = lo, mid, hi
        tile.value = lo + mid + hi
        tile.is_triple = lo == hi
        tile._name = f"{lo}-{mid}-{hi}"
        rotations = ((lo, mid, hi), (mid, hi, lo), (hi, lo, mid))
        tile._rotations = tuple(dict.fromkeys(rotations))
        cls._interned[(lo, mid, hi)] = tile
        return tile

    @classmethod
    def parse(cls, name: str) -> Tile:
        """Read a tile name: ``"0-1-2"``, ``"012"``, ``"0 1 2"``, values in any order.

        >>> Tile.parse("5 3 3")
        Tile('3-3-5')
        """
        if not isinstance(name, str):
            raise UnknownTile(f"unknown-tile: {name!r}: a tile name is a string like '0-1-2'")
        tile = _BY_NAME.get(name)  # the usual spelling, "0-1-2": one look-up
        if tile is not None:
            return tile
        match = re.match(_NAME_PATTERN, name, re.ASCII)
        if match is None:
            raise UnknownTile(f"unknown-tile: {name!r}: a tile name is like '0-1-2'")
        values = [int(v) for v in match.groups()]
        if any(v not in _VALUES for v in values):
            raise UnknownTile(f"unknown-tile: {name!r}: values must be 0 to 5")
        return _BY_SORTED[tuple(sorted(values))]

    @classmethod
    def from_corners(cls, corners: tuple[int, ...] | list[int]) -> Tile:
        """The tile showing these corner values clockwise.

        Raises :class:`UnknownTile` for values outside 0-5 and :class:`MirrorTile` for a
        mirror image.

        >>> Tile.from_corners((2, 0, 1))
        Tile('0-1-2')
        >>> Tile.from_corners((0, 2, 1))
        Traceback (most recent call last):
        ...
        scoring.errors.MirrorTile: mirror-tile: corners 0-2-1 show the mirror image of 0-1-2
        """
        tile = _BY_CORNERS.get(tuple(corners))
        if tile is not None:
            return tile
        shown = "-".join(str(v) for v in corners)
        if len(corners) != 3 or not all(type(v) is int and v in _VALUES for v in corners):
            raise UnknownTile(f"unknown-tile: corners {shown}: three values from 0 to 5")
        real = _BY_SORTED[tuple(sorted(corners))]
        raise MirrorTile(f"mirror-tile: corners {shown} show the mirror image of {real}")

    def rotations(self) -> tuple[Corners, ...]:
        """The distinct clockwise corner tuples of this tile (1 for a triple, else 3)."""
        return self._rotations

    def __str__(self) -> str:
        return self._name

    def __repr__(self) -> str:
        return f"Tile('{self._name}')"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Tile.parse, (self._name,))

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: object) -> Tile:
        return self

    def _key(self) -> tuple[int, int, int]:
        return (self.a, self.b, self.c)

    def __lt__(self, other: Tile) -> bool:
        return self._key() < other._key()

    def __le__(self, other: Tile) -> bool:
        return self._key() <= other._key()

    def __gt__(self, other: Tile) -> bool:
        return self._key() > other._key()

    def __ge__(self, other: Tile) -> bool:
        return self._key() >= other._key()

    def __setattr__(self, name: str, value: object) -> None:
        if hasattr(self, "_rotations"):
            raise AttributeError(f"Tile is immutable: cannot set {name}")
        object.__setattr__(self, name, value)


def _all_tiles() -> Iterator[Tile]:
    for a in _VALUES:
        for b in range(a, 6):
            for c in range(b, 6):
                yield Tile(a, b, c)


#: The 56 tiles, in ascending order of their names.
ALL_TILES: Final[tuple[Tile, ...]] = tuple(_all_tiles())
_BY_SORTED: Final[dict[tuple[int, ...], Tile]] = {t._key(): t for t in ALL_TILES}
_BY_NAME: Final[dict[str, Tile]] = {t._name: t for t in ALL_TILES}
_BY_CORNERS: Final[dict[tuple[int, ...], Tile]] = {
    rotation: t for t in ALL_TILES for rotation in t.rotations()
}


def tile_from_corners(corners: tuple[int, ...]) -> Tile | None:
    """The tile these clockwise corners show, or None (mirror image, bad values): one look-up.

    >>> tile_from_corners((1, 2, 0)), tile_from_corners((0, 2, 1))
    (Tile('0-1-2'), None)
    """
    return _BY_CORNERS.get(corners)
