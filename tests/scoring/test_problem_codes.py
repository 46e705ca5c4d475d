"""Every problem code of record-format.md, each from a record that makes it, with a message
that names the player, the tile and what was expected."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import ALL_TILES, Where
from scoring.messages import MESSAGES, render
from tests.scoring.engine_records import check, codes, going_out_round, record, round_, turn

CODES_OF_RECORD_FORMAT = {
    "claim-mismatch", "bonus-mismatch", "occupied", "no-shared-side", "corner-mismatch",
    "mirror-tile", "unknown-tile", "tile-already-played", "out-of-turn", "too-many-draws",
    "pass-with-pool", "turn-after-end", "rack-mismatch", "settlement-mismatch",
    "round-after-match-end", "false-block", "rack-impossible", "rack-total-impossible",
}

ANA_BO = ["Ana", "Bo"]
OPEN = turn(0, cell=[0, 0, "U"], corners=[5, 5, 5], claimed=25)  # Ana opens with 5-5-5
OUT = ["5-5-5", "4-5-5", "3-5-5", "4-4-5", "3-4-5", "2-5-5", "4-4-4"]


def _blocked_board_round() -> dict[str, Any]:
    """Ana opens with 5-5-5, then both draw three tiles a turn until the pool is empty: the
    round is blocked, though 0-5-5 (in Ana's rack) fits beside the 5-5-5."""
    turns = [OPEN] + [turn(1 - i % 2, draws=3, claimed=-25) for i in range(14)]
    left = [str(t) for t in ALL_TILES if str(t) != "5-5-5"]
    return record(ANA_BO, round_(turns, racks=[left[:27], left[27:]]))


def _rack_beyond_the_pool() -> dict[str, Any]:
    """The blocked round above, the pool empty, Ana's rack showing one tile of Bo's more than
    her hand of 27: no draw can have given it."""
    data = _blocked_board_round()
    left = [str(t) for t in ALL_TILES if str(t) != "5-5-5"]
    data["rounds"][0]["racks"] = [left[:28], left[28:]]
    return data


def _finished_then_another_round() -> dict[str, Any]:
    turns, _ = going_out_round(OUT, opener_bonus=10)
    return record(ANA_BO, round_(turns, racks=[[], 0]), round_([turn(1, "5-5-5", claimed=25)]),
                  target=100)


CASES: list[tuple[str, dict[str, Any], list[tuple[int, int | None, str]], list[str]]] = [
    ("claim-mismatch", record(ANA_BO, round_([turn(0, "5-5-5", claimed=15)])),
     [(0, 0, "claim-mismatch")], ["Ana", "5-5-5", "15", "15 + 10 (opening) = 25"]),
    ("bonus-mismatch", record(ANA_BO, round_([OPEN, turn(1, "0-1-2", bonus="hexagon", claimed=3)])),
     [(0, 1, "bonus-mismatch")], ["Bo", "hexagon", "0-1-2", "1 tiles on the table (5 needed)"]),
    ("occupied", record(ANA_BO, round_([OPEN, turn(1, cell=[0, 0, "U"], corners=[4, 4, 4])])),
     [(0, 1, "occupied")], ["Bo", "4-4-4", "U(0,0)", "already holds 5-5-5"]),
    ("no-shared-side",
     record(ANA_BO, round_([OPEN, turn(1, cell=[1, 0, "U"], corners=[4, 5, 4])])),
     [(0, 1, "no-shared-side")], ["Bo", "4-4-5", "U(1,0)"]),
    ("corner-mismatch",
     record(ANA_BO, round_([OPEN, turn(1, cell=[0, 0, "D"], corners=[5, 4, 4])])),
     [(0, 1, "corner-mismatch")], ["Bo", "4-4-5", "D(0,0)", "(0,1) shows 4", "shows 5 there"]),
    ("mirror-tile", record(ANA_BO, round_([OPEN, turn(1, cell=[0, 0, "D"], corners=[5, 1, 0])])),
     [(0, 1, "mirror-tile")], ["Bo", "5-1-0", "0-1-5", "mirror image"]),
    ("unknown-tile", record(ANA_BO, round_([turn(0, "6-6-6")])),
     [(0, 0, "unknown-tile")], ["Ana", "6-6-6"]),
    ("unknown-tile", record(ANA_BO, round_([turn(0, cell=[0, 0, "U"], corners=[5, 7, 5])])),
     [(0, 0, "unknown-tile")], ["Ana", "5-7-5"]),
    ("tile-already-played", record(ANA_BO, round_([OPEN, turn(1, "5-5-5")])),
     [(0, 1, "tile-already-played")], ["Bo", "5-5-5", "already on the table"]),
    ("out-of-turn", record(ANA_BO, round_([OPEN, turn(0, draws=3)])),
     [(0, 1, "out-of-turn")], ["Ana", "Bo was next"]),
    ("too-many-draws", record(ANA_BO, round_([OPEN, turn(1, draws=5)])),
     [(0, 1, "too-many-draws")], ["Bo", "drew 5", "at most 3"]),
    ("pass-with-pool", record(ANA_BO, round_([OPEN, turn(1, draws=1)])),
     [(0, 1, "pass-with-pool")], ["Bo", "41 tiles", "up to 3"]),
    ("turn-after-end",
     record(ANA_BO, round_([*going_out_round(OUT, opener_bonus=10)[0], turn(1, draws=3)])),
     [(0, 13, "turn-after-end")], ["Bo played a turn after Ana went out"]),
    ("rack-mismatch", record(ANA_BO, round_([OPEN], racks=[["0-0-1"], []])),
     [(0, None, "rack-mismatch"), (0, None, "rack-mismatch")], ["Ana's rack shows 1 tile(s), 6 expected"]),
    ("settlement-mismatch",
     record(ANA_BO, round_(going_out_round(OUT, opener_bonus=10)[0], racks=[[], 10],
                           settlement=[30, 0])),
     [(0, None, "settlement-mismatch")], ["Ana", "claimed 30", "gives 35"]),
    ("rack-impossible", _rack_beyond_the_pool(),
     [(0, None, "rack-impossible"), (0, None, "rack-mismatch"), (0, None, "false-block")],
     ["Ana's rack shows 28 tiles", "at most 27"]),
    ("rack-total-impossible",
     record(ANA_BO, round_(going_out_round(OUT, opener_bonus=10)[0], racks=[5, 0])),
     [(0, None, "rack-total-impossible")], ["Ana", "total of 5", "holds no tile"]),
    ("round-after-match-end", _finished_then_another_round(),
     [(1, None, "round-after-match-end")], ["round 2", "target 100"]),
    ("false-block", _blocked_board_round(),
     [(0, None, "false-block")], ["Ana's 0-5-5", "D(0,-1)", "blocked"]),
]


@pytest.mark.parametrize(("code", "data", "expected", "in_message"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_each_problem_code(code: str, data: dict[str, Any],
                           expected: list[tuple[int, int | None, str]],
                           in_message: list[str]) -> None:
    report = check(data)
    assert codes(report) == expected
    assert not report.valid
    message = report.problems[0].message
    for fragment in in_message:
        assert fragment in message, message
    for problem in report.problems:
        if problem.turn is not None:
            assert report.rounds[problem.round].turns[problem.turn].verdict in (
                "illegal", "mismatch"
            )


def test_the_cases_cover_every_code_of_record_format() -> None:
    assert {case[0] for case in CASES} == CODES_OF_RECORD_FORMAT
    assert {key.partition("/")[0] for key in MESSAGES} == CODES_OF_RECORD_FORMAT


def test_an_illegal_placement_scores_its_draw_penalties_only_and_stays_in_the_hand() -> None:
    report = check(record(ANA_BO, round_([
        OPEN, turn(1, draws=2, cell=[0, 0, "U"], corners=[4, 4, 4], claimed=2),
    ])))
    bad = report.rounds[0].turns[1]
    assert (bad.points, bad.tile_value, bad.bonus, bad.penalty, bad.verdict) == (
        -10, 0, None, 10, "illegal"
    )
    assert codes(report) == [(0, 1, "occupied")]  # and no claim-mismatch on top


def test_messages_keep_their_template_and_parameters() -> None:
    report = check(record(ANA_BO, round_([turn(0, "5-5-5", claimed=15)])))
    problem = report.problems[0]
    assert problem.template == "claim-mismatch/sheet"
    assert render(problem.template, problem.params) == problem.message
    assert problem.params["player"] == "Ana"


WHERE_CASES = [
    # (record, code, cell, neighbours, corner)
    (record(ANA_BO, round_([OPEN, turn(1, cell=[0, 0, "D"], corners=[5, 5, 4], claimed=99)])),
     "claim-mismatch", "D(0,0)", (("5-5-5", "upper right"),), ()),
    (record(ANA_BO, round_([OPEN, turn(1, cell=[0, 0, "U"], corners=[4, 4, 4])])),
     "occupied", "U(0,0)", (), ()),
    (record(ANA_BO, round_([OPEN, turn(1, cell=[1, 0, "U"], corners=[4, 5, 4])])),
     "no-shared-side", "U(1,0)", (), ("5-5-5",)),  # it touches the 5-5-5 by a corner only
    (record(ANA_BO, round_([OPEN, turn(1, cell=[4, 0, "U"], corners=[4, 5, 4])])),
     "no-shared-side", "U(4,0)", (), ()),  # away from every tile
    (record(ANA_BO, round_([OPEN, turn(1, cell=[0, 0, "D"], corners=[5, 4, 4])])),
     "corner-mismatch", "D(0,0)", (("5-5-5", "upper right"),), ("5-5-5",)),
    (_blocked_board_round(), "false-block", "D(0,-1)", (("5-5-5", "below"),), ()),
]


@pytest.mark.parametrize(("data", "code", "cell", "neighbours", "corner"), WHERE_CASES,
                         ids=[f"{c[1]}-{i}" for i, c in enumerate(WHERE_CASES)])
def test_a_problem_about_a_cell_says_where_it_lies_from_the_tiles_around(
    data: dict[str, Any], code: str, cell: str, neighbours: tuple[tuple[str, str], ...],
    corner: tuple[str, ...],
) -> None:
    """The data a caller needs to name the cell in words (the web app does, in French and
    English); the message itself keeps the cell's code, as `python -m scoring check` shows it."""
    (problem,) = [p for p in check(data).problems if p.code == code]
    assert problem.where == Where(cell, neighbours, corner)
    assert cell in problem.message
    assert "where" not in problem.to_json()


def test_a_problem_without_a_cell_says_no_place() -> None:
    (problem,) = check(record(ANA_BO, round_([OPEN, turn(0, draws=3)]))).problems
    assert problem.code == "out-of-turn" and problem.where is None
