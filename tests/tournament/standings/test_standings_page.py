"""The standings from the database: hand-computed figures, confirmed matches only, bounded
queries, the page (sortable, CSV, live fragment) and who may see it."""

from __future__ import annotations

import csv
import io

import pytest

from tests.tournament.queries import page_queries
from tests.tournament.standings.helpers import confirm_all, result, seat
from tournament.models import Match, Session, Tournament
from tournament.organiser.services import player_add
from tournament.standings.selectors import standings, standings_rows

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]


@pytest.fixture
def seven(make_tournament):
    """7 players, two finished sessions (a table of 4 and one of 3 each), a third in play.

    The results are test_ranking's: Ana 4 match points, Bo 3.75, Cy 3.5, Ed 3, Flo 3, Di 2.25,
    Gus 1.5. In session 3, table 1 is confirmed, table 2 is still in play.
    """
    tournament = make_tournament(slug="seven", players=0, sessions=0)
    players = {
        name: player_add(tournament=tournament, name=name,
                         club="Lyon" if name in "AnaBo" else "").player
        for name in NAMES
    }
    p = players
    one = seat(tournament, [[p["Ana"], p["Bo"], p["Cy"], p["Di"]], [p["Ed"], p["Flo"], p["Gus"]]])
    result(one, 1, [420, 300, 300, 100])
    result(one, 2, [150, 405, 250])
    two = seat(tournament, [[p["Ana"], p["Ed"], p["Cy"], p["Gus"]], [p["Bo"], p["Di"], p["Flo"]]])
    result(two, 1, [200, 410, 380, 90])
    result(two, 2, [400, 400, 0])
    three = seat(tournament, [[p["Gus"], p["Flo"], p["Di"], p["Ana"]], [p["Bo"], p["Cy"], p["Ed"]]],
                 status=Session.Status.PLAYING)
    result(three, 1, [401, 0, 0, 0], status=Match.Status.FINISHED)  # not confirmed: left out
    result(three, 2, [100, 200, 300], status=Match.Status.PLAYING)
    return tournament


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
    Match.objects.filter(table__session__number=3, table__number=1).update(status="confirmed")
    rows = {row["name"]: row for row in standings_rows(tournament=seven)}
    assert rows["Gus"]["match_points"] == 4.5 and rows["Gus"]["matches"] == 3
    assert rows["Flo"]["match_points"] == 4.0  # 3 + 0 + 1 (three tied second: (2+1+0)/3)


def test_ties_share_the_rank(make_tournament):
    tournament = make_tournament(slug="ties", players=4, sessions=0)
    players = [r.player for r in tournament.registrations.order_by("player__name")]
    session = seat(tournament, [players])
    result(session, 1, [300, 300, 100, 100])
    rows = standings_rows(tournament=tournament)
    assert [row["rank_label"] for row in rows] == ["1=", "1=", "3=", "3="]


def test_the_criteria_follow_the_tournament(seven):
    Tournament.objects.filter(pk=seven.pk).update(ranking_criteria=["total_points"])
    seven.refresh_from_db()
    rows = standings_rows(tournament=seven)
    assert [row["name"] for row in rows] == ["Bo", "Cy", "Ana", "Ed", "Di", "Flo", "Gus"]


@pytest.mark.parametrize("players", [10, 100])
def test_the_standings_page_queries_do_not_grow(client, make_tournament, players,
                                                django_assert_num_queries):
    tournament = make_tournament(slug=f"cup-{players}", players=players, sessions=3)
    assert confirm_all(tournament) == 3 * -(-players // 4)
    with page_queries(4):  # tournament, registrations, matches, seats
        response = client.get(f"/t/cup-{players}/standings/")
    assert response.status_code == 200
    assert response.content.decode().count('href="/t/cup-') >= players


def test_the_standings_page(client, seven):
    response = client.get("/t/seven/standings/", HTTP_ACCEPT_LANGUAGE="en")
    page = response.content.decode()
    assert response.status_code == 200
    assert page.index(">Ana<") < page.index(">Bo<") < page.index(">Gus<")
    assert "match points" in page and "total points" in page and "average share" in page
    assert "Tables still in play, not counted yet:" in page
    assert 'href="/t/seven/matches/' in page
    assert 'hx-get="/t/seven/standings/"' in page and 'hx-trigger="every 15s"' in page
    assert "table wins" not in page  # not a chosen criterion: no column


def test_the_standings_page_in_french_with_a_decimal_comma(client, seven):
    page = client.get("/t/seven/standings/").content.decode()
    assert "Classement" in page and "3,75" in page


def test_the_standings_page_sorts(client, seven):
    page = client.get("/t/seven/standings/?sort=-total_points").content.decode()
    assert page.index(">Bo<") < page.index(">Cy<") < page.index(">Ana<")


def test_the_standings_as_csv(client, seven):
    response = client.get("/t/seven/standings/?_export=csv", HTTP_ACCEPT_LANGUAGE="en")
    assert response["Content-Type"].startswith("text/csv")
    assert 'filename="seven-standings.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["Rank", "Player", "Club", "Matches", "Match points", "Total points",
                       "Share", "Status"]
    assert rows[1] == ["1", "Ana", "Lyon", "2", "4", "620", "0.2801", ""]
    assert rows[2][:5] == ["2", "Bo", "Lyon", "2", "3.75"]


def test_the_live_fragment_alone_for_htmx(client, seven):
    response = client.get("/t/seven/standings/", HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="standings-live"')
    assert "<html" not in page


def test_no_polling_once_no_session_is_in_play(client, seven):
    Session.objects.filter(tournament=seven).update(status="finished")
    page = client.get("/t/seven/standings/").content.decode()
    assert "hx-get" not in page.split('id="standings-live"')[1].split(">")[0]


def test_a_private_tournament_s_standings_are_hidden(client, make_tournament):
    make_tournament(slug="secret", is_public=False)
    assert client.get("/t/secret/standings/").status_code == 404


def test_the_standings_page_refuses_post(client, seven):
    assert client.post("/t/seven/standings/").status_code == 405
