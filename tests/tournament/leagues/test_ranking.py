"""The league's ranking as a pure function: points per rank, ties, best N, the order."""

from __future__ import annotations

import doctest

import pytest

from tournament.leagues import ranking
from tournament.leagues.ranking import (
    LINEAR,
    TABLE,
    LeaguePlayer,
    PointsRule,
    PointsTableError,
    TournamentFinish,
    league_ranking,
    parse_points_table,
)

PLAYERS = {number: LeaguePlayer(number, name) for number, name in
           enumerate(["Ana", "Bo", "Cy", "Di", "Ed", "Élodie"], start=1)}


def by_name(rows):
    return {row.player.name: row for row in rows}


def test_doctests():
    assert doctest.testmod(ranking).failed == 0


@pytest.mark.parametrize(("rank", "ranked", "points"), [(1, 5, 5), (2, 5, 4), (5, 5, 1), (1, 1, 1)])
def test_linear_points_count_the_players_ranked_below_plus_one(rank, ranked, points):
    assert PointsRule(LINEAR).points(rank=rank, ranked=ranked) == points


@pytest.mark.parametrize(("rank", "points"), [(1, 25), (2, 18), (3, 15), (4, 0), (9, 0)])
def test_table_points_and_nothing_after_its_end(rank, points):
    assert PointsRule(TABLE, table=(25, 18, 15)).points(rank=rank, ranked=10) == points


def test_a_table_rule_needs_its_table():
    with pytest.raises(ValueError, match="table"):
        PointsRule(TABLE)
    with pytest.raises(ValueError, match="best"):
        PointsRule(LINEAR, best=0)


@pytest.mark.parametrize(("text", "values"), [
    ("25, 18, 15, 12", (25, 18, 15, 12)), ("10", (10,)), (" 3,3 ,0 ", (3, 3, 0)),
])
def test_points_tables_read(text, values):
    assert parse_points_table(text) == values


@pytest.mark.parametrize(("text", "code", "part"), [
    ("", "empty", ""), ("  ", "empty", ""), ("25, x, 3", "not-a-number", "x"),
    ("25,,3", "not-a-number", ""), ("25, -3", "negative", "-3"), ("2.5, 1", "not-a-number", "2.5"),
    ("10, 12", "increasing", "12"), ("٣, 1", "not-a-number", "٣"),
])
def test_bad_points_tables_are_refused_with_their_fault(text, code, part):
    with pytest.raises(PointsTableError) as refusal:
        parse_points_table(text)
    assert (refusal.value.code, refusal.value.part) == (code, part)


def test_linear_totals_add_every_result():
    rows = league_ranking(rule=PointsRule(LINEAR), players=PLAYERS, finishes=[
        TournamentFinish(10, {1: 1, 2: 2, 3: 3, 4: 4}),  # 4, 3, 2, 1
        TournamentFinish(11, {2: 1, 5: 2, 1: 3}),  # 3, 2, 1
    ])
    assert [(row.rank_label, row.player.name, row.total) for row in rows] == [
        ("1", "Bo", 6), ("2", "Ana", 5), ("3=", "Cy", 2), ("3=", "Ed", 2), ("5", "Di", 1),
    ]
    assert all(result.counted for row in rows for result in row.results.values())
    assert by_name(rows)["Ana"].results[11].rank == 3


def test_players_tied_on_a_rank_get_that_ranks_points():
    rows = league_ranking(rule=PointsRule(TABLE, table=(10, 6, 3)), players=PLAYERS,
                          finishes=[TournamentFinish(10, {1: 1, 2: 2, 3: 2, 4: 4})])
    points = {row.player.name: row.total for row in rows}
    assert points == {"Ana": 10, "Bo": 6, "Cy": 6, "Di": 0}
    assert [row.rank_label for row in rows] == ["1", "2=", "2=", "4"]


