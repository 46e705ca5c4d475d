"""Reading a match record (docs/reference/record-format.md): JSON text or decoded JSON to the typed,
frozen objects of :mod:`scoring.record`.

Reading checks the shape of the record only: types, ranges, the rule set, the player
indexes. What a referee must hear about (a wrong claim, an unknown tile name, a mirror image)
is not a reading error: the replay reports it as a problem. Errors are :class:`RecordError`
naming the JSON path. The extensions read here (docs/reference/engine.md) are those of
:mod:`scoring.record`: a rack's total, and the referee's decisions (a turn's ``decision`` and
``reason``, a round's ``settlement_decision`` and ``settlement_reason``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Final, TypeVar

from scoring.board import Bonus
from scoring.errors import RecordError
from scoring.geometry import Cell
from scoring.messages import Phrase
from scoring.record import (
    DECISIONS,
    FORMAT,
    INTEGER_LIMIT,
    Decision,
    MatchRecord,
    PlaceRecord,
    Rack,
    RoundRecord,
    TurnRecord,
)
from scoring.rules import DEFAULT_RULES, RULE_SETS, UnknownRuleSet, rule_set

__all__ = ["OPTIONS", "load_record", "parse_record"]

_Item = TypeVar("_Item")

_BONUSES: Final = {bonus.value: bonus for bonus in Bonus}
_new: Final = tuple.__new__
_ORIENTATIONS: Final = ("U", "D")


def load_record(text: str | bytes) -> MatchRecord:
    """Read a record from JSON text; raises :class:`RecordError` with a one-line message.

    >>> load_record('{"players": ["Ana", "Bo"], "rounds": []}').players
    ('Ana', 'Bo')
    >>> load_record('{"players": ["Ana", "Bo"], "rounds": [{"turns": [{"player": 2}]}]}')
    Traceback (most recent call last):
    scoring.errors.RecordError: rounds[0].turns[0].player: 2 is not a player index (0 to 1)
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise RecordError("not-utf8", byte=error.start) from None
    try:
        data = _loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(
            "not-json", line=error.lineno, column=error.colno, detail=error.msg
        ) from None
    except RecursionError:
        raise RecordError("too-deep") from None
    return parse_record(data)


def _loads(text: str) -> Any:
    """``json.loads``, and once more for an integer too long for Python to convert (more than
    4300 digits), keeping such integers as markers so that the field that holds one is named.
    The second reading may go deeper than the first (which stopped at that integer): both
    raise the same errors."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except ValueError:
        return json.loads(text, parse_int=_parse_int)


class _LongInteger:
    """An integer of the JSON text too long to convert; the reader refuses it by its path."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits


def _parse_int(text: str) -> int | _LongInteger:
    if len(text) > 100:
        return _LongInteger(len(text))
    return int(text)


#: A JSON value's type as the message names it: with the value shown, and without (too long).
_GOT: Final = {
    bool: ("got/boolean", "got/boolean"),  # true or false: never too long
    int: ("got/integer", "got/integer/long"),
    float: ("got/number", "got/number"),  # 24 characters at most
    str: ("got/string", "got/string/long"),
    list: ("got/list", "got/list/long"),
    dict: ("got/object", "got/object/long"),
}


def _got(value: object) -> Phrase | str:
    """What was found instead: its JSON type, with the value when it is short."""
    if value is None:
        return Phrase("got/null")
    if type(value) is _LongInteger:
        return Phrase("got/integer/long")
    try:
        shown = json.dumps(value, ensure_ascii=False)
        if not shown.isascii():
            shown.encode("utf-8")
    except UnicodeEncodeError:  # an unpaired surrogate ("\udfff"): shown as its escape
        shown = json.dumps(value)
    except (ValueError, TypeError, RecursionError):  # nested too deeply, or not JSON at all
        shown = "-" * 41
    templates = _GOT.get(type(value))
    if templates is None:  # not a JSON value (parse_record called from Python): its type's name
        name = type(value).__name__
        return name if len(shown) > 40 else f"{name} {shown}"
    if len(shown) > 40:
        return Phrase(templates[1])
    return Phrase(templates[0], {"value": shown})


