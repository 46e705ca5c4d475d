"""A match replayed through the engine: :func:`match_replay` turns its rows
(:mod:`tournament.matches.reading.rows`) into a
:class:`~tournament.matches.reading.replayed_match.ReplayedMatch`.

The printed match report, the match page and every write read matches through it. A write to
the round in play replays only that round: the closed rounds before it start from their
stored scores (:func:`match_replay_from_play`), and turns appended to the round in play are
played on from the replay before them (:func:`match_replay_appended`)."""

from __future__ import annotations

import dataclasses

from tournament import engine
from tournament.kit.seats import SEAT_LETTERS
from tournament.matches.reading.replayed_match import LiveRound, ReplayedMatch
from tournament.matches.reading.replayed_rounds import (
    ReplayedRound,
    SeatedPlayer,
    TranslatedProblem,
    TurnLine,
    translated_problem,
)
from tournament.matches.reading.row_conversion import turn_record
from tournament.matches.reading.rows import MatchRows, match_rows, partial_record, settled_rounds
from tournament.models import Match, Round, Turn


class ReplayedTurns:
    """How many turns :func:`match_replay` has had the engine replay in this process, since
    :meth:`clear`: what a page's cost grows with, counted (the benchmarks and the tests read
    it; a count, not a time, so the same on any machine)."""

    def __init__(self) -> None:
        self.turns = 0

    def clear(self) -> None:
        self.turns = 0


#: The turns replayed by :func:`match_replay` (``bench_long_record``, the tests).
REPLAYED = ReplayedTurns()


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
    record = partial_record(rows)
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
    REPLAYED.turns += sum(len(round_.turns) for round_ in record.rounds[len(settled):])
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


def match_replay_from_play(*, match: Match) -> ReplayedMatch:
    """``match`` replayed from its last recorded round: every closed round before it taken
    from its stored scores (``match_rows``' ``closed_stored``: every write stores the scores
    of each round it replays), a :attr:`ReplayedRound.stored` view without turn lines. What
    the public's live part, the match page's round in play and a write to it (``live_replay``)
    cost: the round in play's turns, whatever the match's length (the page takes the closed
    rounds' log kept, made once per ``settled_log_key``)."""
    rows = match_rows(match=match, closed_stored=True)
    return match_replay(match=match, rows=rows, settled_before=len(rows.recorded_rounds()) - 1)


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
    record = partial_record(replay.rows)
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
                problems=tuple(translated_problem(p) for p in report.problems),
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
        problems=[translated_problem(p) for p in problems if p.turn is None],
        counted=counted,
        placements=placements,
        sheet_mode=sheet_mode,
    )
