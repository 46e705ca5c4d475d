"""Writes to a match: turns, decisions, corrections, insertions, ends of rounds, confirmations,
imports.

Every service follows the same steps, inside one transaction:

1. :func:`_claim_revision`: an atomic conditional UPDATE of ``Match.revision`` from the
   revision the client saw; when another save came first nothing matches and
   :class:`StaleMatch` is raised (nothing written). The UPDATE also holds the match's row lock
   until the transaction ends, so writes to one match are serial.
2. The record is built from the current rows plus the candidate change
   (:func:`~tournament.matches.selectors.record_from_rows`) and replayed by the engine; what
   must be refused is refused (an illegal turn: :class:`TurnsRefused` with the engine's
   reasons), and nothing is written.
3. The new version rows are written (an old version is superseded, never changed or deleted),
   :func:`match_results_cache` stores the figures of the replay of the rows as written (step
   2's replay when it had the change already: a match is not replayed twice for nothing) on
   every current row and on the Match, and an AuditEntry says who did what, before and after,
   and why.

Permissions are the views' business (``can_referee``); services trust their caller.
"""

from __future__ import annotations

import contextlib
import dataclasses
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import engine, freshness
from tournament.matches.selectors import (
    MatchReplayView,
    MatchRows,
    ProblemView,
    TurnLine,
    match_replay,
    match_replay_before,
    match_rows,
    match_with_tournament,
    turn_record,
)
from tournament.models import AuditEntry, Match, Round, RoundEnd, Turn

#: The verdict that refuses a turn at entry.
REFUSED = "illegal"
#: The most corner values a stored turn holds per corner (one digit).
_MAX_STORED_VALUE = 9


# -- errors ------------------------------------------------------------------------------------


class StaleMatch(Exception):
    """The match changed since the client saw it: another save came first."""

    def __init__(self, *, match_id: int, seen: int) -> None:
        super().__init__(f"match {match_id}: revision {seen} is no longer current")
        self.match_id = match_id
        self.seen = seen

    @property
    def message(self) -> str:
        return stale_match_message()


def stale_match_message() -> str:
    """What a scorekeeper reads when their save came after another one."""
    return _(
        "Someone else saved a change to this match while you were entering yours: nothing "
        "of yours was saved. Here is the match as it is now; enter your change again."
    )


@dataclass(frozen=True)
class Refusal:
    """A candidate turn the engine refuses: its position among the candidates, and why."""

    line: int
    problems: tuple[ProblemView, ...]


class TurnsRefused(Exception):
    """The engine refuses one candidate turn or more (an illegal placement, out of turn,
    too many draws...): nothing was saved."""

    def __init__(self, refusals: list[Refusal]) -> None:
        super().__init__("; ".join(p.message for r in refusals for p in r.problems))
        self.refusals = refusals

    @property
    def messages(self) -> list[str]:
        return [p.message for r in self.refusals for p in r.problems]


class MismatchesNotSeen(Exception):
    """Sheet mode: claims differ from the engine and the referee has not said they saw them."""

    def __init__(self, lines: list[int]) -> None:
        super().__init__(f"mismatches on lines {lines}")
        self.lines = lines


# -- what a caller gives -----------------------------------------------------------------------


@dataclass(frozen=True)
class TurnInput:
    """A turn as entered. ``player`` None: the engine's next player (board mode).

    ``tile`` is a tile name (sheet mode, or with the cell); ``cell`` and ``corners`` the
    position (board mode). ``removed`` (corrections only): the turn was not played.
    """

    player: int | None = None
    draws: int = 0
    tile: str = ""
    cell: engine.Cell | None = None
    corners: tuple[int, int, int] | None = None
    bonus_claimed: str = ""
    points_claimed: int | None = None
    decision: str = ""
    decision_reason: str = ""


def _turn_row(data: TurnInput, *, player: int, round_: Round | None, index: int, user) -> Turn:
    """An unsaved Turn row for ``data``; the tile name is filled from the corners if missing."""
    tile = data.tile
    if not tile and data.corners is not None:
        shown = engine.tile_from_corners(data.corners)
        tile = str(shown) if shown is not None else ""
    elif tile:
        with contextlib.suppress(engine.UnknownTile):  # kept as entered: the engine reports it
            tile = str(engine.parse_tile(tile))
    turn = Turn(
        index=index,
        player=player,
        draws=data.draws,
        tile=tile,
        bonus_claimed=data.bonus_claimed,
        points_claimed=data.points_claimed,
        decision=data.decision,
        decision_reason=data.decision_reason,
        created_by=user,
    )
    if round_ is not None:
        turn.round = round_
    if data.cell is not None:
        turn.cell_x, turn.cell_y, turn.cell_orientation = data.cell.x, data.cell.y, data.cell.o
    if data.corners is not None:
        turn.corners = "-".join(str(v) for v in data.corners)
    return turn


