"""The rating study: simulated seasons of players of known strength, rated by each candidate
model, scored on how well each ranks the players by their true strength. No database.

A season: ``players`` players of strengths spread evenly from 0 to 1 (the probability of the
best-scoring placement, else the worst: ``scoring.simulate.simulate_match(skills=...)``);
``events`` tournaments of ``sessions`` sessions each, ``attend`` players drawn at each event
and seated at random at tables of four; each match of ``rounds`` rounds (a fixed number of
rounds, as many tournaments play, which makes ties common). Each candidate rates the season's
matches in order. Two figures per candidate, averaged over the seasons:

- **Kendall τ** between the players' final mean μ and their true strength (1: the same
  order; 0: no relation); and τ of the rating shown (μ − 3σ) too;
- the **predictive log-likelihood** of the second half of each season: before rating each
  match, the log of the probability the model gave to the match's winners (a shared win: the
  sum of the winners' probabilities), averaged per match. Higher is better; a model that
  knows nothing scores log(1/4) = -1.386 at tables of four.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from openskill.models import BradleyTerryFull, PlackettLuce, ThurstoneMostellerFull

from scoring import check_record, parse_record
from scoring.simulate import simulate_match
from tournament.ratings.model import BETA, ranks_of, strict_orders

Match = tuple[tuple[int, ...], tuple[int, ...]]  # players in seat order, their totals


@dataclass(frozen=True)
class Season:
    strengths: tuple[float, ...]
    matches: tuple[Match, ...]


def season_play(*, seed: int, players: int = 24, events: int = 8, sessions: int = 4,
                attend: int = 16, rounds: int = 2) -> Season:
    """One simulated season (see the module's docstring)."""
    rng = random.Random(seed)
    strengths = tuple(index / (players - 1) for index in range(players))
    matches: list[Match] = []
    for event in range(events):
        present = rng.sample(range(players), attend)
        for session in range(sessions):
            rng.shuffle(present)
            for table in range(0, attend, 4):
                seated = tuple(present[table:table + 4])
                record = simulate_match(
                    players=len(seated), rounds=rounds,
                    seed=seed * 100_000 + event * 1000 + session * 10 + table,
                    skills=[strengths[player] for player in seated],
                )
                report = check_record(parse_record(record))
                matches.append((seated, tuple(report.totals)))
    return Season(strengths, tuple(matches))


@dataclass
class Candidate:
    """A rating model to try: ``rate(model, ratings, totals)`` gives the ratings after a
    match (openskill rating objects, one a seat)."""

    name: str
    model: object
    rate: Callable
    scores: dict[str, list[float]] = field(default_factory=dict)


def _teams(model, ratings):
    """Fresh openskill ratings, a team of one each (openskill's ``rate`` may change the
    objects it is given)."""
    return [[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]


def openskill_ties(model, ratings, totals):
    """openskill's own handling of ties (shared ranks)."""
    return [team[0] for team in model.rate(_teams(model, ratings), ranks=ranks_of(totals))]


def mean_of_orders(model, ratings, totals):
    """A tie rated as the mean of its orders (``tournament.ratings.model.rate``'s way)."""
    orders = strict_orders(ranks_of(totals))
    rated = [model.rate(_teams(model, ratings), ranks=strict) for strict in orders]
    return [
        model.rating(mu=math.fsum(result[seat][0].mu for result in rated) / len(orders),
                     sigma=math.fsum(result[seat][0].sigma for result in rated) / len(orders))
        for seat in range(len(ratings))
    ]


def candidates(betas: Sequence[float] = ()) -> list[Candidate]:
    """The candidates: the model before (Plackett–Luce, openskill's ties, its default β 25/6),
    the tie fix alone (ties as the mean of their orders), the "full" Bradley–Terry and
    Thurstone–Mosteller models (ties as the mean of their orders) at β 25/6 and at the β in
    use, the model in use (``tournament.ratings.model``: Plackett–Luce, mean of orders,
    ``BETA``), and Plackett–Luce with each β of ``betas``."""
    made = [
        Candidate("PL, openskill ties, beta 25/6 (before)", PlackettLuce(), openskill_ties),
        Candidate("PL, mean of orders, beta 25/6", PlackettLuce(), mean_of_orders),
        Candidate("BradleyTerryFull, beta 25/6", BradleyTerryFull(), mean_of_orders),
        Candidate("ThurstoneMostellerFull, beta 25/6", ThurstoneMostellerFull(),
                  mean_of_orders),
        Candidate(f"BradleyTerryFull, beta {BETA:g}", BradleyTerryFull(beta=BETA),
                  mean_of_orders),
        Candidate(f"ThurstoneMostellerFull, beta {BETA:g}", ThurstoneMostellerFull(beta=BETA),
                  mean_of_orders),
        Candidate(f"PL, mean of orders, beta {BETA:g} (in use)", PlackettLuce(beta=BETA),
                  mean_of_orders),
    ]
    made += [Candidate(f"PL, mean of orders, beta {beta:g}", PlackettLuce(beta=beta),
                       mean_of_orders) for beta in betas if beta != BETA]
    return made


def kendall_tau_b(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Kendall's τ-b of two equally long sequences: (concordant − discordant pairs) over the
    geometric mean of the pairs untied in each, so that ties in either count as neither.
    Quadratic in the length, which is a season's few dozen players here.

    >>> kendall_tau_b([1, 2, 3, 4], [10, 20, 30, 40])
    1.0
    >>> kendall_tau_b([1, 2, 3, 4], [40, 30, 20, 10])
    -1.0
    >>> round(kendall_tau_b([1, 2, 2, 3], [1, 3, 2, 4]), 6)
    0.912871
    """
    concordant = discordant = untied_x = untied_y = 0
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            dx, dy = xs[i] - xs[j], ys[i] - ys[j]
            untied_x += dx != 0
            untied_y += dy != 0
            concordant += dx * dy > 0
            discordant += dx * dy < 0
    if not untied_x or not untied_y:
        return math.nan
    return (concordant - discordant) / math.sqrt(untied_x * untied_y)


def season_score(candidate: Candidate, season: Season) -> dict[str, float]:
    """Kendall τ (μ and μ − 3σ against true strength) and the predictive log-likelihood of
    the second half of the season, for one candidate."""
    model = candidate.model
    ratings = {player: model.rating() for player in range(len(season.strengths))}
    half = len(season.matches) // 2
    loglik: list[float] = []
    for index, (seated, totals) in enumerate(season.matches):
        before = [ratings[player] for player in seated]
        if index >= half:
            chances = model.predict_win([[r] for r in before])
            top = max(totals)
            won = sum(p for p, total in zip(chances, totals) if total == top)
            loglik.append(math.log(max(won, 1e-12)))
        for player, after in zip(seated, candidate.rate(model, before, totals)):
            ratings[player] = after
    players = range(len(season.strengths))
    truth = [season.strengths[p] for p in players]
    tau_mu = kendall_tau_b([ratings[p].mu for p in players], truth)
    tau_shown = kendall_tau_b([ratings[p].mu - 3 * ratings[p].sigma for p in players],
                              truth)
    return {"tau_mu": tau_mu, "tau_shown": tau_shown, "loglik": sum(loglik) / len(loglik)}
