"""The ranking, pure: match points by rank at tables of 4 and 3, ties, every criterion."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournament.standings.ranking import (
    MatchResult,
    StandingPlayer,
    match_points,
    standings_compute,
)


@pytest.mark.parametrize(
    "totals, expected",
    [
        ([400, 300, 200, 100], ["3", "2", "1", "0"]),
        ([100, 400, 300], ["0", "3", "3/2"]),
        ([400, 400, 200, 100], ["5/2", "5/2", "1", "0"]),
        ([400, 200, 200, 200], ["3", "1", "1", "1"]),
        ([400, 400, 400, 400], ["3/2"] * 4),
        ([410, 410, 0], ["9/4", "9/4", "0"]),
        ([50, 410, 50], ["3/4", "3", "3/4"]),
        ([400, 12], ["3", "0"]),
    ],
)
def test_match_points_by_rank_at_the_table(totals, expected):
    assert [str(points) for points in match_points(totals)] == expected


@pytest.mark.parametrize("size", [2, 3, 4, 5, 6])
def test_match_points_average_one_and_a_half_at_any_table(size):
    totals = [100 * seat for seat in range(size)]
    assert sum(match_points(totals)) / size == Fraction(3, 2)


PLAYERS = [StandingPlayer(number, name, club) for number, name, club in [
    (1, "Ana", "Lyon"), (2, "Bo", "Lyon"), (3, "Cy", "Paris"), (4, "Di", "Paris"),
    (5, "Ed", "Nice"), (6, "Flo", "Nice"), (7, "Gus", "")]]
# Session 1: a table of 4 and a table of 3.  Session 2: the same sizes, reshuffled.
RESULTS = [
    MatchResult((1, 2, 3, 4), (420, 300, 300, 100), (0,)),
    MatchResult((5, 6, 7), (150, 405, 250), (1,)),
    MatchResult((1, 5, 3, 7), (200, 410, 380, 90), (1,)),
    MatchResult((2, 4, 6), (400, 400, 0), (0, 1)),
]


def by_name(rows):
    return {row["name"]: row for row in rows}


def test_hand_computed_standings_with_tables_of_four_and_three():
    rows = by_name(standings_compute(players=PLAYERS, results=RESULTS,
                                     criteria=["match_points", "total_points", "share"]))
    # match points: S1 T1: Ana 3, Bo 1.5, Cy 1.5, Di 0; S1 T2: Flo 3, Gus 1.5, Ed 0
    #               S2 T1: Ed 3, Cy 2, Ana 1, Gus 0; S2 T2: Bo 2.25, Di 2.25, Flo 0
    expected_points = {"Ana": 4, "Bo": 3.75, "Cy": 3.5, "Di": 2.25, "Ed": 3, "Flo": 3, "Gus": 1.5}
    assert {name: row["match_points"] for name, row in rows.items()} == expected_points
    assert rows["Ana"]["total_points"] == 620 and rows["Ana"]["best_match"] == 420
    assert rows["Bo"]["table_wins"] == 1 and rows["Di"]["table_wins"] == 1  # a shared win
    assert rows["Flo"]["table_wins"] == 1 and rows["Gus"]["table_wins"] == 0
    # share: Ana 420/1120 and 200/1080, averaged
    assert rows["Ana"]["share"] == pytest.approx((420 / 1120 + 200 / 1080) / 2)
    assert rows["Flo"]["share"] == pytest.approx((405 / 805 + 0 / 800) / 2)
    # Ed and Flo tie on match points (3); Ed has 560 points, Flo 405
    order = [row["name"] for row in standings_compute(
        players=PLAYERS, results=RESULTS, criteria=["match_points", "total_points", "share"])]
    assert order == ["Ana", "Bo", "Cy", "Ed", "Flo", "Di", "Gus"]
    assert all(row["matches"] == 2 for row in rows.values())


def test_opponents_strength_sums_the_opponents_match_points():
    rows = by_name(standings_compute(players=PLAYERS, results=RESULTS, criteria=["opponents"]))
    # Ana met Bo, Cy, Di, then Ed, Cy, Gus: 3.75 + 3.5 + 2.25 + 3 + 3.5 + 1.5
    assert rows["Ana"]["opponents"] == 17.5
    # Gus met Ed, Flo, then Ana, Ed, Cy: 3 + 3 + 4 + 3 + 3.5
    assert rows["Gus"]["opponents"] == 16.5


def test_opponents_strength_counts_each_opponents_whole_tournament_at_every_meeting():
    """The definition docs/guides/organiser.md gives: for every match the player played, the match
    points of each opponent at that table, each opponent's total over the whole tournament, all
    added up (an opponent met twice counts twice); not the points the opponents made at that
    match ("per match" read the other way)."""
    rows = by_name(standings_compute(players=PLAYERS, results=RESULTS,
                                     criteria=["match_points", "opponents"]))
    name = {player.id: player.name for player in PLAYERS}
    for player in PLAYERS:
        met = [opponent for result in RESULTS if player.id in result.player_ids
               for opponent in result.player_ids if opponent != player.id]
        whole_tournament = sum(rows[name[opponent]]["match_points"] for opponent in met)
        assert rows[player.name]["opponents"] == whole_tournament, player.name
    # Ana met Cy at both her matches: Cy's tournament (3.5) counts twice.
    assert sum(1 for result in RESULTS if {1, 3} <= set(result.player_ids)) == 2
    # The points Ana's opponents made at her matches give another figure: 1.5 + 0 + 1.5 at the
    # first, 3 + 2 + 0 at the second.
    at_her_matches = sum(
        points for result in RESULTS if 1 in result.player_ids
        for seat, points in enumerate(match_points(result.totals))
        if result.player_ids[seat] != 1
    )
    assert at_her_matches == 8 and rows["Ana"]["opponents"] == 17.5


def test_the_criteria_order_changes_the_ranking():
    by_points = standings_compute(players=PLAYERS, results=RESULTS, criteria=["total_points"])
    totals = {row["name"]: row["total_points"] for row in by_points}
    assert totals == {"Ana": 620, "Bo": 700, "Cy": 680, "Di": 500, "Ed": 560, "Flo": 405, "Gus": 340}
    assert [row["name"] for row in by_points] == ["Bo", "Cy", "Ana", "Ed", "Di", "Flo", "Gus"]
    by_best = standings_compute(players=PLAYERS, results=RESULTS, criteria=["best_match", "share"])
    assert by_best[0]["name"] == "Ana" and by_best[0]["best_match"] == 420


def test_remaining_ties_share_the_rank():
    players = [StandingPlayer(1, "Ana"), StandingPlayer(2, "Bo"), StandingPlayer(3, "Cy"),
               StandingPlayer(4, "Di")]
    results = [MatchResult((1, 2, 3, 4), (400, 400, 100, 100), (0, 1))]
    rows = standings_compute(players=players, results=results, criteria=["match_points"])
    assert [(row["rank"], row["rank_label"], row["name"]) for row in rows] == [
        (1, "1=", "Ana"), (1, "1=", "Bo"), (3, "3=", "Cy"), (3, "3=", "Di")]
    rows = standings_compute(players=players, results=results,
                             criteria=["match_points", "table_wins", "total_points"])
    assert [row["rank_label"] for row in rows] == ["1=", "1=", "3=", "3="]


def test_a_player_without_a_match_is_ranked_last_with_zeros():
    players = [*PLAYERS, StandingPlayer(8, "Hal", withdrawn=True)]
    rows = standings_compute(players=players, results=RESULTS, criteria=["match_points"])
    assert rows[-1]["name"] == "Hal" and rows[-1]["matches"] == 0
    assert rows[-1]["withdrawn"] and rows[-1]["share"] == 0 and rows[-1]["best_match"] == 0


def test_a_table_where_nobody_scored_shares_equally():
    players = [StandingPlayer(1, "Ana"), StandingPlayer(2, "Bo")]
    rows = by_name(standings_compute(
        players=players, results=[MatchResult((1, 2), (0, 0))], criteria=["share"]))
    assert rows["Ana"]["share"] == rows["Bo"]["share"] == 0.5
    assert rows["Ana"]["table_wins"] == 1  # no winners recorded: the top totals win


def test_unknown_criteria_are_refused():
    with pytest.raises(ValueError, match="criteria"):
        standings_compute(players=PLAYERS, results=RESULTS, criteria=["elo"])


def reference_points(totals):
    """Match points straight from the definition, with fractions: the mean of the places'."""
    count = len(totals)
    points = []
    for total in totals:
        above = sum(1 for other in totals if other > total)
        tied = sum(1 for other in totals if other == total)
        places = range(above + 1, above + tied + 1)
        points.append(sum(Fraction(3 * (count - rank), count - 1) for rank in places) / tied)
    return points


