"""The check of every figure on the demo: nothing differs (docs/guides/organiser.md, "Checking every
figure")."""

from __future__ import annotations

import pytest

from tournament.demo import demo_build
from tournament.figures.check import figures_check

pytestmark = pytest.mark.django_db


@pytest.mark.slow  # the demo built
def test_the_demo_has_no_difference():
    report = demo_build()
    assert figures_check(tournament=report.earlier) == []
    assert figures_check() == []
