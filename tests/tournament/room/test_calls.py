"""Calling a referee as the room's phones do: a phone guessing a table's code, a phone calling
in a loop, a referee answering another referee's table (docs/guides/room.md, "Calling a
referee")."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import BOTH_CACHES
from tests.factories import seated_session, tournament_with_players
from tournament.kit.table_codes import ALPHABET, LENGTH, table_code, table_code_printed
from tournament.models import RefereeCall, SessionAuditEntry, StaffRole, Tournament
from tournament.room.services import CALL_ADDRESS_LIMIT, CALL_TABLE_LIMIT
from tournament.sessions.calls import CALL_REPEAT

pytestmark = [pytest.mark.django_db, *BOTH_CACHES]


@pytest.fixture
def room():
    tournament = tournament_with_players(players=12)
    session = seated_session(tournament=tournament, started=True)
    return tournament, session


def call(client, tournament, number, code, *, address="10.0.0.7", reason="dispute"):
    return client.post(reverse("tournament:table_call",
                               kwargs={"slug": tournament.slug, "number": number}),
                       {"reason": reason, "code": code}, REMOTE_ADDR=address)


def wrong_codes(tournament, number, count):
    """``count`` codes that are not table ``number``'s, each as a phone would type them."""
    right = table_code(tournament.pk, number)
    codes = [f"{guess:06d}" for guess in range(count + 1)]
    return [code for code in codes if code != right][:count]


def error_codes(response, field="code"):
    return [error.code for error in response.context["form"].errors.as_data().get(field, [])]


def test_a_phone_guessing_codes_is_locked_out_and_told_for_how_long(client, room):
    tournament, _ = room
    for guess in wrong_codes(tournament, 2, CALL_ADDRESS_LIMIT.tries):
        answer = call(client, tournament, 2, guess)
        assert answer.status_code == 400 and error_codes(answer) == ["wrong-code"]
    # the right code now, from the same phone: not even checked
    locked = call(client, tournament, 2, table_code(tournament.pk, 2))
    assert locked.status_code == 429
    assert error_codes(locked) == ["locked-out"]
    seconds = int(locked["Retry-After"])
    assert CALL_ADDRESS_LIMIT.seconds - 60 < seconds <= CALL_ADDRESS_LIMIT.seconds
    assert locked.context["retry_seconds"] == seconds
    assert not RefereeCall.objects.exists()
    # another table from the same phone: the address is locked, whatever the table
    assert call(client, tournament, 1, table_code(tournament.pk, 1)).status_code == 429
    # the players of table 2, on their own phone, still call
    called = call(client, tournament, 2, table_code(tournament.pk, 2), address="10.0.0.8")
    assert called.status_code == 200 and called.context["called"]


def test_phones_guessing_one_table_from_many_addresses_lock_that_table(client, room):
    tournament, _ = room
    guesses = wrong_codes(tournament, 2, CALL_TABLE_LIMIT.tries)
    for index, guess in enumerate(guesses):
        # a new address every few guesses, never one at its own limit
        address = f"10.0.1.{index // (CALL_ADDRESS_LIMIT.tries - 1)}"
        assert call(client, tournament, 2, guess, address=address).status_code == 400
    locked = call(client, tournament, 2, table_code(tournament.pk, 2), address="10.0.2.1")
    assert locked.status_code == 429 and int(locked["Retry-After"]) > 0
    assert error_codes(locked) == ["locked-out"]
    assert not RefereeCall.objects.exists()
    # another table is not locked
    assert call(client, tournament, 1, table_code(tournament.pk, 1),
                address="10.0.2.1").status_code == 200


def test_right_codes_do_not_count_against_the_phone(client, room):
    tournament, _ = room
    for _ in range(CALL_ADDRESS_LIMIT.tries + 2):
        assert call(client, tournament, 2, table_code(tournament.pk, 2)).status_code == 200
    assert call(client, tournament, 2, wrong_codes(tournament, 2, 1)[0]).status_code == 400


def versions(tournament):
    return tuple(Tournament.objects.filter(pk=tournament.pk)
                 .values_list("data_version", "results_version").get())


def test_a_phone_calling_in_a_loop_makes_one_call_and_one_write(client, room):
    tournament, session = room
    code = table_code(tournament.pk, 2)
    before = versions(tournament)
    answers = [call(client, tournament, 2, code, reason=reason)
               for reason in ["dispute"] + ["question"] * 29]
    assert {answer.status_code for answer in answers} == {200}
    assert all(answer.context["called"] for answer in answers)
    only = RefereeCall.objects.get()
    assert (only.times, only.reason) == (1, "dispute")
    # one write: the data version raised once, the results version never, one log line
    assert versions(tournament) == (before[0] + 1, before[1])
    assert SessionAuditEntry.objects.filter(session=session, action="referee-called").count() == 1
    # a minute later, calling again adds to the call: one more write
    RefereeCall.objects.filter(pk=only.pk).update(
        last_called_at=only.last_called_at - CALL_REPEAT - datetime.timedelta(seconds=1))
    assert call(client, tournament, 2, code, reason="tiles-missing").status_code == 200
    only.refresh_from_db()
    assert (only.times, only.reason) == (2, "tiles-missing")
    assert versions(tournament) == (before[0] + 2, before[1])


