"""Writes of a whole match record: filling an empty match from a record file (and, for the
demo, the benchmarks and the tests, confirming it). Through
:func:`~tournament.matches.services.write.match_write`."""

from __future__ import annotations

import copy
import unicodedata
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournament import engine
from tournament.kit.transactions import retried_whole
from tournament.matches.reading.replayed_match import ReplayedMatch
from tournament.matches.reading.row_conversion import turn_row
from tournament.matches.services.rounds import impossible_racks_of_record, match_round_confirm
from tournament.matches.services.write import WriteResult, match_write, whole
from tournament.models import AuditEntry, Match, Round, RoundEnd
from tournament.names import elide


def _normalised(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if c.isalnum()).casefold()


def _record_error(message: str, code: str) -> ValidationError:
    return ValidationError({"record": ValidationError(message, code=code)})


def _refuse_nul_characters(parsed: engine.MatchRecord) -> None:
    """A player's name or a reason holding a NUL character (``"\\u0000"``: valid JSON, and a
    record the engine reads) is refused: no database column stores it, and the names go to
    the audit log."""
    texts = [("players", name) for name in parsed.players] + [
        (f"rounds[{r}].turns[{t}].reason", turn.reason or "")
        for r, round_record in enumerate(parsed.rounds)
        for t, turn in enumerate(round_record.turns)
    ] + [
        (f"rounds[{r}].settlement_reason", round_record.settlement_reason or "")
        for r, round_record in enumerate(parsed.rounds)
    ]
    for path, text in texts:
        if "\x00" in text:
            raise _record_error(
                _("This file is not a readable match record: %(path)s holds a NUL character.")
                % {"path": path}, "unreadable")


def _imported_turn(turn: engine.TurnRecord, *, round_: Round, index: int, user, path: str):
    """The Turn row of a record's turn (row_conversion.turn_row); a value the row cannot hold is
    refused, keyed ``record`` with its place in the file."""
    try:
        return turn_row(turn, index=index, user=user, round_=round_)
    except ValidationError as error:
        message = " ".join(error.messages)
        raise _record_error(f"{path}: {message}", "value_out_of_range") from None


