"""Each category's standings and the club teams (docs/guides/categories.md): recomputed from the
confirmed matches by tests/tournament/standings/reference.py, never from the app's ranking;
on screen and in the downloads; a category of another tournament is nobody's page."""

from __future__ import annotations

import csv
import doctest
import io

import openpyxl
import pytest
import tablib

from tests.factories import matches_confirmed, players_of, seated_session, tournament_with_players
from tests.tournament.categories import prized_tournament
from tests.tournament.standings import reference
from tests.tournament.tournaments import settings_of
from tournament.models import Category, Registration
from tournament.organiser import players_csv
from tournament.organiser.services import registration_update, tournament_update
from tournament.standings import categories, teams
from tournament.standings.categories import category_standings
from tournament.standings.teams import club_ranking, club_teams

pytestmark = pytest.mark.django_db


def test_the_doctests():
    for module in (categories, teams, players_csv):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0, module.__name__


@pytest.fixture
def prized(db):
    return prized_tournament()


def categories_by_name(tournament):
    return {category.name: category for category in category_standings(tournament=tournament)}


def app_ranks(rows):
    return {row["name"]: row["rank"] for row in rows}


def test_each_category_ranks_its_players_as_recomputed_from_the_matches(prized):
    players = reference.main_ranking(prized)
    for category in Category.objects.filter(tournament=prized):
        members = set(category.registrations.values_list("player_id", flat=True))
        shown = categories_by_name(prized)[category.name]
        assert app_ranks(shown.rows) == reference.category_ranks(players, members)
    women, juniors = categories_by_name(prized)["Women"], categories_by_name(prized)["Juniors"]
    # a player in two categories is ranked in both; a shared rank overall stays shared
    assert [(row["name"], row["rank_label"], row["overall_rank_label"]) for row in juniors.rows] \
        == [("Bo", "1=", "2="), ("Cy", "1=", "2="), ("Hal", "", "")]
    assert [(row["name"], row["rank_label"]) for row in women.rows] == [
        ("Flo", "1"), ("Cy", "2"), ("Ana", "3"), ("Ivy", "")]
    # unranked overall (withdrawn, no confirmed match): unranked in the category too
    assert women.ranked_count == 3 and juniors.ranked_count == 2


def test_the_club_teams_as_recomputed_from_the_matches(prized):
    players = reference.main_ranking(prized)
    expected = reference.club_ranks(players, size=2)
    teams = club_ranking(tournament=prized)
    assert {team["club"]: (team["rank"], team["score"]) for team in teams} == {
        club: (rank, float(score)) for club, (rank, score) in expected.items()}
    assert [(team["club"], team["rank_label"]) for team in teams] == [
        ("Lyon", "1"), ("Paris", "2"), ("Nice", ""), ("Marseille", "")]
    # fewer than N ranked players (Hal withdrew; Di plays alone for Marseille): no rank
    assert [len(team["counted"]) for team in teams] == [2, 2, 1, 1]


@pytest.mark.parametrize("seed", [1, 2])
def test_simulated_tournaments_agree_with_the_recomputation(seed):
    tournament = tournament_with_players(slug=f"sim-{seed}", players=12)
    tournament_update(**settings_of(tournament, ranking_criteria=["match_points",
                                                                  "total_points"],
                                    team_size=3))
    tournament.refresh_from_db()
    players = players_of(tournament)
    for number, registration in enumerate(tournament.registrations.order_by("pk")):
        registration_update(registration=registration, name=registration.player.name,
                            club=registration.player.club,
                            categories=["Odd" if number % 2 else "Even"]
                            + (["Third"] if number % 3 == 0 else []))
    seated_session(tournament=tournament, tables=[players[:4], players[4:8], players[8:]],
                   seed=seed, started=True)
    matches_confirmed(tournament=tournament, seed=seed)
    recomputed = reference.main_ranking(tournament)
    shown = categories_by_name(tournament)
    assert sorted(shown) == ["Even", "Odd", "Third"]
    for category in Category.objects.filter(tournament=tournament):
        members = set(category.registrations.values_list("player_id", flat=True))
        assert app_ranks(shown[category.name].rows) == reference.category_ranks(recomputed,
                                                                                 members)
    expected = reference.club_ranks(recomputed, size=3)
    assert {team["club"]: (team["rank"], team["score"])
            for team in club_ranking(tournament=tournament)} == {
        club: (rank, float(score)) for club, (rank, score) in expected.items()}


def test_clubs_equal_on_score_are_told_apart_by_their_players_ranks_then_share():
    def row(pk, club, rank, points):
        return {"player_id": pk, "name": f"P{pk}", "club": club, "rank": rank, "ranked": True,
                "match_points": points}
    rows = [row(1, "A", 1, 6), row(2, "B", 2, 5), row(3, "C", 2, 5), row(4, "B", 4, 1),
            row(5, "C", 4, 1), row(6, "A", 6, 0), row(7, " a ", 7, 0)]
    teams = club_teams(rows, size=2, criterion="match_points")
    # A: 6 + 0 = 6 (ranks 1, 6); B and C: 5 + 1 = 6 (ranks 2, 4): A first, B and C share 2
    assert [(team["club"], team["rank_label"], team["score"]) for team in teams] == [
        ("A", "1", 6), ("B", "2=", 6), ("C", "2=", 6)]
    assert teams[0]["players"] == 3  # " a " is club A whatever its case and spaces


