"""Helpers of the players' tests: careers across tournaments, built as the services do, with
results set on the matches directly (``tests.tournament.standings.helpers``).

- ``confirm(session, table_number, totals, at)``: a match confirmed with ``totals`` at ``at``
  (its place in the rating history).
- ``two_tournaments(make_tournament)``: Ana (licence "L-100") in "spring" (two sessions) and
  "autumn" (one session), with Bo, Cy, Di in both and Ed, Flo in spring only; every match
  confirmed, the ratings rebuilt. Returns a dict: ``ana``, ``players`` (by name),
  ``spring``, ``autumn``.
- ``bulk_career(player, opponents, count)``: ``count`` confirmed matches of ``player``
  against ``opponents`` in a new tournament, written by bulk_create (a session per match).
"""

from __future__ import annotations

import datetime

from django.utils import timezone

from tests.tournament.standings.helpers import result, seat
from tournament.core.tournaments import tournament_create
from tournament.models import Match, Registration, Seat, Session, Table
from tournament.organiser.services import player_add
from tournament.ratings.services import ratings_rebuild

START = timezone.make_aware(datetime.datetime(2025, 5, 17, 10, 0))


def confirm(session, table_number: int, totals, *, at: datetime.datetime) -> Match:
    match = result(session, table_number, totals)
    Match.objects.filter(pk=match.pk).update(confirmed_at=at)
    match.refresh_from_db()
    return match


def two_tournaments(make_tournament) -> dict:
    spring = make_tournament(slug="spring", players=0, sessions=0)
    autumn = tournament_create(
        name="Autumn Cup", slug="autumn", start_date=datetime.date(2025, 10, 4), venue="Lyon",
    )
    names = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]
    players = {
        name: player_add(tournament=spring, name=name, club="Lyon",
                         licence="L-100" if name == "Ana" else "").player
        for name in names
    }
    p = players
    # Ana comes back by her licence: the same record, not a second one.
    again = player_add(tournament=autumn, name="Ana", club="Lyon", licence="L-100").player
    assert again.pk == p["Ana"].pk
    for name in ("Bo", "Cy", "Di"):
        Registration.objects.create(tournament=autumn, player=p[name])

    one = seat(spring, [[p["Ana"], p["Bo"], p["Cy"]], [p["Di"], p["Ed"], p["Flo"]]])
    confirm(one, 1, [400, 250, 100], at=START)
    confirm(one, 2, [300, 200, 100], at=START + datetime.timedelta(minutes=1))
    two = seat(spring, [[p["Ed"], p["Ana"], p["Di"]], [p["Bo"], p["Cy"], p["Flo"]]])
    confirm(two, 1, [410, 90, 200], at=START + datetime.timedelta(hours=2))
    confirm(two, 2, [150, 150, 300], at=START + datetime.timedelta(hours=2, minutes=1))
    three = seat(autumn, [[p["Cy"], p["Ana"]], [p["Bo"], p["Di"]]])
    confirm(three, 1, [120, 380], at=START + datetime.timedelta(days=140))
    confirm(three, 2, [200, 210], at=START + datetime.timedelta(days=140, minutes=1))
    ratings_rebuild()
    return {"ana": p["Ana"], "players": players, "spring": spring, "autumn": autumn}


def bulk_career(tournament, player, opponents, count: int, *, days: int = 200) -> None:
    """``count`` sessions of ``tournament``, each one table: ``player`` and ``opponents``, a
    confirmed match (totals 300, 200, ...) a minute apart from ``days`` after ``START``,
    written in a few bulk inserts."""
    for other in [player, *opponents]:
        Registration.objects.get_or_create(tournament=tournament, player=other)
    sessions = Session.objects.bulk_create(
        Session(tournament=tournament, number=number, status=Session.Status.FINISHED)
        for number in range(1, count + 1)
    )
    tables = Table.objects.bulk_create(Table(session=session, number=1) for session in sessions)
    seated = [player, *opponents]
    Seat.objects.bulk_create(
        Seat(table=table, session=table.session, player=other, order=order)
        for table in tables
        for order, other in enumerate(seated)
    )
    Match.objects.bulk_create(
        Match(
            table=table, status=Match.Status.CONFIRMED,
            totals=[300 - 100 * order for order in range(len(seated))], winners=[0],
            confirmed_at=START + datetime.timedelta(days=days, minutes=index),
        )
        for index, table in enumerate(tables)
    )
