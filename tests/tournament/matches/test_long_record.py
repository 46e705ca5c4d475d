"""A long record uploaded (its rounds closed, none confirmed): the public's live part, which
every phone following the match asks for (or its stream carries) at each turn, costs its
round in play, not the match's length. Counted, not timed: the turns the engine replays and
the queries (``python manage.py bench_long_record`` gives the CPU time)."""

from __future__ import annotations

import json
import re

import pytest
from django.core.cache import caches
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import board_turn, fresh, match_at, played_record, truncated
from tournament.core.tournaments import staff_role_grant
from tournament.matches import services
from tournament.matches.reading import replay as replay_module
from tournament.matches.reading import replay_cache
from tournament.models import Round, Turn

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def uploaded(client, match, record) -> None:
    """The record posted to the match's upload form, as the referee sends the file."""
    url = reverse("tournament:match_record_upload", kwargs={
        "slug": match.table.session.tournament.slug, "match_id": match.pk})
    response = client.post(url, {"revision": str(fresh(match).revision), "record":
                                 SimpleUploadedFile("record.json", json.dumps(record).encode())})
    assert response.status_code == 302, response.content[:500]


def url(match, name: str) -> str:
    return reverse(f"tournament:{name}", kwargs={
        "slug": match.table.session.tournament.slug, "match_id": match.pk})


def live_cost(client, match) -> tuple[int, int, bytes]:
    """The turns replayed and the queries of the live part made afresh (no kept copy, no kept
    replay: as asked in another worker), and its body."""
    for cache in caches.all():
        cache.clear()
    with replay_cache._lock:
        replay_cache._kept.clear()
    replay_module.REPLAYED.clear()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url(match, "match_live"), **HTMX)
    assert response.status_code == 200
    return replay_module.REPLAYED.turns, len(queries.captured_queries), response.content


def log_key(content: bytes) -> bytes:
    return re.search(rb'id="match-live"[^>]*data-log="([0-9a-f]+)"', content).group(1)


@pytest.mark.slow
def test_a_long_records_live_part_costs_its_round_in_play(make_tournament, make_user, client):
    tournament = make_tournament(players=8, started=True, target=20_000, match_rounds=40)
    referee = make_user("long-record-referee")
    staff_role_grant(tournament=tournament, user=referee, role="referee")
    tablet = Client()
    tablet.force_login(referee)
    short, long = match_at(tournament=tournament, table=1), match_at(tournament=tournament, table=2)
    uploaded(tablet, short, truncated(played_record(match=short, seed=4), rounds=1, turns=6))
    uploaded(tablet, long, truncated(played_record(match=long, seed=4), rounds=16, turns=6))
    assert Round.objects.filter(match=long, confirmed_at__isnull=True).count() == 17

    short_turns, short_queries, _body = live_cost(client, short)
    long_turns, long_queries, body = live_cost(client, long)
    # the round in play alone is replayed, whatever the length: 6 turns each
    assert short_turns == long_turns == 6
    assert long_queries == short_queries
    # the page and its live part agree on the closed rounds: no poll takes the match again
    page = client.get(url(long, "match"))
    assert page.context["replay"].rounds[0].stored is False  # the page replays them all
    assert re.search(rb'id="match" [^>]*data-log="' + log_key(body) + rb'"', page.content)

    # a turn of a closed round corrected: the live part says the closed rounds changed, and
    # agrees again with the page
    round_2 = Round.objects.get(match=long, index=1)
    turn = Turn.objects.current().filter(round=round_2).order_by("index")[3]
    record_turn = played_record(match=long, seed=4)["rounds"][1]["turns"][3]
    services.match_turn_correct(
        match=fresh(long), user=referee, seen_revision=fresh(long).revision, turn_id=turn.pk,
        turn=board_turn(record_turn, points_claimed=(record_turn.get("claimed") or 0) + 1),
        reason="claim misread")
    _turns, _queries, after = live_cost(client, long)
    assert log_key(after) != log_key(body)
    page = client.get(url(long, "match"))
    assert re.search(rb'id="match" [^>]*data-log="' + log_key(after) + rb'"', page.content)
