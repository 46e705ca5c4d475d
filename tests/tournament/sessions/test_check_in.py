"""Check-in (docs/guides/check-in.md): the players marked present before a session are the only
ones seated; who may mark them; what the seating page says is missing."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import matches_confirmed, players_of, tournament_with_players
from tests.pages import attribute, by_id, has_id, messages, select, text
from tournament.core.tournaments import staff_role_grant
from tournament.models import CheckIn, CheckInRule, Registration, Seat, StaffRole, Tournament
from tournament.names import name_sort_key
from tournament.organiser.services import player_add, registration_withdraw
from tournament.seating.selectors import session_missing
from tournament.seating.services import session_seat, session_seat_players
from tournament.sessions.selectors import check_in_list
from tournament.sessions.services import (
    check_in_mark,
    session_close,
    session_create,
    session_open,
    session_start,
)

pytestmark = pytest.mark.django_db

NAMES = ["Hélène Lefèvre-Dubœuf", "Łukasz Nowak", "Zoé Garnier", "Anaïs Morel",
         "Mads Sørensen", "Chloé Martin", "Núria Puig", "Élodie Faure", "Jürgen Weiß"]


@pytest.fixture
def cup(make_user, grant_organiser):
    """Nine players, check-in on (forfeit), session 1 open as a draft; an organiser and a
    referee limited to table 2."""
    tournament = tournament_with_players(slug="cup", players=[(name, "Club") for name in NAMES],
                                         check_in=CheckInRule.FORFEIT)
    session_create(tournament=tournament)
    grant_organiser(make_user("olga"), tournament)
    staff_role_grant(tournament=tournament, user=make_user("remi"), role=StaffRole.Role.REFEREE,
                     tables="2")
    return tournament


def client_of(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def present(tournament: Tournament, number: int = 1) -> set[str]:
    return set(CheckIn.objects.filter(session__tournament=tournament, session__number=number)
               .values_list("player__name", flat=True))


def check_in(tournament, names, *, number=1, user=None):
    session = tournament.sessions.get(number=number)
    for player in players_of(tournament):
        if player.name in names:
            check_in_mark(session=session, player=player, present=True, user=user)
    return session


# -- the service -------------------------------------------------------------------------------


def test_marking_present_then_absent_again(cup):
    session = cup.sessions.get(number=1)
    helene = players_of(cup)[0]
    assert check_in_mark(session=session, player=helene, present=True, user=None) is True
    assert check_in_mark(session=session, player=helene, present=True, user=None) is False
    assert present(cup) == {helene.name}
    assert check_in_mark(session=session, player=helene, present=False, user=None) is True
    assert present(cup) == set()


def test_refused_when_the_tournament_does_not_use_check_in(cup):
    Tournament.objects.filter(pk=cup.pk).update(check_in=CheckInRule.OFF)
    session = cup.sessions.get(number=1)
    with pytest.raises(ValidationError) as refused:
        check_in_mark(session=session, player=players_of(cup)[0], present=True, user=None)
    assert refused.value.code == "check-in-off"
    assert present(cup) == set()


@pytest.mark.parametrize("how", ["withdrawn", "later", "other-tournament"])
def test_refused_for_a_player_who_does_not_play_in_the_session(cup, how):
    session = cup.sessions.get(number=1)
    if how == "other-tournament":
        other = tournament_with_players(slug="other", players=["Intruder"])
        player = players_of(other)[0]
    else:
        player = players_of(cup)[1]
        registration = Registration.objects.get(tournament=cup, player=player)
        if how == "withdrawn":
            registration_withdraw(registration=registration)
        else:
            Registration.objects.filter(pk=registration.pk).update(first_session=2)
    with pytest.raises(ValidationError) as refused:
        check_in_mark(session=session, player=player, present=True, user=None)
    assert refused.value.code == "not-playing"
    assert present(cup) == set()


def test_a_late_arrival_checks_in_for_the_next_session(cup):
    session = check_in(cup, NAMES[:8])
    session_seat(session=session)
    session_start(session=session)
    with pytest.raises(ValidationError) as refused:
        check_in_mark(session=session, player=players_of(cup)[8], present=True, user=None)
    assert refused.value.code == "started"
    assert present(cup) == set(NAMES[:8])


# -- the seating -------------------------------------------------------------------------------


def test_only_the_players_checked_in_are_seated(cup):
    session = check_in(cup, NAMES[:6])
    session_seat(session=session)
    seated = set(Seat.objects.filter(session=session).values_list("player__name", flat=True))
    assert seated == set(NAMES[:6])
    missing = session_missing(session=session)
    assert missing == {"absent": sorted(NAMES[6:], key=_key), "not_seated": []}


def test_nobody_checked_in_seats_nobody(cup):
    session = cup.sessions.get(number=1)
    with pytest.raises(ValidationError) as refused:
        session_seat(session=session)
    assert refused.value.code == "too-few-players"
    assert not Seat.objects.filter(session=session).exists()


def test_without_check_in_everyone_is_seated_as_before(cup):
    Tournament.objects.filter(pk=cup.pk).update(check_in=CheckInRule.OFF)
    session = Tournament.objects.get(pk=cup.pk).sessions.get(number=1)
    CheckIn.objects.create(session=session, player=players_of(cup)[0])  # left from before
    session_seat(session=session)
    assert Seat.objects.filter(session=session).count() == len(NAMES)
    assert session_missing(session=session) == {"absent": [], "not_seated": []}


def test_a_plan_with_a_player_not_checked_in_is_refused_whole(cup):
    session = check_in(cup, NAMES[:3])
    players = players_of(cup)
    with pytest.raises(ValidationError) as refused:
        session_seat_players(session=session, tables=[players[:3], players[3:6]])
    assert refused.value.code == "not-checked-in"
    assert not session.tables.exists()


def test_checked_in_after_the_draw_is_said_and_seated_once_drawn_again(cup):
    session = check_in(cup, NAMES[:6])
    session_seat(session=session)
    check_in(cup, [NAMES[6]])
    missing = session_missing(session=session)
    assert missing["not_seated"] == [NAMES[6]]
    assert NAMES[6] not in missing["absent"]
    session_seat(session=session, seed=7)
    assert Seat.objects.filter(session=session, player__name=NAMES[6]).exists()
    assert session_missing(session=session)["not_seated"] == []


def test_absent_at_session_1_then_seated_at_session_2(cup):
    session = check_in(cup, NAMES[:8])
    session_seat(session=session)
    session_start(session=session)
    matches_confirmed(tournament=cup)
    session_close(session=session)
    second = session_open(tournament=cup)
    assert present(cup, 2) == set()  # check-in is per session
    check_in(cup, NAMES, number=2)
    session_seat(session=second)
    assert not Seat.objects.filter(session=session, player__name=NAMES[8]).exists()
    assert Seat.objects.filter(session=second, player__name=NAMES[8]).exists()


# -- the page ----------------------------------------------------------------------------------


ADDRESS = "/t/cup/sessions/1/check-in/"


def test_the_search_folds_accents_and_ligatures(cup):
    session = cup.sessions.get(number=1)
    assert [player.name for player in check_in_list(session=session, query="duboeuf")] == [
        NAMES[0]]
    assert [player.name for player in check_in_list(session=session, query="LUKASZ")] == [
        NAMES[1]]
    page = client_of("remi").get(ADDRESS, {"q": "lefevre"})
    assert page.status_code == 200
    assert [attribute(row, "data-player") for row in select(page, "#check-in-players tr[data-player]")] == [
        str(players_of(cup)[0].pk)]


@pytest.mark.parametrize("username", ["olga", "remi"])
def test_the_organiser_and_a_referee_check_in_with_one_tap(cup, username):
    client = client_of(username)
    helene = players_of(cup)[0]
    response = client.post(ADDRESS, {"player": helene.pk, "present": "1", "q": "hel"})
    assert response.status_code == 302 and response["Location"] == f"{ADDRESS}?q=hel"
    assert present(cup) == {helene.name}
    row = client.post(ADDRESS, {"player": helene.pk, "present": "0"}, HTTP_HX_REQUEST="true")
    assert row.status_code == 200
    row_html = f"<table>{row.content.decode()}</table>"  # a row alone, as htmx swaps it
    assert attribute(by_id(row_html, f"check-in-{helene.pk}"), "data-present") == "0"
    assert present(cup) == set()
    page = client.get(ADDRESS)
    assert attribute(by_id(page, "check-in-count"), "data-present") == "0"
    assert attribute(by_id(page, "check-in-count"), "data-expected") == str(len(NAMES))


def test_a_refusal_shows_next_to_the_row(cup):
    session = check_in(cup, NAMES[:8])
    session_seat(session=session)
    session_start(session=session)
    late = players_of(cup)[8]
    client = client_of("olga")
    row = client.post(ADDRESS, {"player": late.pk, "present": "1"}, HTTP_HX_REQUEST="true")
    assert row.status_code == 400
    row_html = f"<table>{row.content.decode()}</table>"
    assert [attribute(error, "data-code") for error in select(row_html, "p.error")] == [
        "started"]
    response = client.post(ADDRESS, {"player": late.pk, "present": "1"})
    assert messages(response) == [("error", "started")]
    assert late.name not in present(cup)


@pytest.mark.parametrize("data", [
    {"player": "abc", "present": "1"}, {"player": "1", "present": "maybe"}, {"present": "1"},
    {"player": str(2**40), "present": "1"},
])
def test_bad_input_writes_nothing(cup, data):
    response = client_of("olga").post(ADDRESS, data)
    assert response.status_code == 400
    assert present(cup) == set()


def test_attackers_are_refused_and_write_nothing(cup, make_user, grant_organiser):
    helene = players_of(cup)[0]
    other = tournament_with_players(slug="other", players=2)
    grant_organiser(make_user("mallory"), other)
    staff_role_grant(tournament=other, user=make_user("trudy"), role=StaffRole.Role.REFEREE)
    for username in ("mallory", "trudy"):
        client = client_of(username)
        assert client.get(ADDRESS).status_code == 403
        assert client.post(ADDRESS, {"player": helene.pk, "present": "1"}).status_code == 403
    anonymous = Client()
    assert anonymous.get(ADDRESS).status_code == 302
    assert anonymous.post(ADDRESS, {"player": helene.pk, "present": "1"}).status_code == 302
    assert anonymous.post(ADDRESS, {"player": helene.pk, "present": "1"},
                          HTTP_HX_REQUEST="true").status_code == 401
    # a player of another tournament, checked in from this one's page
    intruder = players_of(other)[0]
    response = client_of("olga").post(ADDRESS, {"player": intruder.pk, "present": "1"})
    assert messages(response) == [("error", "not-playing")]
    assert not CheckIn.objects.exists()


def test_a_private_tournament_s_check_in_is_a_404_to_outsiders(cup, make_user):
    Tournament.objects.filter(pk=cup.pk).update(is_public=False)
    outsider = Client()
    outsider.force_login(make_user("oscar"))
    assert outsider.get(ADDRESS).status_code == 404
    assert outsider.post(ADDRESS, {"player": players_of(cup)[0].pk, "present": "1"}
                         ).status_code == 404
    assert not CheckIn.objects.exists()


def test_the_seating_page_says_who_is_missing(cup):
    session = check_in(cup, NAMES[:6])
    page = client_of("olga").get("/t/cup/organise/sessions/1/")
    assert page.status_code == 200
    assert page.context["missing"]["absent"] == sorted(NAMES[6:], key=_key)
    assert [text(item) for item in select(page, "#missing-players li")] == sorted(
        NAMES[6:], key=_key)
    assert page.context["to_seat"] == 6
    session_seat(session=session)
    check_in(cup, [NAMES[6]])
    page = client_of("olga").get("/t/cup/organise/sessions/1/")
    assert has_id(page, "checked-in-not-seated")


def test_the_settings_turn_check_in_on_and_off(cup):
    tournament = Tournament.objects.get(pk=cup.pk)
    assert tournament.uses_check_in
    page = client_of("olga").get("/t/cup/organise/settings/")
    assert page.status_code == 200
    assert page.context["form"].initial["check_in"] == CheckInRule.FORFEIT


def _key(name):
    return name_sort_key(name)


def test_the_page_s_queries_do_not_grow_with_the_players(cup):
    client = client_of("remi")
    with CaptureQueriesContext(connection) as nine:
        assert client.get(ADDRESS).status_code == 200
    session = cup.sessions.get(number=1)
    for number in range(30):
        player_add(tournament=cup, name=f"Extra {number}")
    check_in(cup, [f"Extra {number}" for number in range(30)])
    with CaptureQueriesContext(connection) as more:
        page = client.get(ADDRESS)
    assert len(select(page, "#check-in-players tr[data-player]")) == len(NAMES) + 30
    assert len(more.captured_queries) == len(nine.captured_queries)
    assert session.check_ins.count() == 30