def test_no_club_ranking_unless_the_organiser_asks_for_one(client, prized):
    tournament_update(**settings_of(prized, team_size=0))
    prized.refresh_from_db()
    assert club_ranking(tournament=prized) is None
    assert client.get("/t/prized/standings/clubs/").status_code == 404


def test_the_standings_page_links_each_category_the_clubs_and_the_prize_list(client, prized):
    page = client.get("/t/prized/standings/")
    assert [entry.name for entry in page.context["categories"]] == ["Juniors", "Women"]
    for category in Category.objects.filter(tournament=prized):
        assert f'href="/t/prized/standings/categories/{category.pk}/"'.encode() in page.content
    assert b'href="/t/prized/standings/clubs/"' in page.content
    assert b'href="/t/prized/prizes.pdf"' in page.content


def test_the_category_page(client, prized):
    women = Category.objects.get(tournament=prized, name="Women")
    page = client.get(f"/t/prized/standings/categories/{women.pk}/")
    assert page.status_code == 200
    assert page.context["category"].name == "Women"
    rows = list(page.context["standings_table"].data)
    assert [(row["name"], row["rank_label"], row["overall_rank_label"]) for row in rows] == [
        ("Flo", "1", "1"), ("Cy", "2", "2="), ("Ana", "3", "4"), ("Ivy", "", "")]


def test_the_clubs_page(client, prized):
    page = client.get("/t/prized/standings/clubs/")
    assert page.status_code == 200
    assert [(team["club"], team["rank_label"]) for team in page.context["teams_table"].data] \
        == [("Lyon", "1"), ("Paris", "2"), ("Nice", ""), ("Marseille", "")]
    assert b'data-club="Lyon"' in page.content


def test_a_category_of_another_tournament_or_none_is_a_404(client, prized):
    other = prized_tournament(slug="other-open")
    theirs = Category.objects.get(tournament=other, name="Women")
    assert client.get(f"/t/prized/standings/categories/{theirs.pk}/").status_code == 404
    assert client.get("/t/prized/standings/categories/999999/").status_code == 404


def test_a_private_tournaments_categories_are_seen_by_nobody_outside_it(client, make_user):
    prized_tournament(slug="hidden", is_public=False)
    women = Category.objects.get(tournament__slug="hidden", name="Women")
    client.force_login(make_user("nobody-here"))
    for url in (f"/t/hidden/standings/categories/{women.pk}/",
                f"/t/hidden/standings/categories/{women.pk}/?_export=csv",
                "/t/hidden/standings/clubs/", "/t/hidden/prizes.pdf"):
        assert client.get(url).status_code == 404, url


def test_the_category_csv(client, prized):
    juniors = Category.objects.get(tournament=prized, name="Juniors")
    response = client.get(f"/t/prized/standings/categories/{juniors.pk}/?_export=csv&csv=comma",
                          HTTP_ACCEPT_LANGUAGE="en")
    assert response["Content-Disposition"] == (
        f'attachment; filename="prized-standings-category-{juniors.pk}.csv"')
    lines = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert lines[0] == ["Rank", "Tied", "Overall rank", "Player", "Club", "Matches",
                        "Match points", "Total points", "Status"]
    assert lines[1:] == [
        ["1", "tied", "2=", "Bo", "Lyon", "2", "4.5", "702", ""],
        ["1", "tied", "2=", "Cy", "Nice", "2", "4.5", "702", ""],
        ["", "", "", "Hal", "Nice", "2", "2", "370", "withdrawn"],
    ]


def test_the_category_xlsx_and_ods(client, prized):
    women = Category.objects.get(tournament=prized, name="Women")
    url = f"/t/prized/standings/categories/{women.pk}/"
    sheet = openpyxl.load_workbook(io.BytesIO(
        client.get(f"{url}?_export=xlsx", HTTP_ACCEPT_LANGUAGE="en").content)).active
    values = [[cell.value for cell in row] for row in sheet.iter_rows()]
    assert values[0][:4] == ["Rank", "Tied", "Overall rank", "Player"]
    assert [row[:4] for row in values[1:]] == [
        [1, None, 1, "Flo"], [2, None, "2=", "Cy"], [3, None, 4, "Ana"], [None, None, None, "Ivy"]]
    data = tablib.Dataset().load(client.get(f"{url}?_export=ods").content, format="ods")
    assert [row[3] for row in data] == ["Flo", "Cy", "Ana", "Ivy"]


def test_a_change_of_categories_shows_at_once(client, prized):
    client.get("/t/prized/standings/")  # kept
    di = Registration.objects.get(tournament=prized, player__name="Di")
    registration_update(registration=di, name="Di", club="Marseille", categories=["Seniors"])
    page = client.get("/t/prized/standings/")
    assert [entry.name for entry in page.context["categories"]] == ["Juniors", "Seniors",
                                                                     "Women"]
