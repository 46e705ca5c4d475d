"""A write to a match makes its live part ahead of the streams (``LivePartsAhead``, started
by the ASGI servings), from the replay the write kept: the phones' streams and polls then
find the public's copy made; a write that changed the settled rounds makes the public's whole
match next, which each page following it takes again. Nothing is made for a private
tournament or a write refused, and no more than ``AHEAD_WAITING`` wait in a worker.

The live part is made on a thread of its own, with its own connection: the tests commit."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import (
    add,
    board_turn,
    fresh,
    import_record,
    match_at,
    played_record,
    truncated,
)
from tests.kept import forget_kept_copies
from tests.tournament.matches.test_kept_replays import (
    HTMX,
    live_part,
    placed,
    sql,
    tablet_save,
    url,
)
from tests.tournament.test_page_versions import CSRF_TOKEN
from tournament.matches.reading.replay import REPLAYED
from tournament.matches.reading.replay_cache import forget_replays
from tournament.matches.views import live_parts
from tournament.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def ahead():
    """The worker's live parts made ahead, as the ASGI servings start them; stopped after."""
    forget_kept_copies()
    live_parts.live_parts_ahead.start()
    yield live_parts.live_parts_ahead
    live_parts.live_parts_ahead.stop()
    forget_replays()


@pytest.fixture
def opened(tournament, referee):
    match = match_at(tournament=tournament, started=True)
    turns = placed(match, 4)
    add(match, referee, board_turn(turns[0]))
    return match, turns


def counted_makings(monkeypatch, name: str) -> list[int]:
    """The match ids ``live_parts.<name>`` is called with from now on (it still makes)."""
    calls: list[int] = []
    real = getattr(live_parts, name)

    def counted(**arguments):
        calls.append(arguments["match_id"])
        return real(**arguments)

    monkeypatch.setattr(live_parts, name, counted)
    return calls


@pytest.fixture
def made(monkeypatch):
    """The live parts made ahead, by match id."""
    return counted_makings(monkeypatch, "public_live_part")


def test_a_save_makes_the_live_part_the_phones_then_read_as_made(
        ahead, opened, referee_client, client, made):
    match, turns = opened
    revision = fresh(match).revision
    assert tablet_save(referee_client, match, turns[1], revision=revision).status_code == 200
    ahead.stop()  # what waits is made
    assert made == [match.pk]
    REPLAYED.clear()
    ahead.start()
    assert tablet_save(referee_client, match, turns[2],
                       revision=revision + 1).status_code == 200
    ahead.stop()
    assert made == [match.pk, match.pk]
    assert REPLAYED.turns == 0  # made from the replay the save kept, not from the rows
    # a phone's poll: the copy made ahead, neither rows read nor the part made again
    with CaptureQueriesContext(connection) as queries:
        polled = live_part(client, match)
    assert sql(queries, "tournament_turn") == [] and sql(queries, "tournament_seat") == []
    assert len(queries.captured_queries) <= 2  # the match, the copy
    # byte for byte what the poll would have made from the database
    forget_kept_copies()
    assert live_part(client, match) == polled
    assert f"?revision={revision + 2}".encode() in polled


def whole_match(client, match) -> bytes:
    """A phone's page taking the whole match again (``pages.js``: htmx, its ``#match``)."""
    answer = client.get(url(match, "match"), HTTP_HX_TARGET="match", **HTMX)
    assert answer.status_code == 200 and "Content-Encoding" not in answer
    return CSRF_TOKEN.sub(b"-", answer.content)


