"""The rating model, pure: ties rated as the mean of their orders."""

from __future__ import annotations

import itertools

import pytest

from tournament.ratings.model import INITIAL, Skill, is_provisional, rate, shown_change


def changes(after, before):
    return [skill.mu - old.mu for skill, old in zip(after, before)]


def test_co_winners_gain_the_same_and_the_third_does_not_gain_like_them():
    before = [INITIAL] * 4
    tied = changes(rate(before, [400, 400, 200, 100]), before)
    strict = changes(rate(before, [400, 300, 200, 100]), before)
    assert tied[0] == tied[1] > 0
    assert tied[2] < 0 and tied[2] == pytest.approx(strict[2])  # a third is a third
    assert tied[3] == pytest.approx(strict[3])
    assert tied[0] == pytest.approx((strict[0] + strict[1]) / 2)


@pytest.mark.parametrize("totals", [[300, 300, 300, 100], [200, 500, 200], [90, 90]])
def test_players_of_equal_skill_tied_together_move_exactly_alike(totals):
    before = [Skill(27.0, 6.5)] * len(totals)
    after = rate(before, totals)
    for seat, other in itertools.combinations(range(len(totals)), 2):
        if totals[seat] == totals[other]:
            assert after[seat] == after[other]


def test_the_seats_do_not_matter():
    skills = [Skill(30, 5), Skill(25, 8), Skill(20, 4), Skill(27, 6)]
    totals = [200, 200, 350, 100]
    after = rate(skills, totals)
    order = [2, 0, 3, 1]
    shuffled = rate([skills[i] for i in order], [totals[i] for i in order])
    for position, seat in enumerate(order):
        assert shuffled[position].mu == pytest.approx(after[seat].mu, abs=1e-12)


def test_the_shown_rating_never_falls_after_a_win_nor_rises_after_finishing_last():
    """μ − 3σ alone can: a sure player (σ 1) beating a much weaker one loses a little, the drift
    τ widening σ more than the win moves μ."""
    strong, weak = Skill(40, 1), Skill(-10, 1)
    after = rate([strong, weak], [300, 100])
    assert after[0].conservative < strong.conservative  # the absurdity
    assert shown_change(strong, after[0], rank=1, ranks=[1, 2]) == 0.0
    assert shown_change(weak, after[1], rank=2, ranks=[1, 2]) < 0
    # in the middle of a table, the change is the conservative rating's
    before = [INITIAL] * 3
    middle = rate(before, [300, 200, 100])[1]
    assert shown_change(INITIAL, middle, rank=2, ranks=[1, 2, 3]) == (
        middle.conservative - INITIAL.conservative)


@pytest.mark.parametrize(("matches", "provisional"), [(0, True), (11, True), (12, False)])
def test_provisional_until_twelve_matches(matches, provisional):
    assert is_provisional(matches) is provisional
