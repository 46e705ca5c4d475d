"""Builders of small match records for the engine's tests (JSON-shaped dicts)."""

from __future__ import annotations

from typing import Any

from scoring import ALL_TILES, FORMAT, MatchReport, Tile, check_record, parse_record

Json = dict[str, Any]

#: Tiles by decreasing value, triples left out: plain placements for sheet-mode rounds.
PLAIN_TILES = [
    str(t) for t in sorted(ALL_TILES, key=lambda t: (-t.value, str(t))) if not t.is_triple
]


def record(players: list[str], *rounds: Json, **extra: Any) -> Json:
    return {"format": FORMAT, "rules": "goliath-tournament", **extra, "players": players,
            "rounds": list(rounds)}


def round_(turns: list[Json], racks: list[Any] | None = None,
           settlement: list[int] | None = None) -> Json:
    data: Json = {"turns": turns}
    if racks is not None:
        data["racks"] = racks
    if settlement is not None:
        data["settlement_claimed"] = settlement
    return data


def turn(player: int, tile: str | None = None, *, draws: int = 0, claimed: int | None = None,
         bonus: str | None = None, cell: list[Any] | None = None,
         corners: list[int] | None = None) -> Json:
    data: Json = {"player": player}
    if draws:
        data["draws"] = draws
    place: Json = {}
    if cell is not None:
        place["cell"] = cell
    if corners is not None:
        place["corners"] = corners
    if tile is not None:
        place["tile"] = tile
    if place:
        data["place"] = place
    if bonus is not None:
        data["bonus"] = bonus
    if claimed is not None:
        data["claimed"] = claimed
    return data


def check(data: Json) -> MatchReport:
    return check_record(parse_record(data))


def codes(report: MatchReport) -> list[tuple[int, int | None, str]]:
    return [(p.round, p.turn, p.code) for p in report.problems]


def value(*names: str) -> int:
    return sum(Tile.parse(name).value for name in names)


def going_out_round(tiles: list[str], *, opener_bonus: int = 0) -> tuple[list[Json], int]:
    """Two players: player 0 places ``tiles`` (7 of them, sheet mode) while player 1 draws
    three tiles each turn and cannot play. Returns the turns with right claims, and how many
    tiles player 1 holds at the end."""
    turns = []
    held = 7
    for i, name in enumerate(tiles):
        if i:
            turns.append(turn(1, draws=3, claimed=-25))
            held += 3
        bonus = opener_bonus if i == 0 else 0
        turns.append(turn(0, name, claimed=value(name) + bonus))
    return turns, held