def test_a_rounds_confirmation_makes_the_whole_match_the_phones_then_take_as_made(
        ahead, tournament, referee, referee_client, client, monkeypatch):
    """A round confirmed from the tablet: its live part, then the public's whole match, made
    ahead; a phone then takes the whole match as made (no round or turn read), the same as
    one made from the database. A turn in play makes the live part alone."""
    wholes = counted_makings(monkeypatch, "public_match_region")
    match = match_at(tournament=tournament, started=True)
    record = played_record(match=match, seed=5)
    import_record(match, referee, truncated(record, rounds=1))  # round 1 ended, not confirmed
    revision = fresh(match).revision
    confirmed = referee_client.post(url(match, "match_round_confirm", number=1),
                                    {"revision": str(revision)}, **HTMX)
    assert confirmed.status_code == 200 and confirmed["X-Submission"] == "saved"
    ahead.stop()
    assert wholes == [match.pk]
    with CaptureQueriesContext(connection) as queries:
        taken = whole_match(client, match)
    assert sql(queries, "tournament_turn") == [] and sql(queries, "tournament_round") == []
    assert b"?revision=%d" % (revision + 1) in taken
    forget_kept_copies()
    assert whole_match(client, match) == taken
    ahead.start()
    opening = record["rounds"][1]["turns"][0]
    assert tablet_save(referee_client, match, opening, revision=revision + 1).status_code == 200
    ahead.stop()
    assert wholes == [match.pk]  # a turn in play: its live part alone


def test_nothing_is_made_ahead_for_a_private_tournament_or_a_write_refused(
        ahead, opened, referee_client, made):
    match, turns = opened
    revision = fresh(match).revision
    # another tab's stale save: refused, nothing made
    assert tablet_save(referee_client, match, turns[1], revision=revision - 1).status_code == 409
    Tournament.objects.filter(pk=match.table.session.tournament_id).update(is_public=False)
    assert tablet_save(referee_client, match, turns[1], revision=revision).status_code == 200
    ahead.stop()
    assert made == []


def test_no_more_than_its_share_waits_and_the_rest_is_left_to_the_streams(
        ahead, opened, referee_client, monkeypatch):
    """A worker behind on its live parts takes no more: beyond ``AHEAD_WAITING`` a write's
    answer is the same, and its part is left to the streams (made when one asks)."""
    match, turns = opened
    monkeypatch.setattr(live_parts, "AHEAD_WAITING", 2)
    held, started = threading.Event(), []

    def slow(**arguments):
        started.append(arguments["match_id"])
        held.wait(10)

    monkeypatch.setattr(live_parts, "public_live_part", slow)
    revision = fresh(match).revision
    for offset, turn in enumerate(turns[1:4]):
        answer = tablet_save(referee_client, match, turn, revision=revision + offset)
        assert answer.status_code == 200 and answer["X-Submission"] == "saved"
    assert ahead.waiting == 2
    held.set()
    ahead.stop()
    assert started == [match.pk, match.pk] and ahead.waiting == 0


def test_the_inner_answer_is_none_where_a_phone_of_the_public_would_not_get_a_plain_200(
        opened, monkeypatch, caplog):
    """What the app asks of itself is answered as a phone of the public would be: a private
    tournament's match, a match gone and a view that fails give nothing (the last logged),
    and the stream or the write that asked goes on without it."""
    match, _ = opened
    forget_kept_copies()
    host = {"HTTP_HOST": "testserver", "SERVER_PORT": "80"}
    slug = match.table.session.tournament.slug
    made = live_parts.public_live_part(slug=slug, match_id=match.pk, language="en", host=host)
    assert made is not None and f"?revision={fresh(match).revision}" in made
    assert live_parts.public_live_part(slug=slug, match_id=match.pk + 10_000, language="en",
                                       host=host) is None
    Tournament.objects.filter(pk=match.table.session.tournament_id).update(is_public=False)
    forget_kept_copies()
    assert live_parts.public_live_part(slug=slug, match_id=match.pk, language="en",
                                       host=host) is None
    Tournament.objects.filter(pk=match.table.session.tournament_id).update(is_public=True)
    forget_kept_copies()

    def broken(*arguments, **keywords):
        raise RuntimeError("the view failed")

    monkeypatch.setattr("tournament.kit.inner_requests.resolve",
                        lambda path: type("Resolved", (), {"func": broken, "args": (),
                                                           "kwargs": {}})())
    with caplog.at_level("WARNING", logger="tournament.kit.inner_requests"):
        assert live_parts.public_live_part(slug=slug, match_id=match.pk, language="en",
                                           host=host) is None
    assert [record.exc_info[0] for record in caplog.records] == [RuntimeError]
