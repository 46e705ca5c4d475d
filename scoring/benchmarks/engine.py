"""``python -m scoring bench``: how fast the engine checks turns and lists placements.

1. Turns checked per second: simulate the matches first (not timed), then time reading each
   record (:func:`~scoring.record_reading.parse_record`) and replaying it
   (:func:`~scoring.replay.check_record`), and the replay alone; best of seven passes, in
   wall-clock time and in CPU time (which other work on the machine disturbs less).
2. Legal placements of a 7-tile rack: boards laid at random with legal placements, racks of
   7 tiles not on the board; the median time of ``list(board.legal_placements(rack))``.
   One set holds 56 tiles, so a board with a 7-tile rack beside it has 49 tiles at most: the
   60-tile board (and the 50-tile one) are laid from two sets, and marked so.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Final, TextIO

from scoring.board import ORIGIN, Board, Placement
from scoring.record_reading import parse_record
from scoring.replay import check_record
from scoring.simulate import simulate_match
from scoring.tiles import ALL_TILES, Tile

__all__ = ["run_bench", "lay_board"]

_BOARD_SIZES: Final = (20, 40, 49, 50, 60)
_RACK: Final = 7
#: Passes of the check measurement: the best one is kept, as a shared machine's other work
#: only ever slows a pass down.
_PASSES: Final = 7


def lay_board(size: int, *, seed: int, sets: int = 1) -> tuple[Board, list[Tile]]:
    """A board of ``size`` tiles laid at random with legal placements, and the tiles left.

    With ``sets=2`` the board is laid from two sets of tiles (so up to 105 tiles); it then
    forgets which tiles it holds, so that a rack may hold a tile that is also on the table.
    Only for measuring: such a table cannot happen in a game.

    >>> board, left = lay_board(20, seed=1)
    >>> len(board), len(left)
    (20, 36)
    """
    rng = random.Random(seed)
    for _attempt in range(1000):
        tiles = list(ALL_TILES) * sets
        rng.shuffle(tiles)
        board = Board()
        first = tiles.pop()
        board.push(Placement(ORIGIN, rng.choice(first.rotations())), first)
        while len(board) < size:
            options = list(_placements(board, tiles))
            if not options:
                break
            placement, tile = rng.choice(options)
            board.push(placement, tile)
            tiles.remove(tile)
        if len(board) == size:
            if sets > 1:
                board._tiles.clear()
            return board, tiles
    raise ValueError(f"could not lay a board of {size} tiles")


def _placements(board: Board, tiles: Sequence[Tile]) -> list[tuple[Placement, Tile]]:
    """Legal placements of ``tiles`` ignoring whether a tile is already on the table."""
    found = []
    for cell in board.open_cells():
        for tile in dict.fromkeys(tiles):
            for rotation in tile.rotations():
                demanded = board.demanded(cell)
                if all(d is None or d == v for d, v in zip(demanded, rotation)):
                    found.append((Placement(cell, rotation), tile))
    return found


def _best_of(passes: int, work: Callable[[], object]) -> tuple[float, float]:
    """The shortest wall-clock time and the shortest CPU time of ``passes`` runs of ``work``."""
    walls, cpus = [], []
    for _ in range(passes):
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def run_bench(
    *,
    matches: int = 200,
    players: int = 4,
    boards: int = 10,
    runs: int = 200,
    out: TextIO = sys.stdout,
) -> None:
    """Run both measurements and print the figures: ``matches`` simulated matches checked,
    ``boards`` boards of each size, each rack listed ``runs`` times."""
    print(f"Python {sys.version.split()[0]}", file=out)

    started = time.perf_counter()
    records = [simulate_match(players=players, seed=seed) for seed in range(matches)]
    simulated = time.perf_counter() - started
    turns = sum(len(r["turns"]) for record in records for r in record["rounds"])
    rounds = sum(len(record["rounds"]) for record in records)
    print(
        f"simulated {matches} {players}-player matches ({rounds} rounds, {turns} turns) "
        f"in {simulated:.1f} s (not timed below)",
        file=out,
    )
    parsed = [parse_record(record) for record in records]

    def read_and_replay() -> None:
        for record in records:
            check_record(parse_record(record))

    def replay_only() -> None:
        for record in parsed:
            check_record(record)

    for label, check in (("read + replay", read_and_replay), ("replay only", replay_only)):
        wall, cpu = _best_of(_PASSES, check)
        print(
            f"check, {label}: {turns / wall:,.0f} turns/s, {wall / turns * 1e6:.1f} us per turn "
            f"(CPU time: {cpu / turns * 1e6:.1f} us per turn; best of {_PASSES} passes)",
            file=out,
        )
    if not all(check_record(record).valid for record in parsed):  # pragma: no cover
        raise AssertionError("a simulated match has problems")

    print(
        f"legal placements of a {_RACK}-tile rack (median of {boards} boards x {runs} runs):",
        file=out,
    )
    for size in _BOARD_SIZES:
        sets = 1 if size + _RACK <= len(ALL_TILES) else 2
        times: list[float] = []
        opens: list[int] = []
        counts: list[int] = []
        for seed in range(boards):
            board, left = lay_board(size, seed=seed, sets=sets)
            rack = random.Random(seed).sample(left, _RACK)
            opens.append(len(board.open_cells()))
            counts.append(len(list(board.legal_placements(rack))))
            for _ in range(runs):
                started = time.perf_counter()
                list(board.legal_placements(rack))
                times.append(time.perf_counter() - started)
        note = "" if sets == 1 else "  (two sets: cannot happen in a game)"
        print(
            f"  {size:2d} tiles: {statistics.median(times) * 1e3:.3f} ms "
            f"({statistics.mean(opens):.0f} open cells, {statistics.mean(counts):.1f} "
            f"placements on average){note}",
            file=out,
        )