def _fail(path: str, template: str, value: object, **params: object) -> RecordError:
    """``path`` holds ``value``, not what the template (``expected/...``) says."""
    return RecordError(template, path=path, got=_got(value), **params)


def _int(value: object, path: str, *, minimum: int | None = None) -> int:
    if type(value) is not int or not -INTEGER_LIMIT <= value <= INTEGER_LIMIT:
        if type(value) is not int and type(value) is not _LongInteger:
            raise _fail(path, "expected/integer", value)
        raise _fail(
            path,
            "expected/integer-range",
            value,
            minimum=-INTEGER_LIMIT if minimum is None else minimum,
            maximum=INTEGER_LIMIT,
        )
    if minimum is not None and value < minimum:
        raise RecordError("expected/integer-minimum", path=path, minimum=minimum, value=value)
    return value


def _text(value: str, path: str) -> str:
    """A text read from the record: refused when it holds an unpaired surrogate (a ``\\ud800``
    escape alone), which no output could encode."""
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise RecordError("not-unicode", path=path) from None
    return value


def _list(value: object, path: str) -> list[Any]:
    if type(value) is not list:
        raise _fail(path, "expected/list", value)
    return value


def _object(value: object, path: str) -> Mapping[str, Any]:
    if type(value) is not dict:
        raise _fail(path, "expected/object", value)
    return value


def _required(data: Mapping[str, Any], key: str, path: str) -> Any:
    try:
        return data[key]
    except KeyError:
        raise RecordError("missing", path=f"{path}{key}") from None


def _cell(value: object, path: str) -> Cell:
    if (
        type(value) is not list
        or len(value) != 3
        or type(value[0]) is not int
        or type(value[1]) is not int
        or value[2] not in _ORIENTATIONS
    ):
        raise _fail(path, "expected/cell", value)
    _int(value[0], f"{path}[0]")
    _int(value[1], f"{path}[1]")
    return Cell(value[0], value[1], value[2])


def _corners(value: object, path: str) -> tuple[int, int, int]:
    if type(value) is not list or len(value) != 3 or any(type(v) is not int for v in value):
        raise _fail(path, "expected/corners", value)
    for i, corner in enumerate(value):
        _int(corner, f"{path}[{i}]")
    return (value[0], value[1], value[2])


def _place(value: object, path: str) -> PlaceRecord:
    data = _object(value, path)
    tile = data.get("tile")
    if tile is not None:
        if type(tile) is not str:
            raise _fail(f"{path}.tile", "expected/tile-name", tile)
        _text(tile, f"{path}.tile")
    cell = data.get("cell")
    corners = data.get("corners")
    if cell is not None and corners is None:
        raise RecordError("missing/corners", path=f"{path}.corners")
    if cell is None and corners is None and tile is None:
        raise RecordError("empty-place", path=path)
    return PlaceRecord(
        tile,
        None if cell is None else _cell(cell, f"{path}.cell"),
        None if corners is None else _corners(corners, f"{path}.corners"),
    )


def _turn_path(r: int, t: int) -> str:
    return f"rounds[{r}].turns[{t}]"


