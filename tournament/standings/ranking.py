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

Match points are counted exactly (whole units of 1/120 point) and the share compared to nine
decimals, so no tie comes from a rounding; players equal on every chosen criterion share the
rank ("3="), and are listed by name.

Absences (docs/guides/check-in.md): with the tournament's check-in, a player who plays in a seated
session but was not checked in for it is absent from it (``absences``: the session numbers
by player). ``forfeit`` (a no-show forfeits the session): each absence counts as a match
played for nothing, so it lowers the average share; otherwise a session missed counts for
nothing, as for a late arrival (the average is over the matches played). Every row says its
absences (``absent_sessions``) and whether they count as forfeits (``forfeits``); a
forfeit alone ranks nobody.

Only a player who has played a confirmed match and has not withdrawn is ranked. The others (a
withdrawn player, then a registered player without a confirmed match) are listed after the
ranked players, without a rank (``rank`` None, ``rank_label`` empty, ``ranked`` False): their
figures show, but they count nowhere (not in the ranks of the others, not in the number of
players ranked, not in a league). A withdrawn player's matches still count for their
opponents (match points, opponents' strength).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tournament.names import name_sort_key

# Match points are counted in units of 1/POINTS_SCALE, exact for tables of 2 to 6 players.
POINTS_SCALE = 120
CRITERIA = ("match_points", "table_wins", "total_points", "share", "best_match", "opponents")
MATCH_POINTS_FOR_FIRST = 3


@dataclass(frozen=True)
class StandingPlayer:
    """A player to rank: an id, a name and a club; ``withdrawn``: listed apart, not ranked."""

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


def match_points_units(totals: Sequence[int], *, scale: int) -> list[int]:
    """Each seat's match points in units of 1/``scale`` point, ties sharing their places' points.

    ``scale`` must be a multiple of 2 * (n - 1) for a table of n (``POINTS_SCALE`` is, for
    tables of 2 to 6): then every share is a whole number of units. Tied players from place
    r (from 1), k of them, share 3 * (2n - 2r - k + 1) / (2 * (n - 1)).

    >>> match_points_units([410, 250, 300, 120], scale=120)
    [360, 120, 240, 0]
    """
    count = len(totals)
    if count < 2:
        return [MATCH_POINTS_FOR_FIRST * scale] * count
    step, remainder = divmod(scale, 2 * (count - 1))
    if remainder:
        raise ValueError(f"scale: {scale} is not a multiple of {2 * (count - 1)}")
    by_total = sorted(range(count), key=lambda seat: -totals[seat])
    points = [0] * count
    place = 0  # from 0: the place (rank - 1) of the first of a group of equal totals
    while place < count:
        tied_end = place
        while tied_end + 1 < count and totals[by_total[tied_end + 1]] == totals[by_total[place]]:
            tied_end += 1
        tied = tied_end - place + 1
        shared = MATCH_POINTS_FOR_FIRST * (2 * count - 2 * (place + 1) - tied + 1) * step
        for position in range(place, tied_end + 1):
            points[by_total[position]] = shared
        place = tied_end + 1
    return points


def match_points(totals: Sequence[int]) -> list[Fraction]:
    """Each seat's match points from the match totals, ties sharing their places' points.

    >>> [str(points) for points in match_points([410, 250, 300, 120])]
    ['3', '1', '2', '0']
    >>> [str(points) for points in match_points([405, 405, 200])]
    ['9/4', '9/4', '0']
    """
    scale = 2 * max(len(totals) - 1, 1)
    return [Fraction(units, scale) for units in match_points_units(totals, scale=scale)]


def standings_compute(
    *,
    players: Sequence[StandingPlayer],
    results: Sequence[MatchResult],
    criteria: Sequence[str],
    absences: Mapping[int, Sequence[int]] | None = None,
    forfeit: bool = False,
) -> list[dict[str, Any]]:
    """One row per player, best first (see the module's docstring for the criteria).

    Each row: ``rank`` (int, shared by ties; None when not ranked), ``rank_label`` ("3" or
    "3="; empty when not ranked), ``ranked``, ``position`` (from 1, the row's place in the
    list), ``player_id``, ``name``, ``name_key`` (how the name sorts; ties are listed by it),
    ``club``, ``withdrawn``, ``matches`` (confirmed matches played), and every
    criterion: ``match_points``, ``opponents`` (floats, exact in quarters), ``table_wins``,
    ``total_points``, ``best_match`` (ints), ``share`` (a float from 0 to 1);
    ``absent_sessions`` (a tuple of session numbers) and ``forfeits`` (how many of them count
    as matches played for nothing: all with ``forfeit``, else none).

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
    scale = math.lcm(POINTS_SCALE, *{2 * (len(r.totals) - 1) for r in results if len(r.totals) > 1})
    points: dict[int, int] = {player.id: 0 for player in players}  # in units of 1/scale
    wins: dict[int, int] = dict.fromkeys(points, 0)
    totals: dict[int, int] = dict.fromkeys(points, 0)
    shares: dict[int, float] = dict.fromkeys(points, 0.0)
    best: dict[int, int] = dict.fromkeys(points, 0)
    played: dict[int, int] = dict.fromkeys(points, 0)

    for result in results:
        seat_points = match_points_units(result.totals, scale=scale)
        table_total = sum(result.totals)
        count = len(result.player_ids)
        winners = set(result.winners)
        if not winners and result.totals:
            top = max(result.totals)
            winners = {seat for seat, total in enumerate(result.totals) if total == top}
        for seat, player_id in enumerate(result.player_ids):
            if player_id not in points:  # seated but no longer registered: counts for others
                for table in (points, wins, totals, best, played):
                    table[player_id] = 0
                shares[player_id] = 0.0
            total = result.totals[seat]
            points[player_id] += seat_points[seat]
            wins[player_id] += seat in winners
            totals[player_id] += total
            shares[player_id] += total / table_total if table_total else 1 / count
            best[player_id] = max(best[player_id], total) if played[player_id] else total
            played[player_id] += 1

    # Opponents' strength: at each match, the sum of its players' match points, less one's own.
    opponents = {player_id: -count * points[player_id] for player_id, count in played.items()}
    for result in results:
        table_points = sum(points[player_id] for player_id in result.player_ids)
        for player_id in result.player_ids:
            opponents[player_id] += table_points

    absent = {player_id: tuple(sorted(sessions)) for player_id, sessions in (absences or {}).items()}
    forfeits = {player_id: len(absent.get(player_id, ())) if forfeit else 0 for player_id in played}
    average_share = {
        # rounded well below what shows, so that equal shares compare equal
        player_id: round(shares[player_id] / (count + forfeits[player_id]), 9) if count else 0.0
        for player_id, count in played.items()
    }
    by_code = {
        "match_points": points, "table_wins": wins, "total_points": totals,
        "share": average_share, "best_match": best, "opponents": opponents,
    }
    chosen = [by_code[code] for code in criteria]
    keyed = [
        (tuple([values[player.id] for values in chosen]), player) for player in players
    ]

    def is_ranked(player: StandingPlayer) -> bool:
        return played[player.id] > 0 and not player.withdrawn

    # The players ranked first; then the others (withdrawn, then no-shows), figures aside.
    keyed.sort(key=lambda item: (
        not is_ranked(item[1]), played[item[1].id] == 0,
        tuple([-value for value in item[0]]), name_sort_key(item[1].name), item[1].id,
    ))

    rows: list[dict[str, Any]] = []
    rank = 0
    previous_key = None
    for position, (key, player) in enumerate(keyed, start=1):
        ranked = is_ranked(player)
        if ranked and key != previous_key:
            rank = position
            previous_key = key
        player_id = player.id
        rows.append(
            {
                "rank": rank if ranked else None,
                "rank_label": str(rank) if ranked else "",
                "ranked": ranked,
                "position": position,
                "player_id": player_id,
                "name": player.name,
                "name_key": name_sort_key(player.name),
                "club": player.club,
                "withdrawn": player.withdrawn,
                "matches": played[player_id],
                "match_points": points[player_id] / scale,
                "table_wins": wins[player_id],
                "total_points": totals[player_id],
                "share": average_share[player_id],
                "best_match": best[player_id],
                "opponents": opponents[player_id] / scale,
                "absent_sessions": absent.get(player_id, ()),
                "forfeits": forfeits[player_id],
            }
        )
    ranks = [row["rank"] for row in rows]
    for index, row in enumerate(rows):
        if row["rank"] is None:
            continue
        tied_before = index > 0 and ranks[index - 1] == row["rank"]
        tied_after = index + 1 < len(rows) and ranks[index + 1] == row["rank"]
        if tied_before or tied_after:
            row["rank_label"] = f"{row['rank']}="
    return rows


def ranked_count(rows: Sequence[dict[str, Any]]) -> int:
    """How many of the rows are ranked: the "N" of "rank n / N".

    >>> ranked_count([{"ranked": True}, {"ranked": False}])
    1
    """
    return sum(1 for row in rows if row["ranked"])
