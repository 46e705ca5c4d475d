"""Every submission carries a key made on the tablet: sent again (the answer was lost on the
network, the tablet's queue resends it), it is answered "already saved" with the match as it
is, never saved twice and never refused as stale."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import fresh, match_at
from tournament import engine
from tournament.matches import services
from tournament.models import AuditEntry, Match, MatchSubmission, Turn

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
KEY = "3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b"


def opening(player: int = 0) -> services.TurnInput:
    return services.TurnInput(player=player, cell=engine.Cell(0, 0, "U"), corners=(5, 5, 5),
                              points_claimed=25)


def test_the_same_key_again_is_already_saved_even_from_the_same_revision(tournament, referee):
    match = fresh(match_at(tournament=tournament))
    seen = match.revision
    services.match_turns_add(match=match, user=referee, seen_revision=seen,
                             turns=[opening()], submission_key=KEY)
    with pytest.raises(services.AlreadySaved):
        services.match_turns_add(match=fresh(match), user=referee, seen_revision=seen,
                                 turns=[opening()], submission_key=KEY)
    with pytest.raises(services.AlreadySaved):  # sent again after the match moved on
        services.match_turns_add(match=fresh(match), user=referee,
                                 seen_revision=fresh(match).revision, turns=[opening()],
                                 submission_key=KEY)
    assert Turn.objects.filter(round__match=match).count() == 1
    assert fresh(match).revision == seen + 1
    assert MatchSubmission.objects.filter(match=match, key=KEY).count() == 1


def test_a_refused_write_keeps_no_key(tournament, referee):
    match = fresh(match_at(tournament=tournament))
    illegal = services.TurnInput(player=0, cell=engine.Cell(3, 3, "U"), corners=(5, 5, 5),
                                 points_claimed=25)
    services.match_turns_add(match=match, user=referee, seen_revision=match.revision,
                             turns=[opening()])
    with pytest.raises(services.TurnsRefused):
        services.match_turns_add(match=fresh(match), user=referee,
                                 seen_revision=fresh(match).revision, turns=[illegal],
                                 submission_key=KEY)
    assert not MatchSubmission.objects.filter(key=KEY).exists()
    undone = services.match_turn_undo(match=fresh(match), user=referee,
                                      seen_revision=fresh(match).revision, submission_key=KEY)
    assert undone.saved.tile == "5-5-5"
    assert MatchSubmission.objects.filter(match=match, key=KEY).count() == 1


def test_a_key_is_one_matchs(tournament, referee):
    first, second = Match.objects.filter(table__session__tournament=tournament).order_by(
        "table__number")[:2]
    for match in (first, second):
        match = fresh(match)
        services.match_turns_add(match=match, user=referee, seen_revision=match.revision,
                                 turns=[opening()], submission_key=KEY)
    assert Turn.objects.filter(round__match__in=[first, second]).count() == 2


def _url(match: Match, name: str) -> str:
    return reverse(f"tournament:{name}", kwargs={
        "slug": match.table.session.tournament.slug, "match_id": match.pk})


def test_the_tablet_resending_a_turn_is_told_it_is_already_saved(tournament, referee_client):
    match = fresh(match_at(tournament=tournament))
    data = {"revision": match.revision, "player": "0", "tile": "555", "cell": "U(0,0)",
            "corners": "5-5-5", "draws": "0", "claimed": "25", "submission_key": KEY}
    first = referee_client.post(_url(match, "match_turn_add"), data, **HTMX)
    assert first.status_code == 200
    assert first.context["done_message"] != services.already_saved_message()
    again = referee_client.post(_url(match, "match_turn_add"), data, **HTMX)
    assert again.status_code == 200
    assert again.context["done_message"] == services.already_saved_message()
    assert again.context["revision"] == match.revision + 1
    assert Turn.objects.filter(round__match=match).count() == 1
    assert AuditEntry.objects.filter(match=match, action="turn-added").count() == 1


@pytest.mark.parametrize("key", ["", "short", "x" * 65, "clé-avec-accent-0000", "a b c d e f g h"])
def test_a_missing_or_malformed_key_is_no_key(tournament, referee_client, key):
    match = fresh(match_at(tournament=tournament))
    for _ in range(2):
        match = fresh(match)
        response = referee_client.post(_url(match, "match_turn_add"), {
            "revision": match.revision, "pass": "1", "draws": "3", "submission_key": key},
            **HTMX)
        assert response.status_code in (200, 400)
    assert not MatchSubmission.objects.exists()