def turn_snapshot(turn: Turn) -> dict[str, Any]:
    """What was entered for a turn, for the audit log."""
    return {
        "player": turn.player,
        "draws": turn.draws,
        "tile": turn.tile,
        "cell": turn.cell,
        "corners": turn.corners,
        "bonus_claimed": turn.bonus_claimed,
        "points_claimed": turn.points_claimed,
        "decision": turn.decision,
        "decision_reason": turn.decision_reason,
    }


def _round_end_snapshot(end: RoundEnd | None) -> dict[str, Any] | None:
    if end is None:
        return None
    return {"racks": end.racks, "settlement_claimed": end.settlement_claimed}


# -- the shared steps --------------------------------------------------------------------------


def _claim_revision(*, match: Match, seen_revision: int) -> Match:
    """Step 1: move the match from ``seen_revision`` to the next, or raise StaleMatch.

    Returns the match re-read after the update (its table, session and tournament loaded).
    """
    updated = Match.objects.filter(pk=match.pk, revision=seen_revision).update(
        revision=F("revision") + 1
    )
    if updated != 1:
        raise StaleMatch(match_id=match.pk, seen=seen_revision)
    match = match_with_tournament(match.pk).get()
    freshness.touch(tournament_id=match.table.session.tournament_id)
    return match


def _audit(
    match: Match,
    user,
    action: str,
    summary: str,
    details: dict[str, Any],
    reason: str = "",
) -> AuditEntry:
    return AuditEntry.objects.create(
        match=match,
        user=user if user is not None and user.is_authenticated else None,
        action=action,
        summary=summary,
        details=details,
        reason=reason,
    )


def match_results_cache(*, view: MatchReplayView) -> bool:
    """Store a replay's results on the rows: every current turn's engine figures, verdict and
    problems; each round's end and scores; the match's totals, winners, status and
    finished_at. Only changed rows are written; turn rows not in the database yet (a service's
    new rows) are inserted with their figures. Returns True when the match has just closed
    (it was not finished before and is now).
    """
    turn_fields = ("points", "tile_value", "bonus", "bonus_points", "penalty", "verdict", "problems")
    changed_turns: list[Turn] = []
    changed_rounds: list[Round] = []
    for round_view in view.rounds:
        for line in round_view.turns:
            row = line.row
            values = {
                "points": line.points,
                "tile_value": line.tile_value,
                "bonus": line.bonus,
                "bonus_points": line.bonus_points,
                "penalty": line.penalty,
                "verdict": line.verdict,
                "problems": [engine.problem_json(p) for p in line.report.problems],
            }
            if any(getattr(row, name) != value for name, value in values.items()):
                for name, value in values.items():
                    setattr(row, name, value)
                changed_turns.append(row)
        row = round_view.row
        scores = list(round_view.scores)
        if row.end_kind != round_view.end_kind or row.scores != scores:
            row.end_kind = round_view.end_kind
            row.scores = scores
            changed_rounds.append(row)
    new_turns = [row for row in changed_turns if row.pk is None]  # points is None: changed
    changed_turns = [row for row in changed_turns if row.pk is not None]
    if new_turns:
        Turn.objects.bulk_create(new_turns)
    if changed_turns:
        Turn.objects.bulk_update(changed_turns, turn_fields)
    if changed_rounds:
        Round.objects.bulk_update(changed_rounds, ["end_kind", "scores"])

    match = view.match
    was_finished = match.status in (Match.Status.FINISHED, Match.Status.CONFIRMED)
    if view.finished:
        status = Match.Status.CONFIRMED if view.all_rounds_confirmed else Match.Status.FINISHED
    elif view.turn_count:
        status = Match.Status.PLAYING
    else:
        status = Match.Status.PENDING
    finished_at = match.finished_at if view.finished else None
    if view.finished and finished_at is None:
        finished_at = timezone.now()
    match.status = status
    match.totals = list(view.totals)
    match.winners = list(view.winners)
    match.finished_at = finished_at
    match.save(update_fields=["status", "totals", "winners", "finished_at"])
    return view.finished and not was_finished


