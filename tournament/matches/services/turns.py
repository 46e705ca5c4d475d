"""Writes of turns: adding (board and sheet mode), undoing, correcting, inserting, deciding
on a claim. Each goes through :func:`~tournament.matches.services.write.match_write`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import engine
from tournament.matches.reading.replay import replay_with_candidates
from tournament.matches.reading.replayed_match import ReplayedMatch
from tournament.matches.reading.replayed_rounds import ReplayedRound, translated_problem
from tournament.matches.reading.row_conversion import turn_record
from tournament.matches.reading.rows import MatchRows
from tournament.matches.services.turn_inputs import (
    MismatchesNotSeen,
    Refusal,
    TurnInput,
    TurnsRefused,
    turn_snapshot,
)
from tournament.matches.services.write import (
    MatchWrite,
    WriteResult,
    checked_decision,
    match_write,
    whole,
)
from tournament.models import AuditEntry, Match, Round, Turn, Verdict


def _refusals(reports: Sequence[engine.TurnReport]) -> list[Refusal]:
    """The candidate turns that the engine finds illegal, by their position."""
    return [
        Refusal(
            line=position,
            problems=tuple(
                translated_problem(p) for p in report.problems
            ),
        )
        for position, report in enumerate(reports)
        if report.verdict == Verdict.ILLEGAL
    ]


def _round_view(replay: ReplayedMatch, round_: Round) -> ReplayedRound:
    return next(r for r in replay.rounds if r.row.pk == round_.pk)


def _player_after(turns: Sequence[Turn], seat_count: int) -> int | None:
    """Who is due after ``turns`` of a round: the player after the last one; None before the
    opening (anyone may open)."""
    return (turns[-1].player + 1) % seat_count if turns else None


def _players(turns: Sequence[TurnInput], *, due: int | None, seat_count: int) -> list[int]:
    """The player of each of ``turns``: ``player`` None is the one due (the previous
    candidate's successor). ValidationError keyed ``player`` when unknown."""
    players: list[int] = []
    for data in turns:
        player = data.player
        if player is None:
            if due is None:
                raise ValidationError({"player": ValidationError(
                    _("Who opens the round? Choose the player."), code="player_required")})
            player = due
        if not 0 <= player < seat_count:
            raise ValidationError({"player": ValidationError(
                _("There is no seat %(number)s at this table.") % {"number": player + 1},
                code="no_such_seat")})
        players.append(player)
        due = (player + 1) % seat_count
    return players


def candidate_players(*, replay: ReplayedMatch, turns: Sequence[TurnInput]) -> list[int]:
    """The player of each of ``turns`` entered after the turns of ``replay``. Raises
    ValidationError when no turn can be entered (the match is over) or the player is
    unknown."""
    live = replay.live
    if live is None:
        raise ValidationError(_("The match is over: no turn or round can be added."),
                              code="match_over")
    if not live.counted:
        raise ValidationError(
            _("The match ended before round %(number)s: no turn can be added to it.")
            % {"number": live.number}, code="round_after_end")
    return _players(turns, due=live.player_to_enter, seat_count=len(replay.seats))


def candidate_reports(
    *, replay: ReplayedMatch, turns: Sequence[TurnInput]
) -> tuple[list[engine.TurnReport], list[int]]:
    """What the engine says of ``turns`` entered after the turns of ``replay``, without saving
    (sheet mode's check): the report of each and its player (:func:`candidate_players`)."""
    players = candidate_players(replay=replay, turns=turns)
    records = tuple(
        turn_record(data.row(player=player, index=position, user=None))
        for position, (data, player) in enumerate(zip(turns, players))
    )
    checked, first = replay_with_candidates(replay=replay, turns=records)
    return list(checked.turns[first:]), players


# -- entering turns ----------------------------------------------------------------------------


def _live_round(write: MatchWrite) -> Round:
    """The round turns are added to: the last recorded round unless its racks were entered;
    a new round otherwise (written now, undone with the rest if the turns are refused)."""
    rows = write.rows
    recorded = rows.recorded_rounds()
    if recorded and recorded[-1].pk not in rows.ends:
        return recorded[-1]
    index = len(recorded)
    round_ = next((r for r in rows.rounds if r.index == index), None)
    if round_ is None:
        round_ = Round.objects.create(match=write.match, index=index)
        rows.rounds.append(round_)
    return round_


@whole
def match_turns_add(
    *,
    match: Match,
    user,
    seen_revision: int,
    submission_key: str = "",
    turns: Sequence[TurnInput],
    mismatches_seen: bool = True,
    before: ReplayedMatch | None = None,
) -> WriteResult[list[Turn]]:
    """Add turns to the round in play (a new round when the last one was closed).

    All or nothing: when the engine finds any of them illegal, :class:`TurnsRefused` says
    which and why. Claims that differ from the engine are saved with both figures, their
    decision pending; in sheet mode (``mismatches_seen`` False) they are refused with
    :class:`MismatchesNotSeen` until the referee says they saw them. ``before``: the caller's
    replay of the match as the client saw it (the form was checked against it): when still
    current, its rows are not loaded again and the new turns are played on from its round in
    play, the settled rounds not replayed.
    """
    if not turns:
        raise ValidationError(_("There is no turn to save."), code="no_turn")
    with match_write(match=match, user=user, seen_revision=seen_revision,
                     submission_key=submission_key, before=before) as write:
        rows = write.rows
        round_ = _live_round(write)
        existing = rows.round_turns(round_)
        was_new = not existing
        if was_new and write.match.status in Match.OVER:
            raise ValidationError(_("The match is over: no turn or round can be added."),
                                  code="match_over")
        players = _players(turns, due=_player_after(existing, len(rows.seats)),
                           seat_count=len(rows.seats))
        next_index = existing[-1].index + 1 if existing else 0
        new_rows = [
            data.row(player=player, round_=round_, index=next_index + i, user=user)
            for i, (data, player) in enumerate(zip(turns, players))
        ]
        existing.extend(new_rows)
        replay = write.replay_appended(round_, new_rows)
        round_view = _round_view(replay, round_)
        if not round_view.counted:
            if was_new:
                raise ValidationError(_("The match is over: no turn or round can be added."),
                                      code="match_over")
            raise ValidationError(
                _("The match ended before round %(number)s: no turn can be added to it.")
                % {"number": round_view.number}, code="round_after_end")
        reports = [line.report for line in round_view.turns[-len(new_rows):]]
        refusals = _refusals(reports)
        if refusals:
            raise TurnsRefused(refusals)
        mismatched = [i for i, report in enumerate(reports) if report.verdict == Verdict.MISMATCH]
        if mismatched and not mismatches_seen:
            raise MismatchesNotSeen(mismatched)
        write.unconfirm(round_)
        first_number = len(existing) - len(new_rows) + 1
        for number, (turn, report) in enumerate(zip(new_rows, reports), start=first_number):
            write.audit(
                AuditEntry.Action.TURN_ADDED,
                f"round {round_.index + 1}, turn {number}",
                {
                    "round": round_.index,
                    "index": turn.index,
                    "after": turn_snapshot(turn),
                    "engine": {"points": report.points, "verdict": report.verdict.value},
                },
            )
        # the new rows are inserted with their figures when the results are stored
    return WriteResult(saved=new_rows, replay=replay, round_index=round_.index)


def _current_turn(rows: MatchRows, turn_id: int) -> tuple[Round, list[Turn], int]:
    """The round, its current turns and the position of the turn ``turn_id`` (current only)."""
    for round_ in rows.rounds:
        turns = rows.turns.get(round_.pk, [])
        for position, turn in enumerate(turns):
            if turn.pk == turn_id:
                return round_, turns, position
    raise ValidationError(
        _("This turn has been corrected or undone meanwhile: reload the match and start again."),
        code="turn_not_current",
    )


#: What a turn's version holds as entered (the engine's figures are the replay's).
_ENTERED_FIELDS = (
    "index", "player", "draws", "tile", "cell_x", "cell_y", "cell_orientation", "corners",
    "bonus_claimed", "points_claimed", "decision", "decision_reason",
)


def _new_version(old: Turn, *, user, reason: str, **changes: Any) -> Turn:
    """An unsaved new version of ``old``: what was entered, with ``changes``, by ``user``."""
    values = {name: getattr(old, name) for name in _ENTERED_FIELDS}
    values.update(changes)
    return Turn(round_id=old.round_id, created_by=user, change_reason=reason, **values)


def _legal(replay: ReplayedMatch, round_: Round, position: int) -> engine.TurnReport:
    """The engine's report on the turn at ``position`` of ``round_``, the turn a correction or
    an insertion writes; :class:`TurnsRefused` when it is illegal."""
    report = _round_view(replay, round_).turns[position].report
    refusals = _refusals([report])
    if refusals:
        raise TurnsRefused(refusals)
    return report


@whole
def match_turn_undo(*, match: Match, user, seen_revision: int,
                    submission_key: str = "") -> WriteResult[Turn]:
    """Undo the last turn of the round in play: it is superseded by nothing (kept, audited)."""
    with match_write(match=match, user=user, seen_revision=seen_revision,
                     submission_key=submission_key) as write:
        rows = write.rows
        round_ = next((r for r in reversed(rows.rounds) if rows.turns.get(r.pk)), None)
        if round_ is None:
            raise ValidationError(_("There is no turn to undo."), code="nothing_to_undo")
        if round_.pk in rows.ends:
            raise ValidationError(
                _("The racks of round %(number)s were entered: correct the turn instead of "
                  "undoing it.") % {"number": round_.index + 1},
                code="round_closed",
            )
        turns = rows.turns[round_.pk]
        last = turns.pop()
        replay = write.replay(from_round=round_.index)
        write.supersede(last, None)
        write.audit(
            AuditEntry.Action.TURN_UNDONE,
            f"round {round_.index + 1}, turn {len(turns) + 1} undone",
            {"round": round_.index, "index": last.index, "before": turn_snapshot(last),
             "after": None},
        )
    return WriteResult(saved=last, replay=replay, round_index=round_.index)


def _reason_required(reason: str, message: str) -> str:
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": ValidationError(message, code="reason_required")})
    return reason


@whole
def match_turn_correct(
    *,
    match: Match,
    user,
    seen_revision: int,
    submission_key: str = "",
    turn_id: int,
    turn: TurnInput | None,
    reason: str,
) -> WriteResult[Turn | None]:
    """Correct any turn: a new version replaces it (``turn`` None: the turn was not played
    and is struck out). The rest of the match is replayed: later turns the correction makes
    illegal are flagged, not deleted. The corrected turn itself must be legal. The round, if
    confirmed, must be confirmed again. Saves the new version (None when struck out).
    """
    reason = _reason_required(reason, _("Say why the turn is corrected."))
    with match_write(match=match, user=user, seen_revision=seen_revision,
                     submission_key=submission_key) as write:
        round_, turns, position = _current_turn(write.rows, turn_id)
        old = turns[position]
        new: Turn | None = None
        if turn is not None:
            player = turn.player if turn.player is not None else old.player
            if not 0 <= player < len(write.rows.seats):
                _players([turn], due=None, seat_count=len(write.rows.seats))
            new = turn.row(player=player, round_=round_, index=old.index, user=user)
            new.change_reason = reason
            turns[position] = new
        else:
            del turns[position]
        replay = write.replay(from_round=round_.index)
        if new is not None:
            _legal(replay, round_, position)
        write.supersede(old, new)
        write.unconfirm(round_)
        write.audit(
            AuditEntry.Action.TURN_CORRECTED,
            f"round {round_.index + 1}, turn {position + 1} corrected",
            {
                "round": round_.index,
                "index": old.index,
                "before": turn_snapshot(old),
                "after": turn_snapshot(new) if new is not None else None,
            },
            reason,
        )
    return WriteResult(saved=new, replay=replay, round_index=round_.index)


@whole
def match_turn_insert(
    *,
    match: Match,
    user,
    seen_revision: int,
    submission_key: str = "",
    before_turn_id: int,
    turn: TurnInput,
    reason: str,
) -> WriteResult[Turn]:
    """Insert a turn nobody entered (a draw and pass noticed a few turns later) before the
    current turn ``before_turn_id``, in its round. Its player, when None, is the one due at
    that point (the player after the turn before it); before the round's opening the player
    must be given.

    The turn takes the index just before the other's when a turn struck out left it free;
    otherwise the turns from there on move one place down, as far as the next free index,
    the last first (two current turns never share an index): each gets a new version at its
    new index, the old one kept. Then as a correction: the inserted turn must be legal
    (:class:`TurnsRefused` with the engine's reasons, nothing written), later turns it makes
    illegal and an end of round it contradicts are flagged, not deleted, a reason is
    required, and the round, if confirmed, must be confirmed again. Saves the inserted turn.
    """
    reason = _reason_required(reason, _("Say why the turn is inserted."))
    with match_write(match=match, user=user, seen_revision=seen_revision,
                     submission_key=submission_key) as write:
        rows = write.rows
        round_, turns, position = _current_turn(rows, before_turn_id)
        (player,) = _players([turn], due=_player_after(turns[:position], len(rows.seats)),
                             seat_count=len(rows.seats))
        target = turns[position].index
        previous = turns[position - 1].index if position else -1
        end = position
        if target - previous == 1:  # no free index before the turn: make room
            while end < len(turns) and turns[end].index == target + end - position:
                end += 1
        now = timezone.now()
        moved_reason = _("Moved one place down: a turn was inserted before it (%(reason)s).") % {
            "reason": reason}
        moves = [
            (old, _new_version(old, user=write.author, reason=moved_reason, index=old.index + 1,
                               created_at=now))
            for old in turns[position:end]
        ]
        new = turn.row(player=player, round_=round_, index=target if moves else target - 1,
                       user=user)
        new.created_at = now
        new.change_reason = reason
        turns[position:end] = [new] + [copy for _old, copy in moves]
        replay = write.replay(from_round=round_.index)
        report = _legal(replay, round_, position)
        for old, copy in reversed(moves):
            write.supersede(old, copy, now=now)
        write.unconfirm(round_)
        write.audit(
            AuditEntry.Action.TURN_INSERTED,
            f"round {round_.index + 1}, turn {position + 1} inserted",
            {
                "round": round_.index,
                "index": new.index,
                "position": position,
                "after": turn_snapshot(new),
                "moved": [[old.index, copy.index] for old, copy in moves],
                "engine": {"points": report.points, "verdict": report.verdict.value},
            },
            reason,
        )
    return WriteResult(saved=new, replay=replay, round_index=round_.index)


@whole
def match_turn_decide(
    *, match: Match, user, seen_revision: int, turn_id: int, decision: str, reason: str = "",
    submission_key: str = "",
) -> WriteResult[Turn]:
    """The referee's decision on a claim that differs from the engine: ``engine`` (the
    engine's figure stands) or ``claim`` (the claim stands; a reason is required). Recorded
    as a new version of the turn; a decision taken again is a new version too, and a
    confirmed round is un-confirmed by it (``MatchWrite.decided``)."""
    reason = checked_decision(decision, reason)
    with match_write(match=match, user=user, seen_revision=seen_revision,
                     submission_key=submission_key) as write:
        round_, turns, position = _current_turn(write.rows, turn_id)
        old = turns[position]
        if old.verdict != Verdict.MISMATCH:
            raise ValidationError(
                _("This turn's claim agrees with the engine: there is nothing to decide."),
                code="nothing_to_decide")
        new = _new_version(old, user=write.author, reason=reason, decision=decision,
                           decision_reason=reason if decision == Turn.Decision.CLAIM else "")
        turns[position] = new
        replay = write.replay(from_round=round_.index)
        write.decided(
            round_, old, new,
            summary=f"round {round_.index + 1}, turn {position + 1}: {decision}",
            details={"round": round_.index, "index": old.index, "before": turn_snapshot(old),
                     "after": turn_snapshot(new)},
            reason=reason,
        )
    return WriteResult(saved=new, replay=replay, round_index=round_.index)
