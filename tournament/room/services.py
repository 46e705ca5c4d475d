"""The room's writes: the session clock and what happens when its time is up, the players'
calls for a referee, the projector's announcements and settings (docs/guides/room.md).

Keyword arguments only, each one ``tournament_write`` (``tournament/core/freshness.py``),
raising ``ValidationError`` with a code (keyed by field where a form shows it); a refused write
writes nothing (but a wrong call code, counted in the cache: ``tournament.kit.attempts``). Each raises the tournament's versions, so the kept pages of the room are made
again; a call for a referee, which only the staff's pages show, leaves the results' version.
"""

from __future__ import annotations

import math
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _

from tournament.core.freshness import tournament_write
from tournament.kit.attempts import LockedOut, TryLimit, try_claim
from tournament.kit.table_codes import table_code_matches
from tournament.matches.reading.rows import match_with_tournament
from tournament.matches.services import StaleMatch, match_write
from tournament.models import (
    Announcement,
    AuditEntry,
    Match,
    MatchEntry,
    RefereeCall,
    Round,
    Session,
    SessionAuditEntry,
    Table,
    TimeUpAction,
    Tournament,
)
from tournament.room.clock import session_clock
from tournament.sessions.calls import table_call

#: The limits of a session's time and of the extra minutes, in minutes.
MAX_MINUTES = 600
MAX_EXTRA_MINUTES = 120


def _locked(session: Session) -> Session:
    return Session.objects.select_for_update().select_related("tournament").get(pk=session.pk)


def _log(session: Session, user, action: str, reason: str = "") -> None:
    SessionAuditEntry.objects.create(
        session=session, user=user if user is not None and user.is_authenticated else None,
        action=action, reason=reason,
    )


def _minutes(value, *, field: str, maximum: int) -> int:
    if type(value) is not int or not 1 <= value <= maximum:
        raise ValidationError({field: ValidationError(
            _("Give a number of minutes from 1 to %(max)s.") % {"max": maximum},
            code="minutes-out-of-range")})
    return value


def _refuse_closed(session: Session) -> None:
    if session.status == Session.Status.FINISHED:
        raise ValidationError(
            _("Session %(number)s is closed: its clock no longer runs.")
            % {"number": session.number}, code="session-closed")


def _refuse_time_up_applied(session: Session) -> None:
    if session.time_up_at is not None and \
            session.tournament.time_up_action == TimeUpAction.FINISH_ROUND:
        raise ValidationError(
            _("Time is up and the matches end after their round in play: the clock can no "
              "longer change."), code="time-up-applied")


def clock_set(*, session: Session, minutes: int, user) -> Session:
    """Give the session a time of ``minutes``, not started yet. A clock that has run is not
    set again (extra minutes change it; removing it starts over)."""
    with tournament_write(tournament_id=session.tournament_id):
        session = _locked(session)
        _refuse_closed(session)
        minutes = _minutes(minutes, field="minutes", maximum=MAX_MINUTES)
        if session.clock_started_at is not None or session.clock_elapsed:
            raise ValidationError({"minutes": ValidationError(
                _("The clock has already run: add extra minutes, or remove the clock first."),
                code="clock-started")})
        session.clock_seconds = minutes * 60
        _clock_changed(session, user, ["clock_seconds"],
                       SessionAuditEntry.code("clock", "set", minutes))
        return session


def clock_start(*, session: Session, user) -> Session:
    """Start the clock, or resume it after a pause."""
    with tournament_write(tournament_id=session.tournament_id):
        session = _locked(session)
        _refuse_closed(session)
        clock = session_clock(session, now=timezone.now())
        if clock.state not in ("ready", "paused"):
            raise ValidationError(
                _("The clock cannot start: it is not set, already running, or its time is up."),
                code="clock-not-startable")
        session.clock_started_at = timezone.now()
        _clock_changed(session, user, ["clock_started_at"],
                       SessionAuditEntry.code(
                           "clock", "started" if clock.state == "ready" else "resumed"))
        return session


def clock_pause(*, session: Session, user) -> Session:
    """Stop the clock where it is; ``clock_start`` resumes it."""
    with tournament_write(tournament_id=session.tournament_id):
        session = _locked(session)
        clock = session_clock(session, now=timezone.now())
        if clock.state != "running":
            raise ValidationError(_("The clock is not running."), code="clock-not-running")
        session.clock_elapsed = clock.elapsed
        session.clock_started_at = None
        _clock_changed(session, user, ["clock_elapsed", "clock_started_at"], SessionAuditEntry.code("clock", "paused"))
        return session


