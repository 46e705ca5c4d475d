"""The standings from the database: hand-computed figures, confirmed matches only, bounded
queries, the page (sortable, CSV, live fragment) and who may see it."""

from __future__ import annotations

import csv
import io

import pytest

from tests.factories import (
    match_at,
    matches_confirmed,
    played_session,
    rounds_confirmed,
)
from tests.pages import by_id, select, text
from tests.tournament.queries import page_queries
from tournament.models import Player, Session, Tournament
from tournament.standings.selectors import standings, standings_of, standings_rows

pytestmark = pytest.mark.django_db

def test_hand_computed_standings_from_the_database(seven):
    rows = standings_rows(tournament=seven)
    assert [(row["rank_label"], row["name"], row["match_points"]) for row in rows] == [
        ("1", "Ana", 4.0), ("2", "Bo", 3.75), ("3", "Cy", 3.5), ("4", "Ed", 3.0),
        ("5", "Flo", 3.0), ("6", "Di", 2.25), ("7", "Gus", 1.5),
    ]
    ana = rows[0]
    assert ana["matches"] == 2 and ana["total_points"] == 620 and ana["best_match"] == 420
    assert ana["url"] == f"/t/seven/players/{ana['player_id']}/"
    assert ana["club"] == "Lyon"


def test_unconfirmed_matches_are_left_out_and_named_in_play(seven):
    result_ = standings(tournament=seven)
    assert result_.confirmed_matches == 4
    assert [(table.session, table.table, table.status) for table in result_.tables_in_play] == [
        (3, 1, "finished"), (3, 2, "playing")]
    assert result_.is_live and result_.sessions_in_play == [3]
    # Confirming table 1 of session 3 changes the standings: Gus wins it.
    rounds_confirmed(match=match_at(tournament=seven, session=3))
    rows = {row["name"]: row for row in standings_rows(tournament=seven)}
    assert rows["Gus"]["match_points"] == 4.5 and rows["Gus"]["matches"] == 3
    assert rows["Flo"]["match_points"] == 4.0  # 3 + 0 + 1 (three tied second: (2+1+0)/3)


def test_ties_share_the_rank(make_tournament):
    tournament = make_tournament(slug="ties", players=4, sessions=0, match_rounds=1)
    players = [r.player for r in tournament.registrations.order_by("player__name")]
    played_session(tournament=tournament, tables=[players], totals=[[300, 300, 100, 100]])
    rows = standings_rows(tournament=tournament)
    assert [row["rank_label"] for row in rows] == ["1=", "1=", "3=", "3="]


def test_the_criteria_follow_the_tournament(seven):
    Tournament.objects.filter(pk=seven.pk).update(ranking_criteria=["total_points"])
    seven.refresh_from_db()
    rows = standings_rows(tournament=seven)
    assert [row["name"] for row in rows] == ["Bo", "Cy", "Ana", "Ed", "Di", "Flo", "Gus"]


def test_many_tournaments_ranked_at_once_as_each_alone(seven, make_tournament,
                                                       django_assert_num_queries):
    cup = make_tournament(slug="cup", players=8, sessions=2)
    matches_confirmed(tournament=cup)
    empty = make_tournament(slug="empty", players=3, sessions=0)
    alone = {tournament.pk: standings(tournament=tournament) for tournament in (seven, cup, empty)}
    with django_assert_num_queries(3):  # registrations, matches, seats
        together = standings_of(tournaments=[cup, empty, seven])
    assert list(together) == [cup.pk, empty.pk, seven.pk]
    assert together == alone
    assert together[seven.pk].tables_in_play and together[cup.pk].confirmed_matches == 4

    # A record merged into another is left out on request only (a league counts people once).
    gus = next(row for row in alone[seven.pk].rows if row["name"] == "Gus")
    Player.objects.filter(pk=gus["player_id"]).update(merged_into=cup.registrations.first().player)
    kept_only = standings_of(tournaments=[seven], without_merged=True)[seven.pk]
    assert gus["player_id"] not in {row["player_id"] for row in kept_only.rows}
    assert standings(tournament=seven) == alone[seven.pk]


@pytest.mark.parametrize("players", [10, pytest.param(100, marks=pytest.mark.slow)])
def test_the_standings_page_queries_do_not_grow(client, make_tournament, players,
                                                django_assert_num_queries):
    tournament = make_tournament(slug=f"cup-{players}", players=players, sessions=3)
    assert matches_confirmed(tournament=tournament) == 3 * -(-players // 4)
    with page_queries(5):  # tournament, registrations, matches, seats, categories
        response = client.get(f"/t/cup-{players}/standings/")
    assert response.status_code == 200
    assert response.content.decode().count('href="/t/cup-') >= players


def test_the_standings_page(client, seven):
    response = client.get("/t/seven/standings/")
    assert response.status_code == 200
    names = [text(link) for link in select(response, "#standings tbody tr td a")]
    assert names.index("Ana") < names.index("Bo") < names.index("Gus")
    columns = [column.name for column in response.context["standings_table"].columns]
    assert columns == ["rank", "name", "club", "matches", "match_points", "total_points",
                       "share"]  # the chosen criteria only: no table wins
    in_play = select(response, "#standings-live p.notice--live a")
    assert [link.get("href").startswith("/t/seven/matches/") for link in in_play] == [True] * 2
    live = by_id(response, "standings-live")
    assert live.get("hx-get") == "/t/seven/standings/" and live.get("hx-trigger") == "every 15s"


def test_the_standings_page_in_french_with_a_decimal_comma(client, seven):
    page = client.get("/t/seven/standings/").content.decode()
    assert "Classement" in page and "3,75" in page


def test_the_standings_page_sorts(client, seven):
    response = client.get("/t/seven/standings/?sort=-total_points")
    names = [text(link) for link in select(response, "#standings tbody tr td a")]
    assert names.index("Bo") < names.index("Cy") < names.index("Ana")


def test_the_standings_as_csv(client, seven):
    response = client.get("/t/seven/standings/?_export=csv", HTTP_ACCEPT_LANGUAGE="en")
    assert response["Content-Type"].startswith("text/csv")
    assert 'filename="seven-standings.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["Rank", "Tied", "Player", "Club", "Matches", "Match points",
                       "Total points", "Share", "Status"]
    assert rows[1] == ["1", "", "Ana", "Lyon", "2", "4", "620", "0.2801", ""]
    assert rows[2][:6] == ["2", "", "Bo", "Lyon", "2", "3.75"]


def test_the_live_fragment_alone_for_htmx(client, seven):
    response = client.get("/t/seven/standings/", HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="standings-live"')
    assert "<html" not in page


def test_no_polling_once_no_session_is_in_play(client, seven):
    Session.objects.filter(tournament=seven).update(status="finished")
    response = client.get("/t/seven/standings/")
    assert by_id(response, "standings-live").get("hx-get") is None


def test_a_private_tournament_s_standings_are_hidden(client, make_tournament):
    make_tournament(slug="secret", is_public=False)
    assert client.get("/t/secret/standings/").status_code == 404


def test_the_standings_page_refuses_post(client, seven):
    assert client.post("/t/seven/standings/").status_code == 405
