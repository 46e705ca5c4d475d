"""Standings kept in the shared cache (``cached_standings_of``): the same as computed, read in
one query while the tournaments' data versions stand still, made again for the one that
moved."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import matches_confirmed
from tournament.models import Tournament
from tournament.organiser.services import registration_update
from tournament.standings.selectors import cached_standings_of, standings_of

pytestmark = pytest.mark.django_db


def read(*tournaments) -> list[Tournament]:
    return list(Tournament.objects.filter(pk__in=[t.pk for t in tournaments]).order_by("pk"))


@pytest.mark.slow  # 13 matches played
def test_kept_standings_are_the_computed_ones_until_a_tournament_changes(make_tournament):
    spring = make_tournament(slug="spring", players=8, sessions=2)
    autumn = make_tournament(slug="autumn", players=12, sessions=1)
    matches_confirmed(tournament=spring, seed=1)
    matches_confirmed(tournament=autumn, seed=2)

    first = cached_standings_of(tournaments=read(spring, autumn))
    assert first == standings_of(tournaments=read(spring, autumn))
    tournaments = read(spring, autumn)
    with CaptureQueriesContext(connection) as captured:
        again = cached_standings_of(tournaments=tournaments)
    assert again == first
    assert len(captured) == 1  # one read of the cache

    # A write to spring (a player renamed) moves its version: spring is ranked again, autumn
    # read as kept.
    registration = spring.registrations.select_related("player").order_by("pk").first()
    registration_update(registration=registration, name=registration.player.name + " Jr")
    tournaments = read(spring, autumn)
    with CaptureQueriesContext(connection) as captured:
        changed = cached_standings_of(tournaments=tournaments)
    assert changed == standings_of(tournaments=tournaments)
    assert changed[spring.pk] != first[spring.pk] and changed[autumn.pk] == first[autumn.pk]
    ranked_again = [query["sql"] for query in captured
                    if 'FROM "tournament_registration"' in query["sql"]]
    assert len(ranked_again) == 1 and str(spring.pk) in str(ranked_again)