def clock_add(*, session: Session, minutes: int, user) -> Session:
    """Add extra minutes to the session's time (after time is up too, when the tournament's
    setting is a flag only: the flag goes)."""
    with tournament_write(tournament_id=session.tournament_id):
        session = _locked(session)
        _refuse_closed(session)
        minutes = _minutes(minutes, field="extra_minutes", maximum=MAX_EXTRA_MINUTES)
        if session.clock_seconds is None:
            raise ValidationError({"extra_minutes": ValidationError(
                _("The session has no clock: set its time first."), code="no-clock")})
        _refuse_time_up_applied(session)
        now = timezone.now()
        clock = session_clock(session, now=now)
        if clock.is_up and session.clock_started_at is not None:
            # time ran out while running: it starts again from the end of the time set
            session.clock_elapsed = session.clock_seconds
            session.clock_started_at = now
        session.clock_seconds += minutes * 60
        session.time_up_at = None
        _clock_changed(session, user,
                       ["clock_seconds", "clock_elapsed", "clock_started_at", "time_up_at"],
                       SessionAuditEntry.code("clock", "added", minutes))
        return session


def clock_remove(*, session: Session, user) -> Session:
    """Take the clock off the session."""
    with tournament_write(tournament_id=session.tournament_id):
        session = _locked(session)
        _refuse_time_up_applied(session)
        session.clock_seconds = None
        session.clock_started_at = None
        session.clock_elapsed = 0
        session.time_up_at = None
        _clock_changed(session, user,
                       ["clock_seconds", "clock_started_at", "clock_elapsed", "time_up_at"],
                       SessionAuditEntry.code("clock", "removed"))
        return session


def _clock_changed(session: Session, user, fields: list[str], summary: str) -> None:
    """A change of the clock written, in the session's log (shown once the clock's
    ``tournament_write`` ends)."""
    session.save(update_fields=fields)
    _log(session, user, SessionAuditEntry.Action.CLOCK, summary)


def time_up_round(*, match: Match) -> int:
    """The round in play at time's end, from 1: the last one begun (a match between two rounds
    ends with its last round ended; one not started plays one round)."""
    return max(1, Round.objects.filter(match=match).count())


def time_up_settle(*, session: Session, user=None) -> bool:
    """Once the time of a session in play is up: note it (once), and under the tournament's
    setting "finish the round in play" give each match still in play the option ``time_up``.

    Idempotent: the first reader to see the time up does it, the others find it done.
    Returns True when this call did it."""
    with tournament_write(tournament_id=session.tournament_id) as write:
        session = _locked(session)
        if session.time_up_at is not None or session.status != Session.Status.PLAYING \
                or not session_clock(session, now=timezone.now()).is_up:
            write.nothing_changed()
            return False
        session.time_up_at = timezone.now()
        session.save(update_fields=["time_up_at"])
        _log(session, user, SessionAuditEntry.Action.TIME_UP)
        ending = session.tournament.time_up_action == TimeUpAction.FINISH_ROUND
        match_ids = list(
            Match.objects.filter(table__session=session, time_up_round__isnull=True)
            .exclude(status__in=Match.OVER)
            .values_list("pk", flat=True)
        ) if ending else []
    for match_id in match_ids:
        _match_time_up(match_id, user)
    return True


def _match_time_up(match_id: int, user) -> None:
    """Give one match its ``time_up`` option through the matches' one write path (replayed,
    its results stored, audited); tried again if a tablet wrote meanwhile."""
    for _attempt in range(5):
        match = match_with_tournament(match_id).get()
        if match.time_up_round is not None:
            return
        try:
            with match_write(match=match, user=user, seen_revision=match.revision) as write:
                number = time_up_round(match=write.match)
                write.match.time_up_round = number
                write.match.save(update_fields=["time_up_round"])
                write.rows.match.time_up_round = number
                write.replay()
                write.audit(AuditEntry.Action.TIME_UP, f"time up during round {number}",
                            {"time_up": number})
            return
        except StaleMatch:
            continue


# -- calling a referee ----------------------------------------------------------------------

#: Wrong codes allowed from one client's address (whatever the table), and for one table
#: (whatever the address), in any quarter of an hour; then that address, or that table, is
#: locked out until its oldest wrong code is a quarter of an hour old
#: (docs/guides/room.md, "Calling a referee").
CALL_ADDRESS_LIMIT = TryLimit(scope="call-address", tries=5, seconds=15 * 60)
CALL_TABLE_LIMIT = TryLimit(scope="call-table", tries=20, seconds=15 * 60)


def _call_limits(*, tournament_id: int, number: int, address: str | None):
    # a table is its card: its number in the tournament, whatever the session
    limits = [(CALL_TABLE_LIMIT, f"{tournament_id}:{number}")]
    if address:
        limits.insert(0, (CALL_ADDRESS_LIMIT, address))
    return limits


