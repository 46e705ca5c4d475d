"""The rating model, free of Django: openskill's Plackett–Luce (docs/ratings.md).

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

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300 (the drift that keeps a
#: regular player's uncertainty from falling to nothing).
_MODEL = PlackettLuce()

#: How many uncertainties the conservative rating takes off the mean.
CONSERVATIVE_SIGMAS = 3


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


def rate(skills: Sequence[Skill], totals: Sequence[int]) -> list[Skill]:
    """The players' skills after one match, in seat order: ``skills`` before it, ``totals``
    the match totals, both in seat order."""
    if len(skills) != len(totals) or len(skills) < 2:
        raise ValueError("a rated match has two players or more, each with a total")
    teams = [[_MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills]
    rated = _MODEL.rate(teams, ranks=ranks_of(totals))
    return [Skill(team[0].mu, team[0].sigma) for team in rated]