def _turn(value: object, r: int, t: int, players: int) -> TurnRecord:
    """One turn; the common case takes a few look-ups, and the JSON path is only spelled
    out for an error."""
    if type(value) is not dict:
        raise _fail(_turn_path(r, t), "expected/object", value)
    get = value.get
    player = get("player")
    if type(player) is not int or not 0 <= player < players:
        if player is None:
            raise RecordError("missing", path=f"{_turn_path(r, t)}.player")
        _int(player, f"{_turn_path(r, t)}.player", minimum=0)
        raise RecordError(
            "not-a-player", path=f"{_turn_path(r, t)}.player", player=player, last=players - 1
        )
    draws = get("draws")
    if draws is None:
        draws = 0
    elif type(draws) is not int or not 0 <= draws <= INTEGER_LIMIT:
        _int(draws, f"{_turn_path(r, t)}.draws", minimum=0)
    claimed = get("claimed")
    if claimed is not None and (
        type(claimed) is not int or not -INTEGER_LIMIT <= claimed <= INTEGER_LIMIT
    ):
        _int(claimed, f"{_turn_path(r, t)}.claimed")
    bonus = get("bonus")
    if bonus is not None:
        if type(bonus) is not str or bonus not in _BONUSES:
            raise _fail(
                f"{_turn_path(r, t)}.bonus", "expected/one-of", bonus, choices=", ".join(_BONUSES)
            )
        bonus = _BONUSES[bonus]
    place = get("place")
    if place is not None:
        if type(place) is dict and len(place) == 2 and "tile" not in place:
            # The common board-mode shape: {"cell": [x, y, o], "corners": [a, b, c]}.
            cell = place.get("cell")
            corners = place.get("corners")
            if (
                type(cell) is list
                and len(cell) == 3
                and type(cell[0]) is int
                and type(cell[1]) is int
                and cell[2] in _ORIENTATIONS
                and -INTEGER_LIMIT <= cell[0] <= INTEGER_LIMIT
                and -INTEGER_LIMIT <= cell[1] <= INTEGER_LIMIT
                and type(corners) is list
                and len(corners) == 3
                and type(corners[0]) is int
                and type(corners[1]) is int
                and type(corners[2]) is int
                and -INTEGER_LIMIT <= corners[0] <= INTEGER_LIMIT
                and -INTEGER_LIMIT <= corners[1] <= INTEGER_LIMIT
                and -INTEGER_LIMIT <= corners[2] <= INTEGER_LIMIT
            ):
                # PlaceRecord(None, Cell(*cell), tuple(corners)) without the Python-level
                # __new__ of NamedTuple: one per turn
                place = _new(PlaceRecord, (None, _new(Cell, cell), (*corners,)))
            else:
                place = _place(place, f"{_turn_path(r, t)}.place")
        else:
            place = _place(place, f"{_turn_path(r, t)}.place")
    decision = get("decision")
    reason = get("reason")
    if decision is not None or reason is not None:
        path = _turn_path(r, t)
        decision, reason = _decision(decision, reason, path, "decision", "reason")
        if decision == "claim" and (claimed is None or not reason):
            raise RecordError("claim-without-reason", path=path)
    return _new(TurnRecord, (player, draws, place, claimed, bonus, decision, reason))


def _decision(
    decision: object, reason: object, path: str, decision_key: str, reason_key: str
) -> tuple[Decision, str | None]:
    """A referee's decision and its reason as the record gives them (a turn's ``decision``
    and ``reason``, a round's ``settlement_decision`` and ``settlement_reason``)."""
    if decision not in DECISIONS:
        raise _fail(
            f"{path}.{decision_key}", "expected/one-of", decision, choices=", ".join(DECISIONS)
        )
    if reason is not None:
        if type(reason) is not str:
            raise _fail(f"{path}.{reason_key}", "expected/text", reason)
        _text(reason, f"{path}.{reason_key}")
    return decision, reason


def _rack(value: object, path: str) -> Rack:
    if type(value) is int:
        return _int(value, path, minimum=0)
    names = _list(value, path)
    for j, name in enumerate(names):
        if type(name) is not str:
            raise _fail(f"{path}[{j}]", "expected/tile-name", name)
        _text(name, f"{path}[{j}]")
    return tuple(names)


def _per_player(
    value: object, path: str, players: int, template: str, read: Callable[[object, str], _Item]
) -> tuple[_Item, ...]:
    """A list of one item per player, each read by ``read(value, path)``; ``template`` says
    what a list of another length lacks."""
    values = _list(value, path)
    if len(values) != players:
        raise RecordError(template, path=path, players=players, count=len(values))
    return tuple(read(one, f"{path}[{i}]") for i, one in enumerate(values))


