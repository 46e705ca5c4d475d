"""A session's lifecycle: created as a draft, seated (``tournament.seating.services``), started,
closed once every match is confirmed, reopened with a reason to correct a match, then closed
again; and the refusal every write to a match meets when its session is not in play.

A session goes draft (``session_open``) -> seated (``tournament.seating.services.
session_seat``; drawn again or swapped while it has not started) -> in play
(``session_start``) -> finished (``session_close``); a finished session may be reopened
(``session_reopen``: in play again) and closed again. Closing and reopening are kept in the
session's audit log (``SessionAuditEntry``).

Every service runs inside ``transaction.atomic()``, takes keyword arguments only and raises
``ValidationError`` with a translated message when the change is refused; a refused change
writes nothing."""

from __future__ import annotations

import random

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.core.freshness import tournament_write
from tournament.models import (
    CheckIn,
    Match,
    Player,
    Registration,
    Session,
    SessionAuditEntry,
    Tournament,
)


def next_session_to_seat(*, tournament: Tournament) -> int:
    """The number of the first session not seated yet (the next one to open, if none is)."""
    numbers = dict(tournament.sessions.values_list("number", "status"))
    drafts = [number for number, status in numbers.items() if status == Session.Status.DRAFT]
    return min(drafts) if drafts else max(numbers, default=0) + 1


def session_create(*, tournament: Tournament, seed: int = 0) -> Session:
    """Add the next session (numbered from 1), as a draft seeded with ``seed``.

    No rule about the other sessions: ``session_open`` is the organiser's way (the last
    session closed first, a fresh seed); the demo and the tests build a tournament's state
    with this one.
    """
    with tournament_write(tournament_id=tournament.pk):
        last = tournament.sessions.order_by("-number").values_list("number", flat=True).first()
        session = Session(tournament=tournament, number=(last or 0) + 1, seed=seed)
        session.full_clean()
        session.save()
        return session


@transaction.atomic
def session_open(*, tournament: Tournament) -> Session:
    """Open the next session, as a draft with a fresh seed; the last one must be closed, and
    the final (docs/guides/final.md) not opened: it ends the tournament."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.sessions.filter(is_final=True).exists():
        raise ValidationError(
            _("The final is open: it is the tournament's last session."), code="final-opened")
    unfinished = (
        tournament.sessions.exclude(status=Session.Status.FINISHED)
        .order_by("number")
        .values_list("number", flat=True)
        .first()
    )
    if unfinished is not None:
        raise ValidationError(
            _("Session %(number)s is not closed yet: close it before opening the next one."),
            code="previous-not-closed", params={"number": unfinished},
        )
    return session_create(tournament=tournament, seed=new_seed())


def session_start(*, session: Session) -> Session:
    """Start a seated session: its seating is final, its matches can be played."""
    with tournament_write(tournament_id=session.tournament_id):
        session = Session.objects.select_for_update().get(pk=session.pk)
        if session.status == Session.Status.DRAFT:
            raise ValidationError(
                _("Session %(number)s is not seated yet: seat it first.")
                % {"number": session.number},
                code="not-seated",
            )
        if session.status != Session.Status.SEATED:
            raise ValidationError(
                _("Session %(number)s has already started.") % {"number": session.number},
                code="already-started",
            )
        session.status = Session.Status.PLAYING
        session.save(update_fields=["status"])
        return session


def session_close(*, session: Session, user=None) -> Session:
    """Close a session in play once every match is confirmed: the standings are final.
    ``user``: who closes it, for the session's audit log."""
    with tournament_write(tournament_id=session.tournament_id):
        session = Session.objects.select_for_update().get(pk=session.pk)
        if session.status != Session.Status.PLAYING:
            raise ValidationError(
                _("Only a session in play can be closed; session %(number)s is %(status)s.")
                % {"number": session.number, "status": session.get_status_display()},
                code="not-in-play",
            )
        open_tables = list(
            Match.objects.filter(table__session=session)
            .exclude(status=Match.Status.CONFIRMED)
            .order_by("table__number")
            .values_list("table__number", flat=True)
        )
        if open_tables:
            raise ValidationError(
                ngettext("Session %(number)s cannot be closed: the match of table %(tables)s "
                         "is not confirmed yet.",
                         "Session %(number)s cannot be closed: the matches of tables "
                         "%(tables)s are not confirmed yet.", len(open_tables)),
                code="tables-open",
                params={"number": session.number, "tables": ", ".join(map(str, open_tables))},
            )
        session.status = Session.Status.FINISHED
        session.save(update_fields=["status"])
        SessionAuditEntry.objects.create(
            session=session, user=user, action=SessionAuditEntry.Action.CLOSED
        )
        return session


