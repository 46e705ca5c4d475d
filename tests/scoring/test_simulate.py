"""The seeded simulator: legal matches with right claims, reproducible."""

from __future__ import annotations

import pytest

from scoring import DEFAULT_RULES, Tile, check_record, parse_record, rule_set
from scoring.simulate import choose_opener, simulate_match


def test_the_same_seed_gives_the_same_match() -> None:
    assert simulate_match(players=3, seed=4) == simulate_match(players=3, seed=4)
    assert simulate_match(players=3, seed=4) != simulate_match(players=3, seed=5)


@pytest.mark.parametrize(
    ("rules", "players"),
    [("goliath-tournament", 2), ("goliath-tournament", 4), ("goliath-family", 5),
     ("goliath-family", 6), ("travel-tour", 3)],
)
def test_a_simulated_match_is_finished_and_clean(rules: str, players: int) -> None:
    data = simulate_match(players=players, seed=1, rules=rules)
    report = check_record(parse_record(data))
    assert report.valid, report.problems[:3]
    assert report.finished and report.winners
    assert all(r.end in ("out", "blocked") for r in report.rounds)


@pytest.mark.parametrize(
    ("racks", "opener"),
    [
        ([["1-1-1", "4-5-5"], ["3-3-3", "0-1-2"]], [(1, "3-3-3")]),
        ([["5-5-5", "0-0-0"], ["4-4-4"]], [(0, "0-0-0")]),  # 40 beats 25
        ([["0-0-0", "4-5-5"], ["2-2-2"]], [(1, "2-2-2")]),  # the highest triple opens
        ([["3-4-5"], ["4-5-5", "0-1-1"]], [(1, "4-5-5")]),  # no triple: the highest value
        ([["2-5-5"], ["3-4-5"]], [(0, "2-5-5"), (1, "3-4-5")]),  # a tie: either
    ],
)
def test_who_opens(racks: list[list[str]], opener: list[tuple[int, str]]) -> None:
    tiles = [[Tile(name) for name in rack] for rack in racks]
    found = choose_opener(tiles, rules=DEFAULT_RULES)
    assert [(p, str(t)) for p, t in found] == opener
    plain = choose_opener([[Tile("5-5-5"), Tile("0-0-0")]], rules=rule_set(opening_bonus=False))
    assert plain == [(0, Tile("5-5-5"))]


def test_simulated_rounds_open_as_the_rules_say() -> None:
    for seed in range(5):
        for round_ in simulate_match(players=4, seed=seed)["rounds"]:
            first = round_["turns"][0]
            opener = Tile.from_corners(tuple(first["place"]["corners"]))
            assert first.get("bonus") == ("opening" if opener.is_triple else None)


def test_sheet_mode_and_mistakes() -> None:
    sheet = simulate_match(players=2, seed=3, sheet=True)
    turns = [t for r in sheet["rounds"] for t in r["turns"]]
    assert all("cell" not in t.get("place", {}) for t in turns)
    assert any(t.get("bonus") == "opening" for t in turns)
    assert check_record(parse_record(sheet)).valid
    wrong = check_record(parse_record(simulate_match(players=2, seed=3, mistakes=0.2)))
    assert {p.code for p in wrong.problems} <= {"claim-mismatch", "settlement-mismatch"}
    assert len(wrong.problems) > 5


@pytest.mark.parametrize(
    "kwargs",
    [{"players": 5}, {"players": 1}, {"players": 7, "rules": "goliath-family"},
     {"rules": "chess"}, {"mistakes": 1.5}, {"names": ["Ana"], "players": 2}],
)
def test_bad_arguments(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        simulate_match(**kwargs)  # type: ignore[arg-type]


def test_players_of_known_strength_the_stronger_wins_more() -> None:
    """``skills``: the probability of the best-scoring placement (else the worst). Over 60
    matches of three rounds, the player who always takes the best beats the one who always
    takes the worst about two times in three; every record stays legal."""
    wins = [0, 0]
    for seed in range(60):
        record = simulate_match(players=2, seed=seed, rounds=3, skills=[1.0, 0.0])
        report = check_record(parse_record(record))
        assert report.valid and report.finished
        for winner in report.winners:
            wins[winner] += 1
    assert wins[0] > 1.5 * wins[1]


@pytest.mark.parametrize("skills", [[0.5], [0.5, 1.2], [-0.1, 0.5]])
def test_strengths_are_probabilities_one_per_player(skills: list[float]) -> None:
    with pytest.raises(ValueError, match="skills"):
        simulate_match(players=2, skills=skills)
