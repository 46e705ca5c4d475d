"""A seeded simulator of legal matches, for the demo, the tests and the benchmarks.

The simulator deals, opens with the highest triple (else the tile of highest value), and
lets every player place a good legal tile or draw; it keeps its own account of the racks,
the pool, the turn order and the end of each round, and writes a whole match record with
every claim right (unless asked for mistakes). Its own bookkeeping is independent of the
referee's in :mod:`scoring.replay`, which is what makes "a simulated match replays with no
problem" a test of both.

    >>> record = simulate_match(players=3, seed=7)
    >>> record["players"], record["rounds"][0]["turns"][0]["bonus"]
    (['Alice', 'Bruno', 'Chloé'], 'opening')
    >>> from scoring import check_record, parse_record
    >>> check_record(parse_record(record)).valid
    True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final

from scoring.board import ORIGIN, Board, Placement, Score
from scoring.record import FORMAT
from scoring.replay import settle
from scoring.reports import EndKind
from scoring.rules import RULE_SETS, RuleSet, rule_set
from scoring.tiles import ALL_TILES, Tile

__all__ = ["simulate_match", "choose_opener", "NAMES"]

#: Default player names, in seating order.
NAMES: Final = ("Alice", "Bruno", "Chloé", "Denis", "Émile", "Farah")

#: How often a player takes the best placement (else any legal one).
_BEST_PLAY: Final = 0.85
#: How often a player who could play draws first anyway (where the rules let them).
_VOLUNTARY_DRAW: Final = 0.03
#: A match that has not ended after this many rounds has a target it cannot reach.
_MAX_ROUNDS: Final = 1000


def simulate_match(
    *,
    players: int = 4,
    seed: int = 0,
    rules: str = "goliath-tournament",
    target: int | None = None,
    opening_bonus: bool = True,
    rounds: int | None = None,
    names: Sequence[str] | None = None,
    mistakes: float = 0.0,
    sheet: bool = False,
    on_turn: Callable[[Board, Sequence[Sequence[Tile]], Sequence[Tile]], None] | None = None,
    skills: Sequence[float] | None = None,
) -> dict[str, Any]:
    """A whole match record (a JSON-ready dict), the same for the same arguments.

    ``opening_bonus`` and ``rounds`` are the record's options (docs/reference/rules.md). ``mistakes``
    is the probability that a claim (a turn's, or a settlement's) is wrong;
    ``sheet`` records tiles and bonus claims only, as a paper score sheet does. ``on_turn``,
    if given, is called after every turn with the table, the racks and the pool (to watch a
    game; they must not be changed). ``skills``: each player's known strength, the probability
    that they take the best-scoring placement (else the worst-scoring one); without it, every
    player takes the best placement 85 % of the time (else any legal one). Strength weighs
    little against the draw: over 100 matches of 4 rounds, players of 1.0, 0.66, 0.33 and 0
    won 27, 31, 30 and 12 (shared wins counted for each). The rating study
    (``python manage.py bench_rating_study``, docs/guides/ratings.md) plays seasons of such players.
    """
    ruleset = rule_set(rules, target=target, opening_bonus=opening_bonus, round_limit=rounds)
    if names is None:
        names = [NAMES[i] if i < len(NAMES) else f"Player {i + 1}" for i in range(players)]
    if len(names) != players:
        raise ValueError(f"names: {players} names expected, got {len(names)}")
    ruleset.hand_size(players)  # raises for a player count the rules do not allow
    if not 0.0 <= mistakes <= 1.0:
        raise ValueError(f"mistakes: a probability from 0 to 1, got {mistakes}")
    if skills is not None and (
        len(skills) != players or not all(0.0 <= p <= 1.0 for p in skills)
    ):
        raise ValueError(f"skills: {players} probabilities from 0 to 1 expected, got {skills}")
    game = _Match(ruleset, players, random.Random(seed), mistakes, sheet, on_turn)
    game.skills = None if skills is None else list(skills)
    played = game.play()
    record: dict[str, Any] = {"format": FORMAT, "rules": ruleset.name}
    if ruleset.target != RULE_SETS[ruleset.name].target:
        record["target"] = ruleset.target
    options: dict[str, Any] = {}
    if not opening_bonus:
        options["opening_bonus"] = False
    if rounds is not None:
        options["rounds"] = rounds
    if options:
        record["options"] = options
    record["players"] = list(names)
    record["rounds"] = played
    return record


def choose_opener(
    racks: Sequence[Sequence[Tile]], *, rules: RuleSet
) -> list[tuple[int, Tile]]:
    """Who opens the round, and with which tile: the holder of the highest triple, with the
    triple that scores most (0-0-0 scores 40); else the holder of the tile of highest value.
    Several (player, tile) pairs come back only when tiles of the highest value tie.

    >>> racks = [[Tile("1-1-1"), Tile("4-5-5")], [Tile("0-0-0"), Tile("3-3-3")]]
    >>> choose_opener(racks, rules=rule_set())
    [(1, Tile('0-0-0'))]
    >>> choose_opener([[Tile("2-5-5")], [Tile("3-4-5")]], rules=rule_set())
    [(0, Tile('2-5-5')), (1, Tile('3-4-5'))]
    """
    for value in range(5, -1, -1):
        triple = Tile(value, value, value)
        for player, rack in enumerate(racks):
            if triple in rack:
                best = max(
                    (t for t in rack if t.is_triple),
                    key=lambda t: t.value + rules.opening_points(zero_triple=t.value == 0),
                )
                return [(player, best)]
    highest = max(t.value for rack in racks for t in rack)
    return [(p, t) for p, rack in enumerate(racks) for t in rack if t.value == highest]


class _Match:
    def __init__(
        self,
        rules: RuleSet,
        players: int,
        rng: random.Random,
        mistakes: float,
        sheet: bool,
        on_turn: Callable[[Board, Sequence[Sequence[Tile]], Sequence[Tile]], None] | None,
    ) -> None:
        self.on_turn = on_turn
        self.rules = rules
        self.n = players
        self.rng = rng
        self.mistakes = mistakes
        self.sheet = sheet
        self.totals = [0] * players
        self.skills: list[float] | None = None

    def play(self) -> list[dict[str, Any]]:
        rounds: list[dict[str, Any]] = []
        limit = self.rules.round_limit
        while len(rounds) < _MAX_ROUNDS:
            record, reached = self._round()
            rounds.append(record)
            if reached or (limit is not None and len(rounds) >= limit):
                return rounds
        raise ValueError(f"no player reached {self.rules.target} in {_MAX_ROUNDS} rounds")

    # -- one round --------------------------------------------------------------------------

    def _round(self) -> tuple[dict[str, Any], bool]:
        rules, n, rng = self.rules, self.n, self.rng
        hand = rules.hand_size(n)
        tiles = list(ALL_TILES)
        rng.shuffle(tiles)
        racks = [tiles[i * hand : (i + 1) * hand] for i in range(n)]
        pool = tiles[n * hand :]
        board = Board(rules=rules)
        points = [0] * n
        turns: list[dict[str, Any]] = []
        reached = False

        player, tile = self._opener(racks)
        placement = Placement(ORIGIN, rng.choice(tile.rotations()))
        score = board.place(placement)
        racks[player].remove(tile)
        turns.append(self._turn(player, 0, placement, score))
        if self.on_turn is not None:
            self.on_turn(board, racks, pool)
        points[player] += score.total
        reached = not rules.target_at_round_end_only and self._reached(points)

        idle = 0
        end: EndKind = "unfinished"
        out: int | None = None
        while end == "unfinished":
            player = (player + 1) % n
            rack = racks[player]
            draws = 0
            choice = self._choose(board, rack, player)
            voluntary = rules.voluntary_draw and rng.random() < _VOLUNTARY_DRAW
            if choice is not None and pool and voluntary:
                rack.append(pool.pop())
                draws = 1
                choice = self._choose(board, rack, player)
            while choice is None and pool and draws < rules.max_draws:
                rack.append(pool.pop())
                draws += 1
                choice = self._choose(board, rack, player)
            penalty = draws * rules.draw_penalty
            if choice is None:
                if draws == rules.max_draws:
                    penalty += rules.failed_draws_penalty
                idle += 1
                score = Score(0, penalty=penalty)
            else:
                score = board.place(choice).with_penalty(penalty)
                rack.remove(choice.tile)
                idle = 0
            turns.append(self._turn(player, draws, choice, score))
            if self.on_turn is not None:
                self.on_turn(board, racks, pool)
            points[player] += score.total
            if not rules.target_at_round_end_only:
                reached = reached or self._reached(points)
            if choice is not None and not rack:
                end, out = "out", player
            elif not pool and idle >= n:
                end = "blocked"

        totals_left = [sum(t.value for t in rack) for rack in racks]
        settlement = settle(totals_left, end=end, out_player=out, rules=rules)
        assert settlement is not None
        claimed = [self._maybe_wrong(v) for v in settlement]
        scores = [p + s for p, s in zip(points, settlement)]
        reached = reached or self._reached(scores)
        for i, score_ in enumerate(scores):
            self.totals[i] += score_
        record = {
            "turns": turns,
            "racks": [sorted(str(t) for t in rack) for rack in racks],
            "settlement_claimed": claimed,
        }
        return record, reached

    def _reached(self, round_points: Sequence[int]) -> bool:
        target = self.rules.target
        return any(t + p >= target for t, p in zip(self.totals, round_points))

    def _opener(self, racks: list[list[Tile]]) -> tuple[int, Tile]:
        holders = choose_opener(racks, rules=self.rules)
        return holders[0] if len(holders) == 1 else self.rng.choice(holders)

    def _choose(self, board: Board, rack: list[Tile], player: int) -> Placement | None:
        candidates = list(board.legal_placements(rack))
        if not candidates:
            return None
        rng = self.rng
        if self.skills is None:  # the default player: the best placement, at times any
            if rng.random() >= _BEST_PLAY:
                return rng.choice(candidates)
            scored = [(board.check(p).total, p) for p in candidates]
            best = max(total for total, _ in scored)
            return rng.choice([p for total, p in scored if total == best])
        skill = self.skills[player]
        scored = [(board.check(p).total, p) for p in candidates]
        # a player of known strength takes the best-scoring placement with probability
        # ``skill``, else the worst-scoring one (a weak player's habit: any tile that fits)
        pick = max if rng.random() < skill else min
        best = pick(total for total, _ in scored)
        return rng.choice([p for total, p in scored if total == best])

    def _maybe_wrong(self, points: int) -> int:
        if self.mistakes and self.rng.random() < self.mistakes:
            return points + self.rng.choice((-10, -5, -1, 1, 5, 10))
        return points

    def _turn(
        self, player: int, draws: int, placement: Placement | None, score: Score
    ) -> dict[str, Any]:
        turn: dict[str, Any] = {"player": player}
        if draws:
            turn["draws"] = draws
        if placement is not None:
            if self.sheet:
                turn["place"] = {"tile": str(placement.tile)}
            else:
                cell = placement.cell
                turn["place"] = {
                    "cell": [cell.x, cell.y, cell.o],
                    "corners": list(placement.corners),
                }
        if score.bonus is not None:
            turn["bonus"] = score.bonus.value
        turn["claimed"] = self._maybe_wrong(score.total)
        return turn
