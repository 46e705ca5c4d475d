"""The room's pages as their readers use them: the board, the call, the screen, the clock's
figures, the organiser's controls; who may see what; a poll answered 304."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from tests.factories import match_at, recorded_match, seated_session, tournament_with_players
from tournament.kit.table_codes import table_code
from tournament.models import RefereeCall, Session, SessionAuditEntry, StaffRole
from tournament.room import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(make_user):
    tournament = tournament_with_players(players=8)
    session = seated_session(tournament=tournament, started=True)
    organiser = make_user("orga")
    StaffRole.objects.create(tournament=tournament, user=organiser, role="organiser")
    referee = make_user("arbitre", first_name="Ana", last_name="Referee")
    StaffRole.objects.create(tournament=tournament, user=referee, role="referee", tables="2")
    return tournament, session, organiser, referee


def _call(client, tournament, number, **data):
    return client.post(reverse("tournament:table_call",
                               kwargs={"slug": tournament.slug, "number": number}), data)


def test_a_call_needs_the_card_code_and_repeated_calls_merge(client, room):
    tournament, session, _, _ = room
    wrong = _call(client, tournament, 2, reason="dispute", code="0000"
                  if table_code(tournament.pk, 2) != "0000" else "1111")
    assert wrong.status_code == 400
    assert wrong.context["form"].errors.as_data()["code"][0].code == "wrong-code"
    # the code of another table does not call this one
    other = _call(client, tournament, 2, reason="dispute", code=table_code(tournament.pk, 1))
    assert other.status_code == 400
    assert not RefereeCall.objects.exists()
    code = table_code(tournament.pk, 2)
    assert _call(client, tournament, 2, reason="dispute", code=code).context["called"]
    # a minute on (a call repeated sooner is merged without a write: test_calls.py)
    RefereeCall.objects.update(last_called_at=timezone.now() - datetime.timedelta(minutes=2))
    assert _call(client, tournament, 2, reason="tiles-missing", code=f" {code} ").status_code == 200
    call = RefereeCall.objects.get()
    assert (call.times, call.reason, call.table.number) == (2, "tiles-missing", 2)
    bad_reason = _call(client, tournament, 2, reason="pizza", code=code)
    assert bad_reason.status_code == 400 and "reason" in bad_reason.context["form"].errors
    # each call a line of the session's log, with its own reason (the repeat counted)
    logged = SessionAuditEntry.objects.filter(session=session, action="referee-called")
    assert [entry.reason for entry in logged] == ["call:2:dispute:1", "call:2:tiles-missing:2"]


def test_the_board_puts_the_call_first_and_its_answer_is_logged(client, room):
    tournament, session, organiser, referee = room
    recorded_match(match=match_at(tournament=tournament, table=1), in_play=True)
    _call(client, tournament, 2, reason="question", code=table_code(tournament.pk, 2))
    url = reverse("tournament:room_board", kwargs={"slug": tournament.slug})
    assert client.get(url).status_code == 302  # the public: the login page
    client.force_login(referee)
    page = client.get(url)
    assert page.status_code == 200
    rows = page.context["rows"]
    assert [row["number"] for row in rows] == [2, 1]
    assert rows[0]["needs"] == ["call"] and rows[0]["referees"] == ["Ana Referee"]
    assert rows[1]["status"] == "round" and rows[1]["round"] == 2
    assert rows[1]["needs"] == ["confirm"]  # round 1 ended, not confirmed
    call = RefereeCall.objects.get()
    answer = client.post(reverse("tournament:room_call_answer",
                                 kwargs={"slug": tournament.slug, "call_id": call.pk}))
    assert answer.status_code == 302
    call.refresh_from_db()
    assert call.answered_by == referee
    assert SessionAuditEntry.objects.filter(session=session, action="call-answered").exists()
    again = client.post(reverse("tournament:room_call_answer",
                                kwargs={"slug": tournament.slug, "call_id": call.pk}))
    assert again.status_code == 302
    assert RefereeCall.objects.filter(answered_at__isnull=False).count() == 1


def test_a_board_poll_with_nothing_new_is_answered_304(client, room):
    tournament, _, organiser, _ = room
    client.force_login(organiser)
    url = reverse("tournament:room_board", kwargs={"slug": tournament.slug})
    first = client.get(url, HTTP_HX_REQUEST="true")
    assert first.status_code == 200 and first["ETag"]
    again = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    services.announcement_add(tournament=tournament, text="Lunch at noon")
    changed = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200


def test_the_clock_figures_come_from_the_server(client, room):
    tournament, session, _, _ = room
    services.clock_set(session=session, minutes=30, user=None)
    services.clock_start(session=session, user=None)
    Session.objects.filter(pk=session.pk).update(
        clock_started_at=timezone.now() - datetime.timedelta(minutes=10))
    url = reverse("tournament:table_clock_json",
                  kwargs={"slug": tournament.slug, "number": session.number, "table": 1})
    data = client.get(url).json()
    assert data["clock"]["state"] == "running"
    assert 19 * 60 <= data["clock"]["remaining"] <= 20 * 60
    assert data["call"] is None
    Session.objects.filter(pk=session.pk).update(
        clock_started_at=timezone.now() - datetime.timedelta(minutes=40))
    assert client.get(url).json()["clock"] == {"state": "time-up", "total": 1800, "remaining": 0}
    assert Session.objects.get(pk=session.pk).time_up_at is not None


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_tables_clock_says_its_calls_reason_as_the_board_does(client, room, language):
    """The call's reason on the table's clock is the model's own label, in the reader's
    language, for each reason (what the board shows: ``get_reason_display``)."""
    tournament, session, _, _ = room
    table = session.tables.get(number=1)
    url = reverse("tournament:table_clock_json",
                  kwargs={"slug": tournament.slug, "number": session.number, "table": 1})
    services.call_make(table=table, reason="question", code=table_code(tournament.pk, 1))
    call = RefereeCall.objects.get(table=table, answered_at__isnull=True)
    for reason in RefereeCall.Reason.values:
        RefereeCall.objects.filter(pk=call.pk).update(reason=reason)
        said = client.get(url, HTTP_ACCEPT_LANGUAGE=language).json()["call"]["reason"]
        with translation.override(language):
            assert said == RefereeCall(reason=reason).get_reason_display()


def test_the_clock_is_a_304_while_it_runs_as_it_did(client, room, django_assert_max_num_queries):
    """A page counts down by itself and asks every 20 s only to learn of a change: while the
    clock runs as it did, the answer is a 304 (one read: the table with its session, its
    tournament and its open call); a pause, a call, time's end each give a new answer."""
    tournament, session, _, _ = room
    services.clock_set(session=session, minutes=30, user=None)
    services.clock_start(session=session, user=None)
    url = reverse("tournament:table_clock_json",
                  kwargs={"slug": tournament.slug, "number": session.number, "table": 1})
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"] and "no-cache" in first["Cache-Control"]
    with django_assert_max_num_queries(1):
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304

    def answer_after(change):
        change()
        response = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert response.status_code == 200, change
        assert response.json()["version"] != first.json()["version"]
        return response

    paused = answer_after(lambda: services.clock_pause(session=session, user=None))
    assert paused.json()["clock"]["state"] != "running"
    assert client.get(url, HTTP_IF_NONE_MATCH=paused["ETag"]).status_code == 304
    called = answer_after(lambda: services.call_make(
        table=session.tables.get(number=1), reason="dispute", code=table_code(tournament.pk, 1)))
    assert called.json()["call"]["times"] == 1
    services.clock_start(session=session, user=None)
    running = client.get(url)
    Session.objects.filter(pk=session.pk).update(
        clock_started_at=timezone.now() - datetime.timedelta(hours=2))
    up = client.get(url, HTTP_IF_NONE_MATCH=running["ETag"])
    assert up.status_code == 200 and up.json()["clock"]["state"] == "time-up"
    # another table's clock is another answer: its call is not this table's
    other = client.get(url.replace("/tables/1/", "/tables/2/"), HTTP_IF_NONE_MATCH=up["ETag"])
    assert other.status_code == 200 and other.json()["call"] is None