def _round(value: object, index: int, players: int) -> RoundRecord:
    path = f"rounds[{index}]"
    data = _object(value, path)
    turns = _list(_required(data, "turns", f"{path}."), f"{path}.turns")
    racks = data.get("racks")
    if racks is not None:
        racks = _per_player(racks, f"{path}.racks", players, "one-rack-per-player", _rack)
    settlement = data.get("settlement_claimed")
    if settlement is not None:
        settlement = _per_player(
            settlement, f"{path}.settlement_claimed", players, "one-number-per-player", _int
        )
    decision = data.get("settlement_decision")
    reason = data.get("settlement_reason")
    if decision is not None or reason is not None:
        decision, reason = _decision(
            decision, reason, path, "settlement_decision", "settlement_reason"
        )
        if decision == "claim" and (settlement is None or not reason):
            raise RecordError("settlement-claim-without-reason", path=path)
    return RoundRecord(
        turns=tuple([_turn(turn, index, i, players) for i, turn in enumerate(turns)]),
        racks=racks,
        settlement_claimed=settlement,
        settlement_decision=decision,
        settlement_reason=reason,
    )


def parse_record(data: object) -> MatchRecord:
    """Read a record from decoded JSON; raises :class:`RecordError` naming the JSON path."""
    data = _object(data, "record")
    # A record without "format" is read as the current version; another version is refused.
    form = data.get("format", FORMAT)
    if form != FORMAT:
        raise RecordError("wrong-format", path="format", expected=repr(FORMAT), value=repr(form))
    rules_name = data.get("rules")
    if rules_name is None:
        rules_name = DEFAULT_RULES.name
    elif type(rules_name) is not str:
        raise _fail("rules", "expected/rule-set-name", rules_name)
    target = data.get("target")
    if target is not None:
        target = _int(target, "target", minimum=1)
    opening_bonus, round_limit, time_up = _options(data.get("options"))
    try:
        rules = rule_set(rules_name, target=target)
    except UnknownRuleSet:
        raise RecordError(
            "unknown-rules", path="rules", name=repr(rules_name), known=", ".join(RULE_SETS)
        ) from None
    players = _list(_required(data, "players", ""), "players")
    for i, name in enumerate(players):
        if type(name) is not str or not name.strip():
            raise _fail(f"players[{i}]", "expected/player-name", name)
        _text(name, f"players[{i}]")
    if not rules.min_players <= len(players) <= rules.max_players:
        raise RecordError(
            "player-count", path="players", rules=rules.name, minimum=rules.min_players,
            maximum=rules.max_players, count=len(players),
        )
    rounds = _list(_required(data, "rounds", ""), "rounds")
    count = len(players)
    return MatchRecord(
        players=tuple(players),
        rounds=tuple(_round(r, i, count) for i, r in enumerate(rounds)),
        rules_name=rules_name,
        target=target,
        opening_bonus=opening_bonus,
        round_limit=round_limit,
        time_up=time_up,
    )


#: The options a record may set on top of its rule set (docs/reference/rules.md).
OPTIONS: Final = ("opening_bonus", "rounds", "time_up")


def _options(value: object) -> tuple[bool, int | None, int | None]:
    """The record's ``options``: whether the opening bonus counts, the rounds limit, and the
    round during which the session's time ran out."""
    if value is None:
        return True, None, None
    options = _object(value, "options")
    for key in options:
        if key not in OPTIONS:
            raise RecordError(
                "unknown-option", path=f"options.{key}", known=", ".join(OPTIONS)
            )
    opening_bonus = options.get("opening_bonus", True)
    if type(opening_bonus) is not bool:
        raise _fail("options.opening_bonus", "expected/boolean", opening_bonus)
    rounds = options.get("rounds")
    if rounds is not None:
        rounds = _int(rounds, "options.rounds", minimum=1)
    time_up = options.get("time_up")
    if time_up is not None:
        time_up = _int(time_up, "options.time_up", minimum=1)
    return opening_bonus, rounds, time_up