def call_make(*, table: Table, reason: str, code: str, address: str | None = None) -> RefereeCall:
    """A call for a referee from ``table``, with the code of its table card, from a client at
    ``address``. A table's open call is the one call: calling again adds to it (``times``),
    with the latest reason; calling again within ``CALL_REPEAT`` of the last time writes
    nothing.

    A wrong code counts against the address and the table (``CALL_ADDRESS_LIMIT``,
    ``CALL_TABLE_LIMIT``); past either limit the code is not even checked: refused with the
    code ``locked-out`` and the seconds to wait (``params["seconds"]``)."""
    tournament_id, number = table.session.tournament_id, table.number
    try:
        claimed = try_claim(_call_limits(tournament_id=tournament_id, number=number,
                                         address=address))
    except LockedOut as locked:
        retry_at = timezone.localtime(timezone.now() + timedelta(seconds=locked.seconds))
        raise ValidationError({"code": ValidationError(
            _("Too many wrong codes: try again at %(time)s, in %(minutes)s min."),
            code="locked-out", params={"seconds": locked.seconds,
                                       "minutes": math.ceil(locked.seconds / 60),
                                       "time": time_format(retry_at, "H:i")})}) from None
    right_code = table_code_matches(tournament_id, number, code)
    if right_code:
        claimed.right()
    with tournament_write(results=False) as write:
        table = Table.objects.select_for_update().select_related("session").get(pk=table.pk)
        session = table.session
        write.also(session.tournament_id)
        errors = {}
        if reason not in RefereeCall.Reason.values:
            errors["reason"] = ValidationError(_("Choose a reason."), code="reason-invalid")
        if not right_code:
            errors["code"] = ValidationError(
                _("This is not the code on this table's card."), code="wrong-code")
        if errors:
            raise ValidationError(errors)
        if session.status != Session.Status.PLAYING:
            raise ValidationError(
                _("Session %(number)s is not in play: there is no referee to call.")
                % {"number": session.number}, code="session-not-in-play")
        call = table_call(table=table, reason=reason)
        if call is None:
            # a phone calling again and again: the call stands, nothing is written
            write.nothing_changed()
            return RefereeCall.objects.get(table=table, answered_at__isnull=True)
        return call


def call_answer(*, session: Session, call_id: int, user) -> RefereeCall:
    """Mark the session's call ``call_id`` answered, by ``user``."""
    with tournament_write(tournament_id=session.tournament_id, results=False):
        call = (RefereeCall.objects.select_for_update().select_related("table")
                .filter(session=session, pk=call_id).first())
        if call is None:
            raise ValidationError(_("There is no such call in this session."), code="no-such-call")
        if call.answered_at is not None:
            raise ValidationError(_("This call was already answered."), code="already-answered")
        call.answered_at = timezone.now()
        call.answered_by = user
        call.save(update_fields=["answered_at", "answered_by"])
        _log(session, user, SessionAuditEntry.Action.ANSWERED,
             SessionAuditEntry.code("call", call.table.number))
        return call


# -- the projector --------------------------------------------------------------------------

ANNOUNCEMENT_MAX_LENGTH = 280


def announcement_add(*, tournament: Tournament, text: str) -> Announcement:
    with tournament_write(tournament_id=tournament.pk):
        text = " ".join(str(text).split())
        if not text:
            raise ValidationError({"text": ValidationError(
                _("Write the announcement."), code="text-missing")})
        if len(text) > ANNOUNCEMENT_MAX_LENGTH:
            raise ValidationError({"text": ValidationError(
                _("An announcement holds %(max)s characters at most.")
                % {"max": ANNOUNCEMENT_MAX_LENGTH}, code="text-too-long")})
        announcement = Announcement.objects.create(tournament=tournament, text=text)
        return announcement


def announcement_show(*, tournament: Tournament, announcement_id: int, shown: bool) -> None:
    """Show an announcement on the projector, or take it off."""
    with tournament_write(tournament_id=tournament.pk):
        changed = Announcement.objects.filter(tournament=tournament, pk=announcement_id).update(
            is_shown=shown)
        if not changed:
            raise ValidationError(_("There is no such announcement."), code="no-such-announcement")


def room_settings_save(*, tournament: Tournament, time_up_action: str, screen_seconds: int,
                       screen_top: int, match_entry: str | None = None) -> Tournament:
    """The tournament's room settings: what time's end does, the projector's pace and page,
    who enters the matches (``MatchEntry``; None or blank: unchanged)."""
    with tournament_write(tournament_id=tournament.pk):
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        tournament.time_up_action = time_up_action
        tournament.screen_seconds = screen_seconds
        tournament.screen_top = screen_top
        if match_entry:
            tournament.match_entry = match_entry
        tournament.full_clean(validate_unique=False, validate_constraints=False)
        tournament.save(update_fields=["time_up_action", "screen_seconds", "screen_top",
                                       "match_entry"])
        return tournament


def session_entry_set(*, session: Session, match_entry: str) -> Session:
    """Who enters the session's matches: ``MatchEntry``'s value, or blank for the
    tournament's choice. A closed session's is kept as it was played."""
    if match_entry not in ("", *MatchEntry.values):
        raise ValidationError({"match_entry": ValidationError(
            _("Choose who enters the matches."), code="invalid-entry")})
    with tournament_write(tournament_id=session.tournament_id, results=False):
        session = _locked(session)
        if session.status == Session.Status.FINISHED:
            raise ValidationError(
                _("Session %(number)s is closed: who entered its matches stays as it was.")
                % {"number": session.number}, code="session-closed")
        session.match_entry = match_entry
        session.save(update_fields=["match_entry"])
        return session
