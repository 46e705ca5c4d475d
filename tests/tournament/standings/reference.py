"""The categories' standings and the club teams recomputed from the confirmed matches alone,
without the app's ranking (docs/guides/categories.md states the rules this follows):

- match points at a table of n: 3 * (n - place) / (n - 1), players equal on their total
  sharing the mean of their places' points;
- the main ranking by match points, then total points (the tests' criteria), a player
  ranked once they have a confirmed match and have not withdrawn; equal on both: one rank;
- a category's rank: one more than its ranked players strictly better overall;
- a club's score: its best N ranked players' match points; ties by the counted players' overall
  ranks, best first; a club of fewer than N ranked players has no rank.
"""

from __future__ import annotations

from fractions import Fraction

from tournament.models import Match, Registration, Seat


def table_points(totals: list[int]) -> list[Fraction]:
    count = len(totals)
    points = []
    for total in totals:
        better = sum(1 for other in totals if other > total)
        equal = sum(1 for other in totals if other == total)
        places = range(better + 1, better + equal + 1)
        points.append(Fraction(sum(3 * (count - place) for place in places),
                               (count - 1) * equal))
    return points


def main_ranking(tournament) -> dict[int, dict]:
    """By player id: name, club, points, total, ranked, rank (None unranked)."""
    players = {
        registration.player_id: {
            "name": registration.player.name, "club": registration.player.club,
            "points": Fraction(0), "total": 0, "played": 0,
            "withdrawn": registration.status == Registration.Status.WITHDRAWN,
        }
        for registration in tournament.registrations.select_related("player")
    }
    for match in Match.objects.filter(table__session__tournament=tournament,
                                      status=Match.Status.CONFIRMED):
        seated = [seat.player_id for seat in
                  Seat.objects.filter(table=match.table_id).order_by("order")]
        for player_id, total, points in zip(seated, match.totals, table_points(match.totals),
                                            strict=True):
            if player_id in players:
                players[player_id]["points"] += points
                players[player_id]["total"] += total
                players[player_id]["played"] += 1
    for entry in players.values():
        entry["ranked"] = entry["played"] > 0 and not entry["withdrawn"]
        entry["key"] = (entry["points"], entry["total"])
    ranked = [entry for entry in players.values() if entry["ranked"]]
    for entry in players.values():
        entry["rank"] = (1 + sum(1 for other in ranked if other["key"] > entry["key"])
                         if entry["ranked"] else None)
    return players


def category_ranks(players: dict[int, dict], members: set[int]) -> dict[str, int | None]:
    """By name: each member's rank within the category (None: unranked)."""
    ranked = [players[pk] for pk in members if players[pk]["ranked"]]
    return {
        players[pk]["name"]: (1 + sum(1 for other in ranked if other["key"] > players[pk]["key"])
                              if players[pk]["ranked"] else None)
        for pk in members
    }


def club_ranks(players: dict[int, dict], *, size: int) -> dict[str, tuple[int | None, Fraction]]:
    """By club (as written, clubs told apart by case-folded name): its rank and score."""
    clubs: dict[str, list[dict]] = {}
    for entry in players.values():
        if entry["ranked"] and entry["club"].strip():
            clubs.setdefault(" ".join(entry["club"].split()).casefold(), []).append(entry)
    teams = {}
    for members in clubs.values():
        counted = sorted(members, key=lambda entry: (-entry["points"], entry["rank"]))[:size]
        score = sum((entry["points"] for entry in counted), Fraction(0))
        teams[members[0]["club"].strip()] = {
            "complete": len(members) >= size, "score": score,
            "key": (-score, sorted(entry["rank"] for entry in counted)),
        }
    complete = [team for team in teams.values() if team["complete"]]
    return {
        club: ((1 + sum(1 for other in complete if other["key"] < team["key"]))
               if team["complete"] else None, team["score"])
        for club, team in teams.items()
    }
