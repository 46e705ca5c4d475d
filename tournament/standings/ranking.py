"""The ranking: players' scores by criterion and their ranks, from match results. Pure Python.

No Django here: ``standings_compute`` takes the players and the confirmed matches' results as
plain values and returns one plain dict per player. The selector
``tournament.standings.selectors.standings_rows`` feeds it from the database.

The criteria (codes of ``Tournament.ranking_criteria``; higher is better for each):

- ``match_points``: by rank at the table, 3 * (n - rank) / (n - 1) at a table of n: 3/2/1/0
  at a table of 4 and 3/1.5/0 at a table of 3, both averaging 1.5. Players with the same
  total at a table share the mean of their places' points (two first at a table of 4: 2.5
  each).
- ``table_wins``: matches won (the match's winners; a shared win counts for each).
- ``total_points``: the sum of the player's match totals.
- ``share``: the average over matches of the player's total / the sum of the table's totals
  (a table where nobody scored: an equal share).
- ``best_match``: the player's highest match total.
- ``opponents``: the sum, over every opponent met at every match, of that opponent's match
  points (met twice: counted twice).

Exact fractions are compared, so no tie comes from a rounding; players equal on every chosen
criterion share the rank ("3="), and are listed by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

CRITERIA = ("match_points", "table_wins", "total_points", "share", "best_match", "opponents")
MATCH_POINTS_FOR_FIRST = 3


@dataclass(frozen=True)
class StandingPlayer:
    """A player to rank: an id, a name and a club; ``withdrawn`` is shown, not ranked apart."""

    id: int
    name: str
    club: str = ""
    withdrawn: bool = False


@dataclass(frozen=True)
class MatchResult:
    """A confirmed match: its players in seat order, their totals and the winners' seat orders."""

    player_ids: tuple[int, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...] = ()
    match_id: int | None = None


def match_points(totals: Sequence[int]) -> list[Fraction]:
    """Each seat's match points from the match totals, ties sharing their places' points.

    >>> [str(points) for points in match_points([410, 250, 300, 120])]
    ['3', '1', '2', '0']
    >>> [str(points) for points in match_points([405, 405, 200])]
    ['9/4', '9/4', '0']
    """
    count = len(totals)
    if count < 2:
        return [Fraction(MATCH_POINTS_FOR_FIRST)] * count
    by_total = sorted(range(count), key=lambda seat: -totals[seat])
    points: list[Fraction] = [Fraction(0)] * count
    place = 0
    while place < count:
        tied_end = place
        while tied_end + 1 < count and totals[by_total[tied_end + 1]] == totals[by_total[place]]:
            tied_end += 1
        places = range(place + 1, tied_end + 2)  # ranks from 1
        shared = sum(
            (Fraction(MATCH_POINTS_FOR_FIRST * (count - rank), count - 1) for rank in places),
            Fraction(0),
        ) / len(places)
        for position in range(place, tied_end + 1):
            points[by_total[position]] = shared
        place = tied_end + 1
    return points


def standings_compute(
    *,
    players: Sequence[StandingPlayer],
    results: Sequence[MatchResult],
    criteria: Sequence[str],
) -> list[dict[str, Any]]:
    """One row per player, best first (see the module's docstring for the criteria).

    Each row: ``rank`` (int, shared by ties), ``rank_label`` ("3" or "3="), ``player_id``,
    ``name``, ``club``, ``withdrawn``, ``matches`` (confirmed matches played), and every
    criterion: ``match_points``, ``opponents`` (floats, exact in quarters), ``table_wins``,
    ``total_points``, ``best_match`` (ints), ``share`` (a float from 0 to 1).

    >>> rows = standings_compute(
    ...     players=[StandingPlayer(1, "Ana"), StandingPlayer(2, "Bo"), StandingPlayer(3, "Cy")],
    ...     results=[MatchResult((1, 2, 3), (400, 120, 120), (0,))],
    ...     criteria=["match_points"])
    >>> [(row["rank_label"], row["name"], row["match_points"]) for row in rows]
    [('1', 'Ana', 3.0), ('2=', 'Bo', 0.75), ('2=', 'Cy', 0.75)]
    """
    unknown = [code for code in criteria if code not in CRITERIA]
    if unknown or not criteria:
        raise ValueError(f"criteria: codes from {CRITERIA} expected, got {list(criteria)}")
    zero = Fraction(0)
    points: dict[int, Fraction] = {player.id: zero for player in players}
    wins: dict[int, int] = dict.fromkeys(points, 0)
    totals: dict[int, int] = dict.fromkeys(points, 0)
    shares: dict[int, Fraction] = dict.fromkeys(points, zero)
    best: dict[int, int] = dict.fromkeys(points, 0)
    played: dict[int, int] = dict.fromkeys(points, 0)
    opponents_of: dict[int, list[int]] = {player_id: [] for player_id in points}

    for result in results:
        seat_points = match_points(result.totals)
        table_total = sum(result.totals)
        count = len(result.player_ids)
        winners = set(result.winners)
        if not winners and result.totals:
            top = max(result.totals)
            winners = {seat for seat, total in enumerate(result.totals) if total == top}
        for seat, player_id in enumerate(result.player_ids):
            if player_id not in points:  # seated but no longer registered: counts for others
                points[player_id] = zero
                for table in (wins, totals, best, played):
                    table[player_id] = 0
                shares[player_id] = zero
                opponents_of[player_id] = []
            total = result.totals[seat]
            points[player_id] += seat_points[seat]
            wins[player_id] += seat in winners
            totals[player_id] += total
            shares[player_id] += (
                Fraction(total, table_total) if table_total else Fraction(1, count)
            )
            best[player_id] = max(best[player_id], total) if played[player_id] else total
            played[player_id] += 1
            opponents_of[player_id].extend(
                other for other in result.player_ids if other != player_id
            )

    def score(player_id: int, code: str):
        if code == "match_points":
            return points[player_id]
        if code == "table_wins":
            return wins[player_id]
        if code == "total_points":
            return totals[player_id]
        if code == "share":
            return shares[player_id] / played[player_id] if played[player_id] else zero
        if code == "best_match":
            return best[player_id]
        return sum((points[other] for other in opponents_of[player_id]), zero)

    keyed = []
    for player in players:
        values = {code: score(player.id, code) for code in CRITERIA}
        key = tuple(values[code] for code in criteria)
        keyed.append((key, player, values))
    keyed.sort(key=lambda item: (tuple(-value for value in item[0]), item[1].name, item[1].id))

    rows: list[dict[str, Any]] = []
    rank = 0
    previous_key = None
    for position, (key, player, values) in enumerate(keyed, start=1):
        if key != previous_key:
            rank = position
            previous_key = key
        rows.append(
            {
                "rank": rank,
                "rank_label": str(rank),
                "player_id": player.id,
                "name": player.name,
                "club": player.club,
                "withdrawn": player.withdrawn,
                "matches": played[player.id],
                "match_points": float(values["match_points"]),
                "table_wins": values["table_wins"],
                "total_points": values["total_points"],
                "share": float(values["share"]),
                "best_match": values["best_match"],
                "opponents": float(values["opponents"]),
            }
        )
    ranks = [row["rank"] for row in rows]
    for index, row in enumerate(rows):
        tied_before = index > 0 and ranks[index - 1] == row["rank"]
        tied_after = index + 1 < len(rows) and ranks[index + 1] == row["rank"]
        if tied_before or tied_after:
            row["rank_label"] = f"{row['rank']}="
    return rows
