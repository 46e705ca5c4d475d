"""The answers of a match in play are small: a save answers with what it changed, the public's
page polls its live part alone. Each answer still shows what the whole page shows after the
change, at once; a part the page does not have is sent whole."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import board_turn, fresh, match_at, played_record, truncated
from tests.tournament.matches.helpers import confirmed_through, posted
from tournament import engine
from tournament.core.tournaments import staff_role_grant
from tournament.matches import services
from tournament.matches.reading.replay import match_replay
from tournament.models import StaffRole, Turn

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
#: The aim of a save's answer (issue 28).
SAVE_BYTES = 10 * 1024


def save(client, match, turn, *, shown: int | None):
    """A turn posted as the tablet's htmx does, saying the page shows revision ``shown``."""
    revision = fresh(match).revision
    headers = dict(HTMX)
    if shown is not None:
        headers["HTTP_X_MATCH_SHOWN"] = str(shown)
    url = reverse("tournament:match_turn_add", kwargs={"slug": match.table.session.tournament.slug,
                                                        "match_id": match.pk})
    response = client.post(url, posted(turn, revision), **headers)
    assert response.status_code == 200, response.content[:500]
    return response


def placed_turns(round_: dict) -> list[dict]:
    return [turn for turn in round_["turns"] if turn.get("place") and not turn.get("draws")]


def test_a_save_answers_with_what_it_changed(tournament, referee, referee_client):
    match = match_at(tournament=tournament, started=True)
    turns = played_record(match=match, seed=5)["rounds"][0]["turns"]
    for turn in turns[:4]:
        services.match_turns_add(match=fresh(match), user=referee,
                                 seen_revision=fresh(match).revision, turns=[board_turn(turn)])
    shown = match_replay(match=fresh(match))  # what the tablet's page shows
    before = {line.row.pk for line in shown.rounds[-1].turns}
    turn = turns[4]
    assert turn.get("place")
    response = save(referee_client, match, turn, shown=fresh(match).revision)
    context = response.context
    saved = Turn.objects.current().get(round__match=match, index=4)
    # the new turn's line is sent, the four before are left to the page
    table = context["log_rounds"][-1]["table"]
    assert table.rows_kept and set(table.kept_rows) == before
    assert f'id="turn-{saved.pk}"'.encode() in response.content
    assert not any(f'id="turn-{pk}" class'.encode() in response.content for pk in before)
    # the scores as the match now has them
    after = match_replay(match=fresh(match))
    assert [row["total"] for row in context["seat_rows"]] == list(after.totals)
    # the table: the new tile drawn, the tiles before left out, the cell taken gone
    changes = context["board_changes"]
    cell = after.live.board.last.cell
    assert f'id="{engine.element_id(cell, placed=True)}"' in changes.svg
    kept_tiles = [p for p in shown.live.board.placements if p != shown.live.board.last]
    assert all(f'data-cell="{p.cell}"' not in changes.svg for p in kept_tiles)
    assert changes.gone.split() == [engine.element_id(cell, placed=False)]
    assert context["tiles_kept"] and context["head_kept"]
    assert len(response.content) <= SAVE_BYTES


def test_a_page_that_does_not_show_the_revision_posted_is_answered_whole(tournament, referee,
                                                                        referee_client):
    """No header (a turn sent again from the queue), or the page showing an older revision (a
    second tab, turns chained by the queue): nothing is left to the page."""
    match = match_at(tournament=tournament, started=True)
    turns = played_record(match=match, seed=5)["rounds"][0]["turns"]
    services.match_turns_add(match=fresh(match), user=referee,
                             seen_revision=fresh(match).revision, turns=[board_turn(turns[0])])
    old = fresh(match).revision
    services.match_turns_add(match=fresh(match), user=referee,
                             seen_revision=fresh(match).revision, turns=[board_turn(turns[1])])
    for shown in (None, old, "not-a-number"):
        turn = turns[2 if shown is None else 3 if shown == old else 4]
        response = save(referee_client, match, turn, shown=shown)
        context = response.context
        assert context["board_changes"] is None and not context["tiles_kept"]
        assert not context["head_kept"]
        assert b"hx-preserve" not in response.content
        assert len(re.findall(rb'class="tile-button', response.content)) == 56


