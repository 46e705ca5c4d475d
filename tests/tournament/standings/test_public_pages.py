"""The public pages of a session and of a player: read-only, live while a session is in play."""

from __future__ import annotations

import pytest

from tests.tournament.queries import page_queries
from tests.tournament.standings.test_standings_page import seven  # noqa: F401 (a fixture)
from tournament.models import Player, Session

pytestmark = pytest.mark.django_db


def player_id(name: str) -> int:
    return Player.objects.get(name=name).pk


def test_the_session_page_shows_who_sits_where(client, seven, django_assert_max_num_queries):  # noqa: F811
    with page_queries(4, at_most=True):
        response = client.get("/t/seven/sessions/3/", HTTP_ACCEPT_LANGUAGE="en")
    page = response.content.decode()
    assert response.status_code == 200
    assert "Session 3" in page and "in play" in page
    # Find your table: by name, with table and seat.
    find = page.split('id="seats"')[1].split("</table>")[0]
    assert find.index(">Ana<") < find.index(">Bo<") < find.index(">Gus<")
    assert 'href="#table-1"' in find
    # The tables, clockwise, with the match's state and a link to it.
    tables = page.split('id="seating"')[1].split("</table>")[0]
    assert 'id="table-1"' in tables and 'id="table-2"' in tables
    first = tables.split('id="table-1"')[1].split('id="table-2"')[0]
    assert first.index("Gus") < first.index("Flo") < first.index("Di") < first.index("Ana")
    assert "/t/seven/matches/" in first and "finished" in first
    assert f'href="/t/seven/players/{player_id("Gus")}/"' in first
    assert 'hx-trigger="every 15s"' in page  # in play: it refreshes itself


def test_the_session_page_of_a_finished_session_does_not_poll(client, seven):  # noqa: F811
    page = client.get("/t/seven/sessions/1/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "hx-get" not in page.split("<body")[1].replace("hx-headers", "")
    assert "420" in page  # the match totals are shown by each player


def test_a_provisional_and_a_draft_session(client, seven):  # noqa: F811
    Session.objects.filter(tournament=seven, number=3).update(status="seated")
    page = client.get("/t/seven/sessions/3/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Provisional seating" in page
    Session.objects.create(tournament=seven, number=4)
    page = client.get("/t/seven/sessions/4/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "not seated yet" in page


def test_an_unknown_session_is_a_404(client, seven):  # noqa: F811
    assert client.get("/t/seven/sessions/9/").status_code == 404


def test_the_session_fragment_for_htmx(client, seven):  # noqa: F811
    page = client.get("/t/seven/sessions/3/", HTTP_HX_REQUEST="true").content.decode()
    assert page.lstrip().startswith('<div id="session-live"') and "<html" not in page


def test_the_player_page(client, seven, django_assert_max_num_queries):  # noqa: F811
    with page_queries(8, at_most=True):
        response = client.get(f"/t/seven/players/{player_id('Ana')}/", HTTP_ACCEPT_LANGUAGE="en")
    page = response.content.decode()
    assert response.status_code == 200
    assert "<h1>Ana</h1>" in page and "Lyon" in page
    now = page.split('id="now"')[1].split('id="rank"')[0]
    assert "Table 1" in now and "seat D" in now and "Session 3 (in play)" in now
    assert "Gus" in now and "Flo" in now and "Di" in now
    rank = page.split('id="rank"')[1].split("</div>")[0]
    assert ">1 <" in rank or "1 <span" in rank
    assert "/ 7" in rank and "Confirmed matches: 2" in rank and "match points" in rank
    matches = page.split('id="matches"')[1].split("</table>")[0]
    assert matches.count("<tr") == 4  # header + sessions 3, 2, 1
    assert "(0)" in matches  # session 3: not confirmed, in brackets
    assert "420" in matches and ">3<" in matches


def test_the_player_page_of_a_tied_player(client, make_tournament):
    from tests.tournament.standings.helpers import result, seat

    tournament = make_tournament(slug="ties", players=4, sessions=0)
    players = [r.player for r in tournament.registrations.order_by("player__name")]
    session = seat(tournament, [players])
    result(session, 1, [300, 300, 100, 100])
    page = client.get(f"/t/ties/players/{players[2].pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "3=" in page and "Not seated in a session now." in page


def test_a_player_of_another_tournament_is_a_404(client, seven, make_tournament):  # noqa: F811
    other = make_tournament(slug="other", players=2, sessions=0)
    stranger = other.registrations.first().player_id
    assert client.get(f"/t/seven/players/{stranger}/").status_code == 404


@pytest.mark.parametrize("url", ["/t/seven/sessions/3/", "/t/seven/players/{ana}/",
                                 "/t/seven/standings/", "/t/seven/"])
def test_anonymous_get_works_and_post_is_refused(client, seven, url):  # noqa: F811
    url = url.format(ana=player_id("Ana"))
    assert client.get(url).status_code == 200
    assert client.post(url).status_code in (403, 405)


def test_private_tournaments_public_pages_are_hidden(client, make_tournament, referee):
    tournament = make_tournament(slug="secret", is_public=False)
    player = tournament.registrations.first().player_id
    for url in ("/t/secret/sessions/1/", f"/t/secret/players/{player}/"):
        assert client.get(url).status_code == 404
