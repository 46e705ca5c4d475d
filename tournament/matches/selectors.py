"""Reads of a match: its rows, its record, and its replay by the engine.

The current versions of a match's Turn and RoundEnd rows ARE the match. Three functions turn
them into everything the pages, the record download and the printed sheet show:

- :func:`match_rows` loads the current rows (4 queries);
- :func:`record_from_rows` builds the engine's match record (docs/record-format.md) from them:
  the one place a record is made from rows, used by the replay, ``record.json``, the PDFs and
  every write (services add their candidate change to the rows first);
- :func:`match_replay` replays that record through the engine and returns a
  :class:`ReplayedMatch`: every round with its turns (what was entered next to the engine's
  figures, verdict, problems in the user's language and the referee's decision), its end
  (racks, settlement, flags), its board, the totals and the winners, and the round in play
  for the entry screen.

:func:`match_record` is ``record_from_rows(match_rows(match=...))``, for a caller that wants
the record only (the printed sheet, the download).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.db.models import Count, QuerySet
from django.utils.safestring import SafeString

from tournament import engine
from tournament.core.seats import SEAT_LETTERS  # noqa: F401  (the match pages import it from here)
from tournament.matches.turn_rows import round_end_racks, turn_record
from tournament.models import AuditEntry, Match, Round, RoundEnd, Seat, Turn, Verdict

# -- the rows ----------------------------------------------------------------------------------


@dataclass
class MatchRows:
    """The current rows of a match, in order; services change them in memory before a replay."""

    match: Match
    seats: list[Seat]
    rounds: list[Round]
    #: Round pk -> its current turns, by index.
    turns: dict[int, list[Turn]]
    #: Round pk -> its current end (racks shown), for the rounds closed.
    ends: dict[int, RoundEnd]
    #: The settled rounds whose turns were not loaded (``match_rows`` with
    #: ``settled_stored``), pk -> how many turns they have: ``turns`` has no entry for them,
    #: and their record is not known.
    unloaded: dict[int, int] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        """The players' names in seat order."""
        return [seat.player.name for seat in self.seats]

    def round_turns(self, round_: Round) -> list[Turn]:
        return self.turns.setdefault(round_.pk, [])

    def before(self, round_: Round, position: int) -> MatchRows:
        """The rows as they stood before turn ``position`` (from 0) of ``round_`` was played:
        the rounds before it whole, its first ``position`` turns, no end (new lists and dicts,
        the same row objects)."""
        if round_.pk in self.unloaded:
            raise ValueError(f"the turns of round {round_.index + 1} were not loaded")
        rounds = [r for r in self.rounds if r.index <= round_.index]
        turns = {**self.turns, round_.pk: self.turns.get(round_.pk, [])[:position]}
        ends = {r.pk: self.ends[r.pk] for r in rounds if r.pk in self.ends and r.pk != round_.pk}
        unloaded = {pk: n for pk, n in self.unloaded.items() if pk in ends}
        return MatchRows(match=self.match, seats=self.seats, rounds=rounds, turns=turns, ends=ends,
                         unloaded=unloaded)

    def recorded_rounds(self) -> list[Round]:
        """The rounds the record holds: all but a last round that has neither turns nor end
        (a round begun then emptied by an undo)."""
        rounds = self.rounds
        if rounds and not self.turns.get(rounds[-1].pk) and rounds[-1].pk not in self.ends:
            return rounds[:-1]
        return rounds


def match_with_tournament(match_id: int) -> QuerySet[Match]:
    """The match with its table, session and tournament loaded (one query)."""
    return Match.objects.filter(pk=match_id).select_related("table__session__tournament")


