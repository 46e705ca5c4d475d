"""What the printed pages show, read in a fixed number of queries.

Printing reads only: the standings come from ``tournament.standings`` and the replay of a match
from ``tournament.matches``; nothing here computes either.
"""

from __future__ import annotations

from django.db.models import Max, Prefetch

from tournament.models import Seat, Session, Table, Tournament
from tournament.names import surname_sort_key


def session_tables_with_players(*, session: Session) -> list[Table]:
    """The session's tables by number, each with its match and its seats (player) in order.

    Three queries, whatever the number of tables.
    """
    seats = Seat.objects.select_related("player").order_by("order")
    return list(
        session.tables.select_related("match")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("number")
    )


def session_seats_by_surname(*, session: Session) -> list[Seat]:
    """Every seat of the session (player and table), sorted by the player's surname, accents
    aside (:func:`tournament.names.surname_sort_key`), as a printed list is read."""
    seats = Seat.objects.filter(session=session).select_related("player", "table")
    return sorted(seats, key=lambda seat: (surname_sort_key(seat.player.name), seat.player_id))


def tournament_table_count(*, tournament: Tournament) -> int:
    """The most tables a seated session of the tournament has (0 before the first seating):
    a session's tables are numbered from 1, so its highest number. One query."""
    highest = (
        Table.objects.filter(session__tournament=tournament)
        .exclude(session__status=Session.Status.DRAFT)
        .aggregate(highest=Max("number"))["highest"]
    )
    return highest or 0
