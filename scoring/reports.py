"""What a replay reports: the value types that :class:`~scoring.replay.MatchReplay` returns.

A turn's :class:`TurnReport` (its score breakdown, its :class:`Verdict`, its problems), a
round's :class:`RoundReport` and a match's :class:`MatchReport`, whose ``to_json()`` and
``to_text()`` are the output of ``python -m scoring check``. A :class:`Problem` is something
the referee must look at; one about a cell of the table says :class:`Where` that cell lies.
All are immutable and hold data only: the replay makes them; the check command, the web app
and its PDFs read them.

    >>> from scoring.board import Score
    >>> turn = TurnReport(0, 0, 1, Score(15), 0, 25, Verdict.MISMATCH)
    >>> round_ = RoundReport(0, (turn,), "unfinished", None, None, (15, 0), ())
    >>> [t["verdict"] for t in round_.to_json()["turns"]], round_.scores
    (['mismatch'], (15, 0))
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final, Literal, NamedTuple

from scoring.board import Bonus, Placement, Score
from scoring.messages import render
from scoring.tiles import Tile

__all__ = [
    "EndKind",
    "Verdict",
    "Where",
    "Problem",
    "TurnReport",
    "RoundReport",
    "MatchReport",
]

#: How a round ended: a player went out, nobody could play, or it stopped before either.
EndKind = Literal["out", "blocked", "unfinished"]


class Verdict(StrEnum):
    """A turn's verdict, as in record-format.md.

    >>> Verdict("unverified") is Verdict.UNVERIFIED
    True
    """

    OK = "ok"
    MISMATCH = "mismatch"
    ILLEGAL = "illegal"
    UNVERIFIED = "unverified"


class Where(NamedTuple):
    """Where a problem's cell lies on the table, from the tiles around it, so that a caller
    can say it in words (the messages name the cell by its code, ``D(0,-1)``).

    ``neighbours``: the tiles sharing a side with the cell, each with the direction in which
    the cell lies from it (one of :data:`scoring.geometry.DIRECTIONS`); ``corner``: for
    ``corner-mismatch``, the tiles meeting at the corner that differs, and for
    ``no-shared-side``, the tiles the cell touches by a corner only.

    >>> Where("D(0,0)", (("3-4-5", "upper right"),))
    Where(cell='D(0,0)', neighbours=(('3-4-5', 'upper right'),), corner=())
    """

    cell: str
    neighbours: tuple[tuple[str, str], ...]
    corner: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Problem:
    """Something the referee must look at.

    ``template`` is the key of the message in :data:`scoring.messages.MESSAGES` (the code, or
    ``code/variant``) and ``params`` the values it was formatted with. A problem about a cell
    of the table (a placement refused, a claim for a placed tile, a tile that could still go
    somewhere) also says ``where`` that cell lies (:class:`Where`).

    >>> p = Problem.make(0, 4, "out-of-turn", player="Bruno", expected="Alice")
    >>> p.message, p.to_json()["code"]
    ('Bruno played out of turn: Alice was next', 'out-of-turn')
    """

    round: int
    turn: int | None
    code: str
    message: str
    params: Mapping[str, str | int] = field(default_factory=dict)
    template: str = ""
    where: Where | None = None

    @classmethod
    def make(
        cls, round_: int, turn: int | None, template: str, **params: str | int
    ) -> Problem:
        """A problem whose message is the English template formatted with ``params``."""
        return cls(
            round=round_,
            turn=turn,
            code=template.partition("/")[0],
            message=render(template, params),
            params=params,
            template=template,
        )

    def to_json(self) -> dict[str, Any]:
        """The problem's object in the check command's output."""
        return {"round": self.round, "turn": self.turn, "code": self.code, "message": self.message}


class TurnReport(NamedTuple):
    """What the engine found for one turn: the score breakdown, the verdict, the problems.

    ``tile`` and ``placement`` are what went on the table (None when nothing did; the
    placement is also None in sheet mode). ``draws`` counts the tiles really drawn.

    >>> report = TurnReport(0, 3, 1, Score(11, penalty=5), 1, 6, Verdict.OK)
    >>> report.points, report.to_json()["penalty"]
    (6, 5)
    """

    round: int
    turn: int
    player: int
    score: Score
    draws: int
    claimed: int | None
    verdict: Verdict
    problems: tuple[Problem, ...] = ()
    tile: Tile | None = None
    placement: Placement | None = None
    decision: str | None = None

    @property
    def points(self) -> int:
        """The points of the turn, penalties included."""
        return self.score.total

    @property
    def points_counted(self) -> int:
        """The points that count in the totals: the claim when the referee kept it, else the
        engine's figure.

        >>> TurnReport(0, 0, 0, Score(5), 0, 9, Verdict.MISMATCH, decision="claim").points_counted
        9
        """
        if self.decision == "claim" and self.claimed is not None:
            return self.claimed
        return self.score.total

    @property
    def tile_value(self) -> int:
        """The value of the tile placed, 0 if none."""
        return self.score.tile_value

    @property
    def bonus(self) -> Bonus | None:
        """The bonus counted, if any."""
        return self.score.bonus

    @property
    def bonus_points(self) -> int:
        """The points of that bonus."""
        return self.score.bonus_points

    @property
    def penalty(self) -> int:
        """The draw penalty (a positive number, taken off)."""
        return self.score.penalty

    def to_json(self) -> dict[str, Any]:
        """The turn's object in the check command's output."""
        score = self.score
        return {
            "player": self.player,
            "points": score.tile_value + score.bonus_points - score.penalty,
            "tile": score.tile_value,
            "bonus": None if score.bonus is None else score.bonus.value,
            "bonus_points": score.bonus_points,
            "draws": self.draws,
            "penalty": score.penalty,
            "claimed": self.claimed,
            "verdict": self.verdict.value,
            **({"decision": self.decision} if self.decision is not None else {}),
        }


@dataclass(frozen=True, slots=True)
class RoundReport:
    """A round replayed: its turns, how it ended, the settlement and the round's scores.

    ``problems`` holds every problem of the round, turn problems first. ``counted`` is
    False for a round recorded after the match ended: it is reported, not added up.

    >>> report = RoundReport(0, (), "blocked", None, (9, 0), (64, 140), ())
    >>> report.to_json()["end"]
    {'kind': 'blocked', 'player': None, 'settlement': [9, 0]}
    """

    index: int
    turns: tuple[TurnReport, ...]
    end: EndKind
    out_player: int | None
    settlement: tuple[int, ...] | None
    scores: tuple[int, ...]
    problems: tuple[Problem, ...]
    counted: bool = True
    #: The referee's decision on the settlement claimed, as the record gives it: with
    #: "claim" the round's scores hold the claimed settlement, ``settlement`` stays the
    #: engine's (and its problem stays listed).
    settlement_decision: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The round's object in the check command's output."""
        end: dict[str, Any] = {
            "kind": self.end,
            "player": self.out_player,
            "settlement": None if self.settlement is None else list(self.settlement),
        }
        if self.settlement_decision is not None:
            end["decision"] = self.settlement_decision
        return {
            "turns": [turn.to_json() for turn in self.turns],
            "end": end,
            "scores": list(self.scores),
        }