def match_rows(*, match: Match, settled_stored: bool = False) -> MatchRows:
    """The current rows of ``match``: seats with players, rounds, current turns and ends.

    Four queries (the match's table, session and tournament should come loaded, see
    :func:`match_with_tournament`). With ``settled_stored``, the turns of the leading
    settled rounds (:func:`settled_rounds`) are not loaded (:attr:`MatchRows.unloaded`):
    a replay of these rows starts from their stored scores.
    """
    seats = list(Seat.objects.filter(table_id=match.table_id).select_related("player").order_by("order"))
    rounds = list(Round.objects.filter(match=match).order_by("index"))
    ends = {end.round_id: end for end in RoundEnd.objects.current().filter(round__match=match)}
    rows = MatchRows(match=match, seats=seats, rounds=rounds, turns={}, ends=ends)
    settled = [round_.pk for round_ in settled_rounds(rows)] if settled_stored else []
    current = Turn.objects.current().filter(round__match=match)
    if settled:
        rows.unloaded = dict.fromkeys(settled, 0)
        counts = current.filter(round_id__in=settled).values("round_id").annotate(n=Count("pk"))
        rows.unloaded.update((count["round_id"], count["n"]) for count in counts)
        current = current.exclude(round_id__in=settled)
    turns: dict[int, list[Turn]] = {
        round_.pk: [] for round_ in rounds if round_.pk not in rows.unloaded}
    for turn in current.order_by("round_id", "index"):
        turns.setdefault(turn.round_id, []).append(turn)
    rows.turns = turns
    return rows


def settled_rounds(rows: MatchRows) -> list[Round]:
    """The leading rounds of ``rows`` that are settled and stored: closed (racks shown),
    confirmed, and their scores stored for every seat. A write to the round in play leaves
    them as they are; their stored scores are what a replay of them gives (a change to a
    round un-confirms it, and every write stores the replay's figures)."""
    settled = []
    seats = len(rows.seats)
    for round_ in rows.rounds:
        scores = round_.scores
        if (round_.pk not in rows.ends or round_.confirmed_at is None
                or round_.end_kind == "unfinished" or not isinstance(scores, list)
                or len(scores) != seats or not all(type(s) is int for s in scores)):
            break
        settled.append(round_)
    return settled


# -- the record --------------------------------------------------------------------------------


def record_from_rows(rows: MatchRows) -> engine.MatchRecord:
    """The match record (docs/record-format.md, with the referee's decisions) of these rows.

    The one function that makes a record from rows: the replay, the download, the printed
    sheet and every write use it. Rows whose settled rounds were not loaded
    (:attr:`MatchRows.unloaded`) have no record: ValueError.
    """
    if rows.unloaded:
        raise ValueError("the turns of the settled rounds were not loaded: no record")
    return _record(rows)


def _record(rows: MatchRows) -> engine.MatchRecord:
    """:func:`record_from_rows`, the settled rounds not loaded left without turns (for the
    replay, which does not play them)."""
    tournament = rows.match.table.session.tournament
    rounds = []
    for round_ in rows.recorded_rounds():
        end = rows.ends.get(round_.pk)
        rounds.append(
            engine.RoundRecord(
                turns=tuple(turn_record(turn) for turn in rows.turns.get(round_.pk, ())),
                racks=round_end_racks(end),
                settlement_claimed=(
                    tuple(end.settlement_claimed)
                    if end is not None and end.settlement_claimed is not None
                    else None
                ),
            )
        )
    return engine.MatchRecord(
        players=tuple(rows.names),
        rounds=tuple(rounds),
        rules_name=tournament.rules,
        target=tournament.target,
        **engine.record_options(tournament=tournament),
    )


def match_record(*, match: Match) -> engine.MatchRecord:
    """The record of ``match`` from its current rows (``.to_dict()``/``.to_json()`` for JSON)."""
    return record_from_rows(match_rows(match=match))


# -- the replay --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatedPlayer:
    order: int
    letter: str
    name: str
    player_id: int


@dataclass(frozen=True)
class TranslatedProblem:
    code: str
    message: str  # in the user's language
    round: int
    turn: int | None


def _problem_view(problem: engine.Problem) -> TranslatedProblem:
    return TranslatedProblem(
        code=problem.code,
        message=engine.problem_message(problem.template, problem.params),
        round=problem.round,
        turn=problem.turn,
    )


