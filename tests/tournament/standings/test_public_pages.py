"""The public pages of a session and of a player: read-only, live while a session is in play."""

from __future__ import annotations

import pytest

from tests.factories import played_session
from tests.pages import by_id, has_id, select, text
from tests.tournament.queries import page_queries
from tournament.models import Player, Session

pytestmark = pytest.mark.django_db


def player_id(name: str) -> int:
    return Player.objects.get(name=name).pk


def test_the_session_page_shows_who_sits_where(client, seven):
    with page_queries(5, at_most=True):  # the revisions of its matches: the page's version
        response = client.get("/t/seven/sessions/3/")
    assert response.status_code == 200
    assert response.context["session"].number == 3 and response.context["is_live"]
    # Find your table: by name, with table and seat.
    names = [text(cell) for cell in select(response, "#seats tbody tr td:first-child")]
    assert names == sorted(names) and names[0] == "Ana" and names[-1] == "Gus"
    assert select(response, '#seats a[href="#table-1"]')
    # The tables, clockwise, with the match's state and a link to it.
    assert has_id(response, "table-1") and has_id(response, "table-2")
    first = [text(name) for name in select(response, "#table-1 .table-players .who a")]
    assert first == ["Gus", "Flo", "Di", "Ana"]
    state = select(response, "#table-1 a.match-state")[0]
    assert "match-state--finished" in state.get("class")
    assert state.get("href").startswith("/t/seven/matches/")
    assert select(response, f'#table-1 a[href="/t/seven/players/{player_id("Gus")}/"]')
    assert by_id(response, "session-live").get("hx-trigger") == "every 15s"  # refreshes itself


def test_the_session_page_of_a_finished_session_does_not_poll(client, seven):
    response = client.get("/t/seven/sessions/1/")
    assert not response.context["is_live"]
    assert not select(response, "body [hx-get]")
    totals = [text(total) for total in select(response, "#table-1 .total")]
    assert "420" in totals  # the match totals are shown by each player


def test_a_provisional_and_a_draft_session(client, seven):
    Session.objects.filter(tournament=seven, number=3).update(status="seated")
    response = client.get("/t/seven/sessions/3/")
    assert response.context["session"].status == "seated"
    assert select(response, 'p.notice[role="status"]')  # provisional
    Session.objects.create(tournament=seven, number=4)
    response = client.get("/t/seven/sessions/4/")
    assert not has_id(response, "find-your-table") and not has_id(response, "tables")
    assert select(response, "p.notice")


def test_an_unknown_session_is_a_404(client, seven):
    assert client.get("/t/seven/sessions/9/").status_code == 404


def test_the_session_fragment_for_htmx(client, seven):
    page = client.get("/t/seven/sessions/3/", HTTP_HX_REQUEST="true").content.decode()
    assert page.lstrip().startswith('<div id="session-live"') and "<html" not in page


def test_the_player_page(client, seven):
    with page_queries(9, at_most=True):  # the revisions of her matches: the page's version
        response = client.get(f"/t/seven/players/{player_id('Ana')}/")
    assert response.status_code == 200
    context = response.context
    assert context["player"].name == "Ana" and context["player"].club == "Lyon"
    now = context["now"]
    assert (now["table"], now["seat"], now["session"], now["session_status"]) == (
        1, "D", 3, "playing")
    assert [other["name"] for other in now["opponents"]] == ["Gus", "Flo", "Di"]
    assert select(response, '#now a[href$="#table-1"]')
    assert context["standing"]["rank_label"] == "1" and context["player_count"] == 7
    assert context["standing"]["matches"] == 2
    assert select(response, '#player-rank[data-rank="1"]')  # "1er / 7" in French
    assert text(select(response, "#rank .big")[0]).endswith("/ 7")
    rows = select(response, "#matches tbody tr")
    assert len(rows) == 3  # sessions 3, 2, 1
    assert sorted(row["session"] for row in context["matches"]) == [1, 2, 3]


def test_the_player_page_of_a_tied_player(client, make_tournament):
    tournament = make_tournament(slug="ties", players=4, sessions=0, match_rounds=1)
    players = [r.player for r in tournament.registrations.order_by("player__name")]
    played_session(tournament=tournament, tables=[players], totals=[[300, 300, 100, 100]])
    page = client.get(f"/t/ties/players/{players[2].pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "3=" in page and "Not seated in a session now." in page


def test_a_player_of_another_tournament_is_a_404(client, seven, make_tournament):
    other = make_tournament(slug="other", players=2, sessions=0)
    stranger = other.registrations.first().player_id
    assert client.get(f"/t/seven/players/{stranger}/").status_code == 404


@pytest.mark.parametrize("url", ["/t/seven/sessions/3/", "/t/seven/players/{ana}/",
                                 "/t/seven/standings/", "/t/seven/"])
def test_anonymous_get_works_and_post_is_refused(client, seven, url):
    url = url.format(ana=player_id("Ana"))
    assert client.get(url).status_code == 200
    assert client.post(url).status_code in (403, 405)


def test_private_tournaments_public_pages_are_hidden(client, make_tournament, referee):
    tournament = make_tournament(slug="secret", is_public=False)
    player = tournament.registrations.first().player_id
    for url in ("/t/secret/sessions/1/", f"/t/secret/players/{player}/"):
        assert client.get(url).status_code == 404
