"""Writes of rounds: the racks shown at the end of a round (and their correction), the
referee's confirmation. Each goes through
:func:`~tournament.matches.services.write.match_write`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import engine
from tournament.matches.reading.replayed_match import ReplayedMatch
from tournament.matches.reading.replayed_rounds import ReplayedRound, TranslatedProblem, TurnLine
from tournament.matches.services.write import (
    MatchWrite,
    WriteResult,
    checked_decision,
    match_write,
    whole,
)
from tournament.matches.signatures import signatures_record
from tournament.models import AuditEntry, Match, Round, RoundEnd

#: A rack as entered: tile names, or the total value left when the tiles were not noted.
RackInput = list[str] | int

#: The engine's problems of racks that cannot have happened: refused at entry, next to the
#: rack (a tile already on the table, a tile twice, more tiles than the hand and the pool).
IMPOSSIBLE_RACK_CODES = frozenset({"tile-already-played", "rack-impossible", "unknown-tile",
                                   "rack-total-impossible"})
#: The round's problems that must be settled before it is confirmed: the impossible racks (a
#: record brought in may hold them) and a settlement claim the engine does not give, until
#: the referee decides on it (:func:`match_round_settlement_decide`).
OPEN_PROBLEM_CODES = IMPOSSIBLE_RACK_CODES | {"settlement-mismatch"}


def _open_problems(round_view: ReplayedRound) -> list[TranslatedProblem]:
    """The round's problems that stop its confirmation: a settlement claim that differs counts
    until the referee has decided on it."""
    return [
        p for p in round_view.problems
        if p.code in OPEN_PROBLEM_CODES
        and (p.code != "settlement-mismatch" or not round_view.settlement_decision)
    ]


def _impossible_racks(problems) -> None:
    """ValidationError keyed ``rack_<seat>`` for each rack that cannot have happened, with
    the engine's message (naming the tile) and code; nothing when every rack is possible."""
    errors: dict[str, list[ValidationError]] = {}
    for problem in problems:
        seat = problem.params.get("seat")
        if problem.code in IMPOSSIBLE_RACK_CODES and seat is not None:
            errors.setdefault(f"rack_{seat}", []).append(ValidationError(
                problem.message, code=problem.code,
                params={key: problem.params[key] for key in ("tile", "shown", "allowed")
                        if key in problem.params}))
    if errors:
        raise ValidationError(errors)


def impossible_racks_of_record(replay: ReplayedMatch) -> None:
    """ValidationError keyed ``record`` for each rack of a record that cannot have happened
    (the engine's problem code, the round and the seat as its params), as the round-end form
    refuses them: a record brought in holds no round that the form would refuse."""
    errors = [
        ValidationError(
            _("Round %(number)s: %(problem)s: a rack that cannot have happened.")
            % {"number": round_view.number, "problem": problem.message},
            code=problem.code, params={"round": round_view.index, "seat": problem.params["seat"]})
        for round_view in replay.rounds
        for problem in round_view.problems
        if problem.code in IMPOSSIBLE_RACK_CODES and problem.params.get("seat") is not None
    ]
    if errors:
        raise ValidationError({"record": errors})


def _round_end_snapshot(end: RoundEnd | None) -> dict[str, Any] | None:
    if end is None:
        return None
    return {"racks": end.racks, "settlement_claimed": end.settlement_claimed,
            "decision": end.decision}


def _stored_racks(racks: Sequence[RackInput]) -> list[Any]:
    """The racks as a RoundEnd stores them; ValidationError keyed ``rack_<seat>``."""
    stored: list[Any] = []
    errors: dict[str, list[ValidationError]] = {}
    for seat, rack in enumerate(racks):
        if isinstance(rack, int):
            if rack < 0:
                errors[f"rack_{seat}"] = [ValidationError(
                    _("A rack's total cannot be negative."), code="negative_rack")]
            stored.append(rack)
            continue
        names = []
        for name in rack:
            try:
                names.append(str(engine.parse_tile(name)))
            except engine.UnknownTile:
                errors.setdefault(f"rack_{seat}", []).append(ValidationError(
                    _("“%(given)s” is not a tile: three values from 0 to 5, like 3-4-5.")
                    % {"given": name[:20]}, code="unknown_tile"))
        stored.append(names)
    if errors:
        raise ValidationError(errors)
    return stored