@whole
def match_record_import(
    *,
    match: Match,
    user,
    seen_revision: int,
    submission_key: str = "",
    record: str | bytes | dict[str, Any],
    names_must_match: bool = True,
) -> WriteResult[ReplayedMatch]:
    """Fill an empty match from a match record (docs/reference/record-format.md, with decisions).

    The engine reads it first: an unreadable record is refused with its message and nothing
    is saved. It must be for the tournament's rule set and target and for as many players as
    the table seats; its names must be the seated players' in seat order (accents, case and
    spaces aside) unless ``names_must_match`` is False (the referee says the record's players
    are in seat order). Every round but the last is closed (its racks, if any); the last is
    closed when the record gives its racks or settlement, else it stays in play. Illegal
    turns and mismatches are kept and flagged, as the record has them; a rack that cannot have
    happened (what the round's end refuses, ``IMPOSSIBLE_RACK_CODES``) refuses the record,
    each error coded as the engine's problem. Errors are keyed ``record``.
    """
    try:
        parsed = engine.parse_record(record) if isinstance(record, dict) else engine.load_record(record)
    except engine.RecordError as error:
        raise _record_error(
            _("This file is not a readable match record: %(detail)s")
            % {"detail": engine.record_error_message(error)}, "unreadable") from None
    except (TypeError, ValueError, OverflowError, RecursionError):
        # a value of the wrong type (an object for a bonus, a list for a coordinate) or a
        # number too long to read, which the engine's reader does not catch itself
        raise _record_error(
            _("This file is not a readable match record: a value has the wrong type or is "
              "too large."), "unreadable") from None
    _refuse_nul_characters(parsed)
    with match_write(match=match, user=user, seen_revision=seen_revision,
                     submission_key=submission_key) as write:
        rows = write.rows
        tournament = write.match.table.session.tournament
        if any(rows.turns.get(r.pk) for r in rows.rounds) or rows.ends:
            raise _record_error(
                _("This match already has turns: a record can only fill an empty match."),
                "match_not_empty")
        if parsed.rules_name != tournament.rules:
            raise _record_error(
                _("The record is played under the rule set “%(record)s”; this tournament plays "
                  "“%(tournament)s”.") % {"record": parsed.rules_name, "tournament": tournament.rules},
                "other_rules")
        if parsed.rules.target != tournament.effective_target:
            raise _record_error(
                _("The record's target is %(record)s points; this tournament's is "
                  "%(tournament)s.")
                % {"record": parsed.rules.target, "tournament": tournament.effective_target},
                "other_target")
        if (options_error := engine.record_options_mismatch(record=parsed, tournament=tournament)):
            raise _record_error(options_error, "record-options")
        names = rows.names
        if len(parsed.players) != len(names):
            raise _record_error(
                _("The record has %(record)s players; this table seats %(table)s.")
                % {"record": len(parsed.players), "table": len(names)}, "player_count")
        if names_must_match:
            differing = [
                (record_name, seated)
                for record_name, seated in zip(parsed.players, names)
                if _normalised(record_name) != _normalised(seated)
            ]
            if differing:
                raise _record_error(
                    _("The record's players are not the seated players in seat order: "
                      "%(pairs)s. Tick the box below if the record's players are in seat order "
                      "all the same.")
                    % {"pairs": elide(pgettext("between the items of a list", "; ").join(
                        _("“%(record)s” at the seat of %(seated)s") % {"record": r, "seated": s}
                        for r, s in differing))},
                    "names_differ")

        existing_rounds = {round_.index: round_ for round_ in rows.rounds}
        # the rounds the match has not begun, in one insert (not one a round)
        added = Round.objects.bulk_create([
            Round(match=write.match, index=r) for r in range(len(parsed.rounds))
            if r not in existing_rounds])
        rows.rounds.extend(added)
        existing_rounds.update((round_.index, round_) for round_ in added)
        last = len(parsed.rounds) - 1
        turn_count = 0
        ends = []
        for r, round_record in enumerate(parsed.rounds):
            round_ = existing_rounds[r]
            turns = rows.round_turns(round_)
            for t, turn in enumerate(round_record.turns):
                turns.append(_imported_turn(turn, round_=round_, index=t, user=user,
                                            path=f"rounds[{r}].turns[{t}]"))
            turn_count += len(round_record.turns)
            if r < last or round_record.racks is not None or round_record.settlement_claimed is not None:
                end = RoundEnd(
                    round=round_,
                    racks=[rack if isinstance(rack, int) else list(rack)
                           for rack in round_record.racks]
                    if round_record.racks is not None else [],
                    settlement_claimed=list(round_record.settlement_claimed)
                    if round_record.settlement_claimed is not None else None,
                    decision=round_record.settlement_decision or "",
                    decision_reason=round_record.settlement_reason or "",
                    created_by=write.author,
                )
                rows.ends[round_.pk] = end
                ends.append(end)
        rows.rounds.sort(key=lambda round_: round_.index)
        if parsed.time_up != write.match.time_up_round:  # the session clock's, docs/guides/room.md
            write.match.time_up_round = parsed.time_up
            write.match.save(update_fields=["time_up_round"])
        replay = write.replay()
        impossible_racks_of_record(replay)
        RoundEnd.objects.bulk_create(ends)
        write.audit(
            AuditEntry.Action.RECORD_IMPORTED,
            f"record imported: {len(parsed.rounds)} round(s), {turn_count} turn(s)",
            {
                "players": list(parsed.players),
                "rounds": len(parsed.rounds),
                "turns": turn_count,
                "problems": sum(len(t.problems) for r in replay.rounds for t in r.turns)
                + sum(len(r.problems) for r in replay.rounds),
            },
        )
    return WriteResult(saved=replay, replay=replay)


def match_record_import_and_confirm(*, match: Match, user, record: dict[str, Any] | bytes,
                                    names_must_match: bool = True) -> ReplayedMatch:
    """Fill an empty match from a record (``match_record_import``) and, when the match is over,
    confirm each of its rounds (``match_round_confirm``), as its referee would: how the demo,
    the benchmarks, the tests and the import of past results fill a match. Returns the match
    as written. ``names_must_match``: as for ``match_record_import``. One write, run whole
    (``retried_whole``) from the revision ``match`` has when called."""
    seen_revision = match.revision

    def write() -> ReplayedMatch:
        current = copy.copy(match)
        replay = match_record_import(match=current, user=user, seen_revision=seen_revision,
                                     record=record, names_must_match=names_must_match).replay
        if replay.finished:
            for round_view in replay.rounds:
                current.refresh_from_db(fields=["revision"])
                replay = match_round_confirm(
                    match=current, user=user, seen_revision=current.revision,
                    round_index=round_view.index
                ).replay
        return replay

    return retried_whole(write)
