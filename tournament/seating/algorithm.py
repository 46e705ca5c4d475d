"""The seating algorithm: who sits at which table, and in which clockwise order. Pure Python.

No Django here: the inputs are plain values (player ids, clubs, standing ranks, who has met
whom), the output is a ``Seating`` (tables of player ids, clockwise). The service
``tournament.seating.services.session_seat`` reads the database, calls ``seating_draw`` and
writes the result.

Table sizes (``table_sizes``): from 6 players up, tables of 4 completed with as few tables of 3
as possible (n = 4a + 3b: n % 4 == 0 -> no table of 3, 3 -> one, 2 -> two, 1 -> three). From 2
to 5 players, one table when the rule set allows that many players at a table; otherwise (5
players, 4 at most per table) a table of 3 and a table of 2.

How a seating is drawn (``seating_draw``), always from a seed, so the same seed and the same
inputs give the same seating:

1. The first cut. Session 1 (no standings): the players in a random order. Later sessions: the
   players in standings order, ties in a random order, cut into consecutive groups (Swiss-like:
   the leaders together at table 1; the tables of 3, if any, come last).
2. A local search improves the cut by swapping two players of different tables. It minimises

       cost = W_REPEAT * (pairs at a table who already met, counted once per earlier meeting)
            + W_STANDING * (sum over tables of the spread of standing ranks at the table:
                            the rank of the table's last player minus its leader's)
            + W_CLUB * (pairs of the same club at a table; session 1 with keep_clubs_apart)

   The standing term is only used once there are standings, the club term only when asked.
   From each table with a conflict (a repeat or a club pair) it tries every swap with the
   tables nearby (first 4, then 16 tables either side) and makes the best one that lowers the
   cost; then a bounded number of seeded "kicks" (a random swap, then the same search, kept
   only if the total cost went down) to get out of local minima.
3. The seat order at each table is drawn (a seeded shuffle).

Session 1 may instead be seated by rating (``method``; each player's ``rating``, the
conservative rating): the players sorted strongest first, ties in the seeded random order,
then

- ``rating-spread``: dealt to the tables serpentine-wise (1, 2, ..., T, then T, ..., 1, and so
  on; a full table is skipped), so that each table gets one player of each tier: the T
  strongest lead the T tables. With clubs kept apart, two players of one tier (one deal)
  swap tables when that lowers the number of same-club pairs: the tiers stay whole, so the
  rating order is never broken beyond a tier.
- ``rating-grouped``: cut into consecutive groups, the strongest at table 1. With clubs kept
  apart, the local search above runs with the rating order as the standing ranks (no
  repeats in session 1): a same-club pair is broken up when a swap with a nearby table
  widens the tables' rating ranks by fewer than W_CLUB places in all (in practice a swap
  with the neighbouring table), and the tables are then numbered by strength.

The table sizes are those of ``table_sizes`` whatever the method.

The trade-off between standing and repeats. With W_REPEAT = 40 and W_STANDING = 1, avoiding one
repeat pair is worth spreading the standing ranks at tables by up to 39 places in total. A swap
of two players d tables apart costs about 2 x 4d of spread (both tables widen by about the
distance between them), so a repeat is avoided whenever a partner can be found within about
four or five tables of one's own; further than that, the two players meet again and stay among
players of their standing. Up to 12 players the whole range of the spread is smaller than one
repeat, so the fewest repeats always win (checked against brute force up to 10). It is a
local search, not an exhaustive one, and it plans one session at a time: with 16 players it
keeps 4 repeats in sessions 4 and 5, the fewest any seating could have after the sessions
before (checked by an exhaustive search), where a schedule planned from session 1 without
regard to standing (an affine plane) would have none until session 6; over 8 sessions it
reaches the least possible, 72, with no pair meeting three times. With 64 or 512 players, no pair meets
twice in 8 sessions (``python manage.py bench_running``). Same-club pairs in session 1 weigh
W_CLUB = 10: one is kept only when no swap can remove it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

W_REPEAT = 40
W_STANDING = 1
W_CLUB = 10

# The local search: tables either side tried first, then the wider window; and the kicks.
NEAR_WINDOW = 4
WIDE_WINDOW = 16
KICKS = 60
MAX_PASSES = 50

# From this head count up, tables of 4 completed with tables of 3, whatever the rule set allows.
MIXED_TABLES_FROM = 6


#: How session 1 may be seated (the values of ``tournament.models.SeatingMethod``).
RANDOM = "random"
RATING_SPREAD = "rating-spread"
RATING_GROUPED = "rating-grouped"
METHODS = (RANDOM, RATING_SPREAD, RATING_GROUPED)


class SeatingError(ValueError):
    """A seating that cannot be drawn (e.g. fewer than two players)."""


def table_sizes(count: int, *, max_players: int = 4) -> list[int]:
    """The table sizes for ``count`` players, largest first.

    >>> table_sizes(11)
    [4, 4, 3]
    >>> table_sizes(6)
    [3, 3]
    >>> table_sizes(5)
    [3, 2]
    >>> table_sizes(5, max_players=6)
    [5]
    """
    if count < 2:
        raise SeatingError(f"players: at least 2 are needed to seat a table, got {count}")
    if count < MIXED_TABLES_FROM:
        if count <= max_players:
            return [count]
        return [3, count - 3]
    threes = (4 - count % 4) % 4
    fours = (count - 3 * threes) // 4
    return [4] * fours + [3] * threes


@dataclass(frozen=True)
class SeatingPlayer:
    """A player to seat: an id, a club (may be blank) and a standing rank (1: the leader).

    ``rank`` is None before there are standings (session 1). Tied players share a rank.
    ``rating``: the player's conservative rating, for a seating by rating (0 for a player
    not rated yet).
    """

    id: int
    club: str = ""
    rank: int | None = None
    rating: float = 0.0


def pair(first: int, second: int) -> tuple[int, int]:
    """The key of a pair of players, the same whichever comes first.

    >>> pair(7, 3)
    (3, 7)
    """
    return (first, second) if first < second else (second, first)


def meetings(tables: Iterable[Sequence[int]]) -> dict[tuple[int, int], int]:
    """How many times each pair of players sat at the same table, from earlier sessions' tables.

    >>> meetings([[1, 2, 3], [1, 2]])
    {(1, 2): 2, (1, 3): 1, (2, 3): 1}
    """
    counts: dict[tuple[int, int], int] = {}
    for table in tables:
        for index, first in enumerate(table):
            for second in table[index + 1 :]:
                key = pair(first, second)
                counts[key] = counts.get(key, 0) + 1
    return counts


@dataclass(frozen=True)
class Seating:
    """A drawn seating: ``tables[i]`` is table i + 1, its player ids in clockwise seat order.

    ``repeat_pairs``: pairs seated together who met before; ``spread``: the sum over tables of
    the spread of standing ranks (0 without standings); ``club_pairs``: pairs of the same club
    at a table (counted only when clubs are kept apart).
    """

    tables: tuple[tuple[int, ...], ...]
    repeat_pairs: int = 0
    spread: int = 0
    club_pairs: int = 0
    seed: int = 0
    by_standing: bool = False
    repeats: tuple[tuple[int, int], ...] = field(default=(), repr=False)
    method: str = RANDOM


class _Search:
    """The local search over tables of player indexes (0..n-1); see the module's docstring."""

    def __init__(
        self,
        *,
        ranks: list[int] | None,
        clubs: list[int] | None,
        met: list[dict[int, int]],
        rng: random.Random,
    ) -> None:
        self.ranks = ranks
        self.clubs = clubs
        self.met = met
        self.rng = rng

    def conflict(self, members: Sequence[int]) -> int:
        """The repeat and club part of a table's cost."""
        met = self.met
        clubs = self.clubs
        cost = 0
        for index, first in enumerate(members):
            met_first = met[first]
            for second in members[index + 1 :]:
                times = met_first.get(second)
                if times:
                    cost += W_REPEAT * times
                if clubs is not None and clubs[first] >= 0 and clubs[first] == clubs[second]:
                    cost += W_CLUB
        return cost

    def cost(self, members: Sequence[int]) -> int:
        cost = self.conflict(members)
        if self.ranks is not None:
            ranks = [self.ranks[member] for member in members]
            cost += W_STANDING * (max(ranks) - min(ranks))
        return cost

    def improve(self, tables: list[list[int]]) -> list[int]:
        """Best-improvement swaps from every table with a conflict, until none helps."""
        costs = [self.cost(members) for members in tables]
        count = len(tables)
        order = list(range(count))
        for _pass in range(MAX_PASSES):
            improved = False
            self.rng.shuffle(order)
            for source in order:
                if self.conflict(tables[source]):
                    windows = (NEAR_WINDOW, WIDE_WINDOW)
                elif self.ranks is not None:
                    windows = (1,)  # no conflict: only tighten the spread with the neighbours
                else:
                    continue
                for window in windows:
                    if self._best_swap(tables, costs, source, window):
                        improved = True
                        break
            if not improved:
                break
        return costs

    def _best_swap(
        self, tables: list[list[int]], costs: list[int], source: int, window: int
    ) -> bool:
        count = len(tables)
        if self.ranks is None:
            others = [other for other in range(count) if other != source]
        else:
            others = [
                other
                for other in range(max(0, source - window), min(count, source + window + 1))
                if other != source
            ]
        best_delta = 0
        best = None
        members = tables[source]
        for other in others:
            other_members = tables[other]
            before = costs[source] + costs[other]
            for index, player in enumerate(members):
                for other_index, other_player in enumerate(other_members):
                    swapped = members[:]
                    swapped[index] = other_player
                    other_swapped = other_members[:]
                    other_swapped[other_index] = player
                    new_source = self.cost(swapped)
                    new_other = self.cost(other_swapped)
                    delta = new_source + new_other - before
                    if delta < best_delta:
                        best_delta = delta
                        best = (other, swapped, other_swapped, new_source, new_other)
        if best is None:
            return False
        other, swapped, other_swapped, new_source, new_other = best
        tables[source] = swapped
        tables[other] = other_swapped
        costs[source] = new_source
        costs[other] = new_other
        return True

    def kick(self, tables: list[list[int]], costs: list[int], rounds: int) -> list[int]:
        """Random swaps from conflicting tables, each followed by the search; kept if better."""
        for _kick in range(rounds):
            conflicted = [index for index, members in enumerate(tables) if self.conflict(members)]
            if not conflicted:
                break
            source = self.rng.choice(conflicted)
            if self.ranks is None:
                other = self.rng.randrange(len(tables) - 1)
                other += other >= source
            else:
                low = max(0, source - NEAR_WINDOW)
                high = min(len(tables) - 1, source + NEAR_WINDOW)
                if high == low:
                    break
                other = self.rng.randint(low, high - 1)
                other += other >= source
            trial = [members[:] for members in tables]
            first = self.rng.randrange(len(trial[source]))
            second = self.rng.randrange(len(trial[other]))
            trial[source][first], trial[other][second] = trial[other][second], trial[source][first]
            trial_costs = self.improve(trial)
            if sum(trial_costs) < sum(costs):
                tables[:] = trial
                costs = trial_costs
        return costs


