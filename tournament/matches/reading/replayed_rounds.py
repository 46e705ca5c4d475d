"""The rounds of a match as the pages show them once replayed by the engine: every round
(:class:`ReplayedRound`) with its turn lines (:class:`TurnLine`: what was entered next to the
engine's figures, verdict, problems in the user's language and the referee's decision), its
end (racks, settlement, flags) and its board. :mod:`tournament.matches.reading.replayed_match`
holds them in the match, beside the round in play.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.safestring import SafeString

from tournament import engine
from tournament.models import Round, RoundEnd, Turn, Verdict
from tournament.names import elide


@dataclass(frozen=True)
class SeatedPlayer:
    order: int
    letter: str
    name: str
    player_id: int


@dataclass(frozen=True)
class TranslatedProblem:
    code: str
    message: str  # in the user's language
    round: int
    turn: int | None
    #: The engine's values (``seat``: the seat of a rack's problem; ``tile``...).
    params: Mapping[str, Any] = field(default_factory=dict, compare=False)


def translated_problem(problem: engine.Problem) -> TranslatedProblem:
    """An engine problem in the user's language, the names in it elided as French writes them
    ("le chevalet d’Amélie"): every page's way of showing one."""
    return TranslatedProblem(
        code=problem.code,
        message=elide(engine.problem_message(problem.template, problem.params, problem.where)),
        round=problem.round,
        turn=problem.turn,
        params=problem.params,
    )


@dataclass(frozen=True)
class TurnLine:
    """One turn: what was entered (``row``, the current version) and what the engine found;
    ``position`` is its place among the round's current turns, from 0 (the row's ``index``
    keeps a gap where a turn was struck out)."""

    row: Turn
    report: engine.TurnReport
    player_name: str
    problems: tuple[TranslatedProblem, ...]
    position: int

    @property
    def index(self) -> int:
        return self.row.index

    @property
    def number(self) -> int:
        """The turn's number in its round, from 1, as the correction page, the refusals and the
        engine's record count it (no gap where a turn was struck out)."""
        return self.position + 1

    @property
    def player(self) -> int:
        return self.row.player

    @property
    def tile(self) -> str:
        """The tile placed as entered ('' for none)."""
        return self.row.tile

    @property
    def cell(self) -> str:
        return self.row.cell

    @property
    def draws(self) -> int:
        return self.row.draws

    @property
    def claimed(self) -> int | None:
        return self.row.points_claimed

    @property
    def bonus_claimed(self) -> str:
        return self.row.bonus_claimed

    @property
    def points(self) -> int:
        """The engine's figure, penalties included."""
        return self.report.points

    @property
    def bonus(self) -> str:
        """The bonus the engine counted ('' for none)."""
        bonus = self.report.bonus
        return bonus.value if bonus is not None else ""

    @property
    def bonus_label(self) -> str:
        return engine.bonus_label(self.bonus)

    @property
    def bonus_claimed_label(self) -> str:
        return engine.bonus_label(self.row.bonus_claimed)

    @property
    def bonus_points(self) -> int:
        return self.report.bonus_points

    @property
    def tile_value(self) -> int:
        return self.report.tile_value

    @property
    def penalty(self) -> int:
        return self.report.penalty

    @property
    def verdict(self) -> str:
        """``ok``, ``mismatch``, ``illegal`` or ``unverified``."""
        return self.report.verdict.value

    @property
    def decision(self) -> str:
        """``engine``, ``claim`` or '' (none taken)."""
        return self.row.decision

    @property
    def decision_reason(self) -> str:
        return self.row.decision_reason

    @property
    def decision_pending(self) -> bool:
        """A claim that differs from the engine, and no decision yet."""
        return self.verdict == Verdict.MISMATCH and not self.row.decision

    @property
    def points_counted(self) -> int:
        """The points that count: the claim when the referee kept it, else the engine's."""
        return self.report.points_counted

    @property
    def is_illegal(self) -> bool:
        return self.verdict == Verdict.ILLEGAL


