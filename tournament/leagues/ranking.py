"""A league's ranking: the players' results over its tournaments added up. Pure Python.

No Django here: :func:`league_ranking` takes each tournament's final ranks and the league's
:class:`PointsRule` as plain values; ``tournament.leagues.selectors.league_standing`` feeds it
from the database (each tournament's ranks from its standings). See docs/guides/leagues.md.

- Points per final rank: ``linear``, the number of players ranked in the tournament less the
  rank plus one; ``table``, the table's value for the rank, 0 after its end. Players sharing
  a rank get that rank's points, on both scales: ten players sharing rank 3 of 12 (the last)
  get 10 points each on the linear scale; the last gets 1 point when nobody shares that rank.
- A player's total: the sum of their best ``best`` results (all of them when None); among
  results of equal points, the earlier tournament's counts first. The others are dropped.
- Order: total, then best single result, then tournaments played (more is better); players
  equal on the three share the rank ("3=") and are listed by name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tournament.kit.digits import is_ascii_number
from tournament.names import name_sort_key

LINEAR = "linear"
TABLE = "table"
SCALES = (LINEAR, TABLE)


class PointsTableError(ValueError):
    """A points table that cannot be read; ``code`` names the fault, ``part`` the bad value
    (empty, not-a-number, negative, increasing)."""

    def __init__(self, code: str, text: str, *, part: str = "") -> None:
        super().__init__(f"{code}: {text!r}" + (f" at {part!r}" if part else ""))
        self.code = code
        self.part = part


def parse_points_table(text: str) -> tuple[int, ...]:
    """The points of rank 1, 2, 3… from text such as ``"25, 18, 15"``: non-negative whole
    numbers separated by commas, never increasing. Blanks around the numbers are ignored.

    >>> parse_points_table("25, 18,15 ,12")
    (25, 18, 15, 12)
    >>> parse_points_table("10, 12")
    Traceback (most recent call last):
    ...
    tournament.leagues.ranking.PointsTableError: increasing: '10, 12' at '12'
    """
    parts = [part.strip() for part in text.split(",")]
    if not text.strip():
        raise PointsTableError("empty", text)
    values: list[int] = []
    for part in parts:
        if part.startswith("-") and is_ascii_number(part[1:]):
            raise PointsTableError("negative", text, part=part)
        if not is_ascii_number(part):
            raise PointsTableError("not-a-number", text, part=part)
        value = int(part)
        if values and value > values[-1]:
            raise PointsTableError("increasing", text, part=part)
        values.append(value)
    return tuple(values)


def points_table_text(values: Sequence[int]) -> str:
    """A points table written back as the league keeps it.

    >>> points_table_text((25, 18, 15))
    '25, 18, 15'
    """
    return ", ".join(str(value) for value in values)


@dataclass(frozen=True)
class PointsRule:
    """How final ranks give points, and how many results count (``best``: None for all).

    >>> PointsRule(LINEAR).points(rank=2, ranked=5)
    4
    >>> PointsRule(TABLE, table=(25, 18)).points(rank=3, ranked=5)
    0
    """

    scale: str = LINEAR
    table: tuple[int, ...] = ()
    best: int | None = None

    def __post_init__(self) -> None:
        if self.scale not in SCALES:
            raise ValueError(f"scale: one of {SCALES} expected, got {self.scale!r}")
        if self.scale == TABLE and not self.table:
            raise ValueError("table: a table of points is needed with the scale 'table'")
        if self.best is not None and self.best < 1:
            raise ValueError(f"best: at least 1 or None, got {self.best}")

    def points(self, *, rank: int, ranked: int) -> int:
        """The points of final rank ``rank`` (from 1) among ``ranked`` players."""
        if self.scale == LINEAR:
            return max(ranked - rank + 1, 0)
        return self.table[rank - 1] if rank <= len(self.table) else 0


@dataclass(frozen=True)
class TournamentFinish:
    """One tournament's final ranks: ``ranks`` maps a player id to their rank (ties share
    one); ``ranked`` is how many players are ranked. A tournament without a confirmed match
    has no ranks."""

    tournament_id: int
    ranks: Mapping[int, int]

    @property
    def ranked(self) -> int:
        return len(self.ranks)


@dataclass(frozen=True)
class LeaguePlayer:
    id: int
    name: str
    club: str = ""


@dataclass(frozen=True)
class LeagueResult:
    """A player's result in one tournament: the final rank, its points, and whether the
    points count in the total (False: dropped, beyond the best N); ``rank_label`` the rank as
    the standings show it ("3=" when shared)."""

    rank: int
    points: int
    counted: bool = True
    rank_label: str = ""


@dataclass(frozen=True)
class LeagueRow:
    """One player's line of the league's ranking (``results`` by tournament id)."""

    rank: int
    rank_label: str
    player: LeaguePlayer
    total: int
    best: int
    played: int
    results: dict[int, LeagueResult] = field(default_factory=dict)


def league_ranking(
    *,
    rule: PointsRule,
    finishes: Sequence[TournamentFinish],
    players: Mapping[int, LeaguePlayer],
) -> list[LeagueRow]:
    """The league's ranking, best first (see the module's docstring for the rules).

    ``finishes`` in the league's order (earliest first); ``players`` names every player id
    of the finishes (a player missing from it is left out).

    >>> players = {1: LeaguePlayer(1, "Ana"), 2: LeaguePlayer(2, "Bo"), 3: LeaguePlayer(3, "Cy")}
    >>> rows = league_ranking(
    ...     rule=PointsRule(LINEAR, best=1), players=players,
    ...     finishes=[TournamentFinish(10, {1: 1, 2: 2, 3: 3}),
    ...               TournamentFinish(11, {2: 1, 3: 2, 1: 3})])
    >>> [(row.rank_label, row.player.name, row.total) for row in rows]
    [('1=', 'Ana', 3), ('1=', 'Bo', 3), ('3', 'Cy', 2)]
    >>> rows[0].results[11]
    LeagueResult(rank=3, points=1, counted=False, rank_label='3')
    """
    results: dict[int, dict[int, LeagueResult]] = {}
    for finish in finishes:
        sharing = Counter(finish.ranks.values())
        for player_id, rank in finish.ranks.items():
            if player_id not in players:
                continue
            points = rule.points(rank=rank, ranked=finish.ranked)
            label = f"{rank}=" if sharing[rank] > 1 else str(rank)
            results.setdefault(player_id, {})[finish.tournament_id] = LeagueResult(
                rank, points, rank_label=label)

    order = {finish.tournament_id: index for index, finish in enumerate(finishes)}
    keyed = []
    for player_id, by_tournament in results.items():
        chosen = sorted(by_tournament, key=lambda tid: (-by_tournament[tid].points, order[tid]))
        counted = set(chosen if rule.best is None else chosen[: rule.best])
        marked = {
            tid: LeagueResult(result.rank, result.points, tid in counted, result.rank_label)
            for tid, result in by_tournament.items()
        }
        total = sum(marked[tid].points for tid in counted)
        best = max(result.points for result in marked.values())
        keyed.append(((total, best, len(marked)), players[player_id], marked))
    keyed.sort(key=lambda item: (tuple(-value for value in item[0]),
                                 name_sort_key(item[1].name), item[1].id))

    rows: list[LeagueRow] = []
    rank = 0
    previous = None
    for position, (key, player, marked) in enumerate(keyed, start=1):
        if key != previous:
            rank, previous = position, key
        rows.append(LeagueRow(rank, str(rank), player, key[0], key[1], key[2], marked))
    labelled = []
    for index, row in enumerate(rows):
        tied = (index > 0 and rows[index - 1].rank == row.rank) or (
            index + 1 < len(rows) and rows[index + 1].rank == row.rank
        )
        labelled.append(LeagueRow(row.rank, f"{row.rank}=" if tied else row.rank_label,
                                  row.player, row.total, row.best, row.played, row.results))
    return labelled
