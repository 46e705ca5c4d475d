"""Who is ranked: a player who has played a confirmed match and has not withdrawn. A registered
player without a confirmed match (a no-show) and a withdrawn player are listed apart, without a
rank, and counted nowhere: not on the page, the exports, the PDF, a league, a career, nor in
the "rank n / N" of the others."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from tests.factories import played_session, players_of, tournament_with_players
from tests.tournament.tournaments import settings_of
from tournament.models import League, Player, Registration, Session
from tournament.organiser.services import player_add, registration_withdraw, tournament_update
from tournament.printing.documents import standings_context
from tournament.seating.services import session_seat
from tournament.sessions.services import session_create
from tournament.standings.ranking import MatchResult, StandingPlayer, standings_compute
from tournament.standings.selectors import standings_rows


def test_a_no_show_is_not_ranked_above_a_player_on_a_negative_total():
    players = [StandingPlayer(1, "Ana"), StandingPlayer(2, "Bo"), StandingPlayer(3, "Noé")]
    rows = standings_compute(players=players, results=[MatchResult((1, 2), (50, -70))],
                             criteria=["total_points"])
    assert [(row["name"], row["rank"], row["rank_label"], row["ranked"]) for row in rows] == [
        ("Ana", 1, "1", True), ("Bo", 2, "2", True), ("Noé", None, "", False)]


def test_a_no_show_shares_no_rank_with_players_who_played():
    players = [StandingPlayer(number, name) for number, name in
               enumerate(["Ana", "Bo", "Cy", "Di", "Ed"], start=1)]
    rows = standings_compute(
        players=players, results=[MatchResult((1, 2, 3, 4), (300, 200, 100, 0))],
        criteria=["table_wins"])
    labels = {row["name"]: row["rank_label"] for row in rows}
    assert labels == {"Ana": "1", "Bo": "2=", "Cy": "2=", "Di": "2=", "Ed": ""}


def test_a_withdrawn_player_keeps_their_figures_but_no_rank():
    players = [StandingPlayer(1, "Ana"), StandingPlayer(2, "Bo", withdrawn=True),
               StandingPlayer(3, "Cy")]
    rows = standings_compute(players=players, results=[MatchResult((1, 2, 3), (50, 400, 10))],
                             criteria=["total_points"])
    assert [(row["name"], row["rank"], row["ranked"]) for row in rows] == [
        ("Ana", 1, True), ("Cy", 2, True), ("Bo", None, False)]
    assert rows[2]["total_points"] == 400 and rows[2]["withdrawn"]


@pytest.fixture
def no_show(db):
    """Ana, Bo, Cy, Di at one table ending on 120, 50, 0, -70 (total points ranks); Cy has
    withdrawn since; Noé registered late and never played."""
    tournament = tournament_with_players(slug="no-show", players=["Ana", "Bo", "Cy", "Di"],
                                         match_rounds=1)
    tournament = tournament_update(**settings_of(
        tournament, ranking_criteria=["total_points"], match_rounds=1))
    played_session(tournament=tournament, tables=[players_of(tournament)],
                   totals=[[120, 50, 0, -70]])
    player_add(tournament=tournament, name="Noé", club="")
    registration_withdraw(registration=Registration.objects.get(
        tournament=tournament, player__name="Cy"))
    return tournament


EXPECTED = [("Ana", "1"), ("Bo", "2"), ("Di", "3"), ("Cy", ""), ("Noé", "")]


def test_the_rows_rank_three_of_five(no_show):
    rows = standings_rows(tournament=no_show)
    assert [(row["name"], row["rank_label"]) for row in rows] == EXPECTED
    assert [row["ranked"] for row in rows] == [True, True, True, False, False]


def test_the_page_and_its_exports_list_the_unranked_apart(client, no_show):
    page = client.get("/t/no-show/standings/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.context["ranked_count"] == 3
    html = page.content.decode()
    assert html.count('class="tag tag--unranked"') == 1  # Noé; Cy's tag says withdrawn
    lines = list(csv.reader(io.StringIO(client.get(
        "/t/no-show/standings/?_export=csv", HTTP_ACCEPT_LANGUAGE="en").content.decode("utf-8-sig"))))
    assert [(line[2], line[0]) for line in lines[1:]] == EXPECTED  # rank, tie, name...
    assert [line[-1] for line in lines[1:]] == ["", "", "", "withdrawn", "not ranked"]
    fr = list(csv.reader(io.StringIO(client.get(
        "/t/no-show/standings/?_export=csv").content.decode("utf-8-sig")), delimiter=";"))
    assert [line[-1] for line in fr[4:]] == ["forfait", "non classé"]


def test_the_pdf_counts_the_players_ranked(no_show):
    context = standings_context(tournament=no_show)
    assert context["player_count"] == 3
    assert [row["podium"] for row in context["rows"]] == [True, True, True, False, False]
    assert [row["cells"][0] for row in context["rows"]] == [("rank", label) for _n, label in EXPECTED]


def test_the_player_page_and_the_career_count_the_players_ranked(client, no_show):
    di = Player.objects.get(name="Di")
    response = client.get(f"/t/no-show/players/{di.pk}/")
    assert response.context["player_count"] == 3 and response.context["standing"]["rank"] == 3
    noe = Player.objects.get(name="Noé")
    response = client.get(f"/t/no-show/players/{noe.pk}/")
    assert response.context["standing"]["rank"] is None
    assert 'id="unranked"' in response.content.decode()
    career = client.get(reverse("tournament:player_career", kwargs={"player_id": noe.pk}))
    entry = career.context["tournaments"][0]
    assert (entry["rank"], entry["player_count"], entry["ranked"]) == (None, 3, False)
    assert 'data-rank=""' in career.content.decode()
    career = client.get(reverse("tournament:player_career", kwargs={"player_id": di.pk}))
    assert career.context["tournaments"][0]["player_count"] == 3


def test_the_league_gives_points_to_the_players_ranked_only(client, no_show):
    league = League.objects.create(name="Season", slug="season", is_public=True)
    no_show.league = league
    no_show.save(update_fields=["league"])
    response = client.get("/leagues/season/")
    points = {row["name"]: row["total"] for row in response.context["table"].data}
    # linear: 3 players ranked; the no-show and the withdrawn player get nothing
    assert points == {"Ana": 3, "Bo": 2, "Di": 1}


def test_the_next_seating_seats_the_unranked(no_show):
    session = session_create(tournament=no_show)
    seating = session_seat(session=session)
    seated = sorted(player for table in seating.tables for player in table)
    assert len(seated) == 4  # Ana, Bo, Di and Noé; Cy has withdrawn
    assert Session.objects.get(pk=session.pk).status == Session.Status.SEATED
