"""A long record uploaded (its rounds closed, none confirmed): the public's live part, which
every phone following the match asks for (or its stream carries) at each turn, and the match
page, the referee's and the public's, once their closed rounds' log is kept, cost the round in
play, not the match's length; the kept log moves when a closed round is corrected. Counted, not timed: the turns the engine replays and
the queries (``python manage.py bench_long_record`` gives the CPU time)."""

from __future__ import annotations

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import add, board_turn, fresh, match_at, played_record, truncated
from tests.kept import forget_kept_copies
from tests.pages import attribute, by_id, has_id, select
from tests.tournament.matches.helpers import app_queries
from tournament.core.tournaments import staff_role_grant
from tournament.kit.cached_pages import CSRF_MARKER
from tournament.matches import services
from tournament.matches.reading import replay as replay_module
from tournament.matches.views.logs import REVISION_HOLE
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
    forget_kept_copies()
    replay_module.REPLAYED.clear()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url(match, "match_live"), **HTMX)
    assert response.status_code == 200
    return replay_module.REPLAYED.turns, len(app_queries(queries)), response.content


def log_key(content: bytes) -> bytes:
    return re.search(rb'id="match-live"[^>]*data-log="([0-9a-f]+)"', content).group(1)


@pytest.mark.slow
def test_a_long_records_live_part_costs_its_round_in_play(make_tournament, make_user, client):
    referee, _tablet, short, long = long_and_short(make_tournament, make_user)
    assert Round.objects.filter(match=long, confirmed_at__isnull=True).count() == 17

    # a worker's first live part may read once what it then keeps (whatever the tests before
    # left of the process's own caches): asked once first, out of the count
    live_cost(client, short)
    short_turns, short_queries, _body = live_cost(client, short)
    long_turns, long_queries, body = live_cost(client, long)
    # the round in play alone is replayed, whatever the length: 6 turns each
    assert short_turns == long_turns == 6
    assert long_queries == short_queries
    # the page and its live part agree on the closed rounds: no poll takes the match again
    page = client.get(url(long, "match"))
    # the page too starts from the closed rounds' stored scores (their log kept)
    assert page.context["replay"].rounds[0].stored is True
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


def page_cost(client, match):
    """The turns replayed and the queries of the match page (the kept log as it is), and the
    answer."""
    replay_module.REPLAYED.clear()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url(match, "match"))
    assert response.status_code == 200
    return replay_module.REPLAYED.turns, len(app_queries(queries)), response


def long_and_short(make_tournament, make_user):
    """A tournament whose table 1 holds a 2-round record and table 2 a 17-round one, each
    with 6 turns in its round in play (uploaded, none confirmed); its referee's client."""
    tournament = make_tournament(players=8, started=True, target=20_000, match_rounds=40)
    referee = make_user("long-record-referee")
    staff_role_grant(tournament=tournament, user=referee, role="referee")
    tablet = Client()
    tablet.force_login(referee)
    short, long = match_at(tournament=tournament, table=1), match_at(tournament=tournament, table=2)
    uploaded(tablet, short, truncated(played_record(match=short, seed=4), rounds=1, turns=6))
    uploaded(tablet, long, truncated(played_record(match=long, seed=4), rounds=16, turns=6))
    return referee, tablet, short, long


def next_turn(match, referee, *, rounds: int) -> None:
    """The round in play's 7th turn saved (the record's), as the tablet saves it."""
    add(match, referee, board_turn(played_record(match=match, seed=4)["rounds"][rounds]["turns"][6]))


@pytest.mark.slow
@pytest.mark.parametrize("reader", ["referee", "public"])
def test_a_long_records_page_costs_its_round_in_play_once_its_log_is_kept(
        make_tournament, make_user, client, reader):
    referee, tablet, short, long = long_and_short(make_tournament, make_user)
    browser = tablet if reader == "referee" else client
    costs = {}
    for match, rounds in ((short, 1), (long, 16)):
        page_cost(browser, match)  # the closed rounds' log made and kept
        next_turn(match, referee, rounds=rounds)  # the round in play moves, not the others
        turns, queries, response = page_cost(browser, match)
        costs[rounds] = turns, queries
        # every round is on the page, the closed ones from the kept log, their turns listed
        for number in range(1, rounds + 2):
            assert has_id(response, f"round-{number}")
        assert turn_rows(response, rounds)
        assert response.context["replay"].rounds[0].stored is True
        # the holes are filled: the match's revision, the reader's token
        assert REVISION_HOLE.encode() not in response.content
        assert CSRF_MARKER.encode() not in response.content
    # the round in play alone is replayed (its 7 turns), whatever the length, in as many
    # queries (the shared cache's upkeep left out: ``app_queries``)
    assert costs[1][0] == costs[16][0] == 7
    assert costs[16][1] == costs[1][1]


def turn_rows(response, round_number: int) -> dict[int, str]:
    """The turn rows of a round's log: turn id -> its verdict (``data-verdict``)."""
    return {int(attribute(row, "id").removeprefix("turn-")): attribute(row, "data-verdict")
            for row in select(response, f"#turns-r{round_number} tr")}


@pytest.mark.slow
def test_a_closed_round_corrected_moves_the_kept_log(make_tournament, make_user, client):
    referee, tablet, _short, long = long_and_short(make_tournament, make_user)
    # both logs kept: the referee's and the public's
    before_referee = tablet.get(url(long, "match"))
    before_public = client.get(url(long, "match"))
    round_2 = Round.objects.get(match=long, index=1)
    old = Turn.objects.current().filter(round=round_2).order_by("index")[3]
    assert old.pk in turn_rows(before_referee, 2) and old.pk in turn_rows(before_public, 2)

    record_turn = played_record(match=long, seed=4)["rounds"][1]["turns"][3]
    services.match_turn_correct(
        match=fresh(long), user=referee, seen_revision=fresh(long).revision, turn_id=old.pk,
        turn=board_turn(record_turn, points_claimed=(record_turn.get("claimed") or 0) + 1),
        reason="claim misread")
    new = Turn.objects.current().get(round=round_2, index=3)
    revision = fresh(long).revision

    for response in (tablet.get(url(long, "match")), client.get(url(long, "match"))):
        rows = turn_rows(response, 2)
        # the corrected turn shown as it now is, the old version gone
        assert old.pk not in rows
        assert rows[new.pk] == "mismatch"
        assert attribute(by_id(response, f"turn-{new.pk}"), "class").endswith("decision-pending")
    # the referee's decision forms on that turn carry the match's revision now, and a token
    referee_page = tablet.get(url(long, "match"))
    forms = select(referee_page, f"#turn-{new.pk} form")
    assert forms
    for form in forms:
        assert [attribute(i, "value") for i in form.iter()
                if attribute(i, "name") == "revision"] == [str(revision)]
        tokens = [attribute(i, "value") for i in form.iter()
                  if attribute(i, "name") == "csrfmiddlewaretoken"]
        assert len(tokens) == 1 and tokens[0] and tokens[0] != CSRF_MARKER
    # the public's page: no form, no correction link, the round's decision to take shown
    public_page = client.get(url(long, "match"))
    assert not select(public_page, "#match form") and not select(public_page, ".correct-link")
    assert select(referee_page, f"#turn-{new.pk} .correct-link")
