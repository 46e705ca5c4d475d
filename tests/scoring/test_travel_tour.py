"""``travel-tour`` follows the Travel Tour sheet as written (docs/reference/rules.md, "The Travel Tour
sheet"): one record per decision, replayed under the travel rules and under the tournament
rules, which differ exactly there."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import Bonus, MatchReport
from tests.scoring.engine_records import check, codes, record, round_, turn

ANA_BO = ["Ana", "Bo"]

#: Thirteen placements on a table, alternately Ana's and Bo's: the 11th makes a bridge, the
#: 12th shares two sides with the table (no hexagon), the 13th closes three hexagons at once.
POSITIONS = [
    ("U(0,-1)", "5-4-5"), ("D(-1,-1)", "5-5-5"), ("D(0,-1)", "4-5-4"), ("U(1,-1)", "4-4-4"),
    ("D(1,-1)", "4-4-3"), ("U(1,0)", "3-3-4"), ("D(0,0)", "4-2-3"), ("U(0,1)", "2-3-2"),
    ("D(-1,1)", "2-2-2"), ("U(-1,1)", "2-2-1"), ("D(-1,0)", "5-1-2"), ("U(-1,0)", "1-5-5"),
    ("U(0,0)", "2-4-5"),
]
BRIDGE, TWO_SIDES, TRIPLE = 10, 11, 12


def _cell(text: str) -> list[Any]:
    x, y = text[2:-1].split(",")
    return [int(x), int(y), text[0]]


def board_turns(claims: dict[int, int] | None = None,
                bonuses: dict[int, str] | None = None) -> list[dict[str, Any]]:
    """The thirteen placements in board mode, each claiming the tile's value unless told."""
    turns = []
    for i, (cell, corners) in enumerate(POSITIONS):
        values = [int(v) for v in corners.split("-")]
        claimed = (claims or {}).get(i, sum(values))
        turns.append(turn(i % 2, cell=_cell(cell), corners=values, claimed=claimed,
                          bonus=(bonuses or {}).get(i)))
    return turns


def sheet_turns(bonuses: dict[int, str], claims: dict[int, int]) -> list[dict[str, Any]]:
    """The same tiles in sheet mode (no positions), with the bonuses claimed."""
    turns = []
    for i, (_, corners) in enumerate(POSITIONS):
        tile = "-".join(sorted(corners.split("-")))
        value = sum(int(v) for v in corners.split("-"))
        turns.append(turn(i % 2, tile, claimed=claims.get(i, value), bonus=bonuses.get(i)))
    return turns


def turn_json(report: MatchReport, t: int) -> dict[str, Any]:
    return report.rounds[0].turns[t].to_json()


# -- bonuses: bridge +40, hexagon +50, double hexagon +60, nothing else -----------------------


def test_travel_bonuses_in_board_mode() -> None:
    travel = record(ANA_BO, round_(board_turns({BRIDGE: 48, TWO_SIDES: 11, TRIPLE: 71})),
                    rules="travel-tour")
    report = check(travel)
    assert report.valid, codes(report)
    assert (turn_json(report, BRIDGE)["bonus"], turn_json(report, BRIDGE)["bonus_points"]) == (
        "bridge", 40)
    # two sides: no bonus, the tile's value alone
    assert turn_json(report, TWO_SIDES)["bonus"] is None
    assert turn_json(report, TWO_SIDES)["points"] == 11
    # three hexagons at once: +60, the highest the sheet lists
    assert turn_json(report, TRIPLE)["bonus"] == "triple-hexagon"
    assert turn_json(report, TRIPLE)["bonus_points"] == 60

    # the same record under the tournament rules: +40 for two sides, +70 for three hexagons
    tournament = check({**travel, "rules": "goliath-tournament"})
    assert turn_json(tournament, TWO_SIDES)["bonus_points"] == 40
    assert turn_json(tournament, TRIPLE)["bonus_points"] == 70
    assert codes(tournament) == [(0, TWO_SIDES, "claim-mismatch"), (0, TRIPLE, "claim-mismatch")]


def test_a_two_sides_claim_under_travel_rules_is_a_bonus_mismatch() -> None:
    travel = record(ANA_BO, round_(board_turns({BRIDGE: 48, TWO_SIDES: 51, TRIPLE: 71},
                                               {TWO_SIDES: "two-sides"})), rules="travel-tour")
    report = check(travel)
    assert codes(report) == [(0, TWO_SIDES, "bonus-mismatch"), (0, TWO_SIDES, "claim-mismatch")]
    assert report.problems[0].template == "bonus-mismatch/none"


# -- sheet mode: the bonuses a claim may name follow the travel list ---------------------------