@dataclass(frozen=True)
class TurnLine:
    """One turn: what was entered (``row``, the current version) and what the engine found;
    ``position`` is its place among the round's current turns, from 0 (the row's ``index``
    keeps a gap where a turn was struck out)."""

    row: Turn
    report: engine.TurnReport
    player_name: str
    problems: tuple[TranslatedProblem, ...]
    position: int

    @property
    def index(self) -> int:
        return self.row.index

    @property
    def number(self) -> int:
        """The turn's number in its round, from 1, as the correction page, the refusals and the
        engine's record count it (no gap where a turn was struck out)."""
        return self.position + 1

    @property
    def player(self) -> int:
        return self.row.player

    @property
    def tile(self) -> str:
        """The tile placed as entered ('' for none)."""
        return self.row.tile

    @property
    def cell(self) -> str:
        return self.row.cell

    @property
    def draws(self) -> int:
        return self.row.draws

    @property
    def claimed(self) -> int | None:
        return self.row.points_claimed

    @property
    def bonus_claimed(self) -> str:
        return self.row.bonus_claimed

    @property
    def points(self) -> int:
        """The engine's figure, penalties included."""
        return self.report.points

    @property
    def bonus(self) -> str:
        """The bonus the engine counted ('' for none)."""
        bonus = self.report.bonus
        return bonus.value if bonus is not None else ""

    @property
    def bonus_label(self) -> str:
        return engine.bonus_label(self.bonus)

    @property
    def bonus_claimed_label(self) -> str:
        return engine.bonus_label(self.row.bonus_claimed)

    @property
    def bonus_points(self) -> int:
        return self.report.bonus_points

    @property
    def tile_value(self) -> int:
        return self.report.tile_value

    @property
    def penalty(self) -> int:
        return self.report.penalty

    @property
    def verdict(self) -> str:
        """``ok``, ``mismatch``, ``illegal`` or ``unverified``."""
        return self.report.verdict.value

    @property
    def decision(self) -> str:
        """``engine``, ``claim`` or '' (none taken)."""
        return self.row.decision

    @property
    def decision_reason(self) -> str:
        return self.row.decision_reason

    @property
    def decision_pending(self) -> bool:
        """A claim that differs from the engine, and no decision yet."""
        return self.verdict == Verdict.MISMATCH and not self.row.decision

    @property
    def points_counted(self) -> int:
        """The points that count: the claim when the referee kept it, else the engine's."""
        return self.report.points_counted

    @property
    def is_illegal(self) -> bool:
        return self.verdict == Verdict.ILLEGAL


@dataclass
class ReplayedRound:
    """One round: its turns, how it ended, the settlement, its board."""

    row: Round
    index: int
    turns: list[TurnLine]
    #: At the table: "out", "blocked" or "unfinished".
    end_kind: str
    out_player: int | None
    #: The racks were entered (the round is closed), as ``end_row``.
    end_row: RoundEnd | None
    settlement: tuple[int, ...] | None
    #: The round's points per seat, settlement included once closed.
    scores: tuple[int, ...]
    #: Match totals per seat after this round (the round in play: so far).
    totals_after: tuple[int, ...]
    #: Round-level problems (racks, settlement, false block, a round after the match ended).
    problems: list[TranslatedProblem]
    counted: bool
    placements: list[engine.Placement] = field(default_factory=list)
    #: The table is no longer fully known (a placement was entered without its cell).
    sheet_mode: bool = False
    #: A settled round taken from its stored scores, not replayed (``match_replay``'s
    #: ``settled_stored``): ``turns`` is empty, ``out_player`` and ``settlement`` unknown.
    stored: bool = False

    @property
    def number(self) -> int:
        return self.index + 1

    @property
    def closed(self) -> bool:
        """The racks shown were entered: the round is over and settled."""
        return self.end_row is not None

    @property
    def confirmed(self) -> bool:
        return self.row.confirmed_at is not None

    @property
    def racks(self) -> list[Any] | None:
        return self.end_row.racks if self.end_row is not None and self.end_row.racks else None

    @property
    def racks_shown(self) -> list[str] | None:
        """Each rack as text: its tiles (``—`` when empty), or ``Σ 23`` for a total."""
        racks = self.racks
        if racks is None:
            return None
        return [f"Σ {rack}" if isinstance(rack, int) else (" ".join(rack) or "—") for rack in racks]

    @property
    def settlement_claimed(self) -> list[int] | None:
        return self.end_row.settlement_claimed if self.end_row is not None else None

    @property
    def pending_decisions(self) -> list[TurnLine]:
        return [turn for turn in self.turns if turn.decision_pending]

    @property
    def illegal_turns(self) -> list[TurnLine]:
        return [turn for turn in self.turns if turn.is_illegal]

    @property
    def can_confirm(self) -> bool:
        """Closed, not yet confirmed, no decision pending and no illegal turn left."""
        return (
            self.closed
            and not self.confirmed
            and self.end_kind != Round.EndKind.UNFINISHED
            and not self.pending_decisions
            and not self.illegal_turns
        )

    def board_svg(self, **options: Any) -> SafeString:
        """The round's table as SVG, the last tile highlighted (options: ``side``, ``title``)."""
        highlight = self.placements[-1].cell if self.placements else None
        options.setdefault("highlight", highlight)
        return engine.draw_board(self.placements, **options)


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
        """The table for the entry screen: its open cells named, to be chosen."""
        return self.board_svg(pickable=True)


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