REOPEN_REASON_MAX_LENGTH = 500


def session_reopen(*, session: Session, user, reason: str) -> Session:
    """Reopen a closed session, to correct a match: it is in play again (its matches accept
    corrections, the standings show it in play) until the organiser closes it again as usual.
    The reason is required and kept in the session's audit log with who reopened it."""
    with tournament_write(tournament_id=session.tournament_id):
        session = Session.objects.select_for_update().get(pk=session.pk)
        reason = reason.strip()
        if session.status != Session.Status.FINISHED:
            raise ValidationError(
                _("Only a closed session can be reopened; session %(number)s is %(status)s.")
                % {"number": session.number, "status": session.get_status_display()},
                code="session-not-closed",
            )
        if not reason:
            raise ValidationError(
                {"reason": ValidationError(
                    _("Say why the session is reopened: it is kept in the audit log."),
                    code="reason-missing",
                )}
            )
        if len(reason) > REOPEN_REASON_MAX_LENGTH:
            raise ValidationError(
                {"reason": ValidationError(
                    _("The reason is longer than %(max)s characters.")
                    % {"max": REOPEN_REASON_MAX_LENGTH},
                    code="reason-too-long",
                )}
            )
        session.status = Session.Status.PLAYING
        session.save(update_fields=["status"])
        SessionAuditEntry.objects.create(
            session=session, user=user, action=SessionAuditEntry.Action.REOPENED, reason=reason
        )
        return session


def session_write_refusal(session: Session) -> ValidationError | None:
    """Why no write is allowed in the matches of ``session`` (None: they are allowed)."""
    if session.status == Session.Status.FINISHED:
        return ValidationError(
            _("Session %(number)s is closed: its results can no longer be changed.")
            % {"number": session.number},
            code="session_closed",
        )
    if session.status != Session.Status.PLAYING:
        return ValidationError(
            _("Session %(number)s has not started yet: an organiser of the tournament starts "
              "it once the seating is final; then the matches can be entered.")
            % {"number": session.number},
            code="session_not_started",
        )
    return None


def check_in_mark(*, session: Session, player: Player, present: bool, user) -> bool:
    """Mark ``player`` present at ``session`` (or no longer present) before it starts
    (docs/guides/check-in.md); True when it changed anything. Refused when the tournament does not
    use check-in (``check-in-off``), once the session has started (``started``: a late
    arrival checks in for the next session) and for a player who does not play in it
    (``not-playing``: not registered, withdrawn, or arriving at a later session)."""
    # the standings follow the seats, not the check-in: the results' version stays
    with tournament_write(tournament_id=session.tournament_id, results=False) as write:
        session = Session.objects.select_for_update().select_related("tournament").get(
            pk=session.pk)
        if not session.tournament.uses_check_in:
            raise ValidationError(
                _("This tournament does not use check-in: every registered player is seated."),
                code="check-in-off")
        if session.status in (Session.Status.PLAYING, Session.Status.FINISHED):
            raise ValidationError(
                _("Session %(number)s has started: a player arriving now checks in for the next "
                  "session.") % {"number": session.number},
                code="started")
        plays = Registration.objects.filter(
            Registration.plays_in(session.number), tournament_id=session.tournament_id,
            player=player).exists()
        if not plays:
            raise ValidationError(
                _("%(player)s does not play in session %(number)s.")
                % {"player": player.name, "number": session.number},
                code="not-playing")
        if present:
            changed = CheckIn.objects.get_or_create(
                session=session, player=player, defaults={"by": user})[1]
        else:
            changed = CheckIn.objects.filter(session=session, player=player).delete()[0] > 0
        if not changed:  # marked as it was: every page stays as it is
            write.nothing_changed()
        return changed


def new_seed() -> int:
    """A fresh random seed for a seating (kept on the session, so it can be drawn again)."""
    return random.SystemRandom().randrange(1, 2**31 - 1)
