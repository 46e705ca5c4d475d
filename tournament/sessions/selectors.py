"""Which session a tournament is at: the one its tables, its screens and its board follow."""

from __future__ import annotations

from django.db.models import Case, QuerySet, When

from tournament.models import Session, Tournament


def sessions_by_moment(*, tournament: Tournament) -> QuerySet[Session]:
    """The tournament's seated sessions, the session of the moment first: the last one seated
    or in play, else (between sessions, after the last) the last one seated at all."""
    in_play_first = Case(
        When(status__in=(Session.Status.SEATED, Session.Status.PLAYING), then=0), default=1
    )
    return (
        Session.objects.filter(tournament=tournament)
        .exclude(status=Session.Status.DRAFT)
        .order_by(in_play_first, "-number")
    )


def session_now(*, tournament: Tournament) -> Session | None:
    """The session of the moment (:func:`sessions_by_moment`); None before the first seating
    (one query)."""
    return sessions_by_moment(tournament=tournament).select_related("tournament").first()
