"""What a caller gives for a turn (:class:`TurnInput`, whatever the page: board mode, sheet mode, a
correction) and why turns are refused (:class:`TurnsRefused`, :class:`MismatchesNotSeen`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournament import engine
from tournament.matches.reading.replayed_rounds import TranslatedProblem
from tournament.matches.reading.row_conversion import turn_row
from tournament.models import Round, Turn


@dataclass(frozen=True)
class Refusal:
    """A candidate turn the engine refuses: its position among the candidates, and why."""

    line: int
    problems: tuple[TranslatedProblem, ...]


class TurnsRefused(Exception):
    """The engine refuses one candidate turn or more (an illegal placement, out of turn,
    too many draws...): nothing was saved."""

    def __init__(self, refusals: list[Refusal]) -> None:
        super().__init__(pgettext("between the items of a list", "; ").join(
            p.message for r in refusals for p in r.problems))
        self.refusals = refusals

    @property
    def messages(self) -> list[str]:
        return [p.message for r in self.refusals for p in r.problems]

    def validation_error(self) -> ValidationError:
        """The refusals for a form: one error per problem, its code the engine's
        (``occupied``, ``out-of-turn``...)."""
        return ValidationError([ValidationError(p.message, code=p.code)
                                for r in self.refusals for p in r.problems])


class MismatchesNotSeen(Exception):
    """Sheet mode: claims differ from the engine and the referee has not said they saw them."""

    def __init__(self, lines: list[int]) -> None:
        super().__init__(f"mismatches on lines {lines}")
        self.lines = lines


@dataclass(frozen=True)
class TurnInput:
    """A turn as entered. ``player`` None: the engine's next player (board mode).

    ``tile`` is a tile name (sheet mode, or with the cell); ``cell`` and ``corners`` the
    position (board mode).
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

    def record(self, player: int) -> engine.TurnRecord:
        """The turn as the engine's record turn, played by ``player``."""
        place = None
        if self.tile or self.cell is not None or self.corners is not None:
            place = engine.PlaceRecord(tile=self.tile or None, cell=self.cell, corners=self.corners)
        try:
            bonus = engine.Bonus(self.bonus_claimed) if self.bonus_claimed else None
        except ValueError:
            raise ValidationError(
                {"bonus_claimed": ValidationError(_("There is no such bonus."), code="invalid_bonus")}
            ) from None
        return engine.TurnRecord(
            player=player, draws=self.draws, place=place, claimed=self.points_claimed,
            bonus=bonus, decision=self.decision or None, reason=self.decision_reason or None,
        )

    def row(self, *, player: int, index: int, user, round_: Round | None = None) -> Turn:
        """The unsaved Turn row of this turn (row_conversion.turn_row)."""
        return turn_row(self.record(player), index=index, user=user, round_=round_)


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
