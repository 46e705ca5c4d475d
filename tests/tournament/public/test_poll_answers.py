"""What the room's phones are sent when they poll while the tables play: the live fragments of
the session, of a player and of a match, kept compressed once made (kit/cached_pages.py) and
made for less (the session's tables without its players' list, a player's matches written in
Python), showing each turn and each confirmation at once."""

from __future__ import annotations

import gzip
import re

import pytest
from django.test import Client

from tests.factories import (
    add,
    board_turn,
    confirmed_match,
    match_at,
    played_record,
    recorded_match,
    rounds_confirmed,
)
from tests.pages import select, text
from tournament.kit.cached_pages import CSRF_MARKER
from tournament.models import Match, Registration
from tournament.standings import selectors as standings_selectors
from tournament.standings.selectors import standings

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
#: A phone's poll: htmx, gzip accepted, as every browser sends it.
PHONE = {**HTMX, "HTTP_ACCEPT_ENCODING": "gzip"}


def unzipped(response) -> bytes:
    if response.get("Content-Encoding") == "gzip":
        return gzip.decompress(response.content)
    return response.content


def polled(tournament, match: Match) -> dict[str, str]:
    """What the phones of ``match``'s table poll: its live part, a player's page, the session."""
    player = match.table.seats.order_by("order").first().player_id
    slug = tournament.slug
    return {
        "match live": f"/t/{slug}/matches/{match.pk}/live/",
        "player": f"/t/{slug}/players/{player}/",
        "session": f"/t/{slug}/sessions/{match.table.session.number}/",
    }


@pytest.fixture
def in_play(tournament, referee):
    """Table 1's match started: one turn played."""
    match = match_at(tournament=tournament, started=True)
    record = played_record(match=match, seed=5)
    add(match, referee, board_turn(record["rounds"][0]["turns"][0]))
    return match, record


def test_every_phone_is_sent_the_copy_compressed_once(tournament, in_play, outsider_client):
    """The same bytes to every phone (GZipMiddleware's random bytes made once per copy, not
    once per answer), with GZipMiddleware's headers; a reader that takes no gzip gets the
    page as it is; both are what a reader given the page made afresh sees."""
    match, _record = in_play
    for name, url in polled(tournament, match).items():
        first, second = Client().get(url, **PHONE), Client().get(url, **PHONE)
        assert first.status_code == second.status_code == 200, name
        assert first["Content-Encoding"] == "gzip" and first.content == second.content, name
        assert int(first["Content-Length"]) == len(first.content)
        assert first["ETag"].startswith('W/"') and first["ETag"] == second["ETag"]
        vary = [part.strip() for part in first["Vary"].split(",")]
        assert {"HX-Request", "Accept-Encoding"} <= set(vary), name
        afresh = outsider_client.get(url, **HTMX).content
        assert gzip.decompress(first.content) == afresh, name
        plain = Client().get(url, **HTMX)
        assert "Content-Encoding" not in plain and plain.content == afresh, name
        assert plain["ETag"] == first["ETag"].removeprefix("W/")
        again = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"], **PHONE)
        assert again.status_code == 304, name


def test_each_turn_and_confirmation_shows_at_once_to_the_phones(tournament, in_play, referee,
                                                                outsider_client):
    """Each phone polls with the ETag of its last answer: after each write, the pages that
    show it answer the new bytes (those made afresh), the others a 304."""
    match, record = in_play
    table_two = match_at(tournament=tournament, table=2)
    urls = polled(tournament, match)
    urls["player at table 2"] = polled(tournament, table_two)["player"]
    urls["match live at table 2"] = polled(tournament, table_two)["match live"]
    tags, seen = {}, {}
    for name, url in urls.items():
        answer = Client().get(url, **PHONE)
        tags[name], seen[name] = answer["ETag"], unzipped(answer)
    turns = record["rounds"][0]["turns"]
    writes = {
        "a turn": (lambda: add(match, referee, board_turn(turns[1])), {"match live"}),
        "another turn": (lambda: add(match, referee, board_turn(turns[2])), {"match live"}),
        "table 2 confirmed": (lambda: confirmed_match(match=table_two, user=referee, seed=6),
                              {"session", "player at table 2", "match live at table 2"}),
    }
    for write_name, (write, shown_on) in writes.items():
        write()
        for name, url in urls.items():
            answer = Client().get(url, HTTP_IF_NONE_MATCH=tags[name], **PHONE)
            if name not in shown_on and write_name != "table 2 confirmed":
                assert answer.status_code == 304, (write_name, name)  # a turn elsewhere
                continue
            if name in shown_on:
                assert answer.status_code == 200, (write_name, name)
                assert unzipped(answer) != seen[name], (write_name, name)
            if answer.status_code == 200:  # a confirmation: the ranks may change anywhere
                now = unzipped(answer)
                assert now == outsider_client.get(url, **HTMX).content, (write_name, name)
                tags[name], seen[name] = answer["ETag"], now


def test_a_page_with_a_token_is_compressed_for_each_reader_with_their_own(tournament):
    """The whole page carries the reader's CSRF token: never sent as kept compressed bytes."""
    url = f"/t/{tournament.slug}/sessions/1/"
    pages = [Client().get(url, HTTP_ACCEPT_ENCODING="gzip") for _reader in range(2)]
    tokens = []
    for page in pages:
        html = unzipped(page).decode()
        assert CSRF_MARKER not in html
        tokens.append(re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1))
    assert tokens[0] != tokens[1]
    assert pages[0]["ETag"] == pages[1]["ETag"]  # the kept copy, each reader's token put in


