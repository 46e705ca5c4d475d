"""Rule sets: every number of the rule book (docs/reference/rules.md), as data.

No other module of the engine holds a rule number; they all read a :class:`RuleSet` passed in
by keyword.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from scoring.errors import ScoringError

__all__ = ["RuleSet", "RULE_SETS", "DEFAULT_RULES", "rule_set", "UnknownRuleSet"]


class UnknownRuleSet(ScoringError, KeyError):
    """A rule set name that is not in :data:`RULE_SETS`."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The numbers of one edition of the rules.

    >>> rules = rule_set("goliath-family", target=300)
    >>> rules.hand_size(2), rules.hand_size(6), rules.pool_size(6), rules.target
    (9, 6, 20, 300)
    >>> rule_set("goliath-tournament", opening_bonus=False).opening_bonus
    0
    """

    name: str
    min_players: int
    max_players: int
    #: (player count, hand size) pairs, for every allowed player count.
    hand_sizes: tuple[tuple[int, int], ...]
    #: Bonus for opening a round with a triple (0 when the edition gives none).
    opening_bonus: int = 10
    #: Bonus for opening with 0-0-0 (the tile is worth 0, so the opening scores 40).
    zero_triple_opening_bonus: int = 40
    draw_penalty: int = 5
    max_draws: int = 3
    #: Taken off, on top of the draws, after max_draws draws without a placement.
    failed_draws_penalty: int = 10
    #: Bonus for a tile sharing two or three sides with the table; None when the edition
    #: gives none (such a tile then scores its value alone).
    two_sides_bonus: int | None = 40
    bridge_bonus: int = 40
    #: Bonuses for completing one, two or three hexagons with one tile.
    hexagon_bonuses: tuple[int, int, int] = (50, 60, 70)
    going_out_bonus: int = 25
    target: int = 400
    #: False when a player who can play must play (the engine cannot check it without the
    #: hands; the simulator obeys it).
    voluntary_draw: bool = True
    tile_count: int = 56
    #: Some editions end a match after a fixed number of rounds instead of at a target.
    round_limit: int | None = None
    #: In a blocked round, each player other than the lowest loses their own rack's total
    #: (the Travel Tour sheet); otherwise they lose nothing.
    blocked_others_lose_rack: bool = False
    #: The target is looked at only once a round is settled (the Travel Tour sheet);
    #: otherwise touching it at any moment ends the match once that round is played out.
    target_at_round_end_only: bool = False
    #: The session's time ran out during this round (from 1): the match is over once that
    #: round has ended, whoever leads (the record's option ``time_up``).
    time_up_round: int | None = None

    def hand_size(self, players: int) -> int:
        """Tiles dealt to each player; raises ValueError for a player count out of range."""
        for count, size in self.hand_sizes:
            if count == players:
                return size
        raise ValueError(
            f"{self.name} is played by {self.min_players} to {self.max_players} players, "
            f"not {players}"
        )

    def pool_size(self, players: int) -> int:
        """Tiles left in the pool after the deal."""
        return self.tile_count - self.hand_size(players) * players

    def opening_points(self, *, zero_triple: bool) -> int:
        """The bonus for opening with a triple (0-0-0 has its own)."""
        return self.zero_triple_opening_bonus if zero_triple else self.opening_bonus


def _sizes(**by_count: int) -> tuple[tuple[int, int], ...]:
    return tuple((int(k[1:]), v) for k, v in by_count.items())


_RULE_SETS = {
    rules.name: rules
    for rules in (
        RuleSet(
            name="goliath-tournament",
            min_players=2,
            max_players=4,
            hand_sizes=_sizes(p2=7, p3=7, p4=7),
        ),
        RuleSet(
            name="goliath-family",
            min_players=2,
            max_players=6,
            hand_sizes=_sizes(p2=9, p3=7, p4=7, p5=6, p6=6),
        ),
        RuleSet(
            name="travel-tour",
            min_players=2,
            max_players=4,
            hand_sizes=_sizes(p2=9, p3=7, p4=7),
            voluntary_draw=False,
            # The Travel Tour sheet, read literally (docs/reference/rules.md): bridge, hexagon and
            # double hexagon only, three hexagons at once worth the double's +60.
            two_sides_bonus=None,
            hexagon_bonuses=(50, 60, 60),
            blocked_others_lose_rack=True,
            target_at_round_end_only=True,
        ),
    )
}

#: The rule sets of docs/reference/rules.md, by name.
RULE_SETS: Mapping[str, RuleSet] = MappingProxyType(_RULE_SETS)
#: The tournament rules, the default.
DEFAULT_RULES: RuleSet = RULE_SETS["goliath-tournament"]


def rule_set(
    name: str = DEFAULT_RULES.name,
    *,
    target: int | None = None,
    opening_bonus: bool = True,
    round_limit: int | None = None,
    time_up_round: int | None = None,
) -> RuleSet:
    """A rule set by name, with a tournament's overrides applied.

    >>> rule_set().name, rule_set(target=250).target
    ('goliath-tournament', 250)
    """
    try:
        rules = RULE_SETS[name]
    except (KeyError, TypeError):
        known = ", ".join(RULE_SETS)
        raise UnknownRuleSet(f"unknown rule set {name!r} (known: {known})") from None
    if target is not None:
        if type(target) is not int or target <= 0:
            raise ValueError(f"target must be a positive integer, got {target!r}")
        rules = dataclasses.replace(rules, target=target)
    if not opening_bonus:
        rules = dataclasses.replace(rules, opening_bonus=0, zero_triple_opening_bonus=0)
    if round_limit is not None:
        if type(round_limit) is not int or round_limit <= 0:
            raise ValueError(f"round_limit must be a positive integer, got {round_limit!r}")
        rules = dataclasses.replace(rules, round_limit=round_limit)
    if time_up_round is not None:
        if type(time_up_round) is not int or time_up_round <= 0:
            raise ValueError(f"time_up_round must be a positive integer, got {time_up_round!r}")
        rules = dataclasses.replace(rules, time_up_round=time_up_round)
    return rules