def match_replay(*, match: Match, rows: MatchRows | None = None,
                 settled_stored: bool = False, settled_before: int | None = None) -> ReplayedMatch:
    """Replay ``match`` from its current rows (loaded unless given) through the engine.

    The printed sheet, the match page and the services read matches through this function.

    With ``settled_stored`` (for a write and its check, which change the round in play
    only), the leading rounds that are settled (closed and confirmed, their scores stored)
    are not replayed: the engine starts from their stored scores (``MatchReplay.resume``)
    and their ReplayedRound is :attr:`ReplayedRound.stored`, without turn lines. The
    whole match is replayed when nothing is settled or the figures say it is over.
    ``settled_before``: as ``settled_stored``, for the rounds before that index only (a write
    to that round replays it and every round after it).
    """
    if rows is None:
        rows = match_rows(match=match, settled_stored=settled_stored)
    record = _record(rows)
    settled = (settled_rounds(rows)
               if settled_stored or settled_before is not None or rows.unloaded else [])
    if settled_before is not None:
        settled = [round_ for round_ in settled if round_.index < settled_before]
    replay = None
    if settled:
        try:
            replay = _resumed(record, settled)
        except ValueError:  # the stored figures say the match is over: replay it all
            settled, replay = [], None
    if rows.unloaded and not rows.unloaded.keys() <= {round_.pk for round_ in settled}:
        # Some rounds not loaded are to be replayed (the match is over, or a round was
        # un-confirmed in memory): their turns are loaded (the others' lists, which a
        # service may have changed in memory, are kept) and the whole match is replayed.
        loaded = match_rows(match=rows.match).turns
        for pk in rows.unloaded:
            rows.turns[pk] = loaded.get(pk, [])
        rows.unloaded = {}
        return match_replay(match=match, rows=rows)
    recorded = rows.recorded_rounds()
    open_last = bool(recorded) and recorded[-1].pk not in rows.ends
    replay = engine.replay_record(record, leave_last_round_open=open_last, replay=replay,
                                  first_round=len(settled))
    names = rows.names
    seats = [
        SeatedPlayer(order=seat.order, letter=SEAT_LETTERS[i], name=seat.player.name,
                 player_id=seat.player_id)
        for i, seat in enumerate(rows.seats)
    ]

    rounds: list[ReplayedRound] = []
    totals = [0] * len(names)
    for round_ in settled:
        totals = [t + s for t, s in zip(totals, round_.scores)]
        rounds.append(_stored_round_view(round_, rows, totals_after=tuple(totals)))
    for report, round_ in zip(replay.rounds, recorded[len(settled):]):
        if report.counted:
            totals = [t + s for t, s in zip(totals, report.scores)]
        rounds.append(
            _round_view(
                round_, rows, names, report.turns, report.problems,
                end_kind=report.end, out_player=report.out_player,
                settlement=report.settlement, scores=report.scores,
                totals_after=tuple(totals), counted=report.counted,
            )
        )
    live: LiveRound | None = None
    finished = replay.finished
    if open_last:
        view, live = _open_round(recorded[-1], rows, names, replay)
        rounds.append(view)
        totals = list(view.totals_after)
    elif not finished:
        replay.begin_round()
        index = len(recorded)
        started = len(rows.rounds) > index
        live = LiveRound(index=index, replay=replay, started=started, counted=True)
    return ReplayedMatch(
        match=rows.match,
        rows=rows,
        seats=seats,
        rounds=rounds,
        totals=tuple(totals),
        finished=finished,
        winners=replay.winners if finished else (),
        live=live,
        target=replay.rules.target,
    )