@dataclass(frozen=True, slots=True)
class MatchReport:
    """A match replayed; :meth:`to_json` is the output of ``python -m scoring check``.

    >>> report = MatchReport(rounds=(), totals=(0, 0), finished=False, winners=(), problems=())
    >>> report.valid, list(report.to_json())
    (True, ['valid', 'rounds', 'totals', 'finished', 'winners', 'problems'])
    """

    rounds: tuple[RoundReport, ...]
    totals: tuple[int, ...]
    finished: bool
    winners: tuple[int, ...]
    problems: tuple[Problem, ...]

    @property
    def valid(self) -> bool:
        """True exactly when there is no problem."""
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        """The check command's output, keys in the order of record-format.md."""
        return {
            "valid": self.valid,
            "rounds": [round_.to_json() for round_ in self.rounds],
            "totals": list(self.totals),
            "finished": self.finished,
            "winners": list(self.winners),
            "problems": [problem.to_json() for problem in self.problems],
        }

    def to_text(self) -> str:
        """:meth:`to_json` as JSON text, one turn and one problem per line, written directly
        (``json.dumps`` with ``indent`` falls back to its pure-Python encoder, which cost more
        than the whole replay). ``json.loads(report.to_text()) == report.to_json()``.

        >>> print(MatchReport(rounds=(), totals=(0, 0), finished=False, winners=(),
        ...                   problems=()).to_text(), end="")
        {"valid": true,
         "rounds": [],
         "totals": [0, 0],
         "finished": false,
         "winners": [],
         "problems": []}
        """
        parts = [f'{{"valid": {_JSON_BOOL[not self.problems]},\n "rounds": [']
        append = parts.append
        for r, round_ in enumerate(self.rounds):
            append(',\n  {"turns": [' if r else '\n  {"turns": [')
            lines = []
            for _, _, player, score, draws, claimed, verdict, _, _, _, decision in round_.turns:
                tile_value, bonus, bonus_points, penalty = score
                lines.append(
                    f'{{"player": {player}, '
                    f'"points": {tile_value + bonus_points - penalty}, '
                    f'"tile": {tile_value}, '
                    f'"bonus": {_QUOTED[bonus]}, '
                    f'"bonus_points": {bonus_points}, "draws": {draws}, '
                    f'"penalty": {penalty}, '
                    f'"claimed": {"null" if claimed is None else claimed}, '
                    f'"verdict": "{verdict}"'
                    + ("}" if decision is None else f', "decision": "{decision}"}}')
                )
            if lines:
                append("\n    " + ",\n    ".join(lines) + "\n   ],\n")
            else:
                append("],\n")
            settlement = round_.settlement
            decision = round_.settlement_decision
            append(
                f'   "end": {{"kind": "{round_.end}", '
                f'"player": {_json_int(round_.out_player)}, '
                f'"settlement": {_json_ints(settlement)}'
                + ("}" if decision is None else f', "decision": "{decision}"}}')
                + f',\n   "scores": {_json_ints(round_.scores)}}}'
            )
        append("\n ],\n" if self.rounds else "],\n")
        append(
            f' "totals": {_json_ints(self.totals)},\n'
            f' "finished": {_JSON_BOOL[self.finished]},\n'
            f' "winners": {_json_ints(self.winners)},\n'
            ' "problems": ['
        )
        if self.problems:
            append(
                "\n  "
                + ",\n  ".join(
                    f'{{"round": {p.round}, "turn": {_json_int(p.turn)}, "code": "{p.code}", '
                    f'"message": {json.dumps(p.message, ensure_ascii=False)}}}'
                    for p in self.problems
                )
                + "\n ]}\n"
            )
        else:
            append("]}\n")
        return "".join(parts)



_JSON_BOOL: Final = {True: "true", False: "false"}
#: A bonus as JSON: null, or its name quoted.
_QUOTED: Final[dict[Bonus | None, str]] = {
    None: "null", **{bonus: f'"{bonus.value}"' for bonus in Bonus}
}


def _json_int(value: int | None) -> str:
    return "null" if value is None else str(value)


def _json_ints(values: Sequence[int] | None) -> str:
    if values is None:
        return "null"
    return "[" + ", ".join(map(str, values)) + "]"
