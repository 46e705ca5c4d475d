"""A whole tournament's seatings in memory, to measure the algorithm: repeats, spread, time.

Pure Python, like the algorithm: session 1 drawn at random, then each session seated from the
standings of the matches before it (``standings_compute``), with made-up match totals drawn
from the seed (one player reaches the target, the others score below it). Used by
``python manage.py bench_running`` and by the tests.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from tournament.seating.algorithm import SeatingPlayer, meetings, pair, seating_draw
from tournament.standings.ranking import MatchResult, StandingPlayer, standings_compute

TARGET = 400


@dataclass(frozen=True)
class SessionFigures:
    number: int
    tables: int
    repeat_pairs: int  # pairs at a table in this session who had met before
    spread: int  # sum over tables of the spread of standing ranks
    seconds: float  # time to draw this session's seating


def simulated_totals(size: int, rng: random.Random) -> tuple[int, ...]:
    """Match totals of a table: one player at the target or above, the others below."""
    totals = [rng.randrange(60, TARGET) for _ in range(size)]
    totals[rng.randrange(size)] = rng.randrange(TARGET, TARGET + 80)
    return tuple(totals)


def seating_simulate(
    *,
    players: int,
    sessions: int,
    seed: int = 0,
    clubs: int = 0,
    criteria: tuple[str, ...] = ("match_points", "total_points", "share"),
    on_tables: Callable[[tuple[tuple[int, ...], ...]], None] | None = None,
) -> list[SessionFigures]:
    """Seat ``sessions`` sessions of ``players`` players, each from the previous standings.

    ``on_tables``, if given, receives each session's tables (player ids, clockwise).
    """
    rng = random.Random(seed)
    roster = [
        StandingPlayer(id=number, name=f"P{number:04d}", club=f"C{number % clubs}" if clubs else "")
        for number in range(1, players + 1)
    ]
    results: list[MatchResult] = []
    earlier_tables: list[tuple[int, ...]] = []
    figures = []
    for number in range(1, sessions + 1):
        ranks = None
        if results:
            ranks = {row["player_id"]: row["rank"] for row in standings_compute(
                players=roster, results=results, criteria=criteria)}
        to_seat = [
            SeatingPlayer(id=player.id, club=player.club, rank=ranks[player.id] if ranks else None)
            for player in roster
        ]
        met = meetings(earlier_tables)
        started = time.perf_counter()
        seating = seating_draw(
            players=to_seat, seed=seed * 1000 + number, met=met, keep_clubs_apart=bool(clubs)
        )
        seconds = time.perf_counter() - started
        repeats = sum(
            1
            for table in seating.tables
            for index, first in enumerate(table)
            for second in table[index + 1 :]
            if pair(first, second) in met
        )
        figures.append(SessionFigures(number, len(seating.tables), repeats, seating.spread, seconds))
        if on_tables is not None:
            on_tables(seating.tables)
        for table in seating.tables:
            earlier_tables.append(table)
            totals = simulated_totals(len(table), rng)
            top = max(totals)
            results.append(
                MatchResult(table, totals, tuple(s for s, t in enumerate(totals) if t == top))
            )
    return figures