def _resumed(record: engine.MatchRecord, settled: list[Round]) -> engine.MatchReplay:
    """The engine's replay of ``record`` started after the ``settled`` rounds, from their
    stored scores (ValueError when those say the match is over)."""
    return engine.MatchReplay.resume(
        record.players,
        totals=[sum(scores) for scores in zip(*(round_.scores for round_ in settled))],
        round_index=len(settled),
        rounds_counted=sum(round_.end_kind != "unfinished" for round_ in settled),
        rules=record.rules,
    )


def replay_with_candidates(*, replay: ReplayedMatch,
                           turns: tuple[engine.TurnRecord, ...]) -> tuple[engine.MatchReplay, int]:
    """The engine's replay of ``replay``'s rows with ``turns`` appended to the round in play
    (to a new round when none has turns), that round left open; and the position of the
    first of ``turns`` among that round's turns. Nothing is saved; the rounds ``replay`` took
    from their stored scores are not replayed (nor needed)."""
    record = _record(replay.rows)
    rounds = list(record.rounds)
    if replay.live_round_view is not None:
        last = rounds[-1]
        rounds[-1] = dataclasses.replace(last, turns=last.turns + turns)
        first = len(last.turns)
    else:
        rounds.append(engine.RoundRecord(turns=turns))
        first = 0
    candidate = dataclasses.replace(record, rounds=tuple(rounds))
    settled = [round_view.row for round_view in replay.rounds if round_view.stored]
    checked = engine.replay_record(
        candidate, leave_last_round_open=True,
        replay=_resumed(candidate, settled) if settled else None, first_round=len(settled))
    return checked, first


def _stored_round_view(round_: Round, rows: MatchRows, *,
                       totals_after: tuple[int, ...]) -> ReplayedRound:
    """A settled round as stored (:attr:`ReplayedRound.stored`): its end and scores, no
    turn lines (its turns were not replayed)."""
    return ReplayedRound(
        row=round_,
        index=round_.index,
        turns=[],
        end_kind=round_.end_kind,
        out_player=None,
        end_row=rows.ends.get(round_.pk),
        settlement=None,
        scores=tuple(round_.scores),
        totals_after=totals_after,
        problems=[],
        counted=True,
        stored=True,
    )


def _open_round(round_: Round, rows: MatchRows, names: list[str],
                replay: engine.MatchReplay) -> tuple[ReplayedRound, LiveRound]:
    """The round in play of ``replay`` (``round_``, its turns played, not ended): its
    ReplayedRound and the LiveRound of the entry screen."""
    turn_problems = tuple(p for t in replay.turns for p in t.problems)
    counted = not replay.finished  # a round begun after the end is replayed, not counted
    totals = replay.totals
    running = tuple(t + s for t, s in zip(totals, replay.round_scores)) if counted else totals
    view = _round_view(
        round_, rows, names, replay.turns, turn_problems,
        end_kind=replay.round_end, out_player=replay.out_player, settlement=None,
        scores=replay.round_scores, totals_after=running, counted=counted,
    )
    if not counted:
        view.problems.insert(
            0,
            TranslatedProblem(
                code="round-after-match-end",
                message=engine.round_after_end_message(replay=replay, number=round_.index + 1),
                round=round_.index,
                turn=None,
            ),
        )
    return view, LiveRound(index=round_.index, replay=replay, started=True, counted=counted)


