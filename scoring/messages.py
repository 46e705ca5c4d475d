"""The English text of every problem the referee can see, and of every reading error.

One template per problem code (a few codes have variants, keyed ``code/variant``), marked
with the no-op :func:`N_` so that ``django-admin makemessages --keyword=N_`` collects them.
A :class:`~scoring.reports.Problem` keeps its template key and its parameters, so the web app
can format the translated template again::

    >>> render("rack-mismatch", {"player": "Chloé", "shown": 2, "expected": 3})
    "Chloé's rack shows 2 tile(s), 3 expected"

A :class:`~scoring.errors.RecordError` (a record that cannot be read) does the same with the
templates of :data:`RECORD_ERRORS`. The JSON path and the values shown are parameters; a
parameter that is itself words to translate (what was found instead) is a :class:`Phrase`::

    >>> got = Phrase("got/string", {"value": '"two"'})
    >>> render("expected/integer", {"path": "rounds[0].turns[0].draws", "got": got})
    'rounds[0].turns[0].draws: expected an integer, got a string "two"'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

__all__ = ["N_", "MESSAGES", "RECORD_ERRORS", "Phrase", "render"]


def N_(message: str) -> str:
    """Mark a string for translation without translating it."""
    return message


MESSAGES: Final[Mapping[str, str]] = {
    "claim-mismatch": N_("{player} claimed {claimed} for {tile} at {cell}, the turn scores {sum}"),
    "claim-mismatch/sheet": N_("{player} claimed {claimed} for {tile}, the turn scores {sum}"),
    "claim-mismatch/no-tile": N_(
        "{player} claimed {claimed} for a turn without a placement, the turn scores {sum}"
    ),
    "bonus-mismatch": N_(
        "{player} claimed {claimed_bonus} for {tile} at {cell}, the placement earns {found}"
    ),
    "bonus-mismatch/none": N_(
        "{player} claimed {claimed_bonus} for {tile} at {cell}, the placement earns no bonus"
    ),
    "bonus-mismatch/impossible": N_(
        "{player} claimed {claimed_bonus} for {tile}, impossible with {count} tiles on the "
        "table ({needed} needed)"
    ),
    "bonus-mismatch/not-first": N_(
        "{player} claimed opening for {tile}, but the round was already opened"
    ),
    "bonus-mismatch/not-triple": N_(
        "{player} claimed opening for {tile}: only a triple earns the opening bonus"
    ),
    "bonus-mismatch/no-opening-bonus": N_(
        "{player} claimed opening for {tile}: these rules give no opening bonus"
    ),
    "bonus-mismatch/not-in-rules": N_(
        "{player} claimed {claimed_bonus} for {tile}: these rules give no such bonus"
    ),
    "bonus-mismatch/opening": N_(
        "{player} claimed {claimed_bonus} for {tile}, the first tile of the round earns opening"
    ),
    "occupied": N_("{player} cannot place {tile} at {cell}: the cell already holds {other}"),
    "no-shared-side": N_(
        "{player} cannot place {tile} at {cell}: it shares no side with the tiles on the table"
    ),
    "corner-mismatch": N_(
        "{player} cannot place {tile} at {cell}: its corner at {point} shows {value}, "
        "the table shows {expected} there"
    ),
    "mirror-tile": N_(
        "{player} cannot place corners {corners}: they show the mirror image of {tile}, "
        "which does not exist"
    ),
    "unknown-tile": N_("{player} played {given}, which is not a tile (three values 0 to 5)"),
    "unknown-tile/disagree": N_(
        "{player} played {given}, but the corners {corners} show {tile}"
    ),
    "unknown-tile/rack": N_("{player}'s rack shows {given}, which is not a tile"),
    "tile-already-played": N_("{player} played {tile}, which is already on the table"),
    "tile-already-played/rack": N_(
        "{player}'s rack shows {tile}, which was played in this round"
    ),
    "tile-already-played/two-racks": N_("{tile} is shown in the racks of {other} and {player}"),
    "tile-already-played/same-rack": N_("{player}'s rack shows {tile} twice"),
    "out-of-turn": N_("{player} played out of turn: {expected} was next"),
    "too-many-draws": N_(
        "{player} drew {draws} tiles, at most {allowed} could be drawn (the pool held {pool})"
    ),
    "pass-with-pool": N_(
        "{player} did not place after {draws} draw(s) while the pool still held {pool} tiles: "
        "a player draws up to {max_draws} tiles before passing"
    ),
    "turn-after-end": N_("{player} played a turn after {out_player} went out"),
    "turn-after-end/blocked": N_("{player} played a turn after the round was blocked"),
    "rack-mismatch": N_("{player}'s rack shows {shown} tile(s), {expected} expected"),
    "rack-impossible": N_(
        "{player}'s rack shows {shown} tiles: with the table, the pool and the other racks, "
        "at most {allowed} could be held"
    ),
    "rack-total-impossible": N_(
        "{player}'s rack is given as a total of {total}: the {count} tile(s) {player} holds "
        "total {most} at most"
    ),
    "rack-total-impossible/empty": N_(
        "{player}'s rack is given as a total of {total}, but {player} holds no tile"
    ),
    "settlement-mismatch": N_(
        "{player} claimed {claimed} at the settlement, the settlement gives {computed}"
    ),
    "settlement-mismatch/several": N_(
        "the settlement claimed ({claimed}) differs from the computed one ({computed}) "
        "for {players}"
    ),
    "settlement-mismatch/unfinished": N_(
        "a settlement ({claimed}) was claimed, but the round is not over"
    ),
    "round-after-match-end": N_(
        "round {number} was recorded after the match had ended (target {target} reached)"
    ),
    "round-after-match-end/rounds": N_(
        "round {number} was recorded after the match had ended (its {rounds} rounds played)"
    ),
    "round-after-match-end/time": N_(
        "round {number} was recorded after the match had ended (time was up during round "
        "{time_up})"
    ),
    "false-block": N_(
        "the round ended blocked, but {player}'s {tile} could still go at {cell}"
    ),
}


#: Why a match record cannot be read (scoring/record_reading.py). Every one but the first three
#: names the JSON path first; ``got`` is a :class:`Phrase` keyed ``got/...`` below.
RECORD_ERRORS: Final[Mapping[str, str]] = {
    "not-utf8": N_("not UTF-8 text: byte {byte}"),
    # detail: the JSON parser's own words (Python's, in English)
    "not-json": N_("not JSON: line {line} column {column}: {detail}"),
    "too-deep": N_("not a match record: JSON nested too deeply"),
    "wrong-format": N_("{path}: expected {expected}, got {value}"),
    "unknown-rules": N_("{path}: unknown rule set {name} (known: {known})"),
    "player-count": N_("{path}: {rules} is played by {minimum} to {maximum} players, got {count}"),
    "missing": N_("{path}: missing"),
    "unknown-option": N_("{path}: unknown option (known: {known})"),
    "missing/corners": N_("{path}: missing (a cell needs its corners)"),
    "empty-place": N_("{path}: needs cell and corners, or tile"),
    "not-a-player": N_("{path}: {player} is not a player index (0 to {last})"),
    "claim-without-reason": N_("{path}: a decision to keep the claim needs claimed and a reason"),
    "settlement-claim-without-reason": N_(
        "{path}: a decision to keep the settlement claimed needs settlement_claimed and a reason"
    ),
    "one-rack-per-player": N_("{path}: expected one rack per player ({players}), got {count}"),
    "one-number-per-player": N_(
        "{path}: expected one number per player ({players}), got {count}"
    ),
    "expected/integer-minimum": N_("{path}: expected an integer >= {minimum}, got {value}"),
    "expected/integer-range": N_(
        "{path}: expected an integer from {minimum} to {maximum}, got {got}"
    ),
    "not-unicode": N_("{path}: not Unicode text (an unpaired surrogate escape such as \\ud800)"),
    "expected/integer": N_("{path}: expected an integer, got {got}"),
    "expected/list": N_("{path}: expected a list, got {got}"),
    "expected/object": N_("{path}: expected an object, got {got}"),
    "expected/text": N_("{path}: expected a text, got {got}"),
    "expected/boolean": N_("{path}: expected true or false, got {got}"),
    "expected/one-of": N_("{path}: expected one of: {choices}, got {got}"),
    "expected/cell": N_('{path}: expected a cell [x, y, "U" or "D"], got {got}'),
    "expected/corners": N_("{path}: expected three corner values [a, b, c], got {got}"),
    "expected/tile-name": N_('{path}: expected a tile name like "0-1-2", got {got}'),
    "expected/rule-set-name": N_("{path}: expected a rule set name, got {got}"),
    "expected/player-name": N_("{path}: expected a player's name, got {got}"),
    # what was found instead: its JSON type, with the value when it is short
    "got/null": N_("null"),
    "got/boolean": N_("a boolean {value}"),
    "got/integer": N_("an integer {value}"),
    "got/number": N_("a number {value}"),
    "got/string": N_("a string {value}"),
    "got/list": N_("a list {value}"),
    "got/object": N_("an object {value}"),
    "got/integer/long": N_("an integer"),
    "got/string/long": N_("a string"),
    "got/list/long": N_("a list"),
    "got/object/long": N_("an object"),
}

_TEMPLATES: Final[Mapping[str, str]] = {**MESSAGES, **RECORD_ERRORS}


@dataclass(frozen=True, slots=True)
class Phrase:
    """Words inside a message that are translated too: a template key and its parameters.

    It formats as its English text, so a message rendered with a phrase reads whole::

        >>> str(Phrase("got/integer", {"value": -1}))
        'an integer -1'
    """

    template: str
    params: Mapping[str, object] = field(default_factory=dict)

    def __str__(self) -> str:
        return render(self.template, self.params)


def render(template: str, params: Mapping[str, object]) -> str:
    """Format the English template ``template`` (a key of :data:`MESSAGES` or of
    :data:`RECORD_ERRORS`) with ``params``."""
    return _TEMPLATES[template].format_map(params)
