"""The rating shown, through the real services: each match's change goes the way of the result
at the table (never down after a win, never up after finishing last), the lists and the career
show the kept figure, and a rating of few matches says "provisional"."""

from __future__ import annotations

from collections import defaultdict

import pytest
from django.urls import reverse

from tests.factories import matches_confirmed
from tournament.models import PlayerRating, RatingChange
from tournament.ratings.selectors import ratings_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(make_tournament):
    tournament = make_tournament(slug="rated", players=8, sessions=2, started=True)
    assert matches_confirmed(tournament=tournament) == 4
    return tournament


def test_each_change_goes_the_way_of_the_result(rated):
    worst = defaultdict(int)
    changes = list(RatingChange.objects.order_by("at", "match_id", "player_id"))
    for change in changes:
        worst[change.match_id] = max(worst[change.match_id], change.rank)
    last = {}
    for change in changes:
        assert change.shown_before == last.get(change.player_id, 0.0)
        if change.rank == 1:
            assert change.shown >= change.shown_before
        elif change.rank == worst[change.match_id]:
            assert change.shown <= change.shown_before
        last[change.player_id] = change.shown
    for rating in PlayerRating.objects.all():
        assert rating.conservative == last[rating.player_id]


def test_few_matches_are_provisional_on_the_list_and_the_career(client, rated):
    rows = ratings_rows()
    assert rows and all(row["provisional"] for row in rows)  # two matches each
    page = client.get("/ratings/").content.decode()
    assert page.count('class="tag tag--provisional"') == len(rows)
    player_id = rows[0]["player_id"]
    career = client.get(reverse("tournament:player_career", kwargs={"player_id": player_id}))
    assert career.context["rating_provisional"] and 'id="rating-provisional"' in (
        career.content.decode())
    PlayerRating.objects.filter(player_id=player_id).update(matches=12)
    assert not next(row for row in ratings_rows() if row["player_id"] == player_id)[
        "provisional"]