def match_replay_appended(*, before: ReplayedMatch, round_: Round,
                          added: list[Turn]) -> ReplayedMatch | None:
    """``before`` with the turns ``added`` appended to ``round_``, the round in play: the
    engine plays them on from ``before``'s round in play (the rounds before are not replayed
    again). ``before`` is used up. None when ``round_`` is not ``before``'s round in play (the
    caller replays the whole match)."""
    live = before.live
    if live is None or not live.counted or live.index != round_.index or not added:
        return None
    rows = before.rows
    if rows.turns.get(round_.pk, [])[-len(added):] != added:
        return None
    replay = live.replay
    for row in added:
        replay.play(turn_record(row))
    names = rows.names
    view, new_live = _open_round(round_, rows, names, replay)
    earlier = before.rounds[:-1] if before.live_round_view is not None else before.rounds
    return ReplayedMatch(
        match=rows.match,
        rows=rows,
        seats=before.seats,
        rounds=[*earlier, view],
        totals=view.totals_after,
        finished=False,
        winners=(),
        live=new_live,
        target=before.target,
    )


def match_replay_before(*, rows: MatchRows, round_: Round, position: int) -> ReplayedMatch:
    """The match replayed as it stood before turn ``position`` (from 0) of ``round_`` was
    played: its ``live`` round is that round at that point (``live.player_to_enter`` is who
    was due to play then; None before the round's opening)."""
    return match_replay(match=rows.match, rows=rows.before(round_, position))


@dataclass
class BoardBefore:
    """The table as it stood before a turn, for the correction and insertion pages: its
    drawing (open cells clickable) and, for each tile not yet played then, the cells where it
    fits and the corners of each way it fits there (``{"3-4-5": {"D(1,0)": ["5-3-4"]}}``)."""

    svg: SafeString
    fits_json: str


def board_before(*, replay: ReplayedMatch, round_view: ReplayedRound,
                 line: TurnLine) -> BoardBefore | None:
    """The table before ``line`` was played; None where it is not known (sheet mode)."""
    live = match_replay_before(rows=replay.rows, round_=round_view.row, position=line.position).live
    if live is None or live.board is None:
        return None
    played = live.replay.tiles_played
    fits: dict[str, dict[str, list[str]]] = {}
    for placement in live.board.legal_placements(t for t in engine.ALL_TILES if t not in played):
        cells = fits.setdefault(str(placement.tile), {})
        cells.setdefault(str(placement.cell), []).append("-".join(map(str, placement.corners)))
    return BoardBefore(svg=live.board_svg(side=60, pickable=True), fits_json=json.dumps(fits, separators=(",", ":")))


def _round_view(
    round_: Round,
    rows: MatchRows,
    names: list[str],
    reports: tuple[engine.TurnReport, ...],
    problems: tuple[engine.Problem, ...],
    *,
    end_kind: str,
    out_player: int | None,
    settlement: tuple[int, ...] | None,
    scores: tuple[int, ...],
    totals_after: tuple[int, ...],
    counted: bool,
) -> ReplayedRound:
    turn_rows = rows.turns.get(round_.pk, [])
    lines = []
    for position, (row, report) in enumerate(zip(turn_rows, reports)):
        lines.append(
            TurnLine(
                row=row,
                report=report,
                player_name=names[row.player] if row.player < len(names) else str(row.player),
                problems=tuple(_problem_view(p) for p in report.problems),
                position=position,
            )
        )
    placements = [report.placement for report in reports if report.placement is not None]
    sheet_mode = any(row.tile and row.cell_x is None for row in turn_rows)
    return ReplayedRound(
        row=round_,
        index=round_.index,
        turns=lines,
        end_kind=end_kind,
        out_player=out_player,
        end_row=rows.ends.get(round_.pk),
        settlement=settlement,
        scores=tuple(scores),
        totals_after=totals_after,
        problems=[_problem_view(p) for p in problems if p.turn is None],
        counted=counted,
        placements=placements,
        sheet_mode=sheet_mode,
    )