def seating_draw(
    *,
    players: Sequence[SeatingPlayer],
    seed: int,
    met: Mapping[tuple[int, int], int] | None = None,
    keep_clubs_apart: bool = False,
    max_players: int = 4,
    method: str = RANDOM,
) -> Seating:
    """Draw a seating (see the module's docstring). Deterministic for a given seed and input.

    ``met``: how many times each pair (``pair(a, b)``) met before (``meetings()``). The
    standings are used when every player has a ``rank``; club pairs count only with
    ``keep_clubs_apart``. ``method``: ``RANDOM``, or before there are standings
    ``RATING_SPREAD`` or ``RATING_GROUPED`` (the players' ``rating``).

    >>> seating = seating_draw(players=[SeatingPlayer(id) for id in range(1, 8)], seed=1)
    >>> [len(table) for table in seating.tables]
    [4, 3]
    >>> seating == seating_draw(players=[SeatingPlayer(id) for id in range(7, 0, -1)], seed=1)
    True
    """
    ordered = sorted(players, key=lambda player: player.id)
    ids = [player.id for player in ordered]
    if len(set(ids)) != len(ids):
        raise SeatingError("players: a player is listed twice")
    sizes = table_sizes(len(ordered), max_players=max_players)
    rng = random.Random(seed)
    met = met or {}

    by_standing = bool(ordered) and all(player.rank is not None for player in ordered)
    index_of = {player_id: index for index, player_id in enumerate(ids)}
    met_by_index: list[dict[int, int]] = [{} for _ in ids]
    for (first, second), times in met.items():
        if times and first in index_of and second in index_of:
            met_by_index[index_of[first]][index_of[second]] = times
            met_by_index[index_of[second]][index_of[first]] = times
    clubs = None
    if keep_clubs_apart:
        club_names = sorted({player.club for player in ordered if player.club})
        club_number = {name: number for number, name in enumerate(club_names)}
        clubs = [club_number[player.club] if player.club else -1 for player in ordered]
    ranks = [player.rank for player in ordered] if by_standing else None

    if method not in METHODS:
        raise SeatingError(f"method: unknown seating method {method!r}")
    if method != RANDOM and by_standing:
        raise SeatingError(f"method: {method} seats session 1 only, before there are standings")

    if ranks is not None:
        tiebreak = [rng.random() for _ in ordered]
        order = sorted(range(len(ordered)), key=lambda index: (ranks[index], tiebreak[index]))
    elif method == RANDOM:
        order = list(range(len(ordered)))
        rng.shuffle(order)
    else:
        tiebreak = [rng.random() for _ in ordered]
        order = sorted(
            range(len(ordered)), key=lambda index: (-ordered[index].rating, tiebreak[index])
        )

    # The ranks the local search keeps players of similar level together by: the standings,
    # or for a grouped seating by rating the rating order (see the module's docstring).
    search_ranks = ranks
    if method == RATING_GROUPED:
        search_ranks = [0] * len(order)
        for position, index in enumerate(order):
            search_ranks[index] = position + 1

    if method == RATING_SPREAD:
        tables, tiers = snake_deal(order, sizes)
        if clubs is not None:
            _tier_swaps(tables, tiers, clubs)
    else:
        tables = []
        start = 0
        for size in sizes:
            tables.append(order[start : start + size])
            start += size
        if len(tables) > 1 and (method == RANDOM or clubs is not None):
            search = _Search(ranks=search_ranks, clubs=clubs, met=met_by_index, rng=rng)
            costs = search.improve(tables)
            search.kick(tables, costs, KICKS)

    if search_ranks is not None:
        # Strongest tables first; the sizes stay largest first.
        tables.sort(key=lambda members: (
            -len(members), sum(search_ranks[m] for m in members) / len(members)))
    for members in tables:
        members.sort()
        rng.shuffle(members)

    repeats = []
    spread = 0
    club_pairs = 0
    for members in tables:
        for index, first in enumerate(members):
            for second in members[index + 1 :]:
                if met_by_index[first].get(second):
                    repeats.append(pair(ids[first], ids[second]))
                if clubs is not None and clubs[first] >= 0 and clubs[first] == clubs[second]:
                    club_pairs += 1
        if ranks is not None:
            member_ranks = [ranks[member] for member in members]
            spread += max(member_ranks) - min(member_ranks)
    return Seating(
        tables=tuple(tuple(ids[member] for member in members) for members in tables),
        repeat_pairs=len(repeats),
        spread=spread,
        club_pairs=club_pairs,
        seed=seed,
        by_standing=by_standing,
        repeats=tuple(sorted(repeats)),
        method=method,
    )


