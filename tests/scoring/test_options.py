"""The record's ``options`` (docs/reference/record-format.md): no opening bonus, a fixed number of
rounds, each with a record, and both at once with a target."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import MatchReplay, RecordError, parse_record
from scoring.simulate import simulate_match
from tests.scoring.engine_records import check, codes, record, round_, turn

ANA_BO = ["Ana", "Bo"]


def test_no_opening_bonus_scores_the_opening_tile_alone() -> None:
    data = record(ANA_BO, round_([turn(0, "5-5-5", claimed=15), turn(1, "0-0-0", claimed=0)]),
                  options={"opening_bonus": False})
    report = check(data)
    # 5-5-5 opens for its value alone; 0-0-0 later is a plain tile in sheet mode
    assert report.valid, codes(report)
    assert report.rounds[0].turns[0].bonus is None
    assert report.rounds[0].turns[0].points == 15

    with_bonus = check({k: v for k, v in data.items() if k != "options"})
    assert codes(with_bonus) == [(0, 0, "claim-mismatch")]
    assert with_bonus.rounds[0].turns[0].points == 25

    # an opening claimed under no opening bonus is refused with its reason
    claimed = record(ANA_BO, round_([turn(0, "5-5-5", bonus="opening", claimed=25)]),
                     options={"opening_bonus": False})
    assert [p.template for p in check(claimed).problems] == [
        "bonus-mismatch/no-opening-bonus", "claim-mismatch/sheet"]


def _out_round(opener: int = 0) -> dict[str, Any]:
    """A round of sheet mode that the opener ends by going out (racks as totals)."""
    tiles = ["0-1-2", "0-1-3", "0-1-4", "0-1-5", "0-2-3", "0-2-4", "0-2-5", "0-3-4", "0-3-5",
             "0-4-5", "1-2-3"]
    other = 1 - opener
    turns = [turn(opener, "5-5-5"), turn(other, draws=3)]
    turns += [turn((opener + i) % 2, tile) for i, tile in enumerate(tiles)]
    racks: list[Any] = [0, 0]
    racks[other] = 30
    return round_(turns, racks=racks)


def test_rounds_ends_the_match_after_that_round_whoever_leads() -> None:
    data = record(ANA_BO, _out_round(), _out_round(1), _out_round(),
                  options={"rounds": 2})
    report = check(data)
    assert all(r.end == "out" for r in report.rounds)
    assert max(report.totals) < 400
    assert report.finished
    assert codes(report) == [(2, None, "round-after-match-end")]
    assert report.problems[0].template == "round-after-match-end/rounds"
    assert report.rounds[2].counted is False

    # without the option the third round counts and the match goes on
    plain = check({k: v for k, v in data.items() if k != "options"})
    assert plain.valid and not plain.finished and len(plain.rounds) == 3


def test_with_a_target_too_whichever_comes_first_ends_the_match() -> None:
    rounds = [_out_round(), _out_round(1), _out_round()]
    first_round = check(record(ANA_BO, *rounds[:1]))
    target = max(first_round.totals)  # reached in round 1
    early = check(record(ANA_BO, *rounds, target=target, options={"rounds": 3}))
    assert early.finished
    assert [p.template for p in early.problems] == ["round-after-match-end"] * 2

    late = check(record(ANA_BO, *rounds, target=5000, options={"rounds": 1}))
    assert late.finished
    assert [p.template for p in late.problems] == ["round-after-match-end/rounds"] * 2


def test_options_round_trip_and_default_to_none() -> None:
    data = record(ANA_BO, _out_round(), options={"opening_bonus": False, "rounds": 4})
    parsed = parse_record(data)
    assert (parsed.opening_bonus, parsed.round_limit) == (False, 4)
    assert parsed.to_dict()["options"] == {"opening_bonus": False, "rounds": 4}
    assert parse_record(parsed.to_dict()) == parsed
    assert "options" not in parse_record(record(ANA_BO)).to_dict()
    assert parse_record(record(ANA_BO, options={"opening_bonus": True})).options == {}


def test_a_simulated_match_with_options_checks_clean() -> None:
    data = simulate_match(players=3, seed=5, rules="travel-tour", opening_bonus=False, rounds=2)
    assert data["options"] == {"opening_bonus": False, "rounds": 2}
    report = check(data)
    assert report.valid, codes(report)
    assert report.finished and len(report.rounds) <= 2
    assert all(t.bonus is None or t.bonus.value != "opening" for r in report.rounds
               for t in r.turns)


def test_time_up_ends_the_match_once_the_round_in_play_has_ended() -> None:
    """Time ran out during round 2: round 2 is played out and counts, round 3 does not."""
    data = record(ANA_BO, _out_round(), _out_round(1), _out_round(), options={"time_up": 2})
    report = check(data)
    assert report.finished
    assert codes(report) == [(2, None, "round-after-match-end")]
    assert report.problems[0].template == "round-after-match-end/time"
    assert report.rounds[1].counted and not report.rounds[2].counted
    two_rounds = check(record(ANA_BO, _out_round(), _out_round(1)))
    assert report.totals == two_rounds.totals
    assert list(report.winners) == [i for i, t in enumerate(report.totals)
                                    if t == max(report.totals)]


def test_time_up_in_a_round_not_yet_ended_leaves_the_match_open() -> None:
    """A round cut short (no end) ends nothing: the clock does not stop a round in play."""
    unfinished = round_([turn(0, "5-5-5"), turn(1, draws=3)])
    report = check(record(ANA_BO, _out_round(), unfinished, options={"time_up": 2}))
    assert not report.finished and report.valid, codes(report)


def test_time_up_with_rounds_and_target_whichever_comes_first() -> None:
    rounds = [_out_round(), _out_round(1), _out_round()]
    by_rounds = check(record(ANA_BO, *rounds, target=5000, options={"rounds": 1, "time_up": 2}))
    assert [p.template for p in by_rounds.problems] == ["round-after-match-end/rounds"] * 2
    by_time = check(record(ANA_BO, *rounds, target=5000, options={"rounds": 3, "time_up": 1}))
    assert [p.template for p in by_time.problems] == ["round-after-match-end/time"] * 2


def test_time_up_round_trips_and_refuses_nonsense() -> None:
    data = record(ANA_BO, _out_round(), options={"time_up": 3})
    parsed = parse_record(data)
    assert parsed.time_up == 3 and parsed.rules.time_up_round == 3
    assert parsed.to_dict()["options"] == {"time_up": 3}
    assert parse_record(parsed.to_dict()) == parsed
    for bad in (0, -1, "2", True, 1.5):
        with pytest.raises(RecordError):
            parse_record(record(ANA_BO, options={"time_up": bad}))


def test_a_resumed_replay_past_the_time_up_round_is_over() -> None:
    rules = parse_record(record(ANA_BO, options={"time_up": 2})).rules
    with pytest.raises(ValueError, match="time was up"):
        MatchReplay.resume(ANA_BO, totals=[10, 20], round_index=2, rules=rules)
    MatchReplay.resume(ANA_BO, totals=[10, 20], round_index=1, rules=rules)