# -- the engine's word on a turn not saved yet ---------------------------------------------------


def explain_report(report: engine.TurnReport) -> str:
    """The engine's sum in the user's language, '' when it is the tile's value alone:
    ``12 + 40 (pont) − 5 (pioches) = 47`` (``engine.score_explained``)."""
    return engine.score_explained(report.score)


def problem_messages(report: engine.TurnReport) -> list[str]:
    """A turn's problems in the user's language."""
    return [engine.problem_message(p.template, p.params) for p in report.problems]


@dataclass
class TurnPreview:
    """What the board shows before a turn is saved: the orientations that fit the cell, the
    engine's figure and bonus, or why the tile does not go there."""

    tile: str = ""
    cell: engine.Cell | None = None
    #: The cell in words, from the tiles it touches (for screen readers).
    cell_words: str = ""
    #: The legal ways the tile fits the cell: ``{"corners": "5-3-4", "svg": ...}``.
    options: list[dict[str, Any]] = field(default_factory=list)
    corners: str = ""
    points: int | None = None
    bonus: str = ""
    explain: str = ""
    refusals: list[str] = field(default_factory=list)
    #: No orientation of the tile fits the cell: the tile goes back to the player.
    no_fit: bool = False
    error: str = ""


def turn_preview(
    *,
    replay: ReplayedMatch,
    tile: str,
    cell: engine.Cell | None,
    corners: tuple[int, int, int] | None = None,
    draws: int = 0,
    player: int | None = None,
) -> TurnPreview:
    """The engine's word on ``tile`` at ``cell`` in the round in play; nothing is saved."""
    live = replay.live
    preview = TurnPreview(tile=tile, cell=cell)
    if live is None or live.board is None or not tile or cell is None:
        return preview
    options = live.orientations(tile, cell)
    preview.cell_words = engine.cell_words(cell, engine.cell_neighbours(cell, live.board.placements))
    preview.options = [
        {"corners": "-".join(map(str, c)),
         "svg": engine.draw_board([engine.Placement(cell, c)], side=34, title="-".join(map(str, c)))}
        for c in options
    ]
    if corners not in options:
        corners = options[0] if len(options) == 1 else None
    preview.corners = "-".join(map(str, corners)) if corners else ""
    if live.next_player is not None:
        player = live.next_player
    probe = corners or (options[0] if options else engine.parse_tile(tile).rotations()[0])
    report = live.replay.preview(engine.TurnRecord(
        player=player or 0, draws=draws, place=engine.PlaceRecord(cell=cell, corners=probe)))
    if report.verdict == Verdict.ILLEGAL:
        preview.refusals = problem_messages(report)
        preview.no_fit = not options
    else:
        preview.points = report.points
        preview.bonus = engine.bonus_label(report.bonus.value if report.bonus else "")
        preview.explain = explain_report(report)
    return preview


# -- the audit log -----------------------------------------------------------------------------


def match_audit_entries(*, match: Match) -> QuerySet[AuditEntry]:
    """Every write to the match, oldest first, with who made it."""
    return AuditEntry.objects.filter(match=match).select_related("user").order_by("at", "id")


def turn_versions(*, turn: Turn) -> list[Turn]:
    """Every version of ``turn``, oldest first: the versions it superseded, one by another
    back to the first entered (a version moved down by an inserted turn has another index
    than the one before it; a turn struck out or undone is no one's earlier version)."""
    rows = {
        row.pk: row
        for row in Turn.objects.filter(round_id=turn.round_id).select_related("created_by")
    }
    superseded = {row.superseded_by_id: row for row in rows.values() if row.superseded_by_id}
    versions = [rows.get(turn.pk, turn)]
    while versions[-1].pk in superseded:
        versions.append(superseded[versions[-1].pk])
    return versions[::-1]
