"""A session's lifecycle through the organiser's pages: open, seat, swap, start, close."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tests.factories import confirmed_match, match_at, matches_confirmed
from tests.pages import has_id, messages
from tournament.core.tournaments import staff_role_grant
from tournament.models import Seat, Session
from tournament.organiser import services
from tournament.seating import services as seating_services
from tournament.seating.selectors import session_seating
from tournament.sessions.services import session_close, session_open, session_start

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
    staff_role_grant(tournament=tournament, user=organiser, role="organiser")
    return tournament


def test_the_whole_lifecycle_of_two_sessions(organiser_client, cup):
    client = organiser_client
    response = client.post("/t/cup/organise/sessions/open/")
    assert response.status_code == 302 and response["Location"] == "/t/cup/organise/sessions/1/"
    assert messages(response) == [("success", "")]
    session = cup.sessions.get(number=1)
    assert session.status == "draft" and session.seed > 0

    page = client.get("/t/cup/organise/sessions/1/")
    assert page.context["to_seat"] == 11 and page.context["can_change_seating"]
    assert has_id(page, "draw")

    response = client.post("/t/cup/organise/sessions/1/seat/")
    assert messages(response) == [("success", "")]
    session.refresh_from_db()
    assert session.status == "seated" and Seat.objects.filter(session=session).count() == 11
    assert len(session_seating(session=session)) == 3
    assert client.get("/t/cup/organise/sessions/1/").context["repeats"] == []

    # Opening session 2 now is refused: session 1 is not closed.
    response = client.post("/t/cup/organise/sessions/open/")
    assert messages(response) == [("error", "previous-not-closed")]
    assert cup.sessions.count() == 1

    # Swap the first players of tables 1 and 3.
    tables = session_seating(session=session)
    a, b = tables[0]["players"][0]["player_id"], tables[2]["players"][0]["player_id"]
    response = client.post("/t/cup/organise/sessions/1/swap/", {"player_a": a, "player_b": b})
    assert messages(response) == [("success", "")]
    tables = session_seating(session=session)
    assert tables[0]["players"][0]["player_id"] == b and tables[2]["players"][0]["player_id"] == a

    response = client.post("/t/cup/organise/sessions/1/start/")
    assert messages(response) == [("success", "")]
    page = client.get("/t/cup/organise/sessions/1/")
    assert has_id(page, "close") and not has_id(page, "draw") and not has_id(page, "swap")
    assert not page.context["can_change_seating"]

    # Closing is refused while tables are not confirmed.
    confirmed_match(match=match_at(tournament=cup, table=2))
    response = client.post("/t/cup/organise/sessions/1/close/")
    assert messages(response) == [("error", "tables-open")]
    session.refresh_from_db()
    assert session.status == "playing"
    matches_confirmed(tournament=cup)
    response = client.post("/t/cup/organise/sessions/1/close/")
    assert messages(response) == [("success", "")]
    session.refresh_from_db()
    assert session.status == "finished"

    response = client.post("/t/cup/organise/sessions/open/")
    assert response["Location"] == "/t/cup/organise/sessions/2/"
    client.post("/t/cup/organise/sessions/2/seat/")
    page = client.get("/t/cup/organise/sessions/2/")
    assert len(page.context["repeats"]) == 2  # 11 players: unavoidable (see the seating tests)


def test_the_refusals_name_the_tables_still_open(cup):
    session = session_open(tournament=cup)
    seating_services.session_seat(session=session)
    session_start(session=session)
    confirmed_match(match=match_at(tournament=cup, table=2))
    with pytest.raises(ValidationError) as refused:
        session_close(session=session)
    assert refused.value.code == "tables-open"
    assert refused.value.params["tables"] == "1, 3"


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
    assert response.context["swap_form"].has_error("player_b", "same-player")
    assert has_id(response, "id_player_b_error")


def test_a_withdrawn_player_still_seated_is_pointed_out(organiser_client, cup):
    organiser_client.post("/t/cup/organise/sessions/open/")
    organiser_client.post("/t/cup/organise/sessions/1/seat/")
    registration = cup.registrations.select_related("player").first()
    services.registration_withdraw(registration=registration)
    page = organiser_client.get("/t/cup/organise/sessions/1/")
    assert [player["name"] for player in page.context["seated_but_withdrawn"]] == [
        registration.player.name]
    organiser_client.post("/t/cup/organise/sessions/1/seat/")
    assert not Seat.objects.filter(session__number=1, player=registration.player).exists()


@pytest.mark.parametrize("players", [8, 40])
def test_the_session_page_queries_do_not_grow(make_tournament, organiser, organiser_client,
                                              players, django_assert_num_queries):
    tournament = make_tournament(slug=f"open-{players}", players=players, sessions=2)
    staff_role_grant(tournament=tournament, user=organiser, role="organiser")
    # the tournament, the login (two), the role, the session, its seating, what awaits a
    # referee (two), the players to seat, the earlier meetings, the players seated but
    # withdrawn, the session's audit log (closed, reopened)
    with django_assert_num_queries(12):
        response = organiser_client.get(f"/t/open-{players}/organise/sessions/2/")
    assert response.content.decode().count('class="table-players"') == players // 4


def refusal_code(write) -> str:
    with pytest.raises(ValidationError) as refused:
        write()
    return refused.value.code


def test_the_service_refusals(cup):
    session = session_open(tournament=cup)
    assert refusal_code(lambda: session_start(session=session)) == "not-seated"
    assert refusal_code(lambda: session_close(session=session)) == "not-in-play"
    Session.objects.filter(pk=session.pk).update(status="playing")
    assert refusal_code(lambda: session_start(session=session)) == "already-started"


def test_the_sessions_pages_are_the_organisers(client, referee_client, cup):
    for url in ("/t/cup/organise/", "/t/cup/organise/sessions/open/"):
        assert client.post(url).status_code == 302  # to the login page
    assert referee_client.get("/t/cup/organise/").status_code == 403
    assert referee_client.post("/t/cup/organise/sessions/open/").status_code == 403
    assert not cup.sessions.exists()


def test_the_organise_page(organiser_client, cup):
    page = organiser_client.get("/t/cup/organise/")
    assert page.context["can_open_session"] and page.context["next_session_number"] == 1
    assert page.context["registration_counts"]["active"] == 11
