"""Records of things that cannot have happened, made from one legal simulated match: the
engine's tests check them with ``python -m scoring check``, the app's tests upload and import
the same records, so that one record gets one verdict on every path.

The match: four players, seed 7, goliath-tournament rules. At the end of its first round
seat 3 has gone out, seat 1 holds one tile, and 14 tiles are left in the pool.
"""

from __future__ import annotations

import copy
from typing import Any

from scoring import ALL_TILES, Tile
from scoring.simulate import simulate_match
from scoring.tiles import tile_from_corners

Json = dict[str, Any]

SEED = 7
#: The seat that went out of round 1, and the seat left with one tile.
OUT_SEAT, ONE_TILE_SEAT = 3, 1


def legal_match(names: list[str] | None = None) -> Json:
    """The whole legal match (every claim right), its players named ``names``."""
    return simulate_match(players=4, seed=SEED, names=names)


def _first_round_only(data: Json) -> Json:
    data = copy.deepcopy(data)
    data["rounds"] = data["rounds"][:1]
    data["rounds"][0].pop("settlement_claimed", None)
    return data


def _placed(round_: Json) -> set[Tile]:
    placed: set[Tile] = set()
    for turn in round_["turns"]:
        place = turn.get("place")
        if place:
            tile = (Tile.parse(place["tile"]) if "tile" in place
                    else tile_from_corners(tuple(place["corners"])))
            assert tile is not None
            placed.add(tile)
    return placed


def with_rack(data: Json, seat: int, rack: Any, *, whole: bool = False) -> Json:
    """The first round (or ``whole`` match) with the rack of ``seat`` replaced by ``rack`` and
    the settlement claims left out."""
    data = copy.deepcopy(data) if whole else _first_round_only(data)
    data["rounds"][0]["racks"][seat] = rack
    data["rounds"][0].pop("settlement_claimed", None)
    return data


def unseen_tiles(data: Json) -> list[str]:
    """The tiles of the first round neither on the table nor in a rack: the pool's."""
    round_ = data["rounds"][0]
    shown = {Tile.parse(name) for rack in round_["racks"] for name in rack}
    return [str(t) for t in ALL_TILES if t not in _placed(round_) and t not in shown]


def rack_value(data: Json, seat: int) -> int:
    return sum(Tile.parse(name).value for name in data["rounds"][0]["racks"][seat])


def with_corner(data: Json, value: int, *, whole: bool = False) -> Json:
    """The first round (or ``whole`` match) with one corner of its second turn's placement set
    to ``value`` (a value no tile shows when outside 0-5)."""
    data = copy.deepcopy(data) if whole else _first_round_only(data)
    turn = next(t for t in data["rounds"][0]["turns"][1:] if "place" in t)
    turn["place"]["corners"][0] = value
    turn["place"].pop("tile", None)
    return data
