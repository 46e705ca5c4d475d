"""The check of every figure finds nothing on tournaments Hypothesis draws and builds through
the services (``tests/tournament/figures/builders.py``): random sizes, ranking criteria,
check-in rules with absences, withdrawals, finals of 4 and 8 with ties at the cut line,
corrections before and after the final."""

from __future__ import annotations

import pytest
from django.db import transaction
from hypothesis import HealthCheck, Phase, given, settings

from tests.examples import examples
from tests.tournament.figures.builders import tournament_built, tournament_plans
from tournament.figures.check import figures_check

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

# No shrinking: a tournament is seconds to build, and the failing plan is printed whole.
SETTINGS = settings(max_examples=examples(20), deadline=None, derandomize=True,
                    phases=[Phase.explicit, Phase.reuse, Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


def differences_of(plan) -> list[str]:
    with transaction.atomic():
        tournament = tournament_built(plan, slug="drawn-open")
        found = [str(difference) for difference in figures_check(tournament=tournament)]
        transaction.set_rollback(True)
    return found


@SETTINGS
@given(plan=tournament_plans(final=False))
def test_no_difference_in_generated_tournaments_without_a_final(plan):
    assert differences_of(plan) == []


# Remove this mark once the final's figures are fixed in tournament/standings/ (the ranks of
# the players under the finalists after a correction, and the club teams after a final):
# with the mark, the test passing fails the suite (strict), which says that it is time.
@pytest.mark.xfail(strict=True,
                   reason="ranks under a final and club teams after a final: being fixed")
@SETTINGS
@given(plan=tournament_plans(final=True))
def test_no_difference_in_generated_tournaments_with_a_final(plan):
    assert differences_of(plan) == []
