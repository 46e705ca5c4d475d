"""Which session a tournament is at: the one its tables, its screens and its board follow;
and who is checked in for a session (docs/guides/check-in.md)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Case, QuerySet, When

from tournament.models import CheckIn, Registration, Seat, Session, Tournament
from tournament.names import name_sort_key, search_key


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


@dataclass(frozen=True)
class CheckInPlayer:
    """A player expected at a session, as the check-in lists them."""

    player_id: int
    name: str
    club: str
    present: bool
    #: checked in after the seating was drawn: not seated, so absent unless drawn again
    unseated: bool = False


def check_in_list(*, session: Session, query: str = "") -> list[CheckInPlayer]:
    """The players expected at the session (``Registration.plays_in``), by name, each
    marked present or not; ``query`` keeps the names that contain it, case,
    accents and ligatures aside, as "find your table" does (:func:`tournament.names.
    search_key`). Once the session is seated, a player present but not seated is marked
    ``unseated``: checked in after the draw. Two queries, three once seated."""
    present = set(CheckIn.objects.filter(session=session).values_list("player_id", flat=True))
    seated: set[int] | None = None
    if session.status == Session.Status.SEATED and present:
        seated = set(Seat.objects.filter(session=session).values_list("player_id", flat=True))
    wanted = search_key(query)
    players = [
        CheckInPlayer(player_id, name, club, player_id in present,
                      unseated=seated is not None and player_id in present and player_id not in seated)
        for player_id, name, club in Registration.objects.filter(
            Registration.plays_in(session.number), tournament_id=session.tournament_id
        ).values_list("player_id", "player__name", "player__club")
        if not wanted or wanted in search_key(name)
    ]
    return sorted(players, key=lambda player: (name_sort_key(player.name), player.player_id))
