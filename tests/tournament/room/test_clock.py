"""The session clock: set, started, paused, extra minutes; what time's end does, through the
engine and the match's record (docs/guides/room.md)."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from scoring import check_record, parse_record
from tests.factories import (
    match_at,
    played_record,
    recorded_match,
    seated_session,
    tournament_with_players,
)
from tournament.matches.reading.rows import match_record
from tournament.matches.services import match_record_import
from tournament.models import AuditEntry, Match, Session, SessionAuditEntry, TimeUpAction
from tournament.room import services
from tournament.room.clock import session_clock

pytestmark = pytest.mark.django_db


def _session(time_up_action: str = TimeUpAction.FLAG) -> Session:
    tournament = tournament_with_players(players=8)
    services.room_settings_save(tournament=tournament, time_up_action=time_up_action,
                                screen_seconds=15, screen_top=10)
    tournament.refresh_from_db()
    return seated_session(tournament=tournament, started=True)


def _run_for(session: Session, minutes: int) -> Session:
    """The clock has been running for ``minutes`` (its start moved back: time passing)."""
    Session.objects.filter(pk=session.pk).update(
        clock_started_at=timezone.now() - datetime.timedelta(minutes=minutes))
    return Session.objects.select_related("tournament").get(pk=session.pk)


def test_set_start_pause_resume_add_counts_from_the_server():
    session = _session()
    services.clock_set(session=session, minutes=60, user=None)
    session = services.clock_start(session=session, user=None)
    session = _run_for(session, 20)
    session = services.clock_pause(session=session, user=None)
    paused = session_clock(session, now=timezone.now() + datetime.timedelta(hours=3))
    assert paused.state == "paused"
    assert 39 * 60 <= paused.remaining <= 40 * 60  # a pause stops it, whatever time passes
    session = services.clock_add(session=session, minutes=5, user=None)
    session = services.clock_start(session=session, user=None)
    clock = session_clock(session, now=timezone.now())
    assert clock.state == "running" and 44 * 60 <= clock.remaining <= 45 * 60
    actions = list(SessionAuditEntry.objects.filter(session=session).values_list("action",
                                                                                 flat=True))
    assert actions == ["clock"] * 5


@pytest.mark.parametrize("minutes", [0, -5, 601, "30", None, 2.5, True])
def test_a_clumsy_time_is_refused_next_to_its_field_and_writes_nothing(minutes):
    session = _session()
    with pytest.raises(ValidationError) as refused:
        services.clock_set(session=session, minutes=minutes, user=None)
    assert refused.value.error_dict["minutes"][0].code == "minutes-out-of-range"
    assert Session.objects.get(pk=session.pk).clock_seconds is None


def test_a_clock_that_ran_is_not_set_again_and_a_closed_session_has_none():
    session = _session()
    services.clock_set(session=session, minutes=30, user=None)
    services.clock_start(session=session, user=None)
    with pytest.raises(ValidationError) as refused:
        services.clock_set(session=session, minutes=90, user=None)
    assert refused.value.error_dict["minutes"][0].code == "clock-started"
    with pytest.raises(ValidationError) as twice:
        services.clock_start(session=session, user=None)
    assert twice.value.code == "clock-not-startable"
    Session.objects.filter(pk=session.pk).update(status=Session.Status.FINISHED)
    with pytest.raises(ValidationError) as closed:
        services.clock_add(session=session, minutes=5, user=None)
    assert closed.value.code == "session-closed"


def test_time_up_as_a_flag_changes_no_match():
    session = _session()
    match = recorded_match(match=match_at(tournament=session.tournament), in_play=True)
    services.clock_set(session=session, minutes=30, user=None)
    services.clock_start(session=session, user=None)
    session = _run_for(session, 31)
    assert services.time_up_settle(session=session)
    assert not services.time_up_settle(session=session)  # once
    match.refresh_from_db()
    assert match.time_up_round is None and match.status == Match.Status.PLAYING
    assert "options" not in match_record(match=match).to_dict()
    # extra minutes take the flag off
    session = services.clock_add(session=session, minutes=10, user=None)
    assert session.time_up_at is None and session_clock(session, now=timezone.now()).remaining > 0


def test_time_up_finishes_the_round_in_play_then_the_match_ends():
    session = _session(time_up_action=TimeUpAction.FINISH_ROUND)
    match = recorded_match(match=match_at(tournament=session.tournament), in_play=True)
    full = played_record(match=match)
    assert len(full["rounds"]) >= 3
    services.clock_set(session=session, minutes=45, user=None)
    services.clock_start(session=session, user=None)
    session = _run_for(session, 46)
    assert services.time_up_settle(session=session)
    match.refresh_from_db()
    assert match.time_up_round == 2 and match.status == Match.Status.PLAYING
    assert AuditEntry.objects.filter(match=match, action="time-up").exists()
    # the record says so, and once round 2 is played out the engine ends the match there
    record = match_record(match=match).to_dict()
    assert record["options"] == {"time_up": 2}
    played_out = {**record, "rounds": full["rounds"]}
    report = check_record(parse_record(played_out))
    assert report.finished
    assert [p.code for p in report.problems] == ["round-after-match-end"] * (
        len(full["rounds"]) - 2)
    two_rounds = check_record(parse_record({**played_out, "rounds": full["rounds"][:2]}))
    assert two_rounds.valid and two_rounds.finished
    assert report.totals == two_rounds.totals
    # no more minutes once the matches have been told
    with pytest.raises(ValidationError) as refused:
        services.clock_add(session=session, minutes=5, user=None)
    assert refused.value.code == "time-up-applied"


def test_time_up_between_two_rounds_ends_the_match_at_once():
    session = _session(time_up_action=TimeUpAction.FINISH_ROUND)
    match = match_at(tournament=session.tournament, table=2)
    full = played_record(match=match)
    match_record_import(match=match, user=None, seen_revision=match.revision,
                        record={**full, "rounds": full["rounds"][:2]})
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    services.clock_set(session=session, minutes=10, user=None)
    services.clock_start(session=session, user=None)
    services.time_up_settle(session=_run_for(session, 11))
    match.refresh_from_db()
    assert (match.time_up_round, match.status) == (2, Match.Status.FINISHED)
    assert match.totals == list(check_record(parse_record(
        {**full, "rounds": full["rounds"][:2]})).totals)


def test_time_not_up_settles_nothing():
    session = _session(time_up_action=TimeUpAction.FINISH_ROUND)
    services.clock_set(session=session, minutes=10, user=None)
    services.clock_start(session=session, user=None)
    assert not services.time_up_settle(session=_run_for(session, 5))
    assert Session.objects.get(pk=session.pk).time_up_at is None


def test_a_closed_session_whose_clock_ran_out_writes_nothing_more():
    session = _session(TimeUpAction.FINISH_ROUND)
    services.clock_set(session=session, minutes=10, user=None)
    services.clock_start(session=session, user=None)
    Session.objects.filter(pk=session.pk).update(status=Session.Status.FINISHED)
    session = _run_for(session, 30)
    logged = SessionAuditEntry.objects.count()
    assert not services.time_up_settle(session=session)
    assert SessionAuditEntry.objects.count() == logged
    assert Session.objects.get(pk=session.pk).time_up_at is None


def test_a_record_with_time_up_brings_it_to_the_match_it_fills():
    """An uploaded record (or an archive's) carries the match's time_up: the match ends there."""
    session = _session()
    match = match_at(tournament=session.tournament, table=1)
    full = played_record(match=match)
    assert len(full["rounds"]) >= 2
    match_record_import(match=match, user=None, seen_revision=match.revision,
                        record={**full, "options": {"time_up": 1}})
    match.refresh_from_db()
    assert (match.time_up_round, match.status) == (1, Match.Status.FINISHED)
    assert match_record(match=match).to_dict()["options"] == {"time_up": 1}
    assert AuditEntry.objects.filter(match=match, action="match-closed").exists()
