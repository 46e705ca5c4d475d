"""The public pages kept once made (tournament/kit/cached_pages.py): a poll with nothing new is
a 304 after one read, a page is made once per change whatever the number of readers, and each
change shows at once on every kept page and fragment."""

from __future__ import annotations

import hashlib
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.translation import get_language

from tests.conftest import BOTH_CACHES
from tests.factories import (
    add,
    board_turn,
    confirmed_match,
    fresh,
    import_record,
    match_at,
    played_record,
    truncated,
)
from tests.tournament.tournaments import settings_of
from tournament import engine
from tournament.core.freshness import page_version
from tournament.kit.cache import CachedCopy
from tournament.kit.cached_pages import COPY_FORMAT, CSRF_MARKER
from tournament.matches import services
from tournament.models import Match, Player, Turn
from tournament.organiser import services as organiser_services
from tournament.seating.services import seating_swap
from tournament.sessions.services import session_start

pytestmark = [pytest.mark.django_db, *BOTH_CACHES]

HTMX = {"HTTP_HX_REQUEST": "true"}


def addresses(tournament) -> dict[str, str]:
    match = match_at(tournament=tournament)
    player = match.table.seats.order_by("order").first().player
    return {
        "standings": f"/t/{tournament.slug}/standings/",
        "session": f"/t/{tournament.slug}/sessions/1/",
        "player": f"/t/{tournament.slug}/players/{player.pk}/",
        "match": f"/t/{tournament.slug}/matches/{match.pk}/",
        "match live": f"/t/{tournament.slug}/matches/{match.pk}/live/",
    }


def test_a_poll_with_nothing_new_is_a_304_after_one_read(client, tournament):
    for name, url in addresses(tournament).items():
        for headers in ({}, HTMX):
            first = client.get(url, **headers)
            assert first.status_code == 200 and first["ETag"], name
            assert "no-cache" in first["Cache-Control"] and "HX-Request" in first["Vary"]
            with CaptureQueriesContext(connection) as queries:
                again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **headers)
            assert again.status_code == 304, name
            assert again["ETag"] == first["ETag"]
            # the tournament's row (the match's address: the match's, with its tournament)
            assert len(queries) == 1, queries.captured_queries


def test_the_page_and_its_fragment_are_two_copies(client, tournament):
    url = addresses(tournament)["standings"]
    page, fragment = client.get(url), client.get(url, **HTMX)
    assert page["ETag"] != fragment["ETag"]
    assert b"<html" in page.content and b"<html" not in fragment.content


def test_each_change_shows_at_once_on_every_kept_page(client, outsider_client, tournament,
                                                      referee):
    """After each write, every kept fragment is the one made afresh for a logged-in reader
    (never kept): the same bytes, and not those of before the write."""
    urls = addresses(tournament)
    match = match_at(tournament=tournament)
    session = match.table.session
    seats = list(match.table.seats.order_by("order").select_related("player"))
    other = Player.objects.exclude(pk__in=[seat.player_id for seat in seats]).first()
    record = played_record(match=match, seed=5)
    table_two = Match.objects.get(table__session=session, table__number=2)
    changes = {
        "a swap": lambda: seating_swap(session=session, player_a=seats[0].player,
                                       player_b=other),
        "the session started": lambda: session_start(session=session),
        "a turn": lambda: add(match, referee, board_turn(record["rounds"][0]["turns"][0])),
        "a turn in play": lambda: add(match, referee,
                                      board_turn(record["rounds"][0]["turns"][1])),
        "a match confirmed": lambda: confirmed_match(match=table_two, user=referee, seed=6),
    }
    before = {name: client.get(url, **HTMX).content for name, url in urls.items()}
    for change, write in changes.items():
        write()
        for name, url in urls.items():
            kept = client.get(url, **HTMX)
            made = outsider_client.get(url, **HTMX)
            assert kept.status_code == made.status_code == 200
            assert kept.content == made.content, (change, name)
        seen = {name: client.get(url, **HTMX).content for name, url in urls.items()}
        changed = {name for name in urls if seen[name] != before[name]}
        assert changed, change
        if change == "a turn in play":
            assert changed == {"match", "match live"}
        before = seen
    standings = client.get(urls["standings"], **HTMX).content.decode()
    assert f'/t/{tournament.slug}/matches/{table_two.pk}/"' not in standings  # now counted
    assert f'/t/{tournament.slug}/matches/{match.pk}/"' in standings  # still in play


