"""Helpers of the ratings tests: matches corrected through the real services (confirmed with
``tests/factories.py``'s ``confirmed_match``), and the rating rows as plain tuples to compare.

- ``second_event(tournament, slug)``: a tournament with the same players, one session in
  play at tables of four (the players rotated).
- ``matches_of(tournament)``: its matches, in session and table order.
- ``correct(match, user)``: a turn of round 1 corrected (one draw less, no claim) in a match
  that ``confirmed_match`` filled: the match's totals change and it is no longer confirmed;
  ``racks_entered_again(match, user)`` then enters round 1's racks as the correction leaves
  them, and ``rounds_confirmed`` confirms it again.
- ``rating_rows()``: every RatingChange and PlayerRating, every field, in a fixed order.
"""

from __future__ import annotations

import datetime

from tests.factories import (
    board_turn,
    fresh,
    played_record,
    seated_session,
    tournament_with_players,
)
from tournament.matches import services
from tournament.models import Match, PlayerRating, RatingChange, Registration, Turn


def matches_of(tournament) -> list[Match]:
    return list(
        Match.objects.filter(table__session__tournament=tournament)
        .order_by("table__session__number", "table__number")
    )


def second_event(tournament, *, slug: str, shift: int = 1):
    """A second tournament of the same players, seated in one session and started."""
    other = tournament_with_players(slug=slug, name=slug.title(), players=0,
                                    start_date=datetime.date(2025, 6, 14), venue="")
    players = [registration.player for registration in
               tournament.registrations.select_related("player").order_by("player__name")]
    Registration.objects.bulk_create(
        [Registration(tournament=other, player=player) for player in players]
    )
    players = players[shift:] + players[:shift]
    seated_session(tournament=other, tables=[players[i:i + 4] for i in range(0, len(players), 4)],
                   started=True)
    return other


def correct(match: Match, user) -> None:
    """One draw less at the first turn of round 1 that drew and placed (in the match's
    ``played_record``, which ``confirmed_match`` filled it with); no points claimed."""
    record = played_record(match=match)
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


def racks_entered_again(match: Match, user) -> None:
    """After :func:`correct`, the racks of round 1 entered again with the corrected player's
    last tile left out (it held one tile fewer): a rack listing more tiles than the set
    leaves it is refused at confirmation."""
    record = played_record(match=match)
    position, turn = next(
        (position, turn) for position, turn in enumerate(record["rounds"][0]["turns"])
        if turn.get("place") and turn.get("draws", 0) >= 1
    )
    racks = [list(rack) for rack in record["rounds"][0]["racks"]]
    racks[turn["player"]] = racks[turn["player"]][:-1]
    match = fresh(match)
    services.match_round_end(match=match, user=user, seen_revision=match.revision,
                             round_index=0, racks=racks, reason="one tile fewer")


def rating_rows() -> tuple[list[tuple], list[tuple]]:
    changes = list(
        RatingChange.objects.order_by("played_on", "session", "at", "match_id", "player_id")
        .values_list(
            "player_id", "match_id", "tournament_id", "played_on", "session", "at", "rank",
            "mu_before", "sigma_before", "mu", "sigma", "shown_before", "shown",
        )
    )
    ratings = list(
        PlayerRating.objects.order_by("player_id").values_list(
            "player_id", "mu", "sigma", "conservative", "matches", "last_tournament_id",
            "last_event_change",
        )
    )
    return changes, ratings