@pytest.mark.slow  # a long match imported and confirmed round by round
def test_every_save_of_a_long_round_late_in_a_long_match_stays_under_10_kib(
        make_tournament, referee, referee_client):
    """300 turns confirmed (target 4000), then a whole round posted turn by turn: each answer
    under 10 KiB, where the whole region weighs several times that."""
    tournament = make_tournament(slug="long-open", target=4000)
    staff_role_grant(tournament=tournament, user=referee, role=StaffRole.Role.REFEREE)
    match = match_at(tournament=tournament, started=True)
    record = played_record(match=match, seed=3)
    rounds = 1
    while sum(len(r["turns"]) for r in record["rounds"][:rounds]) < 300:
        rounds += 1
    confirmed_through(match, referee, record, rounds=rounds)
    sizes = []
    for turn in record["rounds"][rounds]["turns"]:
        if not turn.get("place"):
            services.match_turns_add(match=fresh(match), user=referee,
                                     seen_revision=fresh(match).revision,
                                     turns=[board_turn(turn)])
            continue
        response = save(referee_client, match, turn, shown=fresh(match).revision)
        if response.context.get("turn_form") is None:
            break  # the round is over: the racks are asked (a whole answer)
        sizes.append(len(response.content))
    assert len(sizes) >= 10 and max(sizes) <= SAVE_BYTES, sizes
    region = referee_client.get(reverse("tournament:match", kwargs={
        "slug": tournament.slug, "match_id": match.pk}), **HTMX)
    assert len(region.content) > 3 * max(sizes)


# -- the public's poll ---------------------------------------------------------------------------


def live_url(match) -> str:
    return reverse("tournament:match_live", kwargs={
        "slug": match.table.session.tournament.slug, "match_id": match.pk})


def page_url(match) -> str:
    return reverse("tournament:match", kwargs={
        "slug": match.table.session.tournament.slug, "match_id": match.pk})


def log_key(content: bytes) -> bytes:
    return re.search(rb'id="match-live"[^>]*data-log="([0-9a-f]+)"', content).group(1)


def test_the_live_part_carries_the_last_turns_not_the_settled_rounds(tournament, referee,
                                                                    client):
    match = match_at(tournament=tournament, started=True)
    record = played_record(match=match, seed=3)
    confirmed_through(match, referee, record, rounds=2)
    for turn in record["rounds"][2]["turns"][:12]:
        services.match_turns_add(match=fresh(match), user=referee,
                                 seen_revision=fresh(match).revision, turns=[board_turn(turn)])
    page = client.get(page_url(match))
    live = client.get(live_url(match), **HTMX)
    assert live.status_code == 200 and live["ETag"] and live["ETag"] != page["ETag"]
    rows = Turn.objects.current().filter(round__match=match).order_by("round__index", "index")
    last = [turn.pk for turn in rows if turn.round.index == 2][-8:]
    settled = [turn.pk for turn in rows if turn.round.index < 2]
    shown = {int(pk) for pk in re.findall(rb'id="turn-(\d+)"', live.content)}
    assert shown == set(last)  # the round in play's last turns, nothing of rounds 1 and 2
    assert b'id="round-1"' not in live.content and b'id="round-2"' not in live.content
    assert all(f'id="turn-{pk}"'.encode() in page.content for pk in settled)
    # the page and its live part agree on the settled rounds: no poll takes the match again
    assert re.search(rb'id="match" [^>]*data-log="' + log_key(live.content) + rb'"', page.content)
    assert len(live.content) < len(page.content) / 3


