"""The rating model, free of Django: openskill's Plackett–Luce (docs/guides/ratings.md).

A player's skill is a normal belief: a mean ``mu`` and an uncertainty ``sigma``. A match at a
table of 2, 3 or 4 is a free-for-all: each player is a team of one, ranked by their match
total (equal totals share a rank). The number shown is the conservative rating, the mean
minus three uncertainties: a newcomer starts at 0 and rises as their results come in.

>>> a, b = rate([INITIAL, INITIAL], [400, 250])
>>> a.conservative > 0 > b.conservative
True
>>> ranks_of([120, 400, 120, 90])
[2, 1, 2, 4]
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: openskill's defaults (mu 25, sigma 25/3, tau 25/300: the drift that keeps a regular
#: player's uncertainty from falling to nothing) but for beta, the spread of one match's
#: performance around the skill: 20, not 25/6. Fitted on simulated seasons of players of
#: known strength (``python manage.py bench_rating_study``, docs/guides/ratings.md): the draw weighs
#: much in a Triominos match, and a wider beta ranks players by their true strength better
#: (Kendall tau 0.357 against 0.315) and predicts the winners better.
BETA = 20.0
_MODEL = PlackettLuce(beta=BETA)

#: How many uncertainties the conservative rating takes off the mean.
CONSERVATIVE_SIGMAS = 3

#: A rating is "provisional" until this many rated matches: three events of four matches.
#: σ shrinks slowly (at β 20, about 8.2 after 6 matches and 8.1 after 18, from 8.33; at
#: openskill's default β still about 6 after 10 to 18), so it says little of how much a
#: rating has seen: a number of matches does, and a reader is told until there are 12.
PROVISIONAL_MATCHES = 12


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """The rating shown: the mean minus three uncertainties."""
        return self.mu - CONSERVATIVE_SIGMAS * self.sigma


#: A player with no rated match yet.
INITIAL = Skill(_MODEL.mu, _MODEL.sigma)


def ranks_of(totals: Sequence[int]) -> list[int]:
    """Each seat's rank from the match totals: 1 for the highest; equal totals share the rank
    and the next rank skips ("1, 2, 2, 4")."""
    return [1 + sum(other > total for other in totals) for total in totals]


def strict_orders(ranks: Sequence[int]) -> list[list[int]]:
    """Every way to break the ties of ``ranks`` (shared ranks "1, 1, 3"): the strict ranks of
    each order of each tied group, the groups keeping their places.

    >>> strict_orders([1, 1, 3])
    [[1, 2, 3], [2, 1, 3]]
    """
    groups: dict[int, list[int]] = {}
    for seat, rank in enumerate(ranks):
        groups.setdefault(rank, []).append(seat)
    per_group = [
        [(rank, order) for order in itertools.permutations(seats)]
        for rank, seats in sorted(groups.items())
    ]
    orders = []
    for choice in itertools.product(*per_group):
        strict = [0] * len(ranks)
        for rank, order in choice:
            for offset, seat in enumerate(order):
                strict[seat] = rank + offset
        orders.append(strict)
    return orders


def rate(skills: Sequence[Skill], totals: Sequence[int]) -> list[Skill]:
    """The players' skills after one match, in seat order: ``skills`` before it, ``totals``
    the match totals, both in seat order.

    A tie is rated as the mean of its orders: each way to break the tied groups is rated as a
    strict finish, and each player's mean and uncertainty are the averages over them (exact
    sums, so that players of equal skills tied together move by exactly the same). openskill's
    own ties moved a player placed just below a shared win like the co-winners (four
    newcomers ranked 1, 1, 3, 4, at openskill's default beta: +0.93, +0.93, +0.93, -2.80);
    here the co-winners gain the same and the third loses as a third does.

    >>> after = rate([INITIAL] * 4, [400, 400, 200, 100])
    >>> [round(skill.mu - INITIAL.mu, 2) for skill in after]
    [0.93, 0.93, -0.13, -1.74]
    """
    if len(skills) != len(totals) or len(skills) < 2:
        raise ValueError("a rated match has two players or more, each with a total")
    teams = [[_MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills]
    orders = strict_orders(ranks_of(totals))
    rated = [_MODEL.rate(teams, ranks=strict) for strict in orders]
    count = len(orders)
    return [
        Skill(math.fsum(result[seat][0].mu for result in rated) / count,
              math.fsum(result[seat][0].sigma for result in rated) / count)
        for seat in range(len(skills))
    ]


def is_provisional(matches: int) -> bool:
    """A rating of fewer than ``PROVISIONAL_MATCHES`` rated matches: shown "provisional"."""
    return matches < PROVISIONAL_MATCHES


def shown_change(before: Skill, after: Skill, *, rank: int, ranks: Sequence[int]) -> float:
    """How much one match moves the rating shown: the conservative rating's change, except
    that it never goes against the result at the table. A winner (rank 1, shared or not)
    never loses rating; a player finishing last never gains. μ − 3σ alone can do both: the
    drift τ widens σ before each match, so a sure player who beats a much weaker one can see
    μ − 3σ fall, and a shrinking σ can lift μ − 3σ after a loss. The rating shown is the sum
    of these changes from 0 (a newcomer's μ − 3σ); it stays next to μ − 3σ, and a player
    reads every change in the direction of their result.

    >>> shown_change(Skill(25.0, 8.0), Skill(24.0, 7.0), rank=4, ranks=[1, 2, 3, 4])
    0.0
    >>> shown_change(Skill(25.0, 8.0), Skill(24.0, 7.0), rank=2, ranks=[1, 2, 3, 4])
    2.0
    """
    change = float(after.conservative - before.conservative)
    if rank == 1:
        return max(change, 0.0)
    if rank == max(ranks):
        return min(change, 0.0) + 0.0  # never -0.0
    return change
