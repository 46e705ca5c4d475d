"""MatchReplay.resume: a replay started after settled rounds, from their totals, gives the
same reports for the rounds that follow as a replay from the first round."""

from __future__ import annotations

import pytest

from scoring import MatchReplay, parse_record, rule_set
from scoring.simulate import simulate_match


def _full_and_resumed(data, start: int):
    record = parse_record(data)
    full = MatchReplay(record.players, rules=record.rules)
    totals_at_start = None
    for index, round_ in enumerate(record.rounds):
        if index == start:
            totals_at_start = full.totals
        full.begin_round()
        for turn in round_.turns:
            full.play(turn)
        full.end_round(round_.racks, round_.settlement_claimed)
    resumed = MatchReplay.resume(record.players, totals=totals_at_start, round_index=start,
                                 rules=record.rules)
    for round_ in record.rounds[start:]:
        resumed.begin_round()
        for turn in round_.turns:
            resumed.play(turn)
        resumed.end_round(round_.racks, round_.settlement_claimed)
    return full, resumed


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("mistakes", [0.0, 0.2])
def test_resumed_replay_reports_the_later_rounds_as_a_whole_replay(seed, mistakes):
    data = simulate_match(players=3, seed=seed, mistakes=mistakes)
    rounds = len(data["rounds"])
    assert rounds >= 3, "the simulated match needs several rounds"
    start = rounds - 2
    full, resumed = _full_and_resumed(data, start)
    assert resumed.rounds == full.rounds[start:]
    assert resumed.totals == full.totals
    assert resumed.finished == full.finished
    assert resumed.winners == full.winners
    assert [r.index for r in resumed.rounds] == list(range(start, rounds))


def test_resumed_replay_counts_rounds_towards_the_round_limit():
    rules = rule_set("goliath-tournament", round_limit=3)
    replay = MatchReplay.resume(["Ana", "Bo"], totals=[10, 20], round_index=2, rules=rules)
    replay.begin_round()
    replay.end_round()  # an unfinished round does not count
    assert not replay.finished
    replay = MatchReplay.resume(["Ana", "Bo"], totals=[10, 20], round_index=2,
                                rounds_counted=1, rules=rules)
    replay.begin_round()
    assert replay.turns == ()
    assert replay.end_round().index == 2


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"totals": [1], "round_index": 1}, "one number per player"),
        ({"totals": [1, 2], "round_index": -1}, "round_index"),
        ({"totals": [1, 2], "round_index": 1, "rounds_counted": 2}, "rounds_counted"),
        ({"totals": [400, 2], "round_index": 4}, "target"),
    ],
)
def test_resume_refuses_figures_it_cannot_start_from(kwargs, words):
    with pytest.raises(ValueError, match=words):
        MatchReplay.resume(["Ana", "Bo"], **kwargs)


def test_resume_refuses_a_match_whose_round_limit_was_reached():
    rules = rule_set("goliath-tournament", round_limit=2)
    with pytest.raises(ValueError, match="rounds were played"):
        MatchReplay.resume(["Ana", "Bo"], totals=[10, 20], round_index=2, rules=rules)
