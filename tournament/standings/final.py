"""The final table (docs/guides/final.md): who plays it, where they sit, and the places it gives.
Pure Python, like ``ranking.py``.

- :func:`final_cut`: the top ``size`` of the qualifying standings; a tie across the cut line
  (the players sharing the last place in the final with players below it) is drawn by lot
  with the final session's seed, so that drawing again gives the same finalists. The lot
  decides who plays, not where: the players it takes keep the standings' order (by name).
- :func:`final_tables`: the finalists at their tables, by qualifying order: one table of 4
  (1, 2, 3, 4), or two of 4 split so that each is as strong as the other (1, 4, 5, 8 and
  2, 3, 6, 7: the qualifying ranks add up to 18 at both).
- :func:`final_standings`: the standings once every final match is confirmed: the finalists
  first, placed by the final alone (the tournament's criteria over the final's match or
  matches; two tables are ranked together, so both winners come before both seconds, the
  criteria after the first deciding between them), then, among players the final leaves
  equal, the better qualifying rank; equal there too, they share the place. The others
  follow in the qualifying order, renumbered from place ``size + 1`` on: one more than the
  number of them strictly above in the qualifying ranking (ties kept), whatever their
  qualifying rank (it may be inside the final's places once the criteria changed).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tournament.standings.ranking import (
    CRITERIA,
    MatchResult,
    StandingPlayer,
    standings_compute,
)

#: The sizes a final can have, and the seats of each table by qualifying order (from 0).
FINAL_TABLES: dict[int, tuple[tuple[int, ...], ...]] = {
    4: ((0, 1, 2, 3),),
    8: ((0, 3, 4, 7), (1, 2, 5, 6)),
}
#: A player's figures kept over the whole tournament once the final is decided (``overall``):
#: the matches and every criterion.
WHOLE_TOURNAMENT_FIGURES = ("matches", *CRITERIA)
STAGE_FINAL = "final"
STAGE_QUALIFYING = "qualifying"


@dataclass(frozen=True)
class FinalCut:
    """The finalists in qualifying order (the standings' order, by name, inside a shared
    rank, the tie at the cut line included), and the players of the tie at the cut line that
    the lot decided between (``drawn``: every one of them, in or out; empty without a tie)."""

    finalists: tuple[int, ...]
    drawn: tuple[int, ...] = ()


def final_cut(rows: Sequence[dict[str, Any]], *, size: int, seed: int) -> FinalCut:
    """The top ``size`` ranked players of the qualifying ``rows`` (best first, as
    ``standings_compute`` gives them). Raises ``ValueError`` when fewer are ranked.

    >>> rows = [{"player_id": p, "rank": r, "ranked": True}
    ...         for p, r in [(11, 1), (12, 2), (13, 3), (14, 4), (15, 5)]]
    >>> final_cut(rows, size=4, seed=1)
    FinalCut(finalists=(11, 12, 13, 14), drawn=())
    """
    ranked = [row for row in rows if row["ranked"]]
    if len(ranked) < size:
        raise ValueError(f"size: {size} finalists asked, {len(ranked)} players ranked")
    if len(ranked) == size or ranked[size]["rank"] != ranked[size - 1]["rank"]:
        return FinalCut(tuple(row["player_id"] for row in ranked[:size]))
    line = ranked[size - 1]["rank"]
    safe = [row["player_id"] for row in ranked if row["rank"] < line]
    tied = [row["player_id"] for row in ranked if row["rank"] == line]
    lot = tied[:]
    random.Random(seed).shuffle(lot)
    taken = set(lot[: size - len(safe)])
    # The lot says who plays, not where: those it takes sit in the standings' order.
    return FinalCut(tuple(safe + [player_id for player_id in tied if player_id in taken]),
                    tuple(tied))


def final_tables(finalists: Sequence[int]) -> list[list[int]]:
    """The finalists (in qualifying order) at the final's tables, clockwise.

    >>> final_tables([1, 2, 3, 4, 5, 6, 7, 8])
    [[1, 4, 5, 8], [2, 3, 6, 7]]
    """
    if len(finalists) not in FINAL_TABLES:
        raise ValueError(f"finalists: {sorted(FINAL_TABLES)} expected, got {len(finalists)}")
    return [[finalists[index] for index in seats] for seats in FINAL_TABLES[len(finalists)]]


def final_standings(
    *,
    qualifying: Sequence[dict[str, Any]],
    players: Sequence[StandingPlayer],
    results: Sequence[MatchResult] = (),
    final_results: Sequence[MatchResult],
    criteria: Sequence[str],
    absences: Mapping[int, Sequence[int]] | None = None,
    forfeit: bool = False,
) -> list[dict[str, Any]]:
    """The standings with the final decided (see the module's docstring), from the
    ``qualifying`` rows (``standings_compute`` over the qualifying ``results``): rows with
    ``stage`` ("final" or "qualifying") and ``qualifying_rank`` (the rank the qualifying
    sessions gave, None when not ranked there). A finalist's figures are those of the final,
    the others' those of the qualifying sessions; every row's ``overall`` holds the player's
    figures over the whole tournament, qualifying and final (``matches`` and every criterion,
    as ``standings_compute`` counts them with the qualifying's ``absences`` and ``forfeit``):
    the club teams and a career count those. A player the final did not seat has the same
    figures there but one: their opponents' strength, which counts what the opponents they
    met did in the final too."""
    finalist_ids = {player_id for result in final_results for player_id in result.player_ids}
    qualifying_rank = {row["player_id"]: row["rank"] for row in qualifying}
    final_rows = standings_compute(
        players=[player for player in players if player.id in finalist_ids],
        results=final_results,
        criteria=criteria,
    )
    overall = {
        row["player_id"]: {code: row[code] for code in WHOLE_TOURNAMENT_FIGURES}
        for row in standings_compute(
            players=players, results=[*results, *final_results], criteria=criteria,
            absences=absences, forfeit=forfeit)
    }
    unplaced = len(qualifying) + 1

    def order(row: dict[str, Any]) -> tuple:
        return (
            not row["ranked"],
            tuple(-row[code] for code in criteria),
            qualifying_rank.get(row["player_id"]) or unplaced,
        )

    final_rows.sort(key=lambda row: (*order(row), row["name_key"], row["player_id"]))
    rows: list[dict[str, Any]] = []
    previous, rank = None, None
    for position, row in enumerate(final_rows, start=1):
        key = order(row)
        if row["ranked"] and key != previous:
            rank, previous = position, key
        rows.append({**row, "rank": rank if row["ranked"] else None, "position": position,
                     "stage": STAGE_FINAL})
    rest = [row for row in qualifying if row["player_id"] not in finalist_ids]
    rows.extend(_after_the_final(rest, first=len(rows) + 1))
    for row in rows:
        row["qualifying_rank"] = qualifying_rank.get(row["player_id"])
        row["overall"] = overall[row["player_id"]]
    _label_ranks(rows)
    return rows


def whole_tournament(row: dict[str, Any]) -> dict[str, Any]:
    """A standings row's figures over the whole tournament: its ``overall`` once the final is
    decided (the qualifying sessions and the final), else the row itself (no final counts).

    >>> whole_tournament({"match_points": 3, "overall": {"match_points": 7}})["match_points"]
    7
    >>> whole_tournament({"match_points": 2})["match_points"]
    2
    """
    return row.get("overall", row)


def _after_the_final(rest: Sequence[dict[str, Any]], *, first: int) -> list[dict[str, Any]]:
    """The players the final did not seat (``rest``, in qualifying order), renumbered from
    ``first``: each one's rank is ``first`` plus the number of them strictly above in the
    qualifying ranking, so ties stay ties and nobody else shares a rank. Their qualifying rank
    may be inside the final's places (a tie at the cut line, the criteria changed or a
    qualifying match corrected after the final): it is not kept as it was.

    >>> rest = [{"player_id": p, "rank": r, "ranked": r is not None}
    ...         for p, r in [(7, 2), (8, 4), (9, 4), (10, 9), (11, None)]]
    >>> [row["rank"] for row in _after_the_final(rest, first=5)]
    [5, 6, 6, 8, None]
    """
    rows: list[dict[str, Any]] = []
    rank, previous = None, None
    for index, row in enumerate(rest):
        if row["rank"] is not None and row["rank"] != previous:
            rank, previous = first + index, row["rank"]
        rows.append({**row, "rank": rank if row["rank"] is not None else None,
                     "position": first + index, "stage": STAGE_QUALIFYING})
    return rows


def _label_ranks(rows: list[dict[str, Any]]) -> None:
    """Each row's ``rank_label``: its rank, "=" after it when shared, empty when not ranked."""
    ranks = [row["rank"] for row in rows]
    for index, row in enumerate(rows):
        if row["rank"] is None:
            row["rank_label"] = ""
            continue
        tied = (index > 0 and ranks[index - 1] == row["rank"]) or (
            index + 1 < len(rows) and ranks[index + 1] == row["rank"])
        row["rank_label"] = f"{row['rank']}=" if tied else str(row["rank"])