def test_the_session_fragment_holds_the_tables_and_the_page_the_players_too(client, tournament):
    url = f"/t/{tournament.slug}/sessions/1/"
    fragment = client.get(url, **HTMX)
    assert select(fragment, "#seating #table-1") and not select(fragment, "#seats")
    assert "seats_table" not in fragment.context  # not made: a poll does not show it
    page = client.get(url)
    assert select(page, "#seating #table-1") and select(page, "#seats tbody tr")
    assert select(page, "#find-player")


def test_a_players_matches_as_a_turn_and_a_confirmation_show_them(client, tournament, referee):
    """Their table: no total before the first turn nor while the match is in play (its own
    page follows it), then the totals and the match points in brackets once it is over and
    not confirmed, without brackets once it is."""
    match = match_at(tournament=tournament, started=True)
    table_two = match_at(tournament=tournament, table=2)

    def cells(match):
        seats = list(match.table.seats.order_by("order").select_related("player"))
        response = client.get(f"/t/{tournament.slug}/players/{seats[0].player_id}/", **HTMX)
        links = [link.get("href") for link in select(response, "#matches tbody tr td a")]
        return [text(cell) for cell in select(response, "#matches tbody tr td")], links, seats

    (where, opponents, total, points), links, seats = cells(match)
    assert where.startswith("1") and (total, points) == ("—", "—")
    for seat in seats[1:]:
        assert f"/t/{tournament.slug}/players/{seat.player_id}/" in links
        assert seat.player.name in opponents
    record = played_record(match=match, seed=5)
    add(match, referee, board_turn(record["rounds"][0]["turns"][0]))
    assert Match.objects.get(pk=match.pk).status == Match.Status.PLAYING
    (_where, opponents, total, points), _links, _seats = cells(match)
    assert (total, points) == ("—", "—") and "(" not in opponents
    over = recorded_match(match=table_two, user=referee, seed=6)
    assert over.status == Match.Status.FINISHED
    (_where, opponents, total, points), _links, _seats = cells(table_two)
    assert total == str(over.totals[0]) and points.startswith("(") and points.endswith(")")
    assert f"({over.totals[1]})" in opponents
    assert rounds_confirmed(match=over, user=referee).status == Match.Status.CONFIRMED
    totals = Match.objects.get(pk=table_two.pk).totals
    (_where, opponents, total, points), _links, _seats = cells(table_two)
    assert total == str(totals[0]) and points and not points.startswith("(")
    assert f"({totals[1]})" in opponents


def test_a_players_rank_follows_each_confirmation_at_once(client, tournament, referee):
    """Their row of the standings is read from the process's index of rows
    (``cached_player_standing``) made at the results version: after each confirmation, their
    page shows the standings as ranked afresh, never a row kept from before."""
    one, two = (match_at(tournament=tournament, table=number) for number in (1, 2))
    player = one.table.seats.order_by("order").first().player_id
    url = f"/t/{tournament.slug}/players/{player}/"
    client.get(url, **HTMX)  # their row kept before any confirmation
    for match, seed in ((one, 5), (two, 6)):
        confirmed_match(match=match, user=referee, seed=seed)
        response = client.get(url, **HTMX)
        fresh = next(row for row in standings(tournament=tournament).rows
                     if row["player_id"] == player)
        assert response.context["standing"] == fresh
        assert select(response, "#player-rank")[0].get("data-rank") == fresh["rank_label"]
        assert fresh["matches"] == 1


def test_every_players_page_after_a_confirmation_ranks_the_players_once(
        client, tournament, referee, monkeypatch):
    """After a confirmation every followed player's page is made again: the standings are read
    once for them all in a process, and each page's row is its own player's, read only."""
    one = match_at(tournament=tournament)
    confirmed_match(match=one, user=referee, seed=5)
    ranked = []
    real = standings_selectors.cached_standings_of

    def counted(**arguments):
        ranked.append(arguments)
        return real(**arguments)

    monkeypatch.setattr(standings_selectors, "cached_standings_of", counted)
    fresh = {row["player_id"]: row for row in standings(tournament=tournament).rows}
    players = list(one.table.seats.order_by("order").values_list("player_id", flat=True))
    for player in players:
        response = client.get(f"/t/{tournament.slug}/players/{player}/", **HTMX)
        assert response.context["standing"] == fresh[player]
    assert len(ranked) == 1
    with pytest.raises(TypeError):  # one row serves every request: none may change it
        response.context["standing"]["rank_label"] = "1"


def test_a_player_of_two_tournaments_has_their_rank_in_each(client, tournament, referee,
                                                            make_tournament):
    """The row kept for a player in one tournament is never shown on their page of another."""
    match = match_at(tournament=tournament)
    player = match.table.seats.order_by("order").first().player
    other = make_tournament(slug="autumn-open", sessions=0)
    Registration.objects.create(tournament=other, player=player)
    confirmed_match(match=match, user=referee, seed=5)
    here = client.get(f"/t/{tournament.slug}/players/{player.pk}/", **HTMX)
    there = client.get(f"/t/{other.slug}/players/{player.pk}/", **HTMX)
    assert here.context["standing"]["matches"] == 1 and here.context["player_count"] >= 4
    assert there.context["standing"]["matches"] == 0 and there.context["player_count"] == 0
    assert select(here, "#player-rank") and not select(there, "#player-rank")