def snake_deal(order: Sequence[int], sizes: Sequence[int]) -> tuple[list[list[int]], dict[int, int]]:
    """Deal ``order`` (strongest first) to tables of ``sizes`` serpentine-wise: table 1 to T,
    then T back to 1, and so on, a full table skipped. Returns the tables and each player's
    tier (the deal it came in, from 0).

    >>> snake_deal(list(range(8)), [4, 4])[0]
    [[0, 3, 4, 7], [1, 2, 5, 6]]
    >>> snake_deal(list(range(11)), [4, 4, 3])[0]
    [[0, 5, 6, 10], [1, 4, 7, 9], [2, 3, 8]]
    """
    if sum(sizes) != len(order):
        raise SeatingError(f"sizes: {list(sizes)} do not seat {len(order)} players")
    tables: list[list[int]] = [[] for _ in sizes]
    tiers: dict[int, int] = {}
    dealt = 0
    tier = 0
    while dealt < len(order):
        numbers = range(len(sizes)) if tier % 2 == 0 else range(len(sizes) - 1, -1, -1)
        for number in numbers:
            if dealt < len(order) and len(tables[number]) < sizes[number]:
                tables[number].append(order[dealt])
                tiers[order[dealt]] = tier
                dealt += 1
        tier += 1
    return tables, tiers