def test_the_organiser_sets_the_clock_and_a_bad_value_shows_next_to_its_field(client, room):
    tournament, session, organiser, referee = room
    url = reverse("tournament:session_clock",
                  kwargs={"slug": tournament.slug, "number": session.number})
    client.force_login(referee)
    assert client.post(url, {"action": "set", "minutes": "60"}).status_code == 403
    client.force_login(organiser)
    bad = client.post(url, {"action": "set", "minutes": "9999"})
    assert bad.status_code == 400 and "minutes" in bad.context["set_form"].errors
    assert client.post(url, {"action": "set", "minutes": "60"}).status_code == 302
    assert client.post(url, {"action": "start"}).status_code == 302
    Session.objects.filter(pk=session.pk).update(
        clock_started_at=timezone.now() - datetime.timedelta(minutes=5))
    assert client.post(url, {"action": "pause"}).status_code == 302
    assert client.post(url, {"action": "add", "extra_minutes": "5"}).status_code == 302
    session.refresh_from_db()
    assert session.clock_seconds == 65 * 60 and session.clock_started_at is None
    assert client.post(url, {"action": "explode"}).status_code == 400
    assert client.get(url).context["clock"].state == "paused"


def test_the_screen_shows_the_seating_then_the_tables_and_is_kept(client, make_user):
    tournament = tournament_with_players(players=8)
    session = seated_session(tournament=tournament)
    url = reverse("tournament:room_screen", kwargs={"slug": tournament.slug})
    page = client.get(url)
    assert page.status_code == 200
    names = [seat["name"] for group in page.context["seating_pages"] for seat in group] \
        if page.context else None
    first = client.get(url, HTTP_HX_REQUEST="true")
    assert first.status_code == 200
    assert client.get(url, HTTP_HX_REQUEST="true",
                      HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert b"data-view=\"seating\"" in first.content
    del names
    services.announcement_add(tournament=tournament, text="Bienvenue à tous")
    from tournament.sessions.services import session_start
    session_start(session=session)
    after = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200
    assert b"data-view=\"tables\"" in after.content
    assert "Bienvenue à tous" in after.content.decode()
    assert b"data-view=\"seating\"" not in after.content


def test_room_settings_refuse_a_bad_pace_next_to_its_field(client, room):
    tournament, _, organiser, _ = room
    client.force_login(organiser)
    url = reverse("tournament:room_settings", kwargs={"slug": tournament.slug})
    bad = client.post(url, {"action": "settings", "time_up_action": "finish-round",
                            "screen_seconds": "1", "screen_top": "10"})
    assert bad.status_code == 400 and "screen_seconds" in bad.context["settings_form"].errors
    tournament.refresh_from_db()
    assert tournament.time_up_action == "flag"
    ok = client.post(url, {"action": "settings", "time_up_action": "finish-round",
                           "screen_seconds": "20", "screen_top": "12"})
    assert ok.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.time_up_action, tournament.screen_seconds) == ("finish-round", 20)
    empty = client.post(url, {"action": "announce", "text": "   "})
    assert empty.status_code == 400


def test_tables_that_will_not_finish_in_time_are_flagged_from_their_pace(room):
    from tournament.room.selectors import board

    tournament, session, _, _ = room
    recorded_match(match=match_at(tournament=tournament, table=1), in_play=True)
    services.clock_set(session=session, minutes=60, user=None)
    services.clock_start(session=session, user=None)

    def needs_after(minutes: int) -> dict[int, list[str]]:
        Session.objects.filter(pk=session.pk).update(
            clock_started_at=timezone.now() - datetime.timedelta(minutes=minutes))
        fresh = Session.objects.select_related("tournament").get(pk=session.pk)
        return {row["number"]: row["needs"] for row in board(session=fresh)["rows"]}

    early = needs_after(1)
    assert "late" not in early[1] and "late" not in early[2]
    late = needs_after(45)  # a round in 45 minutes, far from the target: 15 are left
    assert "late" in late[1] and "late" in late[2]
    services.clock_remove(session=session, user=None)
    fresh = Session.objects.select_related("tournament").get(pk=session.pk)
    assert not any("late" in row["needs"] for row in board(session=fresh)["rows"])
