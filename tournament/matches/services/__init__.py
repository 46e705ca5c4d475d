"""Writes to a match, every one through one path (:mod:`.write`: claim the revision, load the
rows once, replay once, write, store the results, audit; the replay made is returned for the
view to render), grouped by what they write:

- :mod:`.turn_inputs`: what a caller gives for a turn, and why turns are refused;
- :mod:`.turns`: adding turns (board and sheet mode), undoing, correcting, inserting,
  deciding on a claim;
- :mod:`.rounds`: the racks at the end of a round, deciding on a settlement claimed that
  differs, the round's confirmation;
- :mod:`.records`: filling an empty match from a record.

Each returns a :class:`WriteResult`: ``saved`` (what it wrote) and ``replay`` (the match as
written). A closed session, or one seated but not started, refuses every write
(``ValidationError`` with the code ``session_closed`` or ``session_not_started``); a save
based on an older revision raises :class:`StaleMatch`.
"""

from tournament.matches.services.records import match_record_import, match_record_import_and_confirm
from tournament.matches.services.rounds import (
    RackInput,
    match_round_confirm,
    match_round_end,
    match_round_settlement_decide,
)
from tournament.matches.services.turn_inputs import (
    MismatchesNotSeen,
    Refusal,
    TurnInput,
    TurnsRefused,
    turn_snapshot,
)
from tournament.matches.services.turns import (
    candidate_players,
    candidate_reports,
    match_turn_correct,
    match_turn_decide,
    match_turn_insert,
    match_turn_undo,
    match_turns_add,
)
from tournament.matches.services.write import (
    AlreadySaved,
    StaleMatch,
    WriteResult,
    already_saved_message,
    match_results_cache,
    match_write,
    stale_match_message,
    submission_saved,
)

__all__ = [
    "AlreadySaved",
    "MismatchesNotSeen",
    "RackInput",
    "Refusal",
    "StaleMatch",
    "TurnInput",
    "TurnsRefused",
    "WriteResult",
    "candidate_players",
    "candidate_reports",
    "match_record_import",
    "match_record_import_and_confirm",
    "match_results_cache",
    "match_round_confirm",
    "match_round_end",
    "match_round_settlement_decide",
    "match_turn_correct",
    "match_turn_decide",
    "match_turn_insert",
    "match_turn_undo",
    "match_turns_add",
    "match_write",
    "already_saved_message",
    "stale_match_message",
    "submission_saved",
    "turn_snapshot",
]
