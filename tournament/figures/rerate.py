"""The ratings rated again from the confirmed matches (docs/guides/ratings.md), and a league's points
(docs/guides/leagues.md), apart from the app's rating services and league ranking.

Ratings: every confirmed match of a rated public tournament, in the order the matches were
played (the tournament's start date, the session's number, the first confirmation, the
match's id), each rated with the model's pure functions (``tournament.ratings.model``:
openskill's Plackett–Luce, ties as the mean of their orders; the rating shown follows the
result). The history is rated from its start whole: no stored rating is read.

League points: each public tournament of the league ranked by :mod:`.recount` (the records
of merged players left out, as the league counts each person once); points per final rank on
the league's scale; the best N results; the ranking by total, best result, tournaments
played.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tournament.figures.records import PlayedMatch
from tournament.figures.recount import shared_ranks
from tournament.models import League
from tournament.ratings.model import INITIAL, Skill, ranks_of, rate, shown_change


@dataclass
class Rating:
    """A player's rating after the history: skill, rating shown, matches, last event."""

    skill: Skill = INITIAL
    shown: float = INITIAL.conservative
    matches: int = 0
    last_tournament: int | None = None
    event_start: float = INITIAL.conservative

    @property
    def last_event_change(self) -> float:
        return self.shown - self.event_start


def rated_history(matches: Iterable[PlayedMatch]) -> dict[int, Rating]:
    """Every player's rating after ``matches`` (those that count), rated in the order played."""
    ordered = sorted(matches, key=lambda m: (m.played_on, m.session, m.confirmed_at, m.id))
    ratings: dict[int, Rating] = {}
    for match in ordered:
        if len(match.players) < 2 or len(match.players) != len(match.totals):
            continue
        entries = [ratings.setdefault(player, Rating()) for player in match.players]
        after = rate([entry.skill for entry in entries], list(match.totals))
        ranks = ranks_of(list(match.totals))
        for entry, new, rank in zip(entries, after, ranks):
            if entry.last_tournament != match.tournament_id:
                entry.last_tournament, entry.event_start = match.tournament_id, entry.shown
            entry.shown += shown_change(entry.skill, new, rank=rank, ranks=ranks)
            entry.skill = new
            entry.matches += 1
    return ratings


@dataclass
class LeagueLine:
    """A player's expected line of a league's ranking."""

    name: str
    total: int = 0
    rank_label: str = ""
    #: Tournament id -> the points that rank gave.
    points: dict[int, int] = field(default_factory=dict)


def league_points(league: League, finishes: Sequence[tuple[int, dict[int, int]]],
                  names: dict[int, str]) -> dict[int, LeagueLine]:
    """The league's lines from each tournament's final ranks (``finishes``: tournament id and
    {player: rank}, earliest first)."""
    table = ([int(part) for part in league.points_table.split(",")]
             if league.points_scale == League.PointsScale.TABLE else [])
    lines: dict[int, LeagueLine] = {}
    for tournament_id, ranks in finishes:
        for player, rank in ranks.items():
            if league.points_scale == League.PointsScale.TABLE:
                points = table[rank - 1] if rank <= len(table) else 0
            else:
                points = max(len(ranks) - rank + 1, 0)
            lines.setdefault(player, LeagueLine(names[player])).points[tournament_id] = points
    order = {tournament_id: index for index, (tournament_id, _ranks) in enumerate(finishes)}
    keys = {}
    for player, line in lines.items():
        chosen = sorted(line.points, key=lambda tid: (-line.points[tid], order[tid]))
        if league.best_results:
            chosen = chosen[: league.best_results]
        line.total = sum(line.points[tid] for tid in chosen)
        keys[player] = (line.total, max(line.points.values()), len(line.points))
    _ranks, labels = shared_ranks(keys)
    for player, label in labels.items():
        lines[player].rank_label = label
    return lines