def test_a_turn_in_play_leaves_every_poll_but_its_match_a_304(client, outsider_client,
                                                              tournament, referee):
    """While tables play, a turn that changes no match's state is seen at once on its match's
    page and leaves every other poll a 304: the standings, the session, another table's
    match, the players of both tables (their pages show a match's totals once it is over)."""
    session = match_at(tournament=tournament).table.session
    session_start(session=session)
    one, two = (match_at(tournament=tournament, table=number) for number in (1, 2))
    turns = played_record(match=two, seed=7)["rounds"][0]["turns"]
    add(two, referee, board_turn(turns[0]))  # table 2 in play: its state changed
    first_of = {match.pk: match.table.seats.order_by("order").first().player_id
                for match in (one, two)}
    slug = tournament.slug
    urls = {
        "standings": (f"/t/{slug}/standings/", False),
        "match 1": (f"/t/{slug}/matches/{one.pk}/", False),
        "player at table 1": (f"/t/{slug}/players/{first_of[one.pk]}/", False),
        "match 2": (f"/t/{slug}/matches/{two.pk}/", True),
        "player at table 2": (f"/t/{slug}/players/{first_of[two.pk]}/", False),
        "session": (f"/t/{slug}/sessions/{session.number}/", False),
    }
    tags = {name: client.get(url, **HTMX)["ETag"] for name, (url, _shows) in urls.items()}
    for turn in turns[1:3]:
        add(two, referee, board_turn(turn))
        assert Match.objects.get(pk=two.pk).status == Match.Status.PLAYING
        for name, (url, shows) in urls.items():
            poll = client.get(url, HTTP_IF_NONE_MATCH=tags[name], **HTMX)
            if not shows:
                assert poll.status_code == 304, name
                continue
            assert poll.status_code == 200, name
            assert poll.content == outsider_client.get(url, **HTMX).content, name
            tags[name] = poll["ETag"]


def test_a_match_over_shows_at_once_with_its_corrections(
        client, outsider_client, tournament, referee):
    """The session's and a player's pages show a match's totals once it is over: the write
    that ends it and a later correction of its totals each show at once there, as the page
    made afresh shows them (never a 304 on the totals of before)."""
    match = match_at(tournament=tournament)
    session_start(session=match.table.session)
    record = played_record(match=match, seed=5)
    last_round = len(record["rounds"]) - 1
    last_turns = record["rounds"][last_round]["turns"]
    import_record(match, referee, truncated(record, rounds=last_round,
                                            turns=len(last_turns) - 1))
    assert fresh(match).status == Match.Status.PLAYING
    player = match.table.seats.get(order=0).player_id
    urls = [f"/t/{tournament.slug}/sessions/1/", f"/t/{tournament.slug}/players/{player}/"]
    tags = {url: client.get(url, **HTMX)["ETag"] for url in urls}

    def shown(totals) -> list[bool]:
        """Whether each page shows the first seat's total among ``totals``, as made afresh."""
        seen = []
        for url in urls:
            poll = client.get(url, HTTP_IF_NONE_MATCH=tags[url], **HTMX)
            assert poll.status_code == 200, url
            assert poll.content == outsider_client.get(url, **HTMX).content, url
            tags[url] = poll["ETag"]
            seen.append(f">{totals[0]:d}<" in poll.content.decode())
        return seen

    add(match, referee, board_turn(last_turns[-1]))  # the racks to come: still in play
    assert [client.get(url, HTTP_IF_NONE_MATCH=tags[url], **HTMX).status_code
            for url in urls] == [304, 304]
    services.match_round_end(match=fresh(match), user=referee,
                             seen_revision=fresh(match).revision, round_index=last_round,
                             racks=record["rounds"][last_round]["racks"])
    over = fresh(match)
    assert over.status == Match.Status.FINISHED
    assert shown(over.totals) == [True, True]

    row = Turn.objects.current().get(round__match=match, round__index=0, index=0)
    services.match_turn_correct(
        match=over, user=referee, seen_revision=over.revision, turn_id=row.pk,
        turn=services.TurnInput(player=row.player, tile=row.tile, cell=engine.Cell.parse(row.cell),
                                corners=tuple(int(v) for v in row.corners.split("-")),
                                points_claimed=row.points_claimed + 1, decision="claim",
                                decision_reason="mal lu"),
        reason="mal lu")
    corrected = fresh(match)
    assert corrected.status == Match.Status.FINISHED
    assert corrected.totals[row.player] == over.totals[row.player] + 1
    assert shown(corrected.totals) == [True, True]


