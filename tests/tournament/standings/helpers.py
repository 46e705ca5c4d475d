"""Helpers for standings tests: seat sessions by hand and set match results directly.

A match's results are cached on the Match (status, totals in seat order, winners), which is
all the standings read; these helpers set them as the recording services would.

- ``seat(tournament, tables, status="finished")``: a new session seated with ``tables`` (lists
  of players, clockwise), then put in ``status``.
- ``result(session, table_number, totals, status="confirmed")``: set a match's results.
- ``confirm_all(tournament, seed=0)``: every match of the tournament confirmed with made-up
  totals; returns how many.
- ``table_of_five(make_tournament, slug="five", criteria=None)``: five players at one table,
  two of them tied second (1.875 match points each), one withdrawn, formulas among the names.
"""

from __future__ import annotations

import random

from tournament.models import Match, Session
from tournament.seating.services import session_seat_players
from tournament.seating.simulation import simulated_totals
from tournament.sessions.services import session_create


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


#: ``table_of_five``'s players in seat order, and their totals: Bo and Cy tie second.
FIVE = [("Ana", "Lyon", 400), ("Bo", "=HYPERLINK(\"http://example.org\")", 300),
        ("Cy", "", 300), ("Di", "@Paris", 200), ("=1+2", "+33", 100)]


def table_of_five(make_tournament, *, slug: str = "five", criteria=None):
    """``FIVE`` at one table of 5, confirmed: Ana 3 match points, Bo and Cy 1.875 each (the
    2nd and 3rd places' 1.5 and 1.5 shared: 3 * 5 / 8), Di 0.75, "=1+2" 0; opponents' strength
    Ana 4.5, Bo and Cy 5.625. Di has withdrawn since. Names and clubs that a spreadsheet would
    run as formulas."""
    from tournament.models import Registration, Tournament
    from tournament.organiser.services import player_add, registration_withdraw

    tournament = make_tournament(slug=slug, players=0, sessions=0)
    if criteria is not None:
        Tournament.objects.filter(pk=tournament.pk).update(ranking_criteria=list(criteria))
        tournament.refresh_from_db()
    players = [player_add(tournament=tournament, name=name, club=club).player
               for name, club, _total in FIVE]
    session = seat(tournament, [players])
    result(session, 1, [total for _name, _club, total in FIVE])
    registration_withdraw(registration=Registration.objects.get(
        tournament=tournament, player__name="Di"))
    return tournament
