"""``python manage.py bench_rating_study``: which rating model ranks players of known strength
best, over simulated seasons (``bench/study.py``; the figures and the choice: docs/guides/ratings.md).

Plays ``--seasons`` seasons (seeds 1 to N) of ``--players`` players, ``--events`` events of
``--sessions`` sessions, ``--attend`` players an event, matches of ``--rounds`` rounds, then
rates each season with every candidate and prints, per candidate, the mean Kendall τ of μ and
of μ − 3σ against the true strengths and the mean predictive log-likelihood of the second
half of the seasons; ``--betas`` adds Plackett–Luce with other β (fitted: the best
log-likelihood). CPU seconds (``time.process_time``) of the play and of the rating.
"""

from __future__ import annotations

import statistics
import time

from django.core.management.base import BaseCommand

from bench.study import candidates, season_play, season_score


class Command(BaseCommand):
    help = "Rate simulated seasons of players of known strength with each candidate model."

    def add_arguments(self, parser):
        parser.add_argument("--seasons", type=int, default=12)
        parser.add_argument("--players", type=int, default=24)
        parser.add_argument("--events", type=int, default=8)
        parser.add_argument("--sessions", type=int, default=4)
        parser.add_argument("--attend", type=int, default=16)
        parser.add_argument("--rounds", type=int, default=2)
        parser.add_argument("--betas", default="2,8,12",
                            help="other values of beta to try with Plackett-Luce")

    def handle(self, *args, seasons, players, events, sessions, attend, rounds, betas,
               **options):
        started = time.process_time()
        played = [season_play(seed=seed, players=players, events=events, sessions=sessions,
                              attend=attend, rounds=rounds) for seed in range(1, seasons + 1)]
        play_cpu = time.process_time() - started
        matches = sum(len(season.matches) for season in played)
        ties = sum(
            1 for season in played for _seated, totals in season.matches
            if len(set(totals)) < len(totals)
        )
        self.stdout.write(
            f"{seasons} seasons, {matches} matches ({ties} with a tie), played in "
            f"{play_cpu:.1f} s of CPU"
        )
        beta_values = [float(part) for part in betas.split(",") if part.strip()]
        started = time.process_time()
        self.stdout.write(f"{'candidate':44} {'tau(mu)':>8} {'tau(shown)':>10} {'loglik':>8}")
        for candidate in candidates(beta_values):
            scores = [season_score(candidate, season) for season in played]
            tau_mu = statistics.fmean(score["tau_mu"] for score in scores)
            tau_shown = statistics.fmean(score["tau_shown"] for score in scores)
            loglik = statistics.fmean(score["loglik"] for score in scores)
            spread = statistics.stdev(score["tau_mu"] for score in scores) if seasons > 1 else 0
            self.stdout.write(
                f"{candidate.name:44} {tau_mu:8.3f} {tau_shown:10.3f} {loglik:8.4f}"
                f"   (tau sd {spread:.3f})"
            )
        self.stdout.write(f"rated in {time.process_time() - started:.1f} s of CPU")