@pytest.mark.slow  # every page read many times over
def test_a_page_is_made_once_per_change_whatever_the_number_of_readers(tournament):
    made: list[str] = []

    def rendered(sender, template, context, **kwargs):
        made.append(template.name)

    urls = addresses(tournament)
    template_rendered.connect(rendered)
    try:
        for _phone in range(6):
            for url in urls.values():
                assert Client().get(url, **HTMX).status_code == 200
        first = list(made)
        organiser_services.tournament_update(**settings_of(tournament, venue="Salle B"))
        for _phone in range(6):
            for url in urls.values():
                Client().get(url, **HTMX)
    finally:
        template_rendered.disconnect(rendered)
    fragments = {
        "tournament/standings/_live.html", "tournament/public/_session_tables.html",
        "tournament/public/_player_live.html", "tournament/matches/_match.html",
    }
    assert {name for name in first if name in fragments} == fragments
    for fragment in fragments:
        assert first.count(fragment) == 1, fragment
        assert made.count(fragment) == 2, fragment


def test_the_settings_show_at_once_on_a_kept_page(client, tournament):
    url = addresses(tournament)["standings"]
    assert b"Spring Open" in client.get(url).content
    organiser_services.tournament_update(**settings_of(tournament, name="Printemps 2025"))
    page = client.get(url).content
    assert b"Printemps 2025" in page and b"Spring Open" not in page


def test_each_reader_gets_their_own_csrf_token_from_a_kept_page(tournament):
    url = addresses(tournament)["standings"]
    first = Client().get(url)
    reader = Client(enforce_csrf_checks=True)
    page = reader.get(url)
    assert page["ETag"] == first["ETag"]  # the kept copy
    html = page.content.decode()
    assert CSRF_MARKER not in html
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    assert f'"X-CSRFToken": "{token}"' in html
    switched = reader.post("/i18n/setlang/", {"language": "en", "next": url,
                                              "csrfmiddlewaretoken": token})
    assert switched.status_code == 302  # the token matches this reader's cookie


@pytest.mark.parametrize("address", [
    "/t/spring-open/standings/?anything=1",
    "/t/spring-open/sessions/01/",
    "/t/spring-open/sessions/001/",
])
def test_an_address_a_client_makes_up_is_made_for_it_alone_never_kept(client, tournament,
                                                                      address):
    response = client.get(address)
    assert response.status_code == 200
    assert "ETag" not in response
    with CaptureQueriesContext(connection) as queries:
        client.get(address)
    assert not any("tournament_cache" in query["sql"] for query in queries.captured_queries)


def test_a_logged_in_reader_gets_the_page_made_for_them(outsider_client, tournament):
    response = outsider_client.get(addresses(tournament)["standings"])
    assert response.status_code == 200 and "ETag" not in response
    assert b"oscar-outsider" in response.content


def test_a_private_tournament_is_still_a_404(client, make_tournament):
    make_tournament(slug="secret-open", is_public=False)
    assert client.get("/t/secret-open/standings/").status_code == 404
    assert client.get("/t/secret-open/standings/", **HTMX).status_code == 404


def test_the_public_match_page_follows_the_match_until_it_is_confirmed(client, tournament,
                                                                       referee, referee_client):
    """It polls its live part (its own address), not the whole match."""
    match = match_at(tournament=tournament)
    url = addresses(tournament)["match"]
    live = f"{url}live/"
    page = client.get(url)
    assert f'hx-get="{live}"' in page.content.decode() and "every 15s" in page.content.decode()
    assert f'hx-get="{url}"' not in page.content.decode()
    referee_page = referee_client.get(url).content.decode()
    assert "hx-get=" not in referee_page  # the entry screen does not poll
    session_start(session=match.table.session)
    confirmed_match(match=match, user=referee, seed=5)
    assert "hx-get=" not in client.get(url).content.decode()
    assert "hx-get=" not in client.get(live).content.decode()  # a last poll stops the polls