def test_a_save_is_seen_at_once_by_every_tab_and_a_poll_with_nothing_new_is_a_304(
        tournament, referee, referee_client):
    """Two phones (or two tabs) follow the match; the referee's tablet saves a turn: each
    tab's next poll, with the ETag it had, gets the new turn, the new totals and the tile on
    the table; polled again, a 304. A turn changes the live part only: the page is not
    taken again (same settled rounds)."""
    match = match_at(tournament=tournament, started=True)
    turns = played_record(match=match, seed=5)["rounds"][0]["turns"]
    for turn in turns[:3]:
        services.match_turns_add(match=fresh(match), user=referee,
                                 seen_revision=fresh(match).revision, turns=[board_turn(turn)])
    tabs = [Client(), Client()]
    seen = [tab.get(live_url(match), **HTMX) for tab in tabs]
    for tab, answer in zip(tabs, seen, strict=True):
        again = tab.get(live_url(match), HTTP_IF_NONE_MATCH=answer["ETag"], **HTMX)
        assert again.status_code == 304
    save(referee_client, match, turns[3], shown=fresh(match).revision)
    saved = Turn.objects.current().get(round__match=match, index=3)
    totals = match_replay(match=fresh(match)).totals
    for tab, answer in zip(tabs, seen, strict=True):
        poll = tab.get(live_url(match), HTTP_IF_NONE_MATCH=answer["ETag"], **HTMX)
        assert poll.status_code == 200
        assert f'id="turn-{saved.pk}"'.encode() in poll.content
        assert re.findall(rb'class="seat-total"[^>]*>(-?\d+)<', poll.content) == \
            [str(total).encode() for total in totals]
        assert f'data-tile="{saved.tile}"'.encode() in poll.content
        assert log_key(poll.content) == log_key(answer.content)
        assert tab.get(live_url(match), HTTP_IF_NONE_MATCH=poll["ETag"], **HTMX).status_code \
            == 304


def test_a_round_confirmed_tells_the_page_to_take_the_match_again(tournament, referee,
                                                                 client):
    match = match_at(tournament=tournament, started=True)
    record = played_record(match=match, seed=3)
    services.match_record_import(match=fresh(match), user=referee,
                                 seen_revision=fresh(match).revision,
                                 record=truncated(record, rounds=1, turns=2))
    before = log_key(client.get(live_url(match), **HTMX).content)
    services.match_turns_add(match=fresh(match), user=referee,
                             seen_revision=fresh(match).revision,
                             turns=[board_turn(record["rounds"][1]["turns"][2])])
    assert log_key(client.get(live_url(match), **HTMX).content) == before  # a turn: no
    services.match_round_confirm(match=fresh(match), user=referee,
                                 seen_revision=fresh(match).revision, round_index=0)
    after = client.get(live_url(match), **HTMX).content
    assert log_key(after) != before
    assert re.search(rb'id="match" [^>]*data-log="' + log_key(after) + rb'"',
                     client.get(page_url(match)).content)


def test_closed_rounds_are_left_to_a_page_that_shows_the_match_as_it_was(
        tournament, referee, referee_client):
    """A save in the round in play leaves the closed rounds before it to the page whether or
    not they are confirmed, when the page shows the match as the save found it: the answer's
    size is the round in play's, not the match's. From a page that shows another revision (a
    turn sent again from the queue), a closed round not confirmed is sent again: its forms
    carry the revision the page sends."""
    match = match_at(tournament=tournament, started=True)
    record = played_record(match=match, seed=5)
    third = record["rounds"][2]["turns"]
    cut = next(k for k in range(1, len(third) - 1)
               if third[k].get("place") and third[k + 1].get("place"))
    services.match_record_import(match=fresh(match), user=referee, seen_revision=0,
                                 record=truncated(record, rounds=2, turns=cut))
    services.match_round_confirm(match=fresh(match), user=referee,
                                 seen_revision=fresh(match).revision, round_index=0)
    replayed = match_replay(match=fresh(match))
    assert [(r.closed, r.confirmed) for r in replayed.rounds] == [
        (True, True), (True, False), (False, False)]
    following = third[cut:cut + 2]

    shown = save(referee_client, match, following[0], shown=fresh(match).revision)
    logged = {item["round"].number: item for item in shown.context["log_rounds"]}
    assert logged[1].get("preserved") and logged[2].get("preserved")
    assert b'id="round-1" hx-preserve' in shown.content
    assert b"data-kept-current" in shown.content  # the page's forms take its revision
    assert b'id="round-2" hx-preserve' in shown.content
    assert b'name="revision"' not in shown.content.split(b'id="round-3"')[0].split(
        b'class="log"')[-1]

    whole = save(referee_client, match, following[1], shown=None)
    assert not any(item.get("preserved") for item in whole.context["log_rounds"])
    assert b"hx-preserve" not in whole.content and b"data-kept-current" not in whole.content
    # round 1 (confirmed) and round 2 (not) sent whole, once each
    assert whole.content.count(b'id="round-1"') == whole.content.count(b'id="round-2"') == 1
    assert b'id="turns-r1"' in whole.content and b'id="turns-r2"' in whole.content
