"""``ratings_rebuild`` compares every kept field: a change of any one of them (a match's change,
the change at the last event, the mean, the uncertainty, the matches) is reported."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from tests.factories import matches_confirmed
from tournament.models import PlayerRating, RatingChange

pytestmark = pytest.mark.django_db


def rebuild() -> str:
    out = io.StringIO()
    call_command("ratings_rebuild", stdout=out)
    return out.getvalue()


@pytest.fixture
def rated(make_tournament):
    tournament = make_tournament(slug="rated", players=8, sessions=1, started=True)
    assert matches_confirmed(tournament=tournament) == 2
    assert "nothing changed" in rebuild()
    return tournament


@pytest.mark.parametrize(("model", "field"), [
    (RatingChange, "mu_before"), (RatingChange, "sigma_before"), (RatingChange, "mu"),
    (RatingChange, "rank"), (PlayerRating, "last_event_change"), (PlayerRating, "mu"),
    (PlayerRating, "sigma"), (PlayerRating, "matches"), (PlayerRating, "conservative"),
])
def test_a_kept_field_off_by_a_little_is_reported(rated, model, field):
    row = model.objects.order_by("pk").first()
    value = getattr(row, field)
    model.objects.filter(pk=row.pk).update(**{field: value + (1 if isinstance(value, int) else 0.01)})
    report = rebuild()
    assert "differed" in report and field in report, report
    assert "nothing changed" in rebuild()  # the rebuild put it right