def test_an_etag_cannot_be_searched_back_to_the_data_version(client, tournament, settings):
    """The key (a tournament's id and an address) and the version (a small counter) are easy
    to guess: a plain hash of them would give the version away to whoever tries every number.
    The ETag is keyed with the server's secret: no guess without it matches, and another
    secret gives another ETag for the same page at the same version."""
    url = addresses(tournament)["standings"]
    tag = client.get(url)["ETag"].strip('"')
    key = f"page:{COPY_FORMAT}:{tournament.pk}:{url}:{get_language()}:page"
    tournament.refresh_from_db()
    guesses = {
        hashlib.sha256(f"{key}@{version}".encode()).hexdigest()[: len(tag)]
        for version in range(tournament.data_version + 1000)
    }
    assert tag not in guesses
    settings.SECRET_KEY = "another-secret-for-another-installation"
    assert Client().get(url)["ETag"].strip('"') != tag


def test_a_copy_of_another_shape_is_neither_read_nor_overwritten(client, tournament):
    """An upgrade during an event, or its rollback: the servers before kept their copies in
    another shape, under keys without the shape's number. This server neither reads them
    (it would fail on them) nor overwrites them (the other would fail on its copies)."""
    url = addresses(tournament)["standings"]
    old_key = f"page:{tournament.pk}:{url}:{get_language()}:page"
    old_copy = CachedCopy((b"<p>a copy of the old shape</p>", "text/html"), 10**9, timezone.now())
    cache.set(old_key, old_copy, 60)
    answer = client.get(url)
    assert answer.status_code == 200
    assert b"old shape" not in answer.content
    assert cache.get(old_key).content == old_copy.content


def made_pages(action) -> list[str]:
    """The templates rendered while ``action()`` runs."""
    made: list[str] = []

    def rendered(sender, template, context, **kwargs):
        made.append(template.name)

    template_rendered.connect(rendered)
    try:
        action()
    finally:
        template_rendered.disconnect(rendered)
    return made


def test_the_process_copy_answers_without_the_shared_cache_until_the_page_moves(tournament):
    """A page served once is kept by the process in front of the shared cache: with the shared
    cache emptied, the next reader still gets it, made by nobody; a write that moves the page
    is never answered from it."""
    url = addresses(tournament)["standings"]
    first = Client().get(url, **HTMX)
    assert first.status_code == 200
    cache.clear()
    again: list = []
    assert made_pages(lambda: again.append(Client().get(url, **HTMX))) == []
    assert again[0].status_code == 200 and again[0]["ETag"] == first["ETag"]
    assert again[0].content == first.content
    organiser_services.tournament_update(**settings_of(tournament, name="Printemps 2025"))
    moved: list = []
    assert "tournament/standings/_live.html" in made_pages(
        lambda: moved.append(Client().get(url).content))
    assert b"Printemps 2025" in moved[0] and b"Spring Open" not in moved[0]


def test_another_workers_newer_copy_wins_over_the_process_copy(client, tournament):
    """The process holds the page at one version; another worker made it at the next (its copy
    in the shared cache): a reader of the next version gets that copy, made by nobody here,
    and the process keeps it in place of its own."""
    url = addresses(tournament)["standings"]
    assert client.get(url, **HTMX).status_code == 200
    organiser_services.tournament_update(**settings_of(tournament, venue="Salle B"))
    tournament.refresh_from_db()
    key = f"page:{COPY_FORMAT}:{tournament.pk}:{url}:{get_language()}:fragment"
    other = CachedCopy((b"<p>made by the other worker</p>", "", "text/html; charset=utf-8"),
                       page_version(tournament=tournament), timezone.now())
    cache.set(key, other, 60)
    answers: list = []
    assert made_pages(lambda: answers.append(Client().get(url, **HTMX))) == []
    assert answers[0].content == b"<p>made by the other worker</p>"
    cache.clear()
    assert Client().get(url, **HTMX).content == b"<p>made by the other worker</p>"
