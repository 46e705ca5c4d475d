"""The referee: replays a match turn by turn, checks every claim, and reports.

:class:`MatchReplay` is incremental, for the check command and the web app alike::

    >>> from scoring import MatchReplay, TurnRecord, PlaceRecord, Cell
    >>> replay = MatchReplay(["Alice", "Bruno"])
    >>> replay.begin_round()
    >>> opening = TurnRecord(player=1, place=PlaceRecord(cell=Cell(0, 0, "U"),
    ...                                                  corners=(5, 5, 5)), claimed=25)
    >>> replay.preview(opening).verdict, replay.pool_size
    (<Verdict.OK: 'ok'>, 42)
    >>> report = replay.play(opening)
    >>> report.points, report.bonus, replay.next_player, replay.hand_counts
    (25, <Bonus.OPENING: 'opening'>, 0, (7, 6))
    >>> replay.play(TurnRecord(player=0, draws=3, claimed=-20)).problems[0].message
    'Alice claimed -20 for a turn without a placement, the turn scores 0 - 25 (draws) = -25'

:func:`check_record` replays a whole :class:`~scoring.record.MatchRecord`; its
:class:`~scoring.reports.MatchReport` turns into the JSON of ``python -m scoring check``. What
the replay returns (the reports, their problems and verdicts) lives in :mod:`scoring.reports`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Final, Literal

from scoring.board import Board, Bonus, Placement, Score, min_tiles_for_bonus
from scoring.errors import IllegalPlacement, UnknownTile
from scoring.geometry import Cell, cell_neighbours, corner_tiles, geometry
from scoring.record import MatchRecord, PlaceRecord, Rack, TurnRecord
from scoring.reports import EndKind, MatchReport, Problem, RoundReport, TurnReport, Verdict, Where
from scoring.rules import DEFAULT_RULES, RuleSet
from scoring.tiles import ALL_TILES, Tile, tile_from_corners

__all__ = [
    "MatchReplay",
    "ReplayStateError",
    "check_record",
    "settle",
]

#: Codes that make a turn illegal (the others are mismatches).
_RULE_CODES: Final = frozenset(
    {
        "occupied",
        "no-shared-side",
        "corner-mismatch",
        "mirror-tile",
        "unknown-tile",
        "tile-already-played",
        "out-of-turn",
        "too-many-draws",
        "pass-with-pool",
        "turn-after-end",
    }
)

#: The score of a turn that changed nothing.
_NOTHING: Final = Score(0)
#: The verdicts, looked up once (an enum member's attribute access is a descriptor call).
_OK: Final = Verdict.OK
_MISMATCH: Final = Verdict.MISMATCH
_ILLEGAL: Final = Verdict.ILLEGAL
_UNVERIFIED: Final = Verdict.UNVERIFIED


class ReplayStateError(RuntimeError):
    """A :class:`MatchReplay` method called at the wrong moment (a programming error)."""


def _where(board: Board, cell: Cell, code: str, point: tuple[int, int] | None = None) -> Where:
    """Where ``cell`` lies on ``board``, for a problem of ``code``."""
    placements = board.placements
    corner: tuple[str, ...] = ()
    if code == "corner-mismatch" and point is not None:
        corner = corner_tiles([point], placements)
    elif code == "no-shared-side":
        corner = corner_tiles(geometry(cell).points, placements, besides=cell)
    return Where(str(cell), cell_neighbours(cell, placements), corner)


_new: Final = tuple.__new__


def settle(
    totals: Sequence[int], *, end: EndKind, out_player: int | None, rules: RuleSet
) -> tuple[int, ...] | None:
    """The end-of-round points per player, from the value left in each rack.

    >>> settle([6, 0, 28], end="out", out_player=1, rules=DEFAULT_RULES)
    (0, 59, 0)
    >>> settle([18, 27, 18], end="blocked", out_player=None, rules=DEFAULT_RULES)
    (27, 0, 27)

    Under the Travel Tour sheet, the others of a blocked round lose their own rack's total:

    >>> from scoring.rules import rule_set
    >>> settle([18, 27, 18], end="blocked", out_player=None, rules=rule_set("travel-tour"))
    (27, -27, 27)
    """
    if end == "out" and out_player is not None:
        others = sum(totals) - totals[out_player]
        return tuple(
            rules.going_out_bonus + others if i == out_player else 0 for i in range(len(totals))
        )
    if end == "blocked":
        lowest = min(totals)
        whole = sum(totals)
        lose = rules.blocked_others_lose_rack
        return tuple(
            whole - 2 * total if total == lowest else -total if lose else 0 for total in totals
        )
    return None


class _Round:
    """The mutable state of the round in progress (a plain class: a dataclass costs about
    half a millisecond of every process's start-up, and this one needs nothing of it)."""

    __slots__ = (
        "index", "counted", "pool", "hands", "points", "board", "played", "last_player",
        "idle_turns", "end", "out_player", "turns", "problems", "late_problem",
    )

    def __init__(
        self,
        *,
        index: int,
        counted: bool,
        pool: int,
        hands: list[int],
        points: list[int],
        board: Board | None,
    ) -> None:
        self.index = index
        self.counted = counted
        self.pool = pool
        self.hands = hands
        self.points = points
        self.board = board
        #: The tiles placed in the round (on the table, whether their positions are known
        #: or not).
        self.played: set[Tile] = set()
        self.last_player: int | None = None
        self.idle_turns = 0
        self.end: EndKind = "unfinished"
        self.out_player: int | None = None
        self.turns: list[TurnReport] = []
        self.problems: list[Problem] = []
        self.late_problem: Problem | None = None


class MatchReplay:
    """A match being replayed or entered, one turn at a time.

    Call :meth:`begin_round`, then :meth:`play` (or :meth:`preview`, which changes nothing)
    for each turn, then :meth:`end_round` with the racks shown; repeat. The properties say
    whose turn it is, what is left in the pool and in each hand, the table (None once a
    placement was recorded without its position), and whether the round and the match are
    over. The module's docstring has a longer example.

    >>> replay = MatchReplay(["Ana", "Bo", "Cy"])
    >>> replay.begin_round()
    >>> replay.pool_size, replay.hand_counts, replay.next_player
    (35, (7, 7, 7), None)
    """

    def __init__(self, players: Sequence[str], *, rules: RuleSet = DEFAULT_RULES) -> None:
        if not rules.min_players <= len(players) <= rules.max_players:
            raise ValueError(
                f"{rules.name} is played by {rules.min_players} to {rules.max_players} "
                f"players, got {len(players)}"
            )
        self.players: tuple[str, ...] = tuple(players)
        self.rules = rules
        self._hand_size = rules.hand_size(len(players))
        self._totals = [0] * len(players)
        self._rounds: list[RoundReport] = []
        self._round: _Round | None = None
        self._finished = False
        self._target_reached = False
        self._rounds_counted = 0
        #: The index of the first round replayed here (not 0 for a replay resumed after
        #: settled rounds, see :meth:`resume`).
        self._first_round = 0
        #: The target as looked at during a round: never, under rules that look at it only
        #: once a round is settled.
        self._target_live: float = float("inf") if rules.target_at_round_end_only else rules.target

    @classmethod
    def resume(
        cls,
        players: Sequence[str],
        *,
        totals: Sequence[int],
        round_index: int,
        rounds_counted: int | None = None,
        rules: RuleSet = DEFAULT_RULES,
    ) -> MatchReplay:
        """A replay that starts after ``round_index`` settled rounds, from their totals.

        ``totals`` are the match totals per player carried forward from those rounds (as
        :attr:`totals` gave them when they were replayed, kept by the caller), and
        ``round_index`` the index (from 0) of the next round, the one :meth:`begin_round`
        deals. ``rounds_counted`` is how many of the settled rounds ended at the table (out
        or blocked) and count towards the rules' ``round_limit``; all of them by default.
        The settled rounds are not replayed again and the new replay holds no report of
        them: :attr:`rounds` and :meth:`report` hold the rounds ended after the resumption
        only. Raises ValueError when the figures say the match is over already (a total
        reached the target, or the round limit was reached): such a match is replayed from
        its first round.

        >>> replay = MatchReplay.resume(["Ana", "Bo", "Cy"], totals=[212, 95, 143],
        ...                             round_index=2)
        >>> replay.totals, replay.finished
        ((212, 95, 143), False)
        >>> replay.begin_round()
        >>> replay.pool_size, replay.hand_counts
        (35, (7, 7, 7))
        >>> replay.end_round().index
        2
        >>> MatchReplay.resume(["Ana", "Bo"], totals=[400, 12], round_index=3)
        Traceback (most recent call last):
        ...
        ValueError: the match is over: a total reached the target of 400
        """
        replay = cls(players, rules=rules)
        if len(totals) != len(replay.players):
            raise ValueError(
                f"totals: one number per player ({len(replay.players)}) expected, "
                f"got {len(totals)}"
            )
        if type(round_index) is not int or round_index < 0:
            raise ValueError(f"round_index must be an integer from 0, got {round_index!r}")
        counted = round_index if rounds_counted is None else rounds_counted
        if type(counted) is not int or not 0 <= counted <= round_index:
            raise ValueError(
                f"rounds_counted must be an integer from 0 to round_index ({round_index}), "
                f"got {rounds_counted!r}"
            )
        if any(total >= rules.target for total in totals):
            raise ValueError(f"the match is over: a total reached the target of {rules.target}")
        if rules.round_limit is not None and counted >= rules.round_limit:
            raise ValueError(
                f"the match is over: its {rules.round_limit} rounds were played"
            )
        if rules.time_up_round is not None and round_index >= rules.time_up_round:
            raise ValueError(
                f"the match is over: time was up during round {rules.time_up_round}"
            )
        replay._totals = [int(total) for total in totals]
        replay._first_round = round_index
        replay._rounds_counted = counted
        return replay

    # -- the match --------------------------------------------------------------------------

    @property
    def totals(self) -> tuple[int, ...]:
        """Match totals per player, over the rounds ended (the round in play excluded)."""
        return tuple(self._totals)

    @property
    def finished(self) -> bool:
        """Whether the match is over: the target was reached and that round ended."""
        return self._finished

    @property
    def ended_by(self) -> Literal["target", "rounds", "time"] | None:
        """What ended the match: its target, its number of rounds, or the session's time
        (the ``time_up`` option; None while it goes on).

        >>> MatchReplay(["Ana", "Bo"]).ended_by is None
        True
        """
        if not self._finished:
            return None
        if self._target_reached:
            return "target"
        limit = self.rules.round_limit
        return "rounds" if limit is not None and self._rounds_counted >= limit else "time"

    @property
    def winners(self) -> tuple[int, ...]:
        """Indexes of the players with the highest total once finished (ties share)."""
        if not self._finished:
            return ()
        best = max(self._totals)
        return tuple(i for i, total in enumerate(self._totals) if total == best)

    @property
    def rounds(self) -> tuple[RoundReport, ...]:
        """The reports of the rounds ended so far (since :meth:`resume`, for a resumed
        replay)."""
        return tuple(self._rounds)

    def report(self) -> MatchReport:
        """The match so far (a round in play is not included until it is ended)."""
        return MatchReport(
            rounds=tuple(self._rounds),
            totals=tuple(self._totals),
            finished=self._finished,
            winners=self.winners,
            problems=tuple(p for r in self._rounds for p in r.problems),
        )

    # -- the round in play ------------------------------------------------------------------

    @property
    def in_round(self) -> bool:
        """Whether a round has begun and not been ended with :meth:`end_round`."""
        return self._round is not None

    @property
    def round_over(self) -> bool:
        """Whether the round in play has ended at the table (out or blocked)."""
        return self._state().end != "unfinished"

    @property
    def round_end(self) -> EndKind:
        """How the round in play ended so far: ``out``, ``blocked`` or ``unfinished``."""
        return self._state().end

    @property
    def out_player(self) -> int | None:
        """The player who went out in the round in play, if any."""
        return self._state().out_player

    @property
    def next_player(self) -> int | None:
        """Whose turn it is; None before the opening (anyone may open) and once it ended."""
        state = self._state()
        if state.end != "unfinished" or state.last_player is None:
            return None
        return (state.last_player + 1) % len(self.players)

    @property
    def pool_size(self) -> int:
        """Tiles left in the pool."""
        return self._state().pool

    @property
    def hand_counts(self) -> tuple[int, ...]:
        """Tiles in each player's hand."""
        return tuple(self._state().hands)

    @property
    def board(self) -> Board | None:
        """The table, or None once the round went to sheet mode. Do not change it."""
        return self._state().board

    @property
    def tiles_played(self) -> frozenset[Tile]:
        """The tiles placed in the round in play."""
        return frozenset(self._state().played)

    @property
    def round_scores(self) -> tuple[int, ...]:
        """Points of the round in play so far, per player (before the settlement)."""
        return tuple(self._state().points)

    @property
    def turns(self) -> tuple[TurnReport, ...]:
        """The reports of the turns of the round in play."""
        return tuple(self._state().turns)

    def _state(self) -> _Round:
        if self._round is None:
            raise ReplayStateError("no round in play: call begin_round() first")
        return self._round

    def begin_round(self) -> None:
        """Deal a new round. A round after the match ended is replayed but not counted."""
        if self._round is not None:
            raise ReplayStateError("a round is in play: call end_round() first")
        index = self._first_round + len(self._rounds)
        count = len(self.players)
        state = _Round(
            index=index,
            counted=not self._finished,
            pool=self.rules.pool_size(count),
            hands=[self._hand_size] * count,
            points=[0] * count,
            board=Board(rules=self.rules),
        )
        if self._finished:
            if self.ended_by == "target":
                state.late_problem = Problem.make(
                    index, None, "round-after-match-end", number=index + 1,
                    target=self.rules.target,
                )
            elif self.ended_by == "rounds":
                state.late_problem = Problem.make(
                    index, None, "round-after-match-end/rounds", number=index + 1,
                    rounds=self.rules.round_limit or 0,
                )
            else:
                state.late_problem = Problem.make(
                    index, None, "round-after-match-end/time", number=index + 1,
                    time_up=self.rules.time_up_round or 0,
                )
        self._round = state
        if not self._finished:
            self._target_reached = False

    def preview(self, turn: TurnRecord) -> TurnReport:
        """What :meth:`play` would report for ``turn``; nothing changes."""
        return self._evaluate(self._state(), turn)

    def play(self, turn: TurnRecord) -> TurnReport:
        """Replay one turn and return its report."""
        state = self._round
        if state is None:
            state = self._state()  # raises
        report = self._evaluate(state, turn)
        if state.end == "unfinished":
            # Apply the turn to the round (written here, not in a method of its own: this
            # runs once per turn of every check).
            _, _, player, score, drawn, claimed, _, _, tile, placement, decision = report
            hands = state.hands
            if tile is not None:
                hands[player] += drawn - 1
                state.played.add(tile)
                board = state.board
                if board is not None:
                    if placement is None:
                        state.board = None  # a placement without its position: sheet mode
                    else:
                        board.push(placement, tile)
                state.idle_turns = 0
            else:
                hands[player] += drawn
                state.idle_turns += 1
            state.pool -= drawn
            # report.points_counted, spelled out
            counted = claimed if claimed is not None and decision == "claim" else (
                score[0] + score[2] - score[3]
            )
            points = state.points[player] = state.points[player] + counted
            state.last_player = player
            if tile is not None and not hands[player]:
                state.end = "out"
                state.out_player = player
            elif not state.pool and state.idle_turns >= len(hands):
                state.end = "blocked"
            if (
                not self._target_reached
                and state.counted
                and self._totals[player] + points >= self._target_live
            ):
                self._target_reached = True
        state.turns.append(report)
        if report.problems:
            state.problems.extend(report.problems)
        return report

    # -- evaluating a turn ------------------------------------------------------------------

    def _evaluate(self, state: _Round, turn: TurnRecord) -> TurnReport:
        """The turn's report, with the referee's decision on it if the record has one."""
        rules = self.rules
        players = self.players
        player, drawn, place, claimed, claimed_bonus, decision, _ = turn
        r, t = state.index, len(state.turns)
        if not 0 <= player < len(players):
            raise ValueError(f"turn {t}: player {player} is not a player index")
        name = players[player]
        if state.end != "unfinished":
            if state.out_player is None:
                problem = Problem.make(r, t, "turn-after-end/blocked", player=name)
            else:
                out = players[state.out_player]
                problem = Problem.make(r, t, "turn-after-end", player=name, out_player=out)
            return TurnReport(
                r, t, player, _NOTHING, 0, claimed, _ILLEGAL, (problem,), decision=decision
            )

        problems: list[Problem] = []
        last = state.last_player
        if last is not None and player != (last + 1) % len(players):
            expected = players[(last + 1) % len(players)]
            problems.append(Problem.make(r, t, "out-of-turn", player=name, expected=expected))

        pool = state.pool
        allowed = rules.max_draws if rules.max_draws < pool else pool
        if drawn > allowed:
            problems.append(
                Problem.make(
                    r, t, "too-many-draws", player=name, draws=drawn, allowed=allowed, pool=pool
                )
            )
            drawn = allowed

        base: Score | None = None
        tile: Tile | None = None
        placement: Placement | None = None
        unverified = False
        if place is not None:
            board = state.board
            named, cell, corners = place
            if board is not None and cell is not None and corners is not None:
                # Board mode: the position is known, the board finds the bonus, and refuses
                # corners that show no tile (a tile named beside them is checked first).
                if named is None or self._tile_shown(state, place, corners, name, problems):
                    candidate = _new(Placement, (cell, corners))
                    try:
                        base, tile = board.score(candidate)
                    except IllegalPlacement as error:
                        problems.append(self._placement_problem(r, t, name, error, board))
                    else:
                        placement = candidate
                        if claimed_bonus is not None and claimed_bonus != base.bonus:
                            problems.append(
                                self._bonus_problem(r, t, name, claimed_bonus, base, placement)
                            )
            else:
                base, tile, unverified = self._evaluate_on_sheet(
                    state, turn, place, name, problems
                )
        penalty = drawn * rules.draw_penalty
        if base is None:
            if drawn == rules.max_draws:
                penalty += rules.failed_draws_penalty
            score = _new(Score, (0, None, 0, penalty))
            if place is None and drawn < rules.max_draws and pool > drawn:
                problems.append(
                    Problem.make(
                        r,
                        t,
                        "pass-with-pool",
                        player=name,
                        draws=drawn,
                        pool=pool - drawn,
                        max_draws=rules.max_draws,
                    )
                )
        elif penalty:
            score = _new(Score, (base[0], base[1], base[2], penalty))
        else:
            score = base
        if (
            claimed is not None
            and claimed != score[0] + score[2] - score[3]  # score.total, spelled out
            and (base is not None or place is None)
        ):
            problems.append(self._claim_problem(r, t, name, claimed, score, tile, placement))
        # the claim's and the bonus's problems (a placement is only made on a board)
        if placement is not None and problems and state.board is not None:
            where = _where(state.board, Cell(*placement.cell), "")
            problems = [
                replace(p, where=where) if "cell" in p.params and p.where is None else p
                for p in problems
            ]
        if not problems:
            verdict = _UNVERIFIED if unverified else _OK
        elif any(p.code in _RULE_CODES for p in problems):
            verdict = _ILLEGAL
        else:
            verdict = _MISMATCH
        # TurnReport(...) spelled as tuple.__new__, which skips the Python-level __new__ of a
        # NamedTuple: the replay makes one per turn
        return _new(
            TurnReport,
            (r, t, player, score, drawn, claimed, verdict, tuple(problems) if problems else (),
             tile, placement, decision),
        )

    @staticmethod
    def _claim_problem(
        r: int,
        t: int,
        name: str,
        claimed: int,
        score: Score,
        tile: Tile | None,
        placement: Placement | None,
    ) -> Problem:
        params: dict[str, str | int] = {"player": name, "claimed": claimed, "sum": score.explain()}
        if tile is None:
            return Problem.make(r, t, "claim-mismatch/no-tile", **params)
        if placement is None:
            return Problem.make(r, t, "claim-mismatch/sheet", tile=str(tile), **params)
        return Problem.make(
            r, t, "claim-mismatch", tile=str(tile), cell=str(placement.cell), **params
        )

    def _bonus_points(self, bonus: Bonus | None, tile: Tile) -> int:
        rules = self.rules
        if bonus is None:
            return 0
        if bonus is Bonus.OPENING:
            return rules.opening_points(zero_triple=tile.value == 0)
        if bonus is Bonus.BRIDGE:
            return rules.bridge_bonus
        if bonus is Bonus.TWO_SIDES:
            return rules.two_sides_bonus or 0
        return rules.hexagon_bonuses[
            (Bonus.HEXAGON, Bonus.DOUBLE_HEXAGON, Bonus.TRIPLE_HEXAGON).index(bonus)
        ]

    @staticmethod
    def _bonus_problem(
        r: int, t: int, name: str, claimed: Bonus, score: Score, placement: Placement
    ) -> Problem:
        """A bonus claimed in board mode that differs from the one the board finds."""
        params: dict[str, str | int] = {
            "player": name,
            "claimed_bonus": claimed.value,
            "tile": str(placement.tile),
            "cell": str(placement.cell),
        }
        if score.bonus is None:
            return Problem.make(r, t, "bonus-mismatch/none", **params)
        return Problem.make(r, t, "bonus-mismatch", found=score.bonus.value, **params)

    def _tile_shown(
        self,
        state: _Round,
        place: PlaceRecord,
        corners: tuple[int, int, int],
        name: str,
        problems: list[Problem],
    ) -> bool:
        """Board mode: whether the corners show a tile and the tile named, if any, is that one."""
        corner_tile = tile_from_corners(corners)
        if corner_tile is None:
            problems.append(_corner_problem(state.index, len(state.turns), name, corners))
            return False
        if place.tile is None:
            return True
        return self._named_tile(state, place, corner_tile, name, problems) is not None

    def _named_tile(
        self,
        state: _Round,
        place: PlaceRecord,
        corner_tile: Tile | None,
        name: str,
        problems: list[Problem],
    ) -> Tile | None:
        """The tile a placement names, checked against its corners; None after a problem."""
        r, t = state.index, len(state.turns)
        assert place.tile is not None
        try:
            tile = Tile.parse(place.tile)
        except UnknownTile:
            problems.append(Problem.make(r, t, "unknown-tile", player=name, given=place.tile))
            return None
        if corner_tile is not None and tile is not corner_tile:
            assert place.corners is not None
            problems.append(
                Problem.make(
                    r,
                    t,
                    "unknown-tile/disagree",
                    player=name,
                    given=place.tile,
                    corners="-".join(map(str, place.corners)),
                    tile=str(corner_tile),
                )
            )
            return None
        return tile

    @staticmethod
    def _placement_problem(
        r: int, t: int, name: str, error: IllegalPlacement, board: Board
    ) -> Problem:
        """A placement the board refused, with where it was tried."""
        corners = error.params.get("corners")
        if error.code in ("mirror-tile", "unknown-tile") and isinstance(corners, tuple):
            return _corner_problem(r, t, name, corners)  # corners that show no tile
        params: dict[str, str | int] = {
            key: value if isinstance(value, int) else str(value)
            for key, value in error.params.items()
        }
        params["player"] = name
        problem = Problem.make(r, t, error.code, **params)
        cell = error.params.get("cell")
        if not isinstance(cell, tuple):
            return problem
        point = error.params.get("point")
        return replace(problem, where=_where(
            board, Cell(*cell), error.code, point if isinstance(point, tuple) else None
        ))

    def _evaluate_on_sheet(
        self,
        state: _Round,
        turn: TurnRecord,
        place: PlaceRecord,
        name: str,
        problems: list[Problem],
    ) -> tuple[Score | None, Tile | None, bool]:
        """Sheet mode: no position; check the tile, and that a claimed bonus is possible.

        Returns the score, the tile, and whether a bonus counted could not be verified.
        """
        r, t = state.index, len(state.turns)
        corner_tile: Tile | None = None
        if place.corners is not None:
            corner_tile = tile_from_corners(place.corners)
            if corner_tile is None:
                problems.append(_corner_problem(r, t, name, place.corners))
                return None, None, False
        if place.tile is not None:
            tile = self._named_tile(state, place, corner_tile, name, problems)
            if tile is None:
                return None, None, False
        else:
            assert corner_tile is not None
            tile = corner_tile
        if tile in state.played:
            problems.append(
                Problem.make(r, t, "tile-already-played", player=name, tile=str(tile))
            )
            return None, None, False

        rules = self.rules
        claimed = turn.bonus
        on_table = len(state.played)
        opening = (
            on_table == 0
            and tile.is_triple
            and rules.opening_points(zero_triple=tile.value == 0) > 0
        )
        bonus: Bonus | None = Bonus.OPENING if opening else None
        unverified = False
        params: dict[str, str | int] = {"player": name, "tile": str(tile)}
        if claimed is Bonus.OPENING:
            if not opening:
                if on_table:
                    variant = "not-first"
                elif not tile.is_triple:
                    variant = "not-triple"
                else:
                    variant = "no-opening-bonus"
                problems.append(Problem.make(r, t, f"bonus-mismatch/{variant}", **params))
        elif claimed is not None:
            params["claimed_bonus"] = claimed.value
            needed = min_tiles_for_bonus(claimed)
            if opening:
                problems.append(Problem.make(r, t, "bonus-mismatch/opening", **params))
            elif claimed is Bonus.TWO_SIDES and rules.two_sides_bonus is None:
                problems.append(Problem.make(r, t, "bonus-mismatch/not-in-rules", **params))
            elif on_table < needed:
                problems.append(
                    Problem.make(
                        r,
                        t,
                        "bonus-mismatch/impossible",
                        count=on_table,
                        needed=needed,
                        **params,
                    )
                )
            else:
                bonus = claimed
                unverified = True
        return Score(tile.value, bonus, self._bonus_points(bonus, tile)), tile, unverified

    # -- applying a turn --------------------------------------------------------------------

    def _check_target(self, round_points: Sequence[int]) -> None:
        target = self.rules.target
        if any(t + p >= target for t, p in zip(self._totals, round_points)):
            self._target_reached = True

    # -- ending a round ---------------------------------------------------------------------

    def end_round(
        self,
        racks: Sequence[Rack | Sequence[str | Tile]] | None = None,
        settlement_claimed: Sequence[int] | None = None,
        settlement_decision: str | None = None,
    ) -> RoundReport:
        """Close the round in play with the racks shown (tile names, or a rack's total) and
        the settlement claimed; returns its report. ``settlement_decision`` "claim" (the
        referee kept the claim over the engine's figure): the round's scores take the
        settlement claimed, once the round is over."""
        state = self._state()
        r = state.index
        players = self.players
        problems: list[Problem] = []
        if state.late_problem is not None:
            problems.append(state.late_problem)
        totals = self._rack_totals(state, racks, problems) if racks is not None else None
        settlement = (
            None
            if totals is None
            else settle(totals, end=state.end, out_player=state.out_player, rules=self.rules)
        )
        if settlement_claimed is not None:
            if len(settlement_claimed) != len(players):
                raise ValueError(
                    f"settlement_claimed: one number per player ({len(players)}) expected"
                )
            problem = self._settlement_problem(state, tuple(settlement_claimed), settlement)
            if problem is not None:
                problems.append(problem)
        if state.end == "blocked" and state.board is not None and racks is not None:
            problem = self._false_block(state, racks)
            if problem is not None:
                problems.append(problem)
        counted_settlement = settlement
        if (
            settlement_decision == "claim"
            and settlement_claimed is not None
            and state.end != "unfinished"
        ):
            counted_settlement = tuple(settlement_claimed)
        scores = tuple(
            p + (counted_settlement[i] if counted_settlement is not None else 0)
            for i, p in enumerate(state.points)
        )
        if state.counted:
            self._check_target(scores)
            for i, score in enumerate(scores):
                self._totals[i] += score
            if state.end != "unfinished":
                self._rounds_counted += 1
                limit = self.rules.round_limit
                time_up = self.rules.time_up_round
                if (
                    self._target_reached
                    or (limit is not None and self._rounds_counted >= limit)
                    or (time_up is not None and r + 1 >= time_up)
                ):
                    self._finished = True
        report = RoundReport(
            index=r,
            turns=tuple(state.turns),
            end=state.end,
            out_player=state.out_player,
            settlement=settlement,
            scores=scores,
            problems=tuple(state.problems) + tuple(problems),
            counted=state.counted,
            settlement_decision=settlement_decision,
        )
        self._rounds.append(report)
        self._round = None
        return report

    def _settlement_problem(
        self,
        state: _Round,
        claimed: tuple[int, ...],
        settlement: tuple[int, ...] | None,
    ) -> Problem | None:
        """One problem for the round when the settlement claimed differs from the computed one
        (or claims points for a round that is not over)."""
        shown = ", ".join(map(str, claimed))
        if settlement is not None:
            if claimed == settlement:
                return None
            wrong = [i for i, (c, s) in enumerate(zip(claimed, settlement)) if c != s]
            if len(wrong) == 1:
                (i,) = wrong
                return Problem.make(
                    state.index,
                    None,
                    "settlement-mismatch",
                    player=self.players[i],
                    claimed=claimed[i],
                    computed=settlement[i],
                )
            return Problem.make(
                state.index,
                None,
                "settlement-mismatch/several",
                players=", ".join(self.players[i] for i in wrong),
                claimed=shown,
                computed=", ".join(map(str, settlement)),
            )
        if state.end == "unfinished" and any(claimed):
            return Problem.make(
                state.index, None, "settlement-mismatch/unfinished", claimed=shown
            )
        return None

    def _rack_totals(
        self,
        state: _Round,
        racks: Sequence[Rack | Sequence[str | Tile]],
        problems: list[Problem],
    ) -> list[int] | None:
        """The value left in each rack, checking the tiles shown; None if a name is bad."""
        r = state.index
        players = self.players
        if len(racks) != len(players):
            raise ValueError(f"racks: one rack per player ({len(players)}) expected")
        seen: dict[Tile, int] = {}
        totals: list[int] = []
        readable = True
        extra = 0  # tiles shown beyond the hands: drawn, the pool can have given no more
        # racks, table and pool make the set: the racks hold together what the table and the
        # pool leave, and one rack no more than that less the tiles the others show
        in_racks = len(ALL_TILES) - len(state.played) - state.pool
        shown = [0 if isinstance(rack, int) else len(rack) for rack in racks]
        for i, rack in enumerate(racks):
            name = players[i]
            if isinstance(rack, int):
                most = self._rack_total_bound(state, racks, i)
                if rack > most:
                    # more points than the tiles this player can hold can total
                    problems.append(
                        Problem.make(
                            r,
                            None,
                            "rack-total-impossible"
                            if state.hands[i]
                            else "rack-total-impossible/empty",
                            player=name,
                            total=rack,
                            count=state.hands[i],
                            most=most,
                            seat=i,
                        )
                    )
                totals.append(rack)
                continue
            total = 0
            for entry in rack:
                try:
                    tile = entry if isinstance(entry, Tile) else Tile.parse(entry)
                except UnknownTile:
                    problems.append(
                        Problem.make(r, None, "unknown-tile/rack", player=name, given=str(entry))
                    )
                    readable = False
                    continue
                total += tile.value
                if tile in state.played:
                    problems.append(
                        Problem.make(
                            r, None, "tile-already-played/rack", player=name, tile=str(tile),
                            seat=i,
                        )
                    )
                elif seen.get(tile) == i:
                    problems.append(
                        Problem.make(
                            r, None, "tile-already-played/same-rack", player=name,
                            tile=str(tile), seat=i,
                        )
                    )
                elif tile in seen:
                    problems.append(
                        Problem.make(
                            r,
                            None,
                            "tile-already-played/two-racks",
                            player=name,
                            other=players[seen[tile]],
                            tile=str(tile),
                            seat=i,
                        )
                    )
                else:
                    seen[tile] = i
            # its own hand is always possible; beyond it, what was left to draw and what
            # the set leaves it; nothing for the player who went out
            allowed = (
                0
                if i == state.out_player
                else max(
                    state.hands[i],
                    min(state.hands[i] + state.pool - extra, in_racks - sum(shown) + shown[i]),
                )
            )
            if len(rack) <= allowed:
                extra += max(len(rack) - state.hands[i], 0)
            else:
                # more tiles than the hand, the pool and the set allow: cannot have happened
                problems.append(
                    Problem.make(
                        r,
                        None,
                        "rack-impossible",
                        player=name,
                        shown=len(rack),
                        allowed=allowed,
                        seat=i,
                    )
                )
            if len(rack) <= allowed and len(rack) != state.hands[i]:
                problems.append(
                    Problem.make(
                        r,
                        None,
                        "rack-mismatch",
                        player=name,
                        shown=len(rack),
                        expected=state.hands[i],
                        seat=i,
                    )
                )
            totals.append(total)
        return totals if readable else None

    @staticmethod
    def _rack_total_bound(
        state: _Round, racks: Sequence[Rack | Sequence[str | Tile]], seat: int
    ) -> int:
        """The most a rack given as a total can hold: the sum of the player's hand of tiles
        at their highest, among the tiles that can be in it (neither on the table nor shown
        in another rack). A player who went out holds nothing: 0."""
        elsewhere: set[Tile] = set(state.played)
        for i, rack in enumerate(racks):
            if i == seat or isinstance(rack, int):
                continue
            for entry in rack:
                if isinstance(entry, Tile):
                    elsewhere.add(entry)
                else:
                    try:
                        elsewhere.add(Tile.parse(entry))
                    except UnknownTile:
                        continue
        count = state.hands[seat]
        values = sorted((t.value for t in ALL_TILES if t not in elsewhere), reverse=True)
        return sum(values[:count])

    def _false_block(
        self, state: _Round, racks: Sequence[Rack | Sequence[str | Tile]]
    ) -> Problem | None:
        """One problem for a blocked round when a tile shown in a rack still had a legal
        placement (the first such tile, in seat order)."""
        board = state.board
        assert board is not None
        for i, rack in enumerate(racks):
            if isinstance(rack, int):
                continue
            tiles = []
            for entry in rack:
                try:
                    tiles.append(entry if isinstance(entry, Tile) else Tile.parse(entry))
                except UnknownTile:
                    continue
            found = next(board.legal_placements(tiles), None)
            if found is not None:
                problem = Problem.make(
                    state.index,
                    None,
                    "false-block",
                    player=self.players[i],
                    tile=str(found.tile),
                    cell=str(found.cell),
                )
                return replace(problem, where=_where(board, Cell(*found.cell), problem.code))
        return None


def _corner_problem(r: int, t: int, name: str, corners: Sequence[int]) -> Problem:
    """The problem with corners that show no tile: a mirror image, or bad values."""
    shown = "-".join(map(str, corners))
    if len(corners) == 3 and all(type(v) is int and 0 <= v <= 5 for v in corners):
        real = "-".join(map(str, sorted(corners)))
        return Problem.make(r, t, "mirror-tile", player=name, corners=shown, tile=real)
    return Problem.make(r, t, "unknown-tile", player=name, given=shown)


def check_record(record: MatchRecord) -> MatchReport:
    """Replay a whole record and report every problem.

    >>> from scoring.record_reading import parse_record
    >>> record = parse_record({"format": "triominos-match/1", "players": ["Ana", "Bo"],
    ...     "rounds": [{"turns": [{"player": 0, "place": {"tile": "4-4-4"}, "claimed": 22}]}]})
    >>> report = check_record(record)
    >>> report.valid, report.totals, [p.code for p in report.problems]
    (True, (22, 0), [])
    """
    replay = MatchReplay(record.players, rules=record.rules)
    play = replay.play
    for round_ in record.rounds:
        replay.begin_round()
        for turn in round_.turns:
            play(turn)
        replay.end_round(round_.racks, round_.settlement_claimed, round_.settlement_decision)
    return replay.report()