@whole
def match_round_end(
    *,
    match: Match,
    user,
    seen_revision: int,
    submission_key: str = "",
    round_index: int,
    racks: Sequence[RackInput],
    settlement_claimed: Sequence[int] | None = None,
    reason: str = "",
    before: ReplayedMatch | None = None,
) -> WriteResult[RoundEnd]:
    """Enter the racks shown at the end of a round (and the settlement claimed); the engine
    settles it. Entering them again is a correction: a new version, a reason required, and
    the round must be confirmed again. Errors are keyed ``rack_<seat>``. ``before``: the
    caller's replay of the match, its round ``round_index`` replayed (``match_write``)."""
    if before is not None and not any(
            r.index == round_index and not r.stored for r in before.rounds):
        before = None  # the round's turns were not loaded
    with match_write(match=match, user=user, seen_revision=seen_revision,
                     submission_key=submission_key, before=before) as write:
        rows = write.rows
        round_ = next((r for r in rows.rounds if r.index == round_index), None)
        if round_ is None or not rows.turns.get(round_.pk):
            raise ValidationError(
                _("Round %(number)s has no turn yet.") % {"number": round_index + 1},
                code="round_empty")
        if len(racks) != len(rows.seats):
            raise ValidationError(_("One rack per player is expected."), code="rack_count")
        stored = _stored_racks(racks)
        if settlement_claimed is not None and len(settlement_claimed) != len(rows.seats):
            raise ValidationError(_("One settlement figure per player is expected."),
                                  code="settlement_count")
        previous = rows.ends.get(round_.pk)
        reason = reason.strip()
        if previous is not None and not reason:
            raise ValidationError({"reason": ValidationError(
                _("The racks were already entered: say why they change."),
                code="reason_required")})
        end = RoundEnd(
            round=round_,
            racks=stored,
            settlement_claimed=list(settlement_claimed) if settlement_claimed is not None else None,
            created_by=write.author,
            change_reason=reason,
        )
        rows.ends[round_.pk] = end
        replay = write.replay(from_round=round_.index)
        round_view = next(r for r in replay.rounds if r.row.pk == round_.pk)
        if round_view.end_kind == Round.EndKind.UNFINISHED:
            raise ValidationError(
                _("Round %(number)s is not over: no player has gone out and the table is not "
                  "blocked.") % {"number": round_index + 1},
                code="round_not_over")
        _impossible_racks(round_view.problems)
        if previous is not None:
            write.supersede(previous, end)
        else:
            end.save()
        write.unconfirm(round_)
        write.audit(
            AuditEntry.Action.ROUND_END_CORRECTED if previous is not None
            else AuditEntry.Action.ROUND_ENDED,
            f"round {round_.index + 1}: racks entered",
            {"round": round_.index, "before": _round_end_snapshot(previous),
             "after": _round_end_snapshot(end)},
            reason,
        )
    return WriteResult(saved=end, replay=replay, round_index=round_.index)


def _turn_numbers(turns: Sequence[TurnLine]) -> str:
    """The numbers of ``turns`` in their round, counted from 1: "3, 7"."""
    return ", ".join(str(turn.number) for turn in turns)