def _log_closing(match: Match, user, view: MatchReplayView) -> None:
    _audit(
        match,
        user,
        AuditEntry.Action.MATCH_CLOSED,
        "match over: winners " + ", ".join(view.winner_names),
        {"totals": list(view.totals), "winners": list(view.winners)},
    )


def _after_write(match: Match, user, view: MatchReplayView) -> None:
    """Cache the results of ``view``, the replay of the rows as written, and log the match's
    closing."""
    if match_results_cache(view=view):
        _log_closing(match, user, view)


def _refusals(reports: Sequence[engine.TurnReport]) -> list[Refusal]:
    """The candidate turns that the engine finds illegal, by their position."""
    refusals = []
    for position, report in enumerate(reports):
        if report.verdict.value == REFUSED:
            refusals.append(
                Refusal(
                    line=position,
                    problems=tuple(
                        ProblemView(
                            code=p.code,
                            message=engine.problem_message(p.template, p.params),
                            round=p.round,
                            turn=p.turn,
                        )
                        for p in report.problems
                    ),
                )
            )
    return refusals


def _legal_turn_report(view: MatchReplayView, round_: Round, position: int) -> engine.TurnReport:
    """The engine's report on the turn at ``position`` of ``round_`` in ``view``, the turn a
    correction or an insertion writes; :class:`TurnsRefused` when it is illegal."""
    round_view = next(r for r in view.rounds if r.row.pk == round_.pk)
    report = round_view.turns[position].report
    refusals = _refusals([report])
    if refusals:
        raise TurnsRefused(refusals)
    return report


def _unconfirm(round_: Round) -> bool:
    """A change to a confirmed round un-confirms it (the referee confirms it again)."""
    if round_.confirmed_at is None:
        return False
    round_.confirmed_at = None
    round_.confirmed_by = None
    round_.save(update_fields=["confirmed_at", "confirmed_by"])
    return True


# -- entering turns ----------------------------------------------------------------------------


def candidate_players(*, view: MatchReplayView, turns: Sequence[TurnInput]) -> list[int]:
    """The player of each of ``turns`` entered after the turns of ``view``: ``player`` None is
    the engine's next one (the previous candidate's successor). Raises ValidationError when no
    turn can be entered (the match is over) or the player is unknown."""
    live = view.live
    if live is None:
        raise ValidationError(_("The match is over: no turn or round can be added."))
    if not live.counted:
        raise ValidationError(
            _("The match ended before round %(number)s: no turn can be added to it.")
            % {"number": live.number}
        )
    player_count = len(view.seats)
    next_player = live.player_to_enter
    players: list[int] = []
    for data in turns:
        player = data.player
        if player is None:
            if next_player is None:
                raise ValidationError(
                    {"player": _("Who opens the round? Choose the player.")},
                )
            player = next_player
        if not 0 <= player < player_count:
            raise ValidationError({"player": _("There is no seat %(number)s at this table.")
                                   % {"number": player + 1}})
        players.append(player)
        next_player = (player + 1) % player_count
    return players


def candidate_reports(
    *, view: MatchReplayView, turns: Sequence[TurnInput]
) -> tuple[list[engine.TurnReport], list[int]]:
    """What the engine says of ``turns`` entered after the turns of ``view``, without saving
    (sheet mode's check): the report of each and its player (:func:`candidate_players`)."""
    players = candidate_players(view=view, turns=turns)
    records = tuple(
        turn_record(_turn_row(data, player=player, round_=None, index=position, user=None))
        for position, (data, player) in enumerate(zip(turns, players))
    )
    record = view.record
    live_rounds = list(record.rounds)
    if view.live_round_view is not None:
        last = live_rounds[-1]
        live_rounds[-1] = dataclasses.replace(last, turns=last.turns + records)
        first = len(last.turns)
    else:
        live_rounds.append(engine.RoundRecord(turns=records))
        first = 0
    candidate = dataclasses.replace(record, rounds=tuple(live_rounds))
    replay = engine.replay_record(candidate, leave_last_round_open=True)
    return list(replay.turns[first:]), players


