"""Figures as people read them: ratings rounded half away from zero everywhere (never "-0.0"
nor "+0.0"), a shared rank keeps its "=", names sorted accents and case aside, and the linear
league scale's rule at a tie at the bottom."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.utils import translation

from tournament.kit.formats import figure
from tournament.leagues.ranking import (
    LINEAR,
    LeaguePlayer,
    PointsRule,
    TournamentFinish,
    league_ranking,
)
from tournament.leagues.tables import LeagueRankingTable, ranking_records
from tournament.models import Player, PlayerRating
from tournament.players.charts import career_charts
from tournament.players.tables import rating_change_display
from tournament.ratings.selectors import ratings_rows
from tournament.ratings.tables import figure_display


@pytest.mark.parametrize(("value", "signed", "expected"), [
    (2.0503, False, "2.1"), (-5.69, False, "-5.7"), (2.25, False, "2.3"), (-2.25, False, "-2.3"),
    (0.05, True, "+0.1"), (-0.05, True, "-0.1"), (-0.04, True, "0.0"), (0.04, True, "0.0"),
    (0.0, True, "0.0"), (-0.04, False, "0.0"), (1.25, True, "+1.3"),
])
def test_one_decimal_half_away_from_zero_without_a_signed_zero(value, signed, expected):
    assert figure(value, signed=signed, separator=".") == expected
    assert figure_display(value, signed=signed, separator=".") == expected
    if signed:
        assert rating_change_display(value, separator=".") == expected


@pytest.mark.django_db
def test_the_rating_chart_description_rounds_as_the_page_does():
    tournament = SimpleNamespace(name="Open")
    career = {"player": SimpleNamespace(name="Ana"), "session_points": [],
              "rating_history": [(2.0503, tournament), (-0.04, tournament), (-5.69, tournament)]}
    with translation.override("en"):
        svg = career_charts(career)["rating_chart"]
    assert "from 2.1 to -5.7" in svg
    with translation.override("fr"):
        svg = career_charts({**career, "rating_history": [(-0.04, tournament), (2.25, tournament)]})[
            "rating_chart"]
    assert "0,0" in svg and "2,3" in svg and "-0,0" not in svg


@pytest.mark.django_db
def test_a_league_result_keeps_the_equals_of_a_shared_rank():
    players = {1: LeaguePlayer(1, "Ana"), 2: LeaguePlayer(2, "Bo"), 3: LeaguePlayer(3, "Cy")}
    rows = league_ranking(rule=PointsRule(LINEAR), players=players,
                          finishes=[TournamentFinish(10, {1: 1, 2: 1, 3: 3})])
    assert {row.player.name: row.results[10].rank_label for row in rows} == {
        "Ana": "1=", "Bo": "1=", "Cy": "3"}
    table = LeagueRankingTable.for_tournaments(ranking_records(rows, [10]),
                                               [SimpleNamespace(pk=10, name="Open", slug="open")])
    with translation.override("en"):
        cell = table.cell_result(10, table.data[0])
    assert 'title="rank 1="' in cell and ", rank 1=</span>" in cell


def test_ten_players_sharing_the_last_rank_of_twelve_get_that_rank_s_points():
    """The linear scale: players ranked, less the rank, plus one; a shared rank gets the points
    of its best place (as on the table scale): ten tied third of twelve get 10 each."""
    players = {pid: LeaguePlayer(pid, f"P{pid:02d}") for pid in range(1, 13)}
    ranks = {1: 1, 2: 2, **dict.fromkeys(range(3, 13), 3)}
    rows = league_ranking(rule=PointsRule(LINEAR), players=players,
                          finishes=[TournamentFinish(10, ranks)])
    points = {row.player.id: row.total for row in rows}
    assert points[1] == 12 and points[2] == 11
    assert {points[pid] for pid in range(3, 13)} == {10}


@pytest.mark.django_db
def test_ratings_ties_are_listed_accents_and_case_aside():
    for name in ["Zoé", "Émile", "anna", "Bruno"]:
        PlayerRating.objects.create(player=Player.objects.create(name=name), mu=25, sigma=5,
                                    conservative=10.0, matches=3)
    rows = ratings_rows()
    assert [row["name"] for row in rows] == ["anna", "Bruno", "Émile", "Zoé"]
    assert {row["rank_label"] for row in rows} == {"1="}
