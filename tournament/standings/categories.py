"""Each category's standings, derived from the main ranking (docs/guides/categories.md).

A category's standings are the main standings' rows of its players, in the same order: the
rank within the category is one more than the number of its ranked players placed strictly
above in the main ranking, so players who share a rank there share it in the category too
("2="). A player the main ranking leaves unranked (no confirmed match, withdrawn) stays
unranked in every category, listed after the ranked ones. Each row keeps the main ranking's
rank as ``overall_rank`` and ``overall_rank_label``.

- :func:`category_rows` (pure): the rows of one category from the main rows.
- :func:`category_standings` (two queries more than the standings): every category of a
  tournament with its rows.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from tournament.models import Category, Tournament
from tournament.standings.ranking import ranked_count
from tournament.standings.selectors import Standings, standings


def shared_rank_labels(rows: list[dict[str, Any]]) -> None:
    """Set each ranked row's ``rank_label``: its rank, with "=" when a neighbour shares it."""
    for index, row in enumerate(rows):
        if row["rank"] is None:
            row["rank_label"] = ""
            continue
        tied = (index > 0 and rows[index - 1]["rank"] == row["rank"]) or (
            index + 1 < len(rows) and rows[index + 1]["rank"] == row["rank"])
        row["rank_label"] = f"{row['rank']}=" if tied else str(row["rank"])


def category_rows(rows: Sequence[dict[str, Any]], members: Collection[int]) -> list[dict[str, Any]]:
    """The main standings' ``rows`` (best first) of the players ``members`` (their ids),
    ranked within them.

    >>> main = [{"player_id": 1, "rank": 1, "rank_label": "1", "ranked": True},
    ...         {"player_id": 2, "rank": 2, "rank_label": "2=", "ranked": True},
    ...         {"player_id": 3, "rank": 2, "rank_label": "2=", "ranked": True},
    ...         {"player_id": 4, "rank": None, "rank_label": "", "ranked": False}]
    >>> [(row["rank_label"], row["overall_rank_label"]) for row in category_rows(main, {2, 3, 4})]
    [('1=', '2='), ('1=', '2='), ('', '')]
    """
    picked: list[dict[str, Any]] = []
    rank = None
    previous = None
    for position, row in enumerate((row for row in rows if row["player_id"] in members), 1):
        if row["ranked"] and row["rank"] != previous:
            rank, previous = position, row["rank"]
        picked.append({
            **row,
            "overall_rank": row["rank"],
            "overall_rank_label": row["rank_label"],
            "position": position,
            "rank": rank if row["ranked"] else None,
        })
    shared_rank_labels(picked)
    return picked


@dataclass(frozen=True)
class CategoryStandings:
    """One category: its id, name and rows (``category_rows``)."""

    id: int
    name: str
    rows: list[dict[str, Any]]

    @property
    def ranked_count(self) -> int:
        return ranked_count(self.rows)


class CategoryMembers(NamedTuple):
    """A category: its id, its name and the ids of its players."""

    id: int
    name: str
    members: set[int]


def tournament_categories(*, tournament: Tournament) -> list[CategoryMembers]:
    """The tournament's categories by name, with their players (one query)."""
    categories: dict[int, CategoryMembers] = {}
    for category_id, name, player_id in Category.objects.filter(
        tournament=tournament
    ).values_list("pk", "name", "registrations__player_id"):
        entry = categories.setdefault(category_id, CategoryMembers(category_id, name, set()))
        if player_id is not None:
            entry.members.add(player_id)
    return sorted(categories.values(), key=lambda entry: (entry.name.casefold(), entry.id))


def category_standings(
    *, tournament: Tournament, result: Standings | None = None
) -> list[CategoryStandings]:
    """Every category of the tournament, by name, with its standings derived from ``result``
    (the tournament's standings, read when not given)."""
    result = result or standings(tournament=tournament)
    return [
        CategoryStandings(id=category_id, name=name, rows=category_rows(result.rows, members))
        for category_id, name, members in tournament_categories(tournament=tournament)
    ]