def round_confirmed(write: MatchWrite, *, round_index: int,
                    by_seats: bool = False) -> tuple[Round, ReplayedMatch]:
    """Confirm round ``round_index`` inside ``write``, or refuse it (``ValidationError``):
    the one confirmation of a round, by a referee (:func:`match_round_confirm`) or by every
    seat's signature (``tournament.matches.services.signatures``, ``by_seats``). The audit
    keeps who signed what of the round. Returns the round and the match replayed."""
    round_ = next((r for r in write.rows.rounds if r.index == round_index), None)
    already = round_ is not None and round_.confirmed_at is not None
    if round_ is not None and not already:
        # set before the replay, which then shows the round confirmed; undone with the
        # rest when the confirmation is refused
        round_.confirmed_at = timezone.now()
        round_.confirmed_by = write.author
    replay = write.replay(from_round=round_index)
    round_view = next((r for r in replay.rounds if r.index == round_index), None)
    number = {"number": round_index + 1}
    if round_view is None or not round_view.closed:
        raise ValidationError(
            _("Round %(number)s cannot be confirmed before its racks are entered.") % number,
            code="round_not_closed")
    if already:
        raise ValidationError(_("Round %(number)s is already confirmed.") % number,
                              code="already_confirmed")
    if round_view.end_kind == Round.EndKind.UNFINISHED:  # racks entered, then a turn corrected
        raise ValidationError(
            _("Round %(number)s cannot be confirmed: as its turns now stand, nobody went out "
              "and the table is not blocked. Correct its turns, or enter the missing ones.")
            % number, code="round_unfinished")
    if round_view.pending_decisions:
        raise ValidationError(
            _("Round %(number)s cannot be confirmed: decide first on the claims that differ "
              "from the engine (turns %(turns)s).")
            % {**number, "turns": _turn_numbers(round_view.pending_decisions)},
            code="decisions_pending")
    if round_view.illegal_turns:
        raise ValidationError(
            _("Round %(number)s cannot be confirmed: correct its illegal turns first "
              "(turns %(turns)s).")
            % {**number, "turns": _turn_numbers(round_view.illegal_turns)},
            code="illegal_turns")
    open_problems = _open_problems(round_view)
    if open_problems:
        raise ValidationError(
            (_("Round %(number)s cannot be confirmed: %(problems)s. Keep the engine's "
               "settlement or the claim (with a reason).")
             if all(p.code == "settlement-mismatch" for p in open_problems) else
             _("Round %(number)s cannot be confirmed: %(problems)s. Enter the racks again "
               "(with a reason) so that they hold."))
            % {**number, "problems": "; ".join(p.message for p in open_problems)},
            code="open_problems")
    round_.save(update_fields=["confirmed_at", "confirmed_by"])
    write.audit(
        AuditEntry.Action.ROUND_CONFIRMED,
        f"round {round_.index + 1} confirmed" + (" by every seat's signature" if by_seats else ""),
        {"round": round_.index, "scores": list(round_view.scores), "by_seats": by_seats,
         # who signed what of the round, whoever confirms it (docs/guides/referee.md)
         "signatures": signatures_record(round_.signatures.all())},
    )
    return round_, replay


@whole
def match_round_confirm(*, match: Match, user, seen_revision: int, round_index: int,
                        submission_key: str = "",
                        before: ReplayedMatch | None = None) -> WriteResult[Round]:
    """The referee confirms a closed round. It cannot be confirmed while a decision is
    pending or an illegal turn remains, nor once a correction has left it unfinished. Once
    the match is over and every round confirmed, the match is confirmed (what the standings
    count). ``before``: the caller's replay of the match (``match_write``)."""
    with match_write(match=match, user=user, seen_revision=seen_revision,
                     submission_key=submission_key, before=before) as write:
        round_, replay = round_confirmed(write, round_index=round_index)
    return WriteResult(saved=round_, replay=replay, round_index=round_.index)


@whole
def match_round_settlement_decide(
    *, match: Match, user, seen_revision: int, round_index: int, decision: str,
    reason: str = "", submission_key: str = "",
) -> WriteResult[RoundEnd]:
    """The referee's decision on a settlement claimed that differs from the engine's, as on a
    turn's claim (``match_turn_decide``, the same checks and the same path,
    ``MatchWrite.decided``): ``engine`` (the engine's settlement stands) or ``claim`` (the
    claimed one stands and counts; a reason is required). Recorded as a new version of the
    round's end; taken on a confirmed round (or taken again), it un-confirms the round, which
    the referee confirms again."""
    reason = checked_decision(decision, reason)
    with match_write(match=match, user=user, seen_revision=seen_revision,
                     submission_key=submission_key) as write:
        rows = write.rows
        round_ = next((r for r in rows.rounds if r.index == round_index), None)
        old = rows.ends.get(round_.pk) if round_ is not None else None
        if old is None:
            raise ValidationError(
                _("Round %(number)s has no racks entered: there is no settlement to decide on.")
                % {"number": round_index + 1}, code="round_not_closed")
        new = RoundEnd(round=round_, racks=old.racks, settlement_claimed=old.settlement_claimed,
                       decision=decision,
                       decision_reason=reason if decision == RoundEnd.Decision.CLAIM else "",
                       created_by=write.author, change_reason=reason)
        rows.ends[round_.pk] = new
        replay = write.replay(from_round=round_.index)
        round_view = next(r for r in replay.rounds if r.row.pk == round_.pk)
        if not round_view.settlement_differs:
            raise ValidationError(
                _("The settlement claimed agrees with the engine: there is nothing to decide."),
                code="nothing_to_decide")
        write.decided(
            round_, old, new,
            summary=f"round {round_.index + 1}, settlement: {decision}",
            details={"round": round_.index, "before": _round_end_snapshot(old),
                     "after": _round_end_snapshot(new)},
            reason=reason,
        )
    return WriteResult(saved=new, replay=replay, round_index=round_.index)
