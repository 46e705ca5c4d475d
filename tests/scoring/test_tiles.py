"""Tiles: the 56 tiles, their names, rotations, and the mirror images that do not exist."""

from __future__ import annotations

import copy
import pickle
from itertools import permutations

import pytest

from scoring import ALL_TILES, MirrorTile, Tile, UnknownTile


def test_there_are_56_tiles_each_multiset_once() -> None:
    assert len(ALL_TILES) == 56
    assert len({(t.a, t.b, t.c) for t in ALL_TILES}) == 56
    assert all(0 <= t.a <= t.b <= t.c <= 5 for t in ALL_TILES)
    assert [str(t) for t in ALL_TILES if t.is_triple] == [f"{v}-{v}-{v}" for v in range(6)]
    assert list(ALL_TILES) == sorted(ALL_TILES)


@pytest.mark.parametrize(
    ("text", "name", "value"),
    [
        ("0-1-2", "0-1-2", 3),
        ("2-0-1", "0-1-2", 3),
        ("012", "0-1-2", 3),
        ("2 1 0", "0-1-2", 3),
        (" 5,5,3 ", "3-5-5", 13),
        ("0-0-0", "0-0-0", 0),
        ("5-5-5", "5-5-5", 15),
    ],
)
def test_parse_normalises_any_order(text: str, name: str, value: int) -> None:
    tile = Tile.parse(text)
    assert str(tile) == name
    assert tile.value == value
    assert tile is Tile.parse(name)


@pytest.mark.parametrize("text", ["0-1-6", "9-9-9", "", "0-1", "0-1-2-3", "a-b-c", "-1-0-0"])
def test_parse_refuses_what_is_not_a_tile(text: str) -> None:
    with pytest.raises(UnknownTile) as raised:
        Tile.parse(text)
    assert repr(text) in str(raised.value)
    assert isinstance(raised.value, ValueError)


def test_parse_refuses_a_non_string() -> None:
    with pytest.raises(UnknownTile):
        Tile.parse(12)  # type: ignore[arg-type]


@pytest.mark.parametrize("values", [(0, 1, 6), (-1, 0, 0), (0, 0, True)])
def test_constructor_refuses_values_outside_0_to_5(values: tuple[int, int, int]) -> None:
    with pytest.raises(UnknownTile):
        Tile(*values)


def test_repr_pastes_back_and_str_parses_back() -> None:
    for tile in ALL_TILES:
        assert eval(repr(tile), {"Tile": Tile}) is tile
        assert Tile.parse(str(tile)) is tile


def test_rotations_are_clockwise_and_distinct() -> None:
    assert Tile.parse("0-1-2").rotations() == ((0, 1, 2), (1, 2, 0), (2, 0, 1))
    assert Tile.parse("3-3-5").rotations() == ((3, 3, 5), (3, 5, 3), (5, 3, 3))
    assert Tile.parse("4-4-4").rotations() == ((4, 4, 4),)
    assert sum(len(t.rotations()) for t in ALL_TILES) == 6 * 1 + 30 * 3 + 20 * 3


@pytest.mark.parametrize("tile", [t for t in ALL_TILES if len({t.a, t.b, t.c}) == 3], ids=str)
def test_the_mirror_image_of_a_tile_with_three_values_does_not_exist(tile: Tile) -> None:
    for rotation in tile.rotations():
        assert Tile.from_corners(rotation) is tile
        mirrored = tuple(reversed(rotation))
        with pytest.raises(MirrorTile) as raised:
            Tile.from_corners(mirrored)
        assert str(tile) in str(raised.value)


@pytest.mark.parametrize("tile", [t for t in ALL_TILES if len({t.a, t.b, t.c}) < 3], ids=str)
def test_a_tile_with_a_repeated_value_has_no_mirror_image(tile: Tile) -> None:
    for order in permutations((tile.a, tile.b, tile.c)):
        assert Tile.from_corners(order) is tile


@pytest.mark.parametrize("corners", [(0, 1, 6), (-1, 2, 3), (1, 2), (1, 2, 3, 4)])
def test_from_corners_refuses_values_outside_0_to_5(corners: tuple[int, ...]) -> None:
    with pytest.raises(UnknownTile):
        Tile.from_corners(corners)


def test_tiles_are_immutable_singletons() -> None:
    tile = Tile.parse("1-2-3")
    with pytest.raises(AttributeError):
        tile.a = 0
    assert pickle.loads(pickle.dumps(tile)) is tile
    assert copy.deepcopy(tile) is tile
    assert Tile(3, 2, 1) is tile
    assert len({tile, Tile.parse("321")}) == 1
