"""Club teams: each club ranked by the sum of its best N players' results on one criterion
(``Tournament.team_size`` and ``team_criterion``; docs/guides/categories.md). Pure, but for
:func:`club_ranking`, which reads the standings.

- Only players ranked in the main standings count (no confirmed match or withdrawn: they
  count for no team), and only players with a club (clubs are told apart whatever their case
  and surrounding spaces: "Club A" and "club a " are one club).
- A club's N best results on the criterion are added up (its players sorted by that result,
  then by their rank): the team's score. A result is the player's whole tournament: a
  finalist's qualifying sessions and final together (``final.whole_tournament``), not the
  final's match alone, so reaching the final never lowers a club's score.
- Ties: the higher score first; then the counted players' ranks in the main standings,
  compared best first (the club whose best counted player ranks higher, then its second...);
  equal on both: the clubs share the rank ("2="), listed by name.
- A club with fewer than N ranked players is listed after the ranked clubs, without a rank
  (its score shows: the sum of what it has).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tournament.models import Tournament
from tournament.names import name_sort_key
from tournament.standings.categories import shared_rank_labels
from tournament.standings.final import whole_tournament
from tournament.standings.selectors import Standings, standings

#: Scores are compared to this many decimals: match points summed as floats stay equal.
SCORE_DECIMALS = 6


def club_key(club: str) -> str:
    """How clubs are told apart.

    >>> club_key(" Club A ") == club_key("club a")
    True
    """
    return " ".join(club.split()).casefold()


def club_teams(
    rows: Sequence[dict[str, Any]], *, size: int, criterion: str
) -> list[dict[str, Any]]:
    """One row per club, best first: ``rank`` (None when incomplete), ``rank_label``,
    ``ranked``, ``club``, ``score`` (the sum of the counted results), ``criterion``,
    ``players`` (how many of its players are ranked), ``counted`` (the counted players' rows,
    best first).

    >>> rows = [{"player_id": i, "name": n, "club": c, "rank": r, "ranked": True, "share": s}
    ...         for i, (n, c, r, s) in enumerate([("Ana", "A", 1, .5), ("Bo", "B", 2, .3),
    ...                                           ("Cy", "A", 3, .1), ("Di", "B", 4, .3)])]
    >>> [(t["rank_label"], t["club"], t["score"]) for t in club_teams(rows, size=2,
    ...                                                               criterion="share")]
    [('1', 'A', 0.6), ('2', 'B', 0.6)]
    """
    if size < 1:
        raise ValueError(f"size: at least 1, got {size}")
    clubs: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        if row["ranked"] and row["club"].strip():
            clubs.setdefault(club_key(row["club"]), []).append(row)
    teams = []
    for members in clubs.values():
        members = sorted(members, key=lambda row: (
            -whole_tournament(row)[criterion], row["rank"], row["player_id"]))
        counted = members[:size]
        spellings = [row["club"].strip() for row in members]
        name = max(spellings, key=lambda spelling: (spellings.count(spelling), spelling))
        score = round(sum(whole_tournament(row)[criterion] for row in counted), SCORE_DECIMALS)
        teams.append({
            "club": name,
            "score": score,
            "criterion": criterion,
            "players": len(members),
            "counted": counted,
            "ranked": len(members) >= size,
            "key": (-score, tuple(sorted(row["rank"] for row in counted))),
        })
    teams.sort(key=lambda team: (not team["ranked"], team["key"], name_sort_key(team["club"])))
    rank = None
    previous = None
    for position, team in enumerate(teams, start=1):
        if team["ranked"] and team["key"] != previous:
            rank, previous = position, team["key"]
        team["rank"] = rank if team["ranked"] else None
        team["position"] = position
    shared_rank_labels(teams)
    return teams


def club_ranking(
    *, tournament: Tournament, result: Standings | None = None
) -> list[dict[str, Any]] | None:
    """The tournament's clubs ranked (:func:`club_teams`) after its standings (``result``,
    read when not given); None when the organiser asked for no club ranking."""
    if not tournament.team_size:
        return None
    result = result or standings(tournament=tournament)
    return club_teams(result.rows, size=tournament.team_size,
                      criterion=tournament.team_criterion)
