"""The match as the pages show it once replayed by the engine
(:mod:`tournament.matches.reading.replay` builds it): :class:`ReplayedMatch`.

Its rounds and their turn lines (:mod:`tournament.matches.reading.replayed_rounds`), the
totals and the winners; and the round in play as the entry screen needs it
(:class:`LiveRound`), with what a write changed of it, so that an answer carries only that
(:class:`ShownRound`, :class:`BoardChanges`). The round in play tells which of its round's
turn lines a page already shows: it reads the rounds, which know nothing of it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.utils.safestring import SafeString

from tournament import engine
from tournament.kit.markup import json_attribute
from tournament.matches.reading.replayed_rounds import ReplayedRound, SeatedPlayer, TurnLine
from tournament.matches.reading.rows import MatchRows, record_from_rows
from tournament.models import Match


@dataclass
class LiveRound:
    """The round in play (or about to begin), as the entry screen needs it."""

    index: int
    #: The engine's replay, its round in play being this one: preview a candidate turn with
    #: ``replay.preview(turn)``.
    replay: engine.MatchReplay
    #: This round already has a Round row (turns, or a round begun and emptied).
    started: bool
    counted: bool

    @property
    def number(self) -> int:
        return self.index + 1

    @property
    def next_player(self) -> int | None:
        """Whose turn it is; None before the opening (anyone may open) and once it ended."""
        return self.replay.next_player

    @property
    def player_to_enter(self) -> int | None:
        """Whose turn the next turn entered is: the next player; once the round ended at the
        table, the player after the last one (the engine then refuses the turn, saying why);
        None before the opening."""
        next_player = self.replay.next_player
        played = self.replay.turns
        if next_player is None and played:
            return (played[-1].player + 1) % len(self.replay.players)
        return next_player

    @property
    def pool_size(self) -> int:
        return self.replay.pool_size

    @property
    def hand_counts(self) -> tuple[int, ...]:
        return self.replay.hand_counts

    @property
    def idle_turns(self) -> int:
        """The turns since the last tile placed (all of them before the first): the table is
        blocked once every player has had one on an empty pool (the tablet's round's end
        offline counts on from here, round_end.js)."""
        idle = 0
        for report in reversed(self.replay.turns):
            if report.tile is not None:
                break
            idle += 1
        return idle

    @property
    def round_over(self) -> bool:
        """The round ended at the table (out or blocked): the racks are to be entered."""
        return self.replay.round_over

    @property
    def end_kind(self) -> str:
        return self.replay.round_end

    @property
    def out_player(self) -> int | None:
        return self.replay.out_player

    @property
    def board(self) -> engine.Board | None:
        """The table; None once a placement was entered without its cell (sheet mode)."""
        return self.replay.board

    @property
    def is_opening(self) -> bool:
        return not self.replay.turns

    @cached_property
    def tiles_played(self) -> frozenset[str]:
        return frozenset(str(tile) for tile in self.replay.tiles_played)

    @cached_property
    def legal_cells(self) -> dict[str, list[str]]:
        """For each tile not played yet, the open cells where it has a legal placement."""
        board = self.board
        if board is None:
            return {}
        played = self.replay.tiles_played
        return engine.legal_cells(board, (t for t in engine.ALL_TILES if t not in played))

    def orientations(self, tile: str, cell: engine.Cell) -> list[tuple[int, int, int]]:
        """The corners of the legal placements of ``tile`` at ``cell`` (the engine's list)."""
        board = self.board
        if board is None:
            return []
        return [p.corners for p in board.legal_orientations(engine.parse_tile(tile), cell)]

    def tile_grid(self) -> list[dict[str, Any]]:
        """The 56 tiles for the picker: name, short name (``345``), played, fits somewhere."""
        played = self.tiles_played
        legal = self.legal_cells
        known = self.board is not None and not self.is_opening
        return [
            {"name": str(tile), "short": f"{tile.a}{tile.b}{tile.c}",
             "played": str(tile) in played, "fits": bool(legal.get(str(tile))) if known else True}
            for tile in engine.ALL_TILES
        ]

    def shown(self, round_view: ReplayedRound | None, *, status: str) -> ShownRound:
        """What the entry screen shows of this round (its view ``round_view``, when it has
        turns; the match's ``status``): taken before a write, to tell afterwards what the
        write left as it was."""
        board = self.board
        placements = tuple(board.placements) if board is not None else ()
        opens = board.open_cells() if board is not None and not self.round_over else ()
        return ShownRound(
            index=self.index,
            status=status,
            drawn=board is not None,
            placements=frozenset(placements),
            last=board.last.cell if board is not None and board.last is not None else None,
            open_cells=_cells_neighbours(opens, placements),
            lines={line.row.pk: _line_shown(line)
                   for line in (round_view.turns if round_view is not None else ())},
        )

    def kept_cells(self, shown: ShownRound | None) -> frozenset[engine.Cell]:
        """The cells of the table drawn as in ``shown`` (the tablet keeps its own): a tile on
        both tables and the last on neither; an open cell on both, by the same tiles."""
        board = self.board
        if shown is None or shown.index != self.index or board is None:
            return frozenset()
        lit = {board.last.cell if board.last is not None else None, shown.last}
        kept = {p.cell for p in board.placements if p in shown.placements and p.cell not in lit}
        if not self.round_over:
            now = _cells_neighbours(board.open_cells(), board.placements)
            kept.update(cell for cell, neighbours in now.items()
                        if shown.open_cells.get(cell) == neighbours)
        return frozenset(kept)

    def kept_lines(self, round_view: ReplayedRound, shown: ShownRound | None) -> frozenset[int]:
        """The turn rows of this round's log shown as they are in ``shown`` (none that carries
        a form: its revision moved); none when a row ``shown`` has is gone."""
        if shown is None or shown.index != self.index or round_view.index != self.index:
            return frozenset()
        if not shown.lines.keys() <= {line.row.pk for line in round_view.turns}:
            return frozenset()
        return frozenset(
            line.row.pk for line in round_view.turns
            if not line.decision_pending and shown.lines.get(line.row.pk) == _line_shown(line))

    @property
    def pass_draws(self) -> int:
        """The draws of a turn without a placement that the rules allow: 3, or what the pool
        holds when it holds fewer (0: a pass on an empty pool)."""
        return min(self.replay.rules.max_draws, self.pool_size)

    def board_svg(self, **options: Any) -> SafeString:
        board = self.board
        if board is None:
            return SafeString("")
        options.setdefault("highlight", board.last.cell if board.last is not None else None)
        options.setdefault("open_cells", board.open_cells() if not self.round_over else ())
        options.setdefault("side", 84)
        return engine.draw_board(board.placements, **options)

    @property
    def board_svg_pickable(self) -> SafeString:
        """The table for the entry screen: its open cells named, to be chosen; each element
        with its id, for a later answer to change it alone (``board_changes``)."""
        return self.board_svg(pickable=True, ids=True)

    def board_changes(self, shown: ShownRound | None) -> BoardChanges | None:
        """The table as it changed from ``shown`` (the tablet's): the drawing of the tiles and
        open cells new or changed, and the ids of those gone; None when the tablet's table is
        not this round's (the answer then draws it whole)."""
        board = self.board
        if shown is None or shown.index != self.index or board is None or not shown.drawn:
            return None
        opens = set(board.open_cells()) if not self.round_over else set()
        placements = set(board.placements)
        gone = [engine.element_id(cell, placed=False)
                for cell in shown.open_cells if cell not in opens]
        gone += [engine.element_id(p.cell, placed=True)
                 for p in shown.placements if p not in placements]
        if not shown.placements <= placements:
            return None  # a tile taken away (not a turn added): drawn whole
        return BoardChanges(
            svg=self.board_svg(pickable=True, ids=True, kept=self.kept_cells(shown)),
            gone=" ".join(sorted(gone)),
            placed=json_attribute([str(p) for p in board.placements if p not in shown.placements]))


@dataclass(frozen=True)
class BoardChanges:
    """What a write changed on the table (``LiveRound.board_changes``)."""

    #: the drawing, its unchanged cells left out
    svg: SafeString
    #: the ids of the elements gone, space-separated
    gone: str
    #: the placements added, in the order played (JSON, for an attribute: ``json_attribute``)
    placed: SafeString


@dataclass(frozen=True)
class ShownRound:
    """The round in play as a page shows it (``LiveRound.shown``): what tells the parts of a
    later answer the page already has."""

    index: int
    #: the match's status
    status: str
    #: the table is drawn (board mode)
    drawn: bool
    placements: frozenset[engine.Placement]
    last: engine.Cell | None
    #: per open cell: the tiles beside it (what names it)
    open_cells: dict[engine.Cell, tuple[tuple[str, str], ...]]
    #: per turn row: what its log line shows
    lines: dict[int, tuple[Any, ...]]


def _cells_neighbours(cells, placements) -> dict[engine.Cell, tuple[tuple[str, str], ...]]:
    """``engine.cell_neighbours`` of each of ``cells``, the table read once (not once a cell:
    a late round's table has fifty tiles and as many open cells)."""
    by_cell = {placement.cell: placement for placement in placements}
    return {cell: engine.cell_neighbours(
                cell, [by_cell[n] for n in cell.neighbours if n in by_cell])
            for cell in cells}


def _line_shown(line: TurnLine) -> tuple[Any, ...]:
    return (line.number, line.verdict, line.points, line.row.decision, line.decision_pending,
            len(line.problems))


@dataclass
class ReplayedMatch:
    """A match replayed by the engine from its current rows.

    ``rounds`` lists every round recorded (the round in play last, if any); ``live`` is the
    round in play or about to begin (None once the match is over); ``totals`` are the match
    totals per seat, the round in play included; ``winners`` the seat orders of the winners
    once ``finished``.
    """

    match: Match
    rows: MatchRows
    seats: list[SeatedPlayer]
    rounds: list[ReplayedRound]
    totals: tuple[int, ...]
    finished: bool
    winners: tuple[int, ...]
    live: LiveRound | None
    target: int

    @property
    def record(self) -> engine.MatchRecord:
        """The match record of these rows (:func:`record_from_rows`; ValueError for a replay
        whose settled rounds were not loaded)."""
        return record_from_rows(self.rows)

    @property
    def winner_names(self) -> list[str]:
        return [self.seats[i].name for i in self.winners]

    @property
    def last_round(self) -> ReplayedRound | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def live_round_view(self) -> ReplayedRound | None:
        """The ReplayedRound of the round in play, when it has turns."""
        if self.live is None or not self.rounds:
            return None
        last = self.rounds[-1]
        return last if last.index == self.live.index else None

    @property
    def all_rounds_confirmed(self) -> bool:
        return bool(self.rounds) and all(round_.confirmed for round_ in self.rounds)

    @property
    def turn_count(self) -> int:
        """The turns of the match (those of stored rounds included)."""
        rows = self.rows
        return sum(
            len(rows.turns[round_.row.pk]) if round_.row.pk in rows.turns
            else rows.unloaded.get(round_.row.pk, 0) if round_.stored else len(round_.turns)
            for round_ in self.rounds)


def _turns_key(round_view: ReplayedRound) -> tuple[int | None, ...]:
    """What ``settled_log_key`` keeps of a round's turns: nothing of a confirmed round; else
    how many they are and their greatest id, read from the round's row when they were not
    loaded (``match_rows``' ``current_turns`` and ``last_turn``)."""
    if round_view.confirmed:
        return ()
    if round_view.stored:
        row = round_view.row
        return (getattr(row, "current_turns", None) or 0, getattr(row, "last_turn", None))
    ids = [line.row.pk for line in round_view.turns]
    return (len(ids), max(ids, default=None))


def settled_log_key(replay: ReplayedMatch) -> str:
    """What the public's page shows apart from its live part, as a short digest: the match's
    state and its settled rounds (every round but the one in play: their scores and state,
    and of those not confirmed the count and greatest id of their turns, whose rows are
    versioned: a change adds a row of a greater id or removes one; a change to a confirmed
    round un-confirms it). The live part carries it; the page takes the whole match again
    when it differs from its own. The same whether the closed rounds were replayed or taken
    from their stored scores (``match_rows``' ``closed_stored``)."""
    in_play = replay.live_round_view
    settled = [
        (round_view.number, round_view.closed, round_view.confirmed, tuple(round_view.scores),
         _turns_key(round_view))
        for round_view in replay.rounds if round_view is not in_play
    ]
    shown = repr((replay.match.status, len(replay.rounds), settled)).encode()
    return hashlib.sha256(shown).hexdigest()[:16]