@transaction.atomic
def match_turns_add(
    *,
    match: Match,
    user,
    seen_revision: int,
    turns: Sequence[TurnInput],
    mismatches_seen: bool = True,
) -> list[Turn]:
    """Add turns to the round in play (a new round when the last one was closed).

    All or nothing: when the engine finds any of them illegal, :class:`TurnsRefused` says
    which and why. Claims that differ from the engine are saved with both figures, their
    decision pending; in sheet mode (``mismatches_seen`` False) they are refused with
    :class:`MismatchesNotSeen` until the referee says they saw them.
    """
    if not turns:
        raise ValidationError(_("There is no turn to save."))
    match = _claim_revision(match=match, seen_revision=seen_revision)
    rows = match_rows(match=match)
    before = match_replay(match=match, rows=rows)
    players = candidate_players(view=before, turns=turns)
    index = before.live.index
    round_ = next((r for r in rows.rounds if r.index == index), None)
    if round_ is None:  # written now, undone with the rest if the turns are refused
        round_ = Round.objects.create(match=match, index=index)
        rows.rounds.append(round_)
    existing = rows.round_turns(round_)
    next_index = existing[-1].index + 1 if existing else 0
    new_rows = [
        _turn_row(data, player=player, round_=round_, index=next_index + i, user=user)
        for i, (data, player) in enumerate(zip(turns, players))
    ]
    existing.extend(new_rows)
    view = match_replay(match=match, rows=rows)
    round_view = next(r for r in view.rounds if r.row.pk == round_.pk)
    reports = [line.report for line in round_view.turns[-len(new_rows):]]
    refusals = _refusals(reports)
    if refusals:
        raise TurnsRefused(refusals)
    mismatched = [i for i, report in enumerate(reports) if report.verdict.value == "mismatch"]
    if mismatched and not mismatches_seen:
        raise MismatchesNotSeen(mismatched)

    _unconfirm(round_)
    first_number = len(existing) - len(new_rows) + 1
    for number, (turn, report) in enumerate(zip(new_rows, reports), start=first_number):
        _audit(
            match,
            user,
            AuditEntry.Action.TURN_ADDED,
            f"round {round_.index + 1}, turn {number}",
            {
                "round": round_.index,
                "index": turn.index,
                "after": turn_snapshot(turn),
                "engine": {"points": report.points, "verdict": report.verdict.value},
            },
        )
    _after_write(match, user, view)  # inserts the new rows with their figures
    return new_rows


