"""Rule sets: hand sizes, pools, overrides; the board and the replay read every number there."""

from __future__ import annotations

import dataclasses

import pytest

from scoring import (
    DEFAULT_RULES,
    RULE_SETS,
    Board,
    Cell,
    MatchReplay,
    Placement,
    PlaceRecord,
    TurnRecord,
    UnknownRuleSet,
    rule_set,
)


def test_the_three_rule_sets_and_the_default() -> None:
    assert set(RULE_SETS) == {"goliath-tournament", "goliath-family", "travel-tour"}
    assert DEFAULT_RULES is RULE_SETS["goliath-tournament"]
    assert rule_set().name == "goliath-tournament"


@pytest.mark.parametrize(
    ("name", "players", "hand", "pool"),
    [
        ("goliath-tournament", 2, 7, 42),
        ("goliath-tournament", 3, 7, 35),
        ("goliath-tournament", 4, 7, 28),
        ("goliath-family", 2, 9, 38),
        ("goliath-family", 3, 7, 35),
        ("goliath-family", 4, 7, 28),
        ("goliath-family", 5, 6, 26),
        ("goliath-family", 6, 6, 20),
        ("travel-tour", 2, 9, 38),
        ("travel-tour", 4, 7, 28),
    ],
)
def test_hand_and_pool_sizes(name: str, players: int, hand: int, pool: int) -> None:
    rules = RULE_SETS[name]
    assert rules.hand_size(players) == hand
    assert rules.pool_size(players) == pool


@pytest.mark.parametrize(("name", "players"), [("goliath-tournament", 5), ("travel-tour", 1),
                                               ("goliath-family", 7)])
def test_player_counts_outside_the_rule_set(name: str, players: int) -> None:
    with pytest.raises(ValueError, match=f"not {players}"):
        RULE_SETS[name].hand_size(players)


def test_the_numbers_of_the_rule_book() -> None:
    rules = DEFAULT_RULES
    assert (rules.opening_bonus, rules.zero_triple_opening_bonus) == (10, 40)
    assert (rules.draw_penalty, rules.max_draws, rules.failed_draws_penalty) == (5, 3, 10)
    assert (rules.two_sides_bonus, rules.bridge_bonus) == (40, 40)
    assert rules.hexagon_bonuses == (50, 60, 70)
    assert (rules.going_out_bonus, rules.target, rules.tile_count) == (25, 400, 56)
    assert rules.voluntary_draw and not RULE_SETS["travel-tour"].voluntary_draw


def test_overrides_return_a_copy() -> None:
    assert rule_set("travel-tour", target=250).target == 250
    assert RULE_SETS["travel-tour"].target == 400
    plain = rule_set(opening_bonus=False)
    assert (plain.opening_bonus, plain.zero_triple_opening_bonus) == (0, 0)
    assert rule_set(round_limit=3).round_limit == 3
    assert rule_set() is DEFAULT_RULES


@pytest.mark.parametrize("target", [0, -5])
def test_a_target_must_be_positive(target: int) -> None:
    with pytest.raises(ValueError, match="target"):
        rule_set(target=target)


def test_an_unknown_rule_set_names_the_known_ones() -> None:
    with pytest.raises(UnknownRuleSet, match="goliath-family") as raised:
        rule_set("scrabble")
    assert isinstance(raised.value, ValueError)
    assert "scrabble" in str(raised.value)


def test_rule_sets_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT_RULES.target = 100  # type: ignore[misc]


def test_the_board_scores_with_the_numbers_of_its_rule_set() -> None:
    odd = dataclasses.replace(DEFAULT_RULES, opening_bonus=3, zero_triple_opening_bonus=7)
    assert Board(rules=odd).check(Placement(Cell(0, 0, "U"), (5, 5, 5))).bonus_points == 3
    assert Board(rules=odd).check(Placement(Cell(0, 0, "U"), (0, 0, 0))).total == 7
    plain = rule_set(opening_bonus=False)
    score = Board(rules=plain).check(Placement(Cell(0, 0, "U"), (5, 5, 5)))
    assert (score.bonus, score.total) == (None, 15)


def test_the_replay_takes_penalties_and_hand_sizes_from_its_rule_set() -> None:
    odd = dataclasses.replace(
        DEFAULT_RULES, draw_penalty=2, failed_draws_penalty=1, hand_sizes=((2, 4),)
    )
    replay = MatchReplay(["Ana", "Bo"], rules=odd)
    replay.begin_round()
    assert replay.pool_size == 48
    replay.play(TurnRecord(0, place=PlaceRecord(cell=Cell(0, 0, "U"), corners=(5, 5, 5))))
    report = replay.play(TurnRecord(1, draws=3))
    assert report.penalty == 3 * 2 + 1
    assert replay.hand_counts == (3, 7)
    assert report.points == -7