def test_the_code_is_out_of_reach_of_a_whole_event_of_guessing():
    """Every table's code is six characters easy to read off a card, and the wrong codes the
    limit lets through for a table in three days and nights, without a pause, try fewer than
    one in a hundred thousand of them (docs/guides/room.md)."""
    codes = [table_code(1, number) for number in range(1, 1001)]
    assert all(len(code) == LENGTH and set(code) <= set(ALPHABET) for code in codes)
    assert not set(ALPHABET) & set("ILOU")
    assert len(set(codes)) == len(codes)  # 1,000 tables, no two alike
    tries = CALL_TABLE_LIMIT.per_hour * 72
    assert tries / len(ALPHABET) ** LENGTH < 1e-5


def test_the_code_is_read_as_a_phone_types_it(client, room):
    tournament, _ = room
    printed = table_code_printed(table_code(tournament.pk, 2))
    typed = f" {printed.lower()} ".replace("0", "o").replace("1", "l")
    assert call(client, tournament, 2, typed).status_code == 200
    assert RefereeCall.objects.get().table.number == 2


def test_a_referee_answers_only_the_calls_of_their_own_tables(client, room, make_user):
    tournament, session = room
    of_table_1 = make_user("ref-one")
    StaffRole.objects.create(tournament=tournament, user=of_table_1, role="referee", tables="1")
    organiser = make_user("orga")
    StaffRole.objects.create(tournament=tournament, user=organiser, role="organiser")
    for number in (1, 3):
        call(client, tournament, number, table_code(tournament.pk, number))
    calls = {each.table.number: each for each in RefereeCall.objects.select_related("table")}
    board = reverse("tournament:room_board", kwargs={"slug": tournament.slug})

    def answer(call_id):
        return client.post(reverse("tournament:room_call_answer",
                                   kwargs={"slug": tournament.slug, "call_id": call_id}))

    client.force_login(of_table_1)
    # the board shows both calls, and the answer button of table 1 only
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        page = client.get(board, **headers)
        assert {row["number"]: row["may_answer"] for row in page.context["rows"]
                if row["call"]} == {1: True, 3: False}
        assert b'id="answer-1"' in page.content and b'id="answer-3"' not in page.content
    assert answer(calls[3].pk).status_code == 403
    assert RefereeCall.objects.get(pk=calls[3].pk).answered_at is None
    assert not SessionAuditEntry.objects.filter(session=session, action="call-answered").exists()
    assert answer(calls[1].pk).status_code == 302
    assert RefereeCall.objects.get(pk=calls[1].pk).answered_by == of_table_1
    # the organiser, answering every table, is shown table 3's button on the kept board
    client.force_login(organiser)
    page = client.get(board, HTTP_HX_REQUEST="true")
    assert b'id="answer-3"' in page.content
    assert answer(calls[3].pk).status_code == 302
    assert RefereeCall.objects.get(pk=calls[3].pk).answered_by == organiser


def test_a_call_moves_the_staff_board_and_leaves_the_public_pages_304(client, room, make_user):
    """A call raises the data version alone: the standings a phone polls stay 304; the board
    shows the call at its next poll, and a call repeated within the minute moves nothing."""
    tournament, session = room
    organiser = make_user("orga")
    StaffRole.objects.create(tournament=tournament, user=organiser, role="organiser")
    staff = Client()
    staff.force_login(organiser)
    standings = reverse("tournament:standings", kwargs={"slug": tournament.slug})
    board = reverse("tournament:room_board", kwargs={"slug": tournament.slug})
    public_tag = client.get(standings)["ETag"]
    board_tag = staff.get(board, HTTP_HX_REQUEST="true")["ETag"]
    code = table_code(tournament.pk, 2)

    assert call(client, tournament, 2, code).status_code == 200
    assert client.get(standings, HTTP_IF_NONE_MATCH=public_tag).status_code == 304
    moved = staff.get(board, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=board_tag)
    assert moved.status_code == 200
    assert [row["number"] for row in moved.context["rows"] if row["call"]] == [2]
    # the call's page shows the open call; the table's clock figures carry it
    page = client.get(reverse("tournament:table_call",
                              kwargs={"slug": tournament.slug, "number": 2}))
    assert page.status_code == 200 and page.context["open_call"].table.number == 2
    figures = client.get(reverse("tournament:table_clock_json", kwargs={
        "slug": tournament.slug, "number": session.number, "table": 2})).json()
    assert figures["call"]["times"] == 1
    # the phone calls again at once: no page moves
    assert call(client, tournament, 2, code).status_code == 200
    assert client.get(standings, HTTP_IF_NONE_MATCH=public_tag).status_code == 304
    assert staff.get(board, HTTP_HX_REQUEST="true",
                     HTTP_IF_NONE_MATCH=moved["ETag"]).status_code == 304