def test_sheet_mode_follows_the_travel_bonus_list() -> None:
    bonuses = {BRIDGE: "bridge", TWO_SIDES: "two-sides", TRIPLE: "triple-hexagon"}
    travel = record(ANA_BO, round_(sheet_turns(bonuses, {BRIDGE: 48, TWO_SIDES: 51, TRIPLE: 71})),
                    rules="travel-tour")
    report = check(travel)
    two_sides = report.rounds[0].turns[TWO_SIDES]
    assert [p.template for p in two_sides.problems] == ["bonus-mismatch/not-in-rules",
                                                       "claim-mismatch/sheet"]
    assert two_sides.bonus is None and two_sides.points == 11
    triple = report.rounds[0].turns[TRIPLE]
    assert (triple.verdict, triple.bonus, triple.bonus_points) == (
        "unverified", Bonus.TRIPLE_HEXAGON, 60)

    tournament = check({**travel, "rules": "goliath-tournament"})
    two_sides = tournament.rounds[0].turns[TWO_SIDES]
    assert (two_sides.verdict, two_sides.bonus_points) == ("unverified", 40)
    assert tournament.rounds[0].turns[TRIPLE].bonus_points == 70


# -- a blocked round: the others lose their own racks ------------------------------------------


def blocked_round(racks: list[Any], players: int = 2, hand: int = 9) -> dict[str, Any]:
    """Sheet mode: player 0 opens with 5-5-5, then everyone draws three tiles a turn until the
    pool is empty, which blocks the table (no one has placed since the opening); ``racks``
    are the totals left in hand."""
    pool = 56 - hand * players
    turns = [turn(0, "5-5-5", claimed=25)]
    player = 1
    while pool:
        draws = min(3, pool)
        pool -= draws
        turns.append(turn(player, draws=draws, claimed=-5 * draws - (10 if draws == 3 else 0)))
        player = (player + 1) % players
    return round_(turns, racks=racks)


@pytest.mark.parametrize(
    ("players", "racks", "travel", "tournament"),
    [
        (2, [12, 30], [18, -30], [18, 0]),
        (3, [20, 10, 31], [-20, 41, -31], [0, 41, 0]),
        # players tied for the lowest total each score the others' totals minus their own
        (3, [10, 10, 25], [25, 25, -25], [25, 25, 0]),
    ],
)
def test_a_blocked_round_under_travel_rules(players: int, racks: list[int], travel: list[int],
                                            tournament: list[int]) -> None:
    names = ["Ana", "Bo", "Cy"][:players]
    data = record(names, blocked_round(racks, players, 9 if players == 2 else 7),
                  rules="travel-tour")
    report = check(data)
    assert report.valid, codes(report)
    assert report.rounds[0].end == "blocked"
    assert list(report.rounds[0].settlement or ()) == travel
    # the tournament rules deal 7 tiles: a pool of another size, blocked the same way
    data = record(names, blocked_round(racks, players, 7), rules="goliath-tournament")
    other = check(data)
    assert other.rounds[0].end == "blocked"
    assert list(other.rounds[0].settlement or ()) == tournament


def going_out_round() -> dict[str, Any]:
    """Sheet mode: Ana opens with 5-5-5, Bo draws three, then they place in turn until Ana
    places her ninth tile and goes out; Bo shows 40 in hand."""
    tiles = ["0-1-2", "0-1-3", "0-1-4", "0-1-5", "0-2-3", "0-2-4", "0-2-5", "0-3-4", "0-3-5",
             "0-4-5", "1-2-3", "1-2-4", "1-2-5", "1-3-4", "1-3-5"]
    turns = [turn(0, "5-5-5", claimed=25), turn(1, draws=3, claimed=-25)]
    turns += [turn(i % 2, tile) for i, tile in enumerate(tiles)]
    return round_(turns, racks=[0, 40])


def test_going_out_under_travel_rules_costs_the_others_nothing() -> None:
    report = check(record(ANA_BO, going_out_round(), rules="travel-tour"))
    assert report.valid, codes(report)
    assert report.rounds[0].end == "out" and report.rounds[0].out_player == 0
    assert report.rounds[0].settlement == (25 + 40, 0)


# -- the end of the match: only at the end of a round --------------------------------------------


def test_touching_the_target_mid_round_ends_no_travel_match() -> None:
    # target 25: Ana's opening reaches it, her later draws take her back under it, and after
    # the settlement she is still under it
    second = round_([turn(1, "4-4-4", claimed=22)])
    data = record(ANA_BO, blocked_round([12, 30]), second, rules="travel-tour", target=25)
    report = check(data)
    assert report.rounds[0].scores[0] < 25
    assert not report.finished and report.valid, codes(report)
    assert len(report.rounds) == 2

    # the tournament rules: touching the target ended the match after round 1
    tournament = check(record(ANA_BO, blocked_round([12, 30], hand=7), second,
                              rules="goliath-tournament", target=25))
    assert tournament.rounds[0].scores[0] < 25
    assert tournament.finished
    assert codes(tournament) == [(1, None, "round-after-match-end")]


def test_a_travel_match_ends_when_a_round_settles_over_the_target() -> None:
    data = record(ANA_BO, going_out_round(), round_([turn(1, "4-4-4", claimed=22)]),
                  rules="travel-tour", target=100)
    report = check(data)
    assert report.totals[0] >= 100 and report.finished and report.winners == (0,)
    assert codes(report) == [(1, None, "round-after-match-end")]
