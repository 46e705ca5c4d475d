"""Helpers of the ratings tests: matches confirmed and corrected through the real services,
and the rating rows as plain tuples to compare.

- ``second_event(tournament, slug)``: a tournament with the same players, one session in
  play at tables of four (the players rotated).
- ``matches_of(tournament)``: its matches, in session and table order.
- ``confirm(match, user)``: the match filled from a simulated record and every round
  confirmed (``match_record_import_and_confirm``); returns the record.
- ``correct(match, user, record)``: a turn of round 1 corrected (one draw less, no claim):
  the match's totals change and it is no longer confirmed; ``reconfirm`` confirms it again.
- ``rating_rows()``: every RatingChange and PlayerRating, every field, in a fixed order.
"""

from __future__ import annotations

import datetime

from tests.tournament.matches.helpers import board_turn, fresh, simulated
from tournament.core.tournaments import tournament_create
from tournament.matches import services
from tournament.models import Match, PlayerRating, RatingChange, Registration, Round, Turn
from tournament.seating.services import session_seat_players
from tournament.sessions.services import session_create, session_start


def matches_of(tournament) -> list[Match]:
    return list(
        Match.objects.filter(table__session__tournament=tournament)
        .order_by("table__session__number", "table__number")
    )


def second_event(tournament, *, slug: str, shift: int = 1):
    """A second tournament of the same players, seated in one session and started."""
    other = tournament_create(
        name=slug.title(), slug=slug, start_date=datetime.date(2025, 6, 14),
    )
    players = [registration.player for registration in
               tournament.registrations.select_related("player").order_by("player__name")]
    Registration.objects.bulk_create(
        [Registration(tournament=other, player=player) for player in players]
    )
    players = players[shift:] + players[:shift]
    session = session_create(tournament=other, seed=0)
    session_seat_players(session=session,
                         tables=[players[i:i + 4] for i in range(0, len(players), 4)])
    session_start(session=session)
    return other


def confirm(match: Match, user) -> dict:
    # Seeded by the match's place, not its id: on PostgreSQL the ids depend on the tests run
    # before (a rolled-back test does not give its ids back), and so would the record; and
    # ``correct`` (one tile fewer in a rack) leaves some records with later turns illegal.
    table = Match.objects.select_related("table__session").get(pk=match.pk).table
    record = simulated(match, seed=100 * table.session.number + table.number)
    services.match_record_import_and_confirm(match=fresh(match), user=user, record=record)
    assert fresh(match).status == Match.Status.CONFIRMED
    return record


def correct(match: Match, user, record: dict) -> None:
    """One draw less at the first turn of round 1 that drew and placed; no points claimed."""
    position, turn = next(
        (position, turn) for position, turn in enumerate(record["rounds"][0]["turns"])
        if turn.get("place") and turn.get("draws", 0) >= 1
    )
    row = Turn.objects.filter(
        round__match=match, round__index=0, superseded_at__isnull=True
    ).order_by("index")[position]
    match = fresh(match)
    services.match_turn_correct(
        match=match, user=user, seen_revision=match.revision, turn_id=row.pk,
        turn=board_turn(turn, draws=turn["draws"] - 1, points_claimed=None),
        reason="one draw less",
    )


def reconfirm(match: Match, user) -> None:
    for round_ in Round.objects.filter(match=match, confirmed_at__isnull=True).order_by("index"):
        match = fresh(match)
        services.match_round_confirm(match=match, user=user, seen_revision=match.revision,
                                     round_index=round_.index)
    assert fresh(match).status == Match.Status.CONFIRMED


def rating_rows() -> tuple[list[tuple], list[tuple]]:
    changes = list(
        RatingChange.objects.order_by("at", "match_id", "player_id").values_list(
            "player_id", "match_id", "tournament_id", "at", "rank", "mu_before",
            "sigma_before", "mu", "sigma",
        )
    )
    ratings = list(
        PlayerRating.objects.order_by("player_id").values_list(
            "player_id", "mu", "sigma", "conservative", "matches", "last_tournament_id",
            "last_event_change",
        )
    )
    return changes, ratings
