"""The referee's replay: turns, draws and the pool, going out, blocked rounds, settlement,
bonus claims in board and sheet mode, the end of the match, and the incremental API."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from scoring import (
    ALL_TILES,
    DEFAULT_RULES,
    Bonus,
    Cell,
    MatchReplay,
    Placement,
    PlaceRecord,
    RecordError,
    ReplayStateError,
    Tile,
    TurnRecord,
    Verdict,
    parse_record,
)
from tests.scoring.engine_records import (
    PLAIN_TILES,
    check,
    codes,
    going_out_round,
    record,
    round_,
    turn,
    value,
)

ANA_BO = ["Ana", "Bo"]


def cell_turn(player: int, placement: str, **kwargs: Any) -> dict[str, Any]:
    p = Placement.parse(placement)
    return turn(player, cell=[p.cell.x, p.cell.y, p.cell.o], corners=list(p.corners), **kwargs)


# -- draws and passes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("case", "points", "penalty", "draws", "verdict", "problems"),
    [
        pytest.param(turn(1, "0-5-5", draws=1, claimed=5), 5, 5, 1, "ok", [], id="1 draw, place"),
        pytest.param(turn(1, "0-5-5", draws=2, claimed=0), 0, 10, 2, "ok", [], id="2 draws, place"),
        pytest.param(turn(1, "0-5-5", draws=3, claimed=-5), -5, 15, 3, "ok", [],
                     id="3 draws, place"),
        pytest.param(turn(1, draws=3, claimed=-25), -25, 25, 3, "ok", [], id="3 draws: -25"),
        pytest.param(turn(1, claimed=0), 0, 0, 0, "illegal", ["pass-with-pool"],
                     id="pass with a pool"),
        pytest.param(turn(1, draws=2, claimed=-10), -10, 10, 2, "illegal", ["pass-with-pool"],
                     id="2 draws, pass with a pool"),
        pytest.param(turn(1, draws=4, claimed=-25), -25, 25, 3, "illegal", ["too-many-draws"],
                     id="4 draws"),
        pytest.param(turn(1, "0-5-5", draws=1, claimed=10), 5, 5, 1, "mismatch",
                     ["claim-mismatch"], id="wrong claim"),
    ],
)
def test_draws_and_their_penalties(
    case: dict[str, Any], points: int, penalty: int, draws: int, verdict: str,
    problems: list[str]
) -> None:
    report = check(record(ANA_BO, round_([turn(0, "5-5-5", claimed=25), case])))
    result = report.rounds[0].turns[1]
    assert (result.points, result.penalty, result.draws, result.verdict) == (
        points, penalty, draws, verdict
    )
    assert [p.code for p in report.problems] == problems
    assert all(p.turn == 1 for p in report.problems)


def three_players_pool_of_two() -> list[dict[str, Any]]:
    """Three players (pool 35): an opening, then eleven turns of three draws: 2 tiles left."""
    draws = [turn(i % 3, draws=3, claimed=-25) for i in range(1, 12)]
    return [turn(0, "5-5-5", claimed=25), *draws]


@pytest.mark.parametrize(
    ("case", "points", "draws", "problems", "end"),
    [
        # the pool runs out at the 2nd draw and the player still cannot play: -5 a tile, no -10
        pytest.param(turn(0, draws=2, claimed=-10), -10, 2, [], "blocked", id="pool empties"),
        pytest.param(turn(0, draws=3, claimed=-10), -10, 2, ["too-many-draws"], "blocked",
                     id="3 draws from a pool of 2"),
        pytest.param(turn(0, draws=1, claimed=-5), -5, 1, ["pass-with-pool"], "unfinished",
                     id="1 draw and a pass, 1 tile left"),
        pytest.param(turn(0, "0-5-5", draws=2, claimed=0), 0, 2, [], "unfinished",
                     id="last draw, then a placement"),
    ],
)
def test_the_pool_running_out_mid_turn(
    case: dict[str, Any], points: int, draws: int, problems: list[str], end: str
) -> None:
    report = check(record(["Ana", "Bo", "Cy"], round_([*three_players_pool_of_two(), case])))
    last = report.rounds[0].turns[-1]
    assert (last.points, last.draws) == (points, draws)
    assert [p.code for p in report.problems] == problems
    assert report.rounds[0].end == end


def test_a_pass_once_the_pool_is_empty_costs_nothing() -> None:
    turns = [*three_players_pool_of_two(), turn(0, "0-5-5", draws=2, claimed=0),
             turn(1, claimed=0), turn(2, claimed=0)]
    report = check(record(["Ana", "Bo", "Cy"], round_(turns)))
    assert report.valid
    assert [t.points for t in report.rounds[0].turns[-2:]] == [0, 0]
    assert report.rounds[0].end == "unfinished"  # Ana has not passed since her placement


# -- going out, blocked rounds, settlement --------------------------------------------------------

OUT_TILES = ["5-5-5", "4-5-5", "3-5-5", "4-4-5", "3-4-5", "2-5-5", "4-4-4"]
LEFT = [str(t) for t in ALL_TILES if str(t) not in OUT_TILES]


def test_going_out_ends_the_round_and_scores_25_plus_the_other_racks() -> None:
    turns, held = going_out_round(OUT_TILES, opener_bonus=10)
    rack = LEFT[:held]
    settlement = 25 + value(*rack)
    report = check(record(ANA_BO, round_(turns, racks=[[], rack], settlement=[settlement, 0])))
    assert report.valid, report.problems
    (round0,) = report.rounds
    assert (round0.end, round0.out_player, round0.settlement) == ("out", 0, (settlement, 0))
    assert round0.scores == (value(*OUT_TILES) + 10 + settlement, -25 * 6)
    assert report.totals == round0.scores


def test_a_turn_after_going_out_is_refused() -> None:
    turns, _ = going_out_round(OUT_TILES, opener_bonus=10)
    report = check(record(ANA_BO, round_([*turns, turn(1, draws=3, claimed=-25)])))
    assert codes(report) == [(0, 13, "turn-after-end")]
    late = report.rounds[0].turns[13]
    assert (late.points, late.verdict) == (0, "illegal")
    assert report.rounds[0].scores[1] == -25 * 6


def test_blocked_with_a_tie_for_the_lowest_rack() -> None:
    turns = [*three_players_pool_of_two(), turn(0, draws=2, claimed=-10)]
    report = check(record(["Ana", "Bo", "Cy"],
                          round_(turns, racks=[30, 30, 50], settlement=[50, 50, 0])))
    assert report.valid, report.problems
    (round0,) = report.rounds
    assert (round0.end, round0.out_player) == ("blocked", None)
    # each tied player adds the others' totals and takes off their own: 30 + 50 - 30
    assert round0.settlement == (50, 50, 0)
    assert round0.scores == (25 - 75 - 10 + 50, -100 + 50, -100)
    assert "false-block" not in [p.code for p in report.problems]


def test_a_turn_after_a_blocked_round_is_refused() -> None:
    turns = [*three_players_pool_of_two(), turn(0, draws=2, claimed=-10), turn(1, claimed=0)]
    report = check(record(["Ana", "Bo", "Cy"], round_(turns)))
    assert codes(report) == [(0, 13, "turn-after-end")]
    assert report.problems[0].message == "Bo played a turn after the round was blocked"


def test_blocked_without_a_tie_only_the_lowest_scores() -> None:
    turns = [*three_players_pool_of_two(), turn(0, draws=2, claimed=-10)]
    report = check(record(["Ana", "Bo", "Cy"], round_(turns, racks=[20, 35, 50])))
    assert report.rounds[0].settlement == (65, 0, 0)


@pytest.mark.parametrize(
    ("racks", "problems", "settled"),
    [
        pytest.param(lambda held: [[], LEFT[: held - 1]], [(0, None, "rack-mismatch")], True,
                     id="one tile missing"),
        # the player who went out holds nothing: a tile in that rack cannot have happened
        pytest.param(lambda held: [[LEFT[-1]], LEFT[:held]], [(0, None, "rack-impossible")],
                     True, id="the player out shows a tile"),
        pytest.param(lambda held: [[], ["5-5-5", *LEFT[: held - 1]]],
                     [(0, None, "tile-already-played")], True, id="a tile played"),
        pytest.param(lambda held: [[LEFT[0]], LEFT[:held]],
                     [(0, None, "rack-impossible"), (0, None, "tile-already-played")], True,
                     id="a tile in two racks"),
        pytest.param(lambda held: [[], ["9-9-9", *LEFT[: held - 1]]],
                     [(0, None, "unknown-tile")], False, id="not a tile"),
        pytest.param(lambda held: [0, 180], [], True, id="totals only"),
    ],
)
def test_racks_shown_at_the_end(racks: Any, problems: list[Any], settled: bool) -> None:
    turns, held = going_out_round(OUT_TILES, opener_bonus=10)
    report = check(record(ANA_BO, round_(turns, racks=racks(held))))
    assert codes(report) == problems
    assert (report.rounds[0].settlement is not None) == settled


def test_settlement_mismatch_names_the_player() -> None:
    turns, _ = going_out_round(OUT_TILES, opener_bonus=10)
    report = check(record(ANA_BO, round_(turns, racks=[0, 100], settlement=[120, 0])))
    assert codes(report) == [(0, None, "settlement-mismatch")]
    assert report.problems[0].message == (
        "Ana claimed 120 at the settlement, the settlement gives 125"
    )


def test_a_settlement_wrong_for_several_players_is_one_problem() -> None:
    turns, _ = going_out_round(OUT_TILES, opener_bonus=10)
    report = check(record(ANA_BO, round_(turns, racks=[0, 100], settlement=[0, 125])))
    assert codes(report) == [(0, None, "settlement-mismatch")]
    assert report.problems[0].message == (
        "the settlement claimed (0, 125) differs from the computed one (125, 0) for Ana, Bo"
    )


def test_an_unfinished_round_has_no_settlement() -> None:
    report = check(record(ANA_BO, round_([turn(0, "5-5-5", claimed=25)], racks=[6, 7],
                                         settlement=[0, 3])))
    assert report.rounds[0].end == "unfinished"
    assert report.rounds[0].settlement is None
    assert codes(report) == [(0, None, "settlement-mismatch")]
    assert report.rounds[0].scores == (25, 0)


# -- turn order ---------------------------------------------------------------------------------


def test_any_player_may_open_then_play_goes_clockwise() -> None:
    report = check(record(["Ana", "Bo", "Cy"], round_([
        turn(2, "5-5-5", claimed=25),
        turn(0, draws=3, claimed=-25),
        turn(0, draws=3, claimed=-25),  # Bo was next
        turn(1, draws=3, claimed=-25),  # resync: after Ana comes Bo
    ])))
    assert codes(report) == [(0, 2, "out-of-turn")]
    assert report.problems[0].message == "Ana played out of turn: Bo was next"
    assert report.rounds[0].turns[2].points == -25  # the turn still counts


# -- bonus claims -------------------------------------------------------------------------------

HEXAGON = ["D(0,0):3-4-1", "U(0,1):4-1-4", "U(1,0):1-1-3", "D(0,1):1-4-5", "D(1,0):1-1-0",
           "U(1,1):5-0-1"]


@pytest.mark.parametrize(
    ("claimed_bonus", "problems", "verdict"),
    [
        (None, [], "ok"),  # an absent claim is not checked, only the points
        ("hexagon", [], "ok"),
        ("two-sides", ["bonus-mismatch"], "mismatch"),
        ("bridge", ["bonus-mismatch"], "mismatch"),
    ],
)
def test_board_mode_finds_the_bonus_itself(
    claimed_bonus: str | None, problems: list[str], verdict: str
) -> None:
    turns = [cell_turn(i % 2, p) for p in HEXAGON[:-1] for i in [HEXAGON.index(p)]]
    turns.append(cell_turn(1, HEXAGON[-1], bonus=claimed_bonus, claimed=6 + 50))
    report = check(record(ANA_BO, round_(turns)))
    last = report.rounds[0].turns[-1]
    assert (last.bonus, last.bonus_points, last.points) == (Bonus.HEXAGON, 50, 56)
    assert [p.code for p in report.problems] == problems
    assert last.verdict == verdict


def test_a_bonus_claimed_on_a_plain_placement() -> None:
    report = check(record(ANA_BO, round_([
        cell_turn(0, "U(0,0):5-5-5", claimed=25),
        cell_turn(1, "D(0,0):5-5-3", bonus="bridge", claimed=53),
    ])))
    assert codes(report) == [(0, 1, "bonus-mismatch"), (0, 1, "claim-mismatch")]
    assert report.problems[0].message == (
        "Bo claimed bridge for 3-5-5 at D(0,0), the placement earns no bonus"
    )
    assert report.problems[1].message == "Bo claimed 53 for 3-5-5 at D(0,0), the turn scores 13"


def sheet_round_with(count: int, last: dict[str, Any]) -> dict[str, Any]:
    """``count`` plain tiles placed in turn by Ana and Bo, then ``last``."""
    turns = [turn(i % 2, PLAIN_TILES[i], claimed=value(PLAIN_TILES[i])) for i in range(count)]
    return record(ANA_BO, round_([*turns, last]))


@pytest.mark.parametrize(
    ("bonus", "on_table", "possible"),
    [
        ("hexagon", 4, False), ("hexagon", 5, True),
        ("bridge", 7, False), ("bridge", 8, True),
        ("double-hexagon", 8, False), ("double-hexagon", 9, True),
        ("two-sides", 10, False), ("two-sides", 11, True),
        ("triple-hexagon", 11, False), ("triple-hexagon", 12, True),
        ("opening", 3, False),
    ],
)
def test_sheet_mode_checks_that_a_claimed_bonus_is_possible(
    bonus: str, on_table: int, possible: bool
) -> None:
    tile = "0-0-1"
    points = {"hexagon": 50, "bridge": 40, "double-hexagon": 60, "two-sides": 40,
              "triple-hexagon": 70, "opening": 10}[bonus]
    report = check(sheet_round_with(
        on_table, turn(on_table % 2, tile, bonus=bonus, claimed=1 + points)
    ))
    last = report.rounds[0].turns[-1]
    if possible:
        assert report.valid
        assert (last.bonus, last.points, last.verdict) == (bonus, 1 + points, "unverified")
    else:
        assert [p.code for p in report.problems] == ["bonus-mismatch", "claim-mismatch"]
        assert (last.bonus, last.points, last.verdict) == (None, 1, "mismatch")


@pytest.mark.parametrize(
    ("tile", "claimed_bonus", "bonus", "points", "problems"),
    [
        ("5-5-5", None, "opening", 25, []),
        ("5-5-5", "opening", "opening", 25, []),
        ("0-0-0", "opening", "opening", 40, []),
        ("4-5-5", "opening", None, 14, ["bonus-mismatch"]),
        ("5-5-5", "bridge", "opening", 25, ["bonus-mismatch"]),
    ],
)
def test_the_opening_in_sheet_mode(
    tile: str, claimed_bonus: str | None, bonus: str | None, points: int, problems: list[str]
) -> None:
    report = check(record(ANA_BO, round_([turn(0, tile, bonus=claimed_bonus, claimed=points)])))
    first = report.rounds[0].turns[0]
    assert (first.bonus, first.points) == (bonus, points)
    assert [p.code for p in report.problems] == problems
    assert first.verdict == ("ok" if not problems else "mismatch")


def test_only_the_first_placement_opens() -> None:
    report = check(record(ANA_BO, round_([
        turn(0, draws=3, claimed=-25),
        turn(1, "5-5-5", claimed=25),
        turn(0, "4-4-4", bonus="opening", claimed=22),
    ])))
    assert report.rounds[0].turns[1].bonus == "opening"
    assert codes(report) == [(0, 2, "bonus-mismatch"), (0, 2, "claim-mismatch")]
    assert "already opened" in report.problems[0].message


def test_a_placement_without_its_cell_switches_the_round_to_sheet_mode() -> None:
    data = record(ANA_BO, round_([
        cell_turn(0, "U(0,0):5-5-5", claimed=25),
        turn(1, "4-5-5", claimed=14),
        cell_turn(0, "U(0,0):3-3-3", claimed=9),  # the table is unknown: not "occupied"
        cell_turn(1, "U(0,0):5-5-5", claimed=25),  # but a tile is never played twice
    ]))
    report = check(data)
    assert codes(report) == [(0, 3, "tile-already-played")]
    replay = MatchReplay(ANA_BO)
    replay.begin_round()
    for t in parse_record(data).rounds[0].turns[:2]:
        replay.play(t)
    assert replay.board is None
    assert replay.tiles_played == {Tile("5-5-5"), Tile("4-5-5")}


def test_a_tile_name_must_agree_with_the_corners() -> None:
    report = check(record(ANA_BO, round_([
        turn(0, "5-5-4", cell=[0, 0, "U"], corners=[5, 5, 5], claimed=25),
    ])))
    assert codes(report) == [(0, 0, "unknown-tile")]
    assert report.problems[0].message == "Ana played 5-5-4, but the corners 5-5-5 show 5-5-5"


# -- the end of the match -------------------------------------------------------------------------

ROUND_1_TILES = ["4-5-5", "3-5-5", "4-4-5", "3-4-5", "2-5-5", "4-4-4", "1-5-5"]


def match_to_400(*, played_out: bool = True, extra_round: bool = False) -> dict[str, Any]:
    """Ana ends round 0 at 326; in round 1 she passes 400 with her sixth tile (turn 11), and
    the round is played out: she goes out at turn 13."""
    first, _held = going_out_round(OUT_TILES, opener_bonus=10)
    second = [turn(1, "5-5-5", claimed=25)]
    for i, name in enumerate(ROUND_1_TILES):
        if i:
            second.append(turn(1, draws=3, claimed=-25))
        second.append(turn(0, name, claimed=value(name)))
    rounds = [round_(first, racks=[[], 200]), round_(second, racks=[[], 150])]
    if not played_out:
        rounds[1] = round_(second[:12])
    if extra_round:
        rounds.append(round_([turn(0, "5-5-5", claimed=25)]))
    return record(ANA_BO, *rounds)


def test_the_match_ends_when_the_round_in_which_400_was_reached_is_played_out() -> None:
    data = match_to_400()
    parsed = parse_record(data)
    replay = MatchReplay(parsed.players, rules=parsed.rules)
    replay.begin_round()
    for t in parsed.rounds[0].turns:
        replay.play(t)
    replay.end_round(parsed.rounds[0].racks)
    assert replay.totals == (101 + 225, -150) and not replay.finished
    replay.begin_round()
    for index, t in enumerate(parsed.rounds[1].turns):
        replay.play(t)
        running = replay.totals[0] + replay.round_scores[0]
        if index == 11:
            assert running == 402  # past the target, but the round goes on
        assert not replay.finished and replay.winners == ()
    assert replay.round_over and replay.out_player == 0
    replay.end_round(parsed.rounds[1].racks)
    assert replay.finished and replay.winners == (0,)
    report = replay.report()
    assert report.valid and report.finished
    assert report.totals == (326 + value(*ROUND_1_TILES) + 175, -150 + 25 - 150)


def test_the_match_is_not_over_while_the_round_is_unfinished() -> None:
    report = check(match_to_400(played_out=False))
    assert report.valid
    assert report.totals[0] >= 400
    assert (report.finished, report.winners) == (False, ())


def test_no_round_after_the_match_ended() -> None:
    report = check(match_to_400(extra_round=True))
    assert codes(report) == [(2, None, "round-after-match-end")]
    assert len(report.rounds) == 3 and not report.rounds[2].counted
    assert report.totals == check(match_to_400()).totals  # the extra round is not added up
    assert report.finished and report.winners == (0,)
    assert report.to_json()["rounds"][2]["scores"] == [25, 0]


def test_equal_highest_totals_share_the_win() -> None:
    rules = dataclasses.replace(DEFAULT_RULES, hand_sizes=((2, 2),), tile_count=4, target=12)
    replay = MatchReplay(ANA_BO, rules=rules)
    replay.begin_round()
    assert replay.pool_size == 0
    replay.play(TurnRecord(0, place=PlaceRecord(tile="2-5-5"), claimed=12))
    replay.play(TurnRecord(1, place=PlaceRecord(tile="3-4-5"), claimed=12))
    replay.play(TurnRecord(0, claimed=0))
    replay.play(TurnRecord(1, claimed=0))
    assert replay.round_end == "blocked"
    report = replay.end_round([["0-0-2"], ["0-1-1"]], [0, 0])
    assert report.settlement == (0, 0) and not report.problems
    assert replay.finished and replay.totals == (12, 12) and replay.winners == (0, 1)


def test_a_round_limit_ends_the_match() -> None:
    rules = dataclasses.replace(DEFAULT_RULES, round_limit=1)
    turns, _ = going_out_round(OUT_TILES, opener_bonus=10)
    replay = MatchReplay(ANA_BO, rules=rules)
    replay.begin_round()
    for t in parse_record(record(ANA_BO, round_(turns))).rounds[0].turns:
        replay.play(t)
    replay.end_round([[], 10])
    assert replay.finished and replay.totals[0] < 400


# -- the incremental API for the web app ----------------------------------------------------------


def test_preview_changes_nothing_and_play_agrees() -> None:
    replay = MatchReplay(["Ana", "Bo", "Cy"])
    replay.begin_round()
    assert (replay.next_player, replay.pool_size, replay.hand_counts) == (None, 35, (7, 7, 7))
    opening = TurnRecord(2, place=PlaceRecord(cell=Cell(0, 0, "U"), corners=(5, 5, 5)), claimed=25)
    replay.play(opening)
    assert replay.board is not None and [str(c) for c in replay.board.open_cells()] == [
        "D(0,-1)", "D(-1,0)", "D(0,0)"
    ]
    move = TurnRecord(0, draws=1, place=PlaceRecord(cell=Cell(0, 0, "D"), corners=(5, 5, 1)),
                      claimed=6)
    before = (replay.pool_size, replay.hand_counts, replay.board.placements, replay.turns,
              replay.round_scores, replay.next_player)
    preview = replay.preview(move)
    assert (replay.pool_size, replay.hand_counts, replay.board.placements, replay.turns,
            replay.round_scores, replay.next_player) == before
    assert replay.play(move) == preview
    assert (preview.points, preview.verdict) == (6, Verdict.OK)
    assert (replay.next_player, replay.pool_size, replay.hand_counts) == (1, 34, (7, 7, 6))
    assert replay.round_scores == (6, 0, 25) and not replay.round_over


def test_the_replay_refuses_calls_out_of_order() -> None:
    replay = MatchReplay(ANA_BO)
    with pytest.raises(ReplayStateError):
        replay.play(TurnRecord(0))
    with pytest.raises(ReplayStateError):
        _ = replay.pool_size
    replay.begin_round()
    with pytest.raises(ReplayStateError):
        replay.begin_round()
    with pytest.raises(ValueError):
        replay.play(TurnRecord(5))
    with pytest.raises(ValueError):
        MatchReplay(["Solo"])


def test_a_claim_kept_by_the_referee_counts_in_the_totals() -> None:
    opening = turn(0, "5-5-5", claimed=25)
    wrong = {**turn(1, draws=3, claimed=-20), "decision": "claim", "reason": "misread the rule"}
    report = check(record(ANA_BO, round_([opening, wrong])))
    kept = report.rounds[0].turns[1]
    assert (kept.points, kept.points_counted, kept.verdict) == (-25, -20, "mismatch")
    assert kept.to_json()["decision"] == "claim"
    assert codes(report) == [(0, 1, "claim-mismatch")]
    assert report.totals == (25, -20)


def test_the_engine_decision_keeps_the_engine_figure() -> None:
    opening = turn(0, "5-5-5", claimed=25)
    wrong = {**turn(1, draws=3, claimed=-20), "decision": "engine"}
    report = check(record(ANA_BO, round_([opening, wrong])))
    assert report.totals == (25, -25)


@pytest.mark.parametrize("extra", [
    {"decision": "claim"},  # no reason
    {"decision": "maybe", "reason": "x"},
    {"decision": "claim", "reason": 3},
])
def test_a_malformed_decision_is_unreadable(extra: dict[str, Any]) -> None:
    data = record(ANA_BO, round_([turn(0, "5-5-5", claimed=25), {**turn(1, draws=3, claimed=-20), **extra}]))
    with pytest.raises(RecordError, match="decision|reason"):
        parse_record(data)