def _club_pairs(members: Sequence[int], clubs: Sequence[int]) -> int:
    return sum(
        1
        for index, first in enumerate(members)
        for second in members[index + 1 :]
        if clubs[first] >= 0 and clubs[first] == clubs[second]
    )


def _tier_swaps(tables: list[list[int]], tiers: Mapping[int, int], clubs: Sequence[int]) -> None:
    """Fewer same-club pairs by swapping players of one tier between tables (best swap from
    each table with a pair, until none helps): each table keeps one player of each tier. Of
    equally good swaps, the one in the weakest tier: the leaders stay where they were dealt."""
    for _pass in range(MAX_PASSES):
        improved = False
        for source in range(len(tables)):
            members = tables[source]
            pairs_here = _club_pairs(members, clubs)
            if not pairs_here:
                continue
            best_key = (0, 0)
            best = None
            for other, other_members in enumerate(tables):
                if other == source:
                    continue
                before = pairs_here + _club_pairs(other_members, clubs)
                for index, player in enumerate(members):
                    for other_index, other_player in enumerate(other_members):
                        if tiers[player] != tiers[other_player]:
                            continue
                        swapped = members[:]
                        swapped[index] = other_player
                        other_swapped = other_members[:]
                        other_swapped[other_index] = player
                        delta = (_club_pairs(swapped, clubs)
                                 + _club_pairs(other_swapped, clubs) - before)
                        key = (delta, -tiers[player])
                        if delta < 0 and key < best_key:
                            best_key = key
                            best = (other, swapped, other_swapped)
            if best is not None:
                other, swapped, other_swapped = best
                tables[source] = swapped
                tables[other] = other_swapped
                improved = True
        if not improved:
            break
