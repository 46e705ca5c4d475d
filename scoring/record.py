"""Match records (docs/reference/record-format.md): typed, frozen objects, and their writing back to
JSON (``to_dict``, ``to_json``). Reading JSON into them is :mod:`scoring.record_reading`
(:func:`~scoring.record_reading.load_record`, :func:`~scoring.record_reading.parse_record`).

Extensions (documented in docs/reference/engine.md): a rack entry may be an integer, the total value of a
rack whose tiles were not noted; the player's rack count is then not checked, and the
settlement uses the total. A turn's ``decision`` and ``reason``, and a round's
``settlement_decision`` and ``settlement_reason``: the referee's decision on a claim that
differs from the engine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple

from scoring.board import Bonus, Placement
from scoring.geometry import Cell
from scoring.rules import DEFAULT_RULES, RuleSet, rule_set

__all__ = [
    "FORMAT",
    "PlaceRecord",
    "TurnRecord",
    "RoundRecord",
    "MatchRecord",
    "Rack",
    "Decision",
    "DECISIONS",
    "INTEGER_LIMIT",
]

#: The format string of the records this engine reads and writes.
FORMAT: Final = "triominos-match/1"

#: A rack shown at the end of a round: tile names, or the total value when not noted.
Rack = tuple[str, ...] | int

#: The referee's decision on a claim that differs from the engine's (a turn's or a round's
#: settlement): "engine" keeps the computed figure, "claim" the claimed one.
Decision = Literal["engine", "claim"]
DECISIONS: Final = ("engine", "claim")
#: The largest integer a record may hold, either sign: no real match comes near it, and a
#: bound keeps every sum and every message short (docs/reference/record-format.md, "Integers").
INTEGER_LIMIT: Final = 10**9


class PlaceRecord(NamedTuple):
    """A placement as recorded: the cell and corners (board mode), the tile name (sheet
    mode), or both. Nothing here is checked against the tiles yet.

    >>> PlaceRecord(cell=Cell(0, 0, "U"), corners=(2, 0, 1)).placement
    Placement(Cell(0, 0, 'U'), (2, 0, 1))
    """

    tile: str | None = None
    cell: Cell | None = None
    corners: tuple[int, int, int] | None = None

    @property
    def placement(self) -> Placement | None:
        """The board placement, when the cell and corners were recorded."""
        if self.cell is None or self.corners is None:
            return None
        return Placement(self.cell, self.corners)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of record-format.md."""
        data: dict[str, Any] = {}
        if self.cell is not None:
            data["cell"] = [self.cell.x, self.cell.y, self.cell.o]
        if self.corners is not None:
            data["corners"] = list(self.corners)
        if self.tile is not None:
            data["tile"] = self.tile
        return data


class TurnRecord(NamedTuple):
    """One turn as recorded: who, how many draws, the placement (if any), the claim.

    >>> TurnRecord(player=1, draws=3, claimed=-25).to_dict()
    {'player': 1, 'draws': 3, 'claimed': -25}
    """

    player: int
    draws: int = 0
    place: PlaceRecord | None = None
    claimed: int | None = None
    bonus: Bonus | None = None
    #: The referee's decision on a claim that differs from the engine (an extension of the
    #: format): "claim" keeps the claimed points, "engine" the computed ones.
    decision: Decision | None = None
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of record-format.md (defaults left out)."""
        data: dict[str, Any] = {"player": self.player}
        if self.draws:
            data["draws"] = self.draws
        if self.place is not None:
            data["place"] = self.place.to_dict()
        if self.bonus is not None:
            data["bonus"] = self.bonus.value
        if self.claimed is not None:
            data["claimed"] = self.claimed
        if self.decision is not None:
            data["decision"] = self.decision
        if self.reason:
            data["reason"] = self.reason
        return data


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round: its turns, the racks shown at the end, the settlement claimed.

    >>> RoundRecord(turns=(TurnRecord(0, draws=3),), racks=(("0-0-1",), 12)).to_dict()
    {'turns': [{'player': 0, 'draws': 3}], 'racks': [['0-0-1'], 12]}
    """

    turns: tuple[TurnRecord, ...] = ()
    racks: tuple[Rack, ...] | None = None
    settlement_claimed: tuple[int, ...] | None = None
    #: The referee's decision on a settlement claimed that differs from the engine's (an
    #: extension of the format, as a turn's ``decision``): "claim" keeps the claimed figures,
    #: "engine" the computed ones.
    settlement_decision: Decision | None = None
    settlement_reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of record-format.md."""
        data: dict[str, Any] = {"turns": [turn.to_dict() for turn in self.turns]}
        if self.racks is not None:
            data["racks"] = [rack if isinstance(rack, int) else list(rack) for rack in self.racks]
        if self.settlement_claimed is not None:
            data["settlement_claimed"] = list(self.settlement_claimed)
        if self.settlement_decision is not None:
            data["settlement_decision"] = self.settlement_decision
        if self.settlement_reason:
            data["settlement_reason"] = self.settlement_reason
        return data


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A whole match record.

    >>> from scoring.record_reading import parse_record
    >>> record = parse_record({"format": "triominos-match/1", "players": ["Ana", "Bo"],
    ...                        "rounds": [{"turns": [{"player": 0, "draws": 3}]}]})
    >>> record.rules.name, record.rounds[0].turns[0]
    ('goliath-tournament', TurnRecord(player=0, draws=3, place=None, claimed=None, bonus=None, decision=None, reason=None))
    >>> parse_record(record.to_dict()) == record
    True
    """

    players: tuple[str, ...]
    rounds: tuple[RoundRecord, ...] = ()
    rules_name: str = DEFAULT_RULES.name
    target: int | None = None
    #: The ``options`` of the record: False for no opening bonus.
    opening_bonus: bool = True
    #: The ``options`` of the record: the match is over after this many rounds.
    round_limit: int | None = None
    #: The ``options`` of the record: the session's time ran out during this round (from 1).
    time_up: int | None = None

    @property
    def rules(self) -> RuleSet:
        """The rule set, with the record's target and options applied."""
        return rule_set(
            self.rules_name,
            target=self.target,
            opening_bonus=self.opening_bonus,
            round_limit=self.round_limit,
            time_up_round=self.time_up,
        )

    @property
    def options(self) -> dict[str, Any]:
        """The record's ``options`` object: the options that differ from the rule set's.

        >>> MatchRecord(players=("Ana", "Bo"), round_limit=5).options
        {'rounds': 5}
        """
        options: dict[str, Any] = {}
        if not self.opening_bonus:
            options["opening_bonus"] = False
        if self.round_limit is not None:
            options["rounds"] = self.round_limit
        if self.time_up is not None:
            options["time_up"] = self.time_up
        return options

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of record-format.md."""
        data: dict[str, Any] = {"format": FORMAT, "rules": self.rules_name}
        if self.target is not None:
            data["target"] = self.target
        options = self.options
        if options:
            data["options"] = options
        data["players"] = list(self.players)
        data["rounds"] = [round_.to_dict() for round_ in self.rounds]
        return data

    def to_json(self) -> str:
        """The record as JSON text (UTF-8 safe, one turn per line is left to the caller)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)
