"""A session's lifecycle through the organiser's pages: open, seat, swap, start, close."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from tests.tournament.standings.helpers import confirm_all
from tournament import services as base_services
from tournament.models import Match, Seat, Session
from tournament.organiser import services
from tournament.seating.selectors import session_seating

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(make_tournament, organiser_client, organiser):
    """11 players, no session; the ``organiser`` fixture's user organises it too."""
    tournament = make_tournament(slug="cup", players=11, sessions=0)
    services.tournament_update(
        tournament=tournament, name="Cup", start_date=tournament.start_date, end_date=None,
        venue="", rules=tournament.rules, target=None,
        ranking_criteria=["match_points", "total_points"], keep_clubs_apart=True, is_public=True,
    )
    base_services.staff_role_grant(tournament=tournament, user=organiser, role="organiser")
    return tournament


def messages_of(client, response) -> str:
    return client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_the_whole_lifecycle_of_two_sessions(organiser_client, cup):
    client = organiser_client
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"  # the messages are in the POST's language
    response = client.post("/t/cup/organise/sessions/open/")
    assert response.status_code == 302 and response["Location"] == "/t/cup/organise/sessions/1/"
    session = cup.sessions.get(number=1)
    assert session.status == "draft" and session.seed > 0

    page = client.get("/t/cup/organise/sessions/1/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Players to seat in this session: 11." in page and "Seat the players" in page

    response = client.post("/t/cup/organise/sessions/1/seat/")
    assert "Seating drawn at 3 tables; pairs meeting again: 0." in messages_of(client, response)
    session.refresh_from_db()
    assert session.status == "seated" and Seat.objects.filter(session=session).count() == 11

    # Opening session 2 now is refused: session 1 is not closed.
    response = client.post("/t/cup/organise/sessions/open/")
    assert "Session 1 is not closed yet" in messages_of(client, response)
    assert cup.sessions.count() == 1

    # Swap the first players of tables 1 and 3.
    tables = session_seating(session=session)
    a, b = tables[0]["players"][0]["player_id"], tables[2]["players"][0]["player_id"]
    response = client.post("/t/cup/organise/sessions/1/swap/", {"player_a": a, "player_b": b})
    assert "have swapped seats" in messages_of(client, response)
    tables = session_seating(session=session)
    assert tables[0]["players"][0]["player_id"] == b and tables[2]["players"][0]["player_id"] == a

    response = client.post("/t/cup/organise/sessions/1/start/")
    assert "Session 1 has started" in messages_of(client, response)
    page = client.get("/t/cup/organise/sessions/1/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Close the session" in page and "Draw again" not in page and "Swap" not in page

    # Closing is refused while tables are not confirmed.
    Match.objects.filter(table__session=session, table__number=2).update(status="confirmed")
    response = client.post("/t/cup/organise/sessions/1/close/")
    assert "the matches of tables 1, 3 are not confirmed yet" in messages_of(client, response)
    confirm_all(cup)
    response = client.post("/t/cup/organise/sessions/1/close/")
    assert "Session 1 is closed" in messages_of(client, response)

    response = client.post("/t/cup/organise/sessions/open/")
    assert response["Location"] == "/t/cup/organise/sessions/2/"
    client.post("/t/cup/organise/sessions/2/seat/")
    page = client.get("/t/cup/organise/sessions/2/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Pairs meeting again: 2." in page  # 11 players: unavoidable (see the seating tests)
    assert "Players of similar standing together" in page


def test_draw_again_takes_a_new_seed(organiser_client, cup):
    organiser_client.post("/t/cup/organise/sessions/open/")
    organiser_client.post("/t/cup/organise/sessions/1/seat/")
    session = cup.sessions.get(number=1)
    seed = session.seed
    before = [table["players"] for table in session_seating(session=session)]
    organiser_client.post("/t/cup/organise/sessions/1/seat/")
    session.refresh_from_db()
    assert session.seed != seed
    assert [table["players"] for table in session_seating(session=session)] != before


def test_a_bad_swap_is_explained_next_to_the_field(organiser_client, cup):
    organiser_client.post("/t/cup/organise/sessions/open/")
    organiser_client.post("/t/cup/organise/sessions/1/seat/")
    player = Seat.objects.filter(session__tournament=cup).first().player_id
    response = organiser_client.post("/t/cup/organise/sessions/1/swap/",
                                     {"player_a": player, "player_b": player},
                                     HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "Choose two different players." in response.content.decode().split(
        'id="id_player_b_error"')[1]


def test_a_withdrawn_player_still_seated_is_pointed_out(organiser_client, cup):
    organiser_client.post("/t/cup/organise/sessions/open/")
    organiser_client.post("/t/cup/organise/sessions/1/seat/")
    registration = cup.registrations.select_related("player").first()
    services.registration_withdraw(registration=registration)
    page = organiser_client.get("/t/cup/organise/sessions/1/",
                                HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "no longer playing in this session" in page and registration.player.name in page
    organiser_client.post("/t/cup/organise/sessions/1/seat/")
    assert not Seat.objects.filter(session__number=1, player=registration.player).exists()


@pytest.mark.parametrize("players", [8, 40])
def test_the_session_page_queries_do_not_grow(make_tournament, organiser, organiser_client,
                                              players, django_assert_num_queries):
    tournament = make_tournament(slug=f"open-{players}", players=players, sessions=2)
    base_services.staff_role_grant(tournament=tournament, user=organiser, role="organiser")
    # the tournament, the login (two), the role, the session, its seating, what awaits a
    # referee (two), the players to seat, the earlier meetings, the players seated but withdrawn
    with django_assert_num_queries(11):
        response = organiser_client.get(f"/t/open-{players}/organise/sessions/2/")
    assert response.content.decode().count('class="table-players"') == players // 4


def test_the_service_refusals(cup):
    with translation.override("en"):
        session = services.session_open(tournament=cup)
        with pytest.raises(ValidationError, match="not seated yet: seat it first"):
            services.session_start(session=session)
        with pytest.raises(ValidationError, match="Only a session in play can be closed"):
            services.session_close(session=session)
        Session.objects.filter(pk=session.pk).update(status="playing")
        with pytest.raises(ValidationError, match="has already started"):
            services.session_start(session=session)


def test_the_sessions_pages_are_the_organisers(client, referee_client, cup):
    for url in ("/t/cup/organise/", "/t/cup/organise/sessions/open/"):
        assert client.post(url).status_code == 302  # to the login page
    assert referee_client.get("/t/cup/organise/").status_code == 403
    assert referee_client.post("/t/cup/organise/sessions/open/").status_code == 403
    assert not cup.sessions.exists()


def test_the_organise_page(organiser_client, cup):
    page = organiser_client.get("/t/cup/organise/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Open session 1" in page and "11 players registered" in page
