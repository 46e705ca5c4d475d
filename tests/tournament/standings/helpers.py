"""Helpers for standings tests: seat sessions by hand and set match results directly.

A match's results are cached on the Match (status, totals in seat order, winners), which is
all the standings read; these helpers set them as the recording services would.

- ``seat(tournament, tables, status="finished")``: a new session seated with ``tables`` (lists
  of players, clockwise), then put in ``status``.
- ``result(session, table_number, totals, status="confirmed")``: set a match's results.
- ``confirm_all(tournament, seed=0)``: every match of the tournament confirmed with made-up
  totals; returns how many.
"""

from __future__ import annotations

import random

from tournament.models import Match, Session
from tournament.organiser.services import session_create
from tournament.seating.services import session_seat_players
from tournament.seating.simulation import simulated_totals


def seat(tournament, tables, *, status: str = Session.Status.FINISHED) -> Session:
    session = session_create(tournament=tournament)
    session_seat_players(session=session, tables=tables)
    Session.objects.filter(pk=session.pk).update(status=status)
    session.refresh_from_db()
    return session


def result(session, table_number: int, totals, *, status: str = Match.Status.CONFIRMED) -> Match:
    match = Match.objects.get(table__session=session, table__number=table_number)
    match.totals = list(totals)
    top = max(totals)
    match.winners = [seat for seat, total in enumerate(totals) if total == top]
    match.status = status
    match.save()
    return match


def confirm_all(tournament, *, seed: int = 0) -> int:
    rng = random.Random(seed)
    matches = list(
        Match.objects.filter(table__session__tournament=tournament)
        .order_by("pk")
        .prefetch_related("table__seats")
    )
    for match in matches:
        totals = simulated_totals(len(match.table.seats.all()), rng)
        match.totals = list(totals)
        match.winners = [totals.index(max(totals))]
        match.status = Match.Status.CONFIRMED
    Match.objects.bulk_update(matches, ["totals", "winners", "status"])
    return len(matches)