def _current_turn(rows: MatchRows, turn_id: int) -> tuple[Round, list[Turn], int]:
    """The round, its current turns and the position of the turn ``turn_id`` (current only)."""
    for round_ in rows.rounds:
        turns = rows.turns.get(round_.pk, [])
        for position, turn in enumerate(turns):
            if turn.pk == turn_id:
                return round_, turns, position
    raise ValidationError(
        _("This turn has been corrected or undone meanwhile: reload the match and start again.")
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


def _supersede(old: Turn, new: Turn | None, *, now) -> None:
    """Mark ``old`` superseded (by ``new``, or by nothing for an undo) without losing it."""
    old.superseded_at = now
    old.save(update_fields=["superseded_at"])
    if new is not None:
        new.save()
        old.superseded_by = new
        old.save(update_fields=["superseded_by"])


@transaction.atomic
def match_turn_undo(*, match: Match, user, seen_revision: int) -> Turn:
    """Undo the last turn of the round in play: it is superseded by nothing (kept, audited)."""
    match = _claim_revision(match=match, seen_revision=seen_revision)
    rows = match_rows(match=match)
    round_ = next((r for r in reversed(rows.rounds) if rows.turns.get(r.pk)), None)
    if round_ is None:
        raise ValidationError(_("There is no turn to undo."))
    if round_.pk in rows.ends:
        raise ValidationError(
            _("The racks of round %(number)s were entered: correct the turn instead of "
              "undoing it.") % {"number": round_.index + 1}
        )
    turns = rows.turns[round_.pk]
    last = turns.pop()
    _supersede(last, None, now=timezone.now())
    _audit(
        match,
        user,
        AuditEntry.Action.TURN_UNDONE,
        f"round {round_.index + 1}, turn {len(turns) + 1} undone",
        {"round": round_.index, "index": last.index, "before": turn_snapshot(last), "after": None},
    )
    _after_write(match, user, match_replay(match=match, rows=rows))
    return last


@transaction.atomic
def match_turn_correct(
    *,
    match: Match,
    user,
    seen_revision: int,
    turn_id: int,
    turn: TurnInput | None,
    reason: str,
) -> Turn | None:
    """Correct any turn: a new version replaces it (``turn`` None: the turn was not played
    and is struck out). The rest of the match is replayed: later turns the correction makes
    illegal are flagged, not deleted. The corrected turn itself must be legal. The round, if
    confirmed, must be confirmed again. Returns the new version (None when struck out).
    """
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": _("Say why the turn is corrected.")})
    match = _claim_revision(match=match, seen_revision=seen_revision)
    rows = match_rows(match=match)
    round_, turns, position = _current_turn(rows, turn_id)
    old = turns[position]
    new: Turn | None = None
    if turn is not None:
        player = turn.player if turn.player is not None else old.player
        new = _turn_row(turn, player=player, round_=round_, index=old.index, user=user)
        new.change_reason = reason
        turns[position] = new
    else:
        del turns[position]
    view = match_replay(match=match, rows=rows)
    if new is not None:
        _legal_turn_report(view, round_, position)
    _supersede(old, new, now=timezone.now())
    _unconfirm(round_)
    _audit(
        match,
        user,
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
    _after_write(match, user, view)  # the rows replayed above are the rows as written
    return new


@transaction.atomic
def match_turn_insert(
    *,
    match: Match,
    user,
    seen_revision: int,
    before_turn_id: int,
    turn: TurnInput,
    reason: str,
) -> Turn:
    """Insert a turn nobody entered (a draw and pass noticed a few turns later) before the
    current turn ``before_turn_id``, in its round. Its player, when None, is the one due at
    that point (:func:`candidate_players` on the match as it stood then); before the round's
    opening the player must be given.

    The turn takes the index just before the other's when a turn struck out left it free;
    otherwise the turns from there on move one place down, as far as the next free index,
    the last first (two current turns never share an index): each gets a new version at its
    new index, the old one kept. Then as a correction: the inserted turn must be legal
    (:class:`TurnsRefused` with the engine's reasons, nothing written), later turns it makes
    illegal and an end of round it contradicts are flagged, not deleted, a reason is
    required, and the round, if confirmed, must be confirmed again. Returns the inserted turn.
    """
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": _("Say why the turn is inserted.")})
    match = _claim_revision(match=match, seen_revision=seen_revision)
    rows = match_rows(match=match)
    round_, turns, position = _current_turn(rows, before_turn_id)
    before = match_replay_before(rows=rows, round_=round_, position=position)
    (player,) = candidate_players(view=before, turns=[turn])

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
        (old, _new_version(old, user=user, reason=moved_reason, index=old.index + 1,
                           created_at=now))
        for old in turns[position:end]
    ]
    new = _turn_row(turn, player=player, round_=round_, index=target if moves else target - 1,
                    user=user)
    new.created_at = now
    new.change_reason = reason
    turns[position:end] = [new] + [copy for _old, copy in moves]
    view = match_replay(match=match, rows=rows)
    report = _legal_turn_report(view, round_, position)
    for old, copy in reversed(moves):
        _supersede(old, copy, now=now)
    _unconfirm(round_)
    _audit(
        match,
        user,
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
    _after_write(match, user, view)  # inserts the new turn with its figures
    return new


@transaction.atomic
def match_turn_decide(
    *, match: Match, user, seen_revision: int, turn_id: int, decision: str, reason: str = ""
) -> Turn:
    """The referee's decision on a claim that differs from the engine: ``engine`` (the
    engine's figure stands) or ``claim`` (the claim stands; a reason is required). Recorded
    as a new version of the turn."""
    reason = reason.strip()
    if decision not in (Turn.Decision.ENGINE, Turn.Decision.CLAIM):
        raise ValidationError({"decision": _("Choose the engine's figure or the claim.")})
    if decision == Turn.Decision.CLAIM and not reason:
        raise ValidationError({"reason": _("Say why the claim stands against the engine.")})
    match = _claim_revision(match=match, seen_revision=seen_revision)
    rows = match_rows(match=match)
    round_, turns, position = _current_turn(rows, turn_id)
    old = turns[position]
    if old.verdict != "mismatch":
        raise ValidationError(_("This turn's claim agrees with the engine: there is nothing to decide."))
    new = _new_version(old, user=user, reason=reason, decision=decision,
                       decision_reason=reason if decision == Turn.Decision.CLAIM else "")
    _supersede(old, new, now=timezone.now())
    turns[position] = new
    _unconfirm(round_)
    _audit(
        match,
        user,
        AuditEntry.Action.DECISION,
        f"round {round_.index + 1}, turn {position + 1}: {decision}",
        {
            "round": round_.index,
            "index": old.index,
            "before": turn_snapshot(old),
            "after": turn_snapshot(new),
        },
        reason,
    )
    _after_write(match, user, match_replay(match=match, rows=rows))
    return new


# -- ends of rounds ----------------------------------------------------------------------------

#: A rack as entered: tile names, or the total value left when the tiles were not noted.
RackInput = list[str] | int


@transaction.atomic
def match_round_end(
    *,
    match: Match,
    user,
    seen_revision: int,
    round_index: int,
    racks: Sequence[RackInput],
    settlement_claimed: Sequence[int] | None = None,
    reason: str = "",
) -> RoundEnd:
    """Enter the racks shown at the end of a round (and the settlement claimed); the engine
    settles it. Entering them again is a correction: a new version, a reason required, and
    the round must be confirmed again. Errors are keyed ``rack_<seat>``."""
    match = _claim_revision(match=match, seen_revision=seen_revision)
    rows = match_rows(match=match)
    round_ = next((r for r in rows.rounds if r.index == round_index), None)
    if round_ is None or not rows.turns.get(round_.pk):
        raise ValidationError(_("Round %(number)s has no turn yet.") % {"number": round_index + 1})
    if len(racks) != len(rows.seats):
        raise ValidationError(_("One rack per player is expected."))
    stored: list[Any] = []
    errors: dict[str, list[str]] = {}
    for seat, rack in enumerate(racks):
        if isinstance(rack, int):
            if rack < 0:
                errors[f"rack_{seat}"] = [_("A rack's total cannot be negative.")]
            stored.append(rack)
            continue
        names = []
        for name in rack:
            try:
                names.append(str(engine.parse_tile(name)))
            except engine.UnknownTile:
                errors.setdefault(f"rack_{seat}", []).append(
                    _("“%(given)s” is not a tile: three values from 0 to 5, like 3-4-5.")
                    % {"given": name}
                )
        stored.append(names)
    if errors:
        raise ValidationError(errors)
    if settlement_claimed is not None and len(settlement_claimed) != len(rows.seats):
        raise ValidationError(_("One settlement figure per player is expected."))
    previous = rows.ends.get(round_.pk)
    reason = reason.strip()
    if previous is not None and not reason:
        raise ValidationError({"reason": _("The racks were already entered: say why they change.")})
    view = match_replay(match=match, rows=rows)
    round_view = next(r for r in view.rounds if r.row.pk == round_.pk)
    if round_view.end_kind == "unfinished":
        raise ValidationError(
            _("Round %(number)s is not over: no player has gone out and the table is not "
              "blocked.") % {"number": round_index + 1}
        )
    end = RoundEnd(
        round=round_,
        racks=stored,
        settlement_claimed=list(settlement_claimed) if settlement_claimed is not None else None,
        created_by=user,
        change_reason=reason,
    )
    if previous is not None:
        previous.superseded_at = timezone.now()
        previous.save(update_fields=["superseded_at"])
        end.save()
        previous.superseded_by = end
        previous.save(update_fields=["superseded_by"])
    else:
        end.save()
    rows.ends[round_.pk] = end
    _unconfirm(round_)
    _audit(
        match,
        user,
        AuditEntry.Action.ROUND_END_CORRECTED if previous is not None else AuditEntry.Action.ROUND_ENDED,
        f"round {round_.index + 1}: racks entered",
        {"round": round_.index, "before": _round_end_snapshot(previous),
         "after": _round_end_snapshot(end)},
        reason,
    )
    _after_write(match, user, match_replay(match=match, rows=rows))
    return end


def _turn_numbers(turns: Sequence[TurnLine]) -> str:
    """The numbers of ``turns`` in their round, counted from 1: "3, 7"."""
    return ", ".join(str(turn.number) for turn in turns)


@transaction.atomic
def match_round_confirm(*, match: Match, user, seen_revision: int, round_index: int) -> Round:
    """The referee confirms a closed round. It cannot be confirmed while a decision is
    pending or an illegal turn remains, nor once a correction has left it unfinished. Once
    the match is over and every round confirmed, the match is confirmed (what the standings
    count)."""
    match = _claim_revision(match=match, seen_revision=seen_revision)
    rows = match_rows(match=match)
    view = match_replay(match=match, rows=rows)
    round_view = next((r for r in view.rounds if r.index == round_index), None)
    if round_view is None or not round_view.closed:
        raise ValidationError(
            _("Round %(number)s cannot be confirmed before its racks are entered.")
            % {"number": round_index + 1}
        )
    if round_view.confirmed:
        raise ValidationError(_("Round %(number)s is already confirmed.") % {"number": round_index + 1})
    if round_view.end_kind == "unfinished":  # its racks were entered, then a turn corrected
        raise ValidationError(
            _("Round %(number)s cannot be confirmed: as its turns now stand, nobody went out "
              "and the table is not blocked. Correct its turns, or enter the missing ones.")
            % {"number": round_index + 1}
        )
    if round_view.pending_decisions:
        raise ValidationError(
            _("Round %(number)s cannot be confirmed: decide first on the claims that differ "
              "from the engine (turns %(turns)s).")
            % {"number": round_index + 1,
               "turns": _turn_numbers(round_view.pending_decisions)}
        )
    if round_view.illegal_turns:
        raise ValidationError(
            _("Round %(number)s cannot be confirmed: correct its illegal turns first "
              "(turns %(turns)s).")
            % {"number": round_index + 1,
               "turns": _turn_numbers(round_view.illegal_turns)}
        )
    round_ = round_view.row
    round_.confirmed_at = timezone.now()
    round_.confirmed_by = user if user is not None and user.is_authenticated else None
    round_.save(update_fields=["confirmed_at", "confirmed_by"])
    _audit(
        match,
        user,
        AuditEntry.Action.ROUND_CONFIRMED,
        f"round {round_.index + 1} confirmed",
        {"round": round_.index, "scores": list(round_view.scores)},
    )
    _after_write(match, user, view)  # a confirmation changes no figure: the replay above holds
    return round_


# -- the match record --------------------------------------------------------------------------


def _normalised(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if c.isalnum()).casefold()


@transaction.atomic
def match_record_import(
    *,
    match: Match,
    user,
    seen_revision: int,
    record: str | bytes | dict[str, Any],
    names_must_match: bool = True,
) -> MatchReplayView:
    """Fill an empty match from a match record (docs/record-format.md, with decisions).

    The engine reads it first: an unreadable record is refused with its message and nothing
    is saved. It must be for the tournament's rule set and target and for as many players as
    the table seats; its names must be the seated players' in seat order (accents, case and
    spaces aside) unless ``names_must_match`` is False (the referee says the record's players
    are in seat order). Every round but the last is closed (its racks, if any); the last is
    closed when the record gives its racks or settlement, else it stays in play. Illegal
    turns and mismatches are kept and flagged, as the record has them. Errors are keyed
    ``record``.
    """
    try:
        parsed = engine.parse_record(record) if isinstance(record, dict) else engine.load_record(record)
    except engine.RecordError as error:
        raise ValidationError(
            {"record": _("This file is not a readable match record: %(detail)s")
             % {"detail": engine.record_error_message(error)}}
        ) from None
    match = _claim_revision(match=match, seen_revision=seen_revision)
    rows = match_rows(match=match)
    tournament = match.table.session.tournament
    if any(rows.turns.get(r.pk) for r in rows.rounds) or rows.ends:
        raise ValidationError(
            {"record": _("This match already has turns: a record can only fill an empty match.")}
        )
    if parsed.rules_name != tournament.rules:
        raise ValidationError(
            {"record": _("The record is played under the rule set “%(record)s”; this "
                         "tournament plays “%(tournament)s”.")
             % {"record": parsed.rules_name, "tournament": tournament.rules}}
        )
    if parsed.rules.target != tournament.effective_target:
        raise ValidationError(
            {"record": _("The record's target is %(record)s points; this tournament's is "
                         "%(tournament)s.")
             % {"record": parsed.rules.target, "tournament": tournament.effective_target}}
        )
    if (options_error := engine.record_options_mismatch(record=parsed, tournament=tournament)):
        raise ValidationError({"record": ValidationError(options_error, code="record-options")})
    names = rows.names
    if len(parsed.players) != len(names):
        raise ValidationError(
            {"record": _("The record has %(record)s players; this table seats %(table)s.")
             % {"record": len(parsed.players), "table": len(names)}}
        )
    if names_must_match:
        differing = [
            (record_name, seated)
            for record_name, seated in zip(parsed.players, names)
            if _normalised(record_name) != _normalised(seated)
        ]
        if differing:
            raise ValidationError(
                {"record": _("The record's players are not the seated players in seat order: "
                             "%(pairs)s. Tick the box below if the record's players are in "
                             "seat order all the same.")
                 % {"pairs": "; ".join(_("“%(record)s” at the seat of %(seated)s")
                                       % {"record": r, "seated": s} for r, s in differing)}}
            )

    existing_rounds = {round_.index: round_ for round_ in rows.rounds}
    last = len(parsed.rounds) - 1
    turn_count = 0
    for r, round_record in enumerate(parsed.rounds):
        round_ = existing_rounds.get(r) or Round.objects.create(match=match, index=r)
        if r not in existing_rounds:
            rows.rounds.append(round_)
        turns = rows.round_turns(round_)
        for t, turn in enumerate(round_record.turns):
            row = _imported_turn(turn, round_=round_, index=t, user=user, path=f"rounds[{r}].turns[{t}]")
            turns.append(row)
        turn_count += len(round_record.turns)
        closed = r < last or round_record.racks is not None or round_record.settlement_claimed is not None
        if closed:
            end = RoundEnd.objects.create(
                round=round_,
                racks=[rack if isinstance(rack, int) else list(rack) for rack in round_record.racks]
                if round_record.racks is not None
                else [],
                settlement_claimed=list(round_record.settlement_claimed)
                if round_record.settlement_claimed is not None
                else None,
                created_by=user if user is not None and user.is_authenticated else None,
            )
            rows.ends[round_.pk] = end
    rows.rounds.sort(key=lambda round_: round_.index)
    view = match_replay(match=match, rows=rows)
    closed = match_results_cache(view=view)
    _audit(
        match,
        user,
        AuditEntry.Action.RECORD_IMPORTED,
        f"record imported: {len(parsed.rounds)} round(s), {turn_count} turn(s)",
        {
            "players": list(parsed.players),
            "rounds": len(parsed.rounds),
            "turns": turn_count,
            "problems": sum(len(t.problems) for r in view.rounds for t in r.turns)
            + sum(len(r.problems) for r in view.rounds),
        },
    )
    if closed:
        _log_closing(match, user, view)
    return view


@transaction.atomic
def match_record_import_and_confirm(*, match: Match, user, record: dict[str, Any]) -> MatchReplayView:
    """Fill an empty match from a record (``match_record_import``) and, when the match is over,
    confirm each of its rounds (``match_round_confirm``), as its referee would: how the demo,
    the benchmarks and the tests fill a match. Returns the match as imported."""
    view = match_record_import(match=match, user=user, seen_revision=match.revision, record=record)
    if view.finished:
        for round_view in view.rounds:
            match.refresh_from_db(fields=["revision"])
            match_round_confirm(
                match=match, user=user, seen_revision=match.revision, round_index=round_view.index
            )
    return view


def _imported_turn(turn: engine.TurnRecord, *, round_: Round, index: int, user, path: str) -> Turn:
    """A Turn row for a turn of an imported record; values the rows cannot hold are refused."""
    place = turn.place
    tile = ""
    cell = corners = None
    if place is not None:
        cell, corners = place.cell, place.corners
        if corners is not None and not all(0 <= v <= _MAX_STORED_VALUE for v in corners):
            raise ValidationError(
                {"record": _("%(path)s: the corner values must be numbers from 0 to 5.") % {"path": path}}
            )
        if place.tile is not None:
            try:
                tile = str(engine.parse_tile(place.tile))
            except engine.UnknownTile:
                if len(place.tile) > Turn._meta.get_field("tile").max_length:
                    raise ValidationError(
                        {"record": _("%(path)s: “%(tile)s” is not a tile name.")
                         % {"path": path, "tile": place.tile}}
                    ) from None
                tile = place.tile
        elif corners is not None:
            shown = engine.tile_from_corners(corners)
            tile = str(shown) if shown is not None else "-".join(map(str, sorted(corners)))
    if turn.draws > 32767:
        raise ValidationError({"record": _("%(path)s: too many draws.") % {"path": path}})
    row = Turn(
        round=round_,
        index=index,
        player=turn.player,
        draws=turn.draws,
        tile=tile,
        bonus_claimed=turn.bonus.value if turn.bonus is not None else "",
        points_claimed=turn.claimed,
        decision=turn.decision or "",
        decision_reason=turn.reason or "",
        created_by=user if user is not None and user.is_authenticated else None,
    )
    if cell is not None:
        row.cell_x, row.cell_y, row.cell_orientation = cell.x, cell.y, cell.o
    if corners is not None:
        row.corners = "-".join(map(str, corners))
    return row

