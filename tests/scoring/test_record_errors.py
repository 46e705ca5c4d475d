"""Every reading error carries its template (scoring/messages.py) and parameters, so the web app
can say it in French, and its English text is the template rendered with them: one bad record
per template."""

from __future__ import annotations

import json
import string
from typing import Any

import pytest

from scoring import RecordError, load_record
from scoring.messages import MESSAGES, RECORD_ERRORS, Phrase, render
from tests.scoring.engine_records import record, round_, turn

ANA_BO = ["Ana", "Bo"]
GOOD = record(ANA_BO, round_([turn(0, "5-5-5", claimed=25)]))


def with_turn(**extra: Any) -> dict[str, Any]:
    return record(ANA_BO, round_([{**turn(0, "5-5-5"), **extra}]))


def dump(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode("utf-8")


# (bad record, the template of its error, its English text as `python -m scoring check` says it)
CASES: list[tuple[bytes, str, str]] = [
    (b"\xff\xfe{}", "not-utf8", "not UTF-8 text: byte 0"),
    (b"{", "not-json",
     "not JSON: line 1 column 2: Expecting property name enclosed in double quotes"),
    (b"[" * 100_000, "too-deep", "not a match record: JSON nested too deeply"),
    # An integer too long to convert, then nesting too deep: the second reading meets the depth.
    (b'{"x": ' + b"9" * 5000 + b', "y": ' + b"[" * 100_000, "too-deep",
     "not a match record: JSON nested too deeply"),
    (dump({**GOOD, "format": "triominos-match/2"}), "wrong-format",
     "format: expected 'triominos-match/1', got 'triominos-match/2'"),
    (dump({**GOOD, "rules": "chess"}), "unknown-rules",
     "rules: unknown rule set 'chess' (known: goliath-tournament, goliath-family, travel-tour)"),
    (dump({**GOOD, "players": ["Ana"]}), "player-count",
     "players: goliath-tournament is played by 2 to 4 players, got 1"),
    (dump({k: v for k, v in GOOD.items() if k != "rounds"}), "missing", "rounds: missing"),
    (dump(with_turn(place={"cell": [0, 0, "U"]})), "missing/corners",
     "rounds[0].turns[0].place.corners: missing (a cell needs its corners)"),
    (dump(with_turn(place={})), "empty-place",
     "rounds[0].turns[0].place: needs cell and corners, or tile"),
    (dump(with_turn(player=2)), "not-a-player",
     "rounds[0].turns[0].player: 2 is not a player index (0 to 1)"),
    (dump(with_turn(decision="claim")), "claim-without-reason",
     "rounds[0].turns[0]: a decision to keep the claim needs claimed and a reason"),
    (dump(record(ANA_BO, {**round_([]), "settlement_decision": "claim"})),
     "settlement-claim-without-reason",
     "rounds[0]: a decision to keep the settlement claimed needs settlement_claimed and a "
     "reason"),
    (dump(record(ANA_BO, round_([], racks=[[]]))), "one-rack-per-player",
     "rounds[0].racks: expected one rack per player (2), got 1"),
    (dump(record(ANA_BO, round_([], settlement=[1, 2, 3]))), "one-number-per-player",
     "rounds[0].settlement_claimed: expected one number per player (2), got 3"),
    (dump(with_turn(draws=-1)), "expected/integer-minimum",
     "rounds[0].turns[0].draws: expected an integer >= 0, got -1"),
    (dump(with_turn(draws="two")), "expected/integer",
     'rounds[0].turns[0].draws: expected an integer, got a string "two"'),
    (dump({**GOOD, "rounds": {}}), "expected/list", "rounds: expected a list, got an object {}"),
    (b"null", "expected/object", "record: expected an object, got null"),
    (dump(with_turn(decision="engine", reason=True)), "expected/text",
     "rounds[0].turns[0].reason: expected a text, got a boolean true"),
    (dump(with_turn(bonus="jackpot")), "expected/one-of",
     "rounds[0].turns[0].bonus: expected one of: opening, bridge, two-sides, hexagon, "
     'double-hexagon, triple-hexagon, got a string "jackpot"'),
    (dump(with_turn(place={"cell": "U(0,0)", "corners": [1, 2, 3], "tile": "1-2-3"})),
     "expected/cell",
     'rounds[0].turns[0].place.cell: expected a cell [x, y, "U" or "D"], got a string "U(0,0)"'),
    (dump(with_turn(place={"corners": [1.5, 2, 3]})), "expected/corners",
     "rounds[0].turns[0].place.corners: expected three corner values [a, b, c], "
     "got a list [1.5, 2, 3]"),
    (dump(record(ANA_BO, round_([], racks=[[12], []]))), "expected/tile-name",
     'rounds[0].racks[0][0]: expected a tile name like "0-1-2", got an integer 12'),
    (dump({**GOOD, "rules": ["goliath-tournament"] * 3}), "expected/rule-set-name",
     "rules: expected a rule set name, got a list"),
    (dump({**GOOD, "players": ["Ana", ""]}), "expected/player-name",
     "players[1]: expected a player's name, got a string \"\""),
    (dump({**GOOD, "target": 1.5}), "expected/integer",
     "target: expected an integer, got a number 1.5"),
    # a value too long to show is named by its type only
    (dump(with_turn(claimed="x" * 40)), "expected/integer",
     "rounds[0].turns[0].claimed: expected an integer, got a string"),
    (dump(with_turn(claimed={"points": "x" * 30})), "expected/integer",
     "rounds[0].turns[0].claimed: expected an integer, got an object"),
    (dump({**GOOD, "rules": 2**200}), "expected/rule-set-name",
     "rules: expected a rule set name, got an integer"),
    (dump(with_turn(draws=10**12)), "expected/integer-range",
     "rounds[0].turns[0].draws: expected an integer from 0 to 1000000000, "
     "got an integer 1000000000000"),
    (b'{"players": ["Ana", "Bo"], "rounds": [{"turns": [{"player": 0, "claimed": '
     + b"9" * 5000 + b"}]}]}", "expected/integer-range",
     "rounds[0].turns[0].claimed: expected an integer from -1000000000 to 1000000000, "
     "got an integer"),
    (dump({**GOOD, "options": {"rounds": 5, "time_limit": 30}}), "unknown-option",
     "options.time_limit: unknown option (known: opening_bonus, rounds, time_up)"),
    (dump({**GOOD, "options": {"opening_bonus": "no"}}), "expected/boolean",
     'options.opening_bonus: expected true or false, got a string "no"'),
    (dump({**GOOD, "options": {"rounds": 0}}), "expected/integer-minimum",
     "options.rounds: expected an integer >= 1, got 0"),
    (dump({**GOOD, "options": {"rounds": True}}), "expected/integer",
     "options.rounds: expected an integer, got a boolean true"),
    (dump({**GOOD, "options": ["rounds", 5]}), "expected/object",
     'options: expected an object, got a list ["rounds", 5]'),
    (b'{"players": ["Ana", "\\udc00"], "rounds": []}', "not-unicode",
     "players[1]: not Unicode text (an unpaired surrogate escape such as \\ud800)"),
]


def read_error(data: bytes) -> RecordError:
    with pytest.raises(RecordError) as raised:
        load_record(data)
    return raised.value


def phrases(params: dict[str, object]) -> list[Phrase]:
    return [value for value in params.values() if isinstance(value, Phrase)]


@pytest.mark.parametrize(("data", "template", "english"), CASES,
                         ids=[f"{case[1]}-{i}" for i, case in enumerate(CASES)])
def test_a_reading_error_carries_its_template_and_parameters(data: bytes, template: str,
                                                             english: str) -> None:
    error = read_error(data)
    assert error.template == template
    assert template in RECORD_ERRORS and template not in MESSAGES
    assert str(error) == render(error.template, error.params)
    assert str(error) == english
    for phrase in phrases(error.params):
        assert phrase.template in RECORD_ERRORS
        assert not phrases(dict(phrase.params))
    # every placeholder filled, nothing more: the translation gets the same parameters
    names = {name for _t, name, _s, _c in string.Formatter().parse(RECORD_ERRORS[template])
             if name}
    assert names == set(error.params)


def test_every_template_is_raised_by_a_case() -> None:
    raised = set()
    for data, _template, _english in CASES:
        error = read_error(data)
        raised.add(error.template)
        raised.update(phrase.template for phrase in phrases(error.params))
    assert raised == set(RECORD_ERRORS)