@dataclass
class ReplayedRound:
    """One round: its turns, how it ended, the settlement, its board."""

    row: Round
    index: int
    turns: list[TurnLine]
    #: At the table: "out", "blocked" or "unfinished".
    end_kind: str
    out_player: int | None
    #: The racks were entered (the round is closed), as ``end_row``.
    end_row: RoundEnd | None
    settlement: tuple[int, ...] | None
    #: The round's points per seat, settlement included once closed.
    scores: tuple[int, ...]
    #: Match totals per seat after this round (the round in play: so far).
    totals_after: tuple[int, ...]
    #: Round-level problems (racks, settlement, false block, a round after the match ended).
    problems: list[TranslatedProblem]
    counted: bool
    placements: list[engine.Placement] = field(default_factory=list)
    #: The table is no longer fully known (a placement was entered without its cell).
    sheet_mode: bool = False
    #: A settled round taken from its stored scores, not replayed (``match_replay``'s
    #: ``settled_stored``): ``turns`` is empty, ``out_player`` and ``settlement`` unknown.
    stored: bool = False

    @property
    def number(self) -> int:
        return self.index + 1

    @property
    def closed(self) -> bool:
        """The racks shown were entered: the round is over and settled."""
        return self.end_row is not None

    @property
    def confirmed(self) -> bool:
        return self.row.confirmed_at is not None

    @property
    def racks(self) -> list[Any] | None:
        return self.end_row.racks if self.end_row is not None and self.end_row.racks else None

    @property
    def racks_shown(self) -> list[str] | None:
        """Each rack as text: its tiles (``—`` when empty), or ``Σ 23`` for a total."""
        racks = self.racks
        if racks is None:
            return None
        return [f"Σ {rack}" if isinstance(rack, int) else (" ".join(rack) or "—") for rack in racks]

    @property
    def settlement_claimed(self) -> list[int] | None:
        return self.end_row.settlement_claimed if self.end_row is not None else None

    @property
    def settlement_differs(self) -> bool:
        """The racks were entered with a settlement claimed that the engine does not give."""
        return self.closed and any(p.code == "settlement-mismatch" for p in self.problems)

    @property
    def settlement_decision(self) -> str:
        """The referee's decision on the settlement claimed: ``engine``, ``claim`` or ''."""
        return self.end_row.decision if self.end_row is not None else ""

    @property
    def settlement_decision_reason(self) -> str:
        return self.end_row.decision_reason if self.end_row is not None else ""

    @property
    def settlement_decision_pending(self) -> bool:
        """A settlement claimed that differs from the engine's, and no decision yet."""
        return self.settlement_differs and not self.settlement_decision

    @property
    def settlement_figures(self) -> tuple[str, str]:
        """The engine's settlement and the one claimed, as text (``65 · 0 · 0``), for the
        decision's two buttons."""
        engine_figures = self.settlement or ()
        claimed = self.settlement_claimed or ()
        return " · ".join(map(str, engine_figures)), " · ".join(map(str, claimed))

    @property
    def pending_decisions(self) -> list[TurnLine]:
        return [turn for turn in self.turns if turn.decision_pending]

    @property
    def decisions_to_take(self) -> int:
        """The decisions awaited: the turns' claims and the settlement claimed."""
        return len(self.pending_decisions) + self.settlement_decision_pending

    @property
    def illegal_turns(self) -> list[TurnLine]:
        return [turn for turn in self.turns if turn.is_illegal]

    @property
    def can_confirm(self) -> bool:
        """Closed, not yet confirmed, no decision pending (on a turn or the settlement) and no
        illegal turn left."""
        return (
            self.closed
            and not self.confirmed
            and self.end_kind != Round.EndKind.UNFINISHED
            and not self.pending_decisions
            and not self.settlement_decision_pending
            and not self.illegal_turns
        )

    def board_svg(self, **options: Any) -> SafeString:
        """The round's table as SVG, the last tile highlighted (options: ``side``, ``title``)."""
        highlight = self.placements[-1].cell if self.placements else None
        options.setdefault("highlight", highlight)
        return engine.draw_board(self.placements, **options)