def test_best_n_counts_the_best_results_and_marks_the_others_dropped():
    finishes = [
        TournamentFinish(10, {1: 3, 2: 1}),  # table: Ana 3 (3rd), Bo 10
        TournamentFinish(11, {1: 1, 2: 2}),  # Ana 10, Bo 6
        TournamentFinish(12, {1: 2, 2: 4}),  # Ana 6, Bo 0
    ]
    rule = PointsRule(TABLE, table=(10, 6, 3), best=2)
    rows = by_name(league_ranking(rule=rule, players=PLAYERS, finishes=finishes))
    ana, bo = rows["Ana"], rows["Bo"]
    assert (ana.total, ana.best, ana.played) == (16, 10, 3)
    assert {tid: r.counted for tid, r in ana.results.items()} == {10: False, 11: True, 12: True}
    assert (bo.total, bo.played) == (16, 3)
    assert {tid: r.counted for tid, r in bo.results.items()} == {10: True, 11: True, 12: False}
    # All counted: Ana 19, Bo 16.
    everything = by_name(league_ranking(rule=PointsRule(TABLE, table=(10, 6, 3)),
                                        players=PLAYERS, finishes=finishes))
    assert (everything["Ana"].total, everything["Bo"].total) == (19, 16)


def test_among_equal_results_the_earlier_tournament_counts():
    rows = league_ranking(rule=PointsRule(TABLE, table=(5,), best=1), players=PLAYERS,
                          finishes=[TournamentFinish(20, {1: 1}), TournamentFinish(10, {1: 1})])
    assert {tid: r.counted for tid, r in rows[0].results.items()} == {20: True, 10: False}


def test_ties_are_broken_by_best_result_then_tournaments_played_then_shared():
    finishes = [
        TournamentFinish(10, {1: 1, 2: 2, 3: 2, 4: 2, 5: 3}),  # Ana 6, Bo Cy Di 4, Ed 3
        TournamentFinish(11, {2: 3, 3: 4, 5: 2, 6: 4}),  # Ed 4, Bo 3, Cy 2, Élodie 2
    ]
    rows = league_ranking(rule=PointsRule(TABLE, table=(6, 4, 3, 2)), players=PLAYERS,
                          finishes=finishes)
    table = [(row.rank_label, row.player.name, row.total, row.best, row.played) for row in rows]
    assert table == [
        ("1=", "Bo", 7, 4, 2),  # Bo and Ed equal on total, best result and tournaments
        ("1=", "Ed", 7, 4, 2),
        ("3", "Ana", 6, 6, 1),  # Ana and Cy equal on total: Ana's best result is better
        ("4", "Cy", 6, 4, 2),
        ("5", "Di", 4, 4, 1),
        ("6", "Élodie", 2, 2, 1),
    ]


def test_more_tournaments_played_breaks_a_tie_on_total_and_best():
    rows = league_ranking(rule=PointsRule(TABLE, table=(4, 2, 0)), players=PLAYERS, finishes=[
        TournamentFinish(10, {1: 1, 2: 2}), TournamentFinish(11, {2: 2, 3: 3}),
        TournamentFinish(12, {1: 3, 2: 3}),
    ])
    # Ana 4 + 0 (two played, best 4) vs Bo 2 + 2 + 0 (three played, best 2): Ana first.
    by = by_name(rows)
    assert by["Ana"].rank == 1 and by["Bo"].rank == 2
    rows = league_ranking(rule=PointsRule(TABLE, table=(4, 2, 0)), players=PLAYERS, finishes=[
        TournamentFinish(10, {1: 1, 2: 1}), TournamentFinish(11, {2: 3}),
    ])
    by = by_name(rows)
    assert (by["Bo"].rank, by["Ana"].rank) == (1, 2)  # same total and best, Bo played twice


def test_equal_players_are_listed_by_name_accents_aside():
    rows = league_ranking(rule=PointsRule(LINEAR), players=PLAYERS,
                          finishes=[TournamentFinish(10, {6: 1, 5: 1, 4: 1})])
    assert [row.player.name for row in rows] == ["Di", "Ed", "Élodie"]
    assert {row.rank_label for row in rows} == {"1="}


def test_a_tournament_without_ranks_gives_nothing_and_unknown_players_are_left_out():
    rows = league_ranking(rule=PointsRule(LINEAR), players={1: PLAYERS[1]}, finishes=[
        TournamentFinish(10, {}), TournamentFinish(11, {1: 2, 99: 1}),
    ])
    assert [(row.player.name, row.total, list(row.results)) for row in rows] == [("Ana", 1, [11])]
    assert league_ranking(rule=PointsRule(LINEAR), players=PLAYERS, finishes=[]) == []
