"""The ratings as the pages, the exports and the PDF read them: one query for the rows.

- ``ratings_rows(*, league=None, user=None)``: every rated player (merged records aside), best
  first, as plain dicts; with a league, the players who played a confirmed match in one of
  its tournaments that the user may see (their rating over every rated tournament, not the
  league's alone).
- ``league_for_ratings(*, slug, user)``: the league whose ratings ``user`` may read, or 404.

The number of queries does not grow with players: the rows come from ``PlayerRating``, kept
from the rating history by ``tournament.ratings.services``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef
from django.http import Http404

from tournament.core.permissions import can_view_league, visible_tournament_ids
from tournament.kit.addresses import career_url_maker
from tournament.models import League, Match, PlayerRating, Seat
from tournament.names import name_sort_key
from tournament.ratings.model import is_provisional


def league_for_ratings(*, slug: str, user) -> League:
    """The league of this address, when ``user`` may read it (``can_view_league``: everyone
    a public league, its organisers and the superusers a private one). Otherwise 404, as for
    an unknown address (a private league's existence is not told)."""
    league = League.objects.filter(slug=slug).first()
    if league is None or not can_view_league(user, league):
        raise Http404("no such league")
    return league


def ratings_rows(*, league: League | None = None, user=None) -> list[dict[str, Any]]:
    """The rated players, best first (by conservative rating, then name accents and case aside,
    then id): one query
    (two with a league, three when a private tournament is in it and ``user`` is logged in).

    Only public tournaments count for the ratings (``Tournament.counts_for_ratings``), so the
    figures and the last events are the same for every reader. With a league, the players
    listed are those who played a confirmed match in one of its tournaments that ``user``
    may see (without a user, its public ones): a private tournament's players are not
    listed for the others.

    Each row: ``rank`` (players of equal conservative rating share it), ``rank_label``
    ("3" or "3=" for a tie), ``player_id``, ``name``, ``club``, ``url`` (the career page),
    ``conservative``, ``mu``, ``sigma``, ``matches``, ``last_event_change`` and
    ``last_event`` (the name of the tournament of the player's last rated match, "" if none),
    ``provisional`` (fewer rated matches than ``PROVISIONAL_MATCHES``).
    """
    ratings = PlayerRating.objects.filter(player__merged_into__isnull=True)
    if league is not None:
        visible = visible_tournament_ids(user=user, tournaments=league.tournaments.all())
        played = Seat.objects.filter(
            player=OuterRef("player_id"),
            session__tournament_id__in=visible,
            table__match__status=Match.Status.CONFIRMED,
        )
        ratings = ratings.filter(Exists(played))
    values = sorted(
        ratings.order_by().values_list(
            "player_id", "player__name", "player__club", "conservative", "mu", "sigma",
            "matches", "last_event_change", "last_tournament__name",
        ),
        # ties listed by name, accents and case aside (tournament/names.py)
        key=lambda value: (-value[3], name_sort_key(value[1]), value[0]),
    )
    career_url = career_url_maker()
    rows: list[dict[str, Any]] = []
    rank = 0
    previous = None
    for position, (player_id, name, club, conservative, mu, sigma, matches, change,
                   last_event) in enumerate(values, start=1):
        if conservative != previous:
            rank, previous = position, conservative
        rows.append({
            "rank": rank, "rank_label": str(rank), "player_id": player_id, "name": name,
            "club": club, "url": career_url(player_id), "conservative": conservative, "mu": mu,
            "sigma": sigma, "matches": matches, "last_event_change": change,
            "last_event": last_event or "", "provisional": is_provisional(matches),
        })
    for index, row in enumerate(rows):
        tied_before = index > 0 and rows[index - 1]["rank"] == row["rank"]
        tied_after = index + 1 < len(rows) and rows[index + 1]["rank"] == row["rank"]
        if tied_before or tied_after:
            row["rank_label"] = f"{row['rank']}="
    return rows