@pytest.mark.parametrize("totals", [
    [400, 300, 300, 300, 10], [400, 400, 300, 300, 10], [1, 1, 1, 1, 1],
    [400, 350, 350, 200, 200, 200], [9, 8, 7, 6, 5, 4], [5, 5, 5, 5, 5, 0],
])
def test_tables_of_five_and_six_with_ties_are_exact(totals):
    players = [StandingPlayer(seat + 1, f"P{seat}") for seat in range(len(totals))]
    ids = tuple(player.id for player in players)
    # the same table twice, and a table of 4 to mix the scales
    results = [MatchResult(ids, tuple(totals)), MatchResult(ids, tuple(totals)),
               MatchResult(ids[:4], (1, 2, 2, 3))]
    rows = {row["player_id"]: row for row in standings_compute(
        players=players, results=results, criteria=["match_points"])}
    expected = reference_points(totals)
    extra = dict(zip(ids[:4], reference_points([1, 2, 2, 3]), strict=True))
    for seat, player_id in enumerate(ids):
        shown = Fraction(rows[player_id]["match_points"]).limit_denominator(120)
        assert shown == 2 * expected[seat] + extra.get(player_id, 0)
    assert match_points(totals) == expected


def test_a_scale_that_cannot_hold_the_points_is_refused():
    from tournament.standings.ranking import match_points_units

    with pytest.raises(ValueError, match="not a multiple"):
        match_points_units([3, 2, 1, 0], scale=10)
