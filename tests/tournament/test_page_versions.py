"""A page's ETag moves exactly when what it shows moves (tournament/core/freshness.py).

Every phone's poll is answered 304 while its page's version stays: a write that changes what a
page shows without raising the version the page keys on leaves the phones on the old page, and
one that raises it needlessly sends every phone the page again. So, for every write address
of ``tests/tournament/writes.py`` (the list the fuzz test posts to) and the match's writes (a
turn in play, a confirmation), in a tournament before play and in one in play: every page
the public reads that answers with an ETag (each address of the site, with the tournament's
sessions, tables, matches and players, as a page and as its polled fragment) is read before
and after the write, made anew each time (every kept copy forgotten first), and

- a page whose content the write changed has a new ETag;
- a refused write changes no page and no ETag;
- a turn in play moves no page's ETag but its own match's; a match that starts or ends
  (not confirmed) moves only the pages whose content it changed: its session's, its players',
  its own, never the standings; a call for a referee, no public page's.

The replays a process keeps between a tablet's requests key on a match's revision and the
tournament's setup version: so, around each write, every match of the tournament is
replayed afresh from the database, and a write that changes what a match's replay shows of
its tournament (the players' names, the rules, the seating) without moving that match's
revision raises the setup version; a match's own write (a turn, a confirmation) never does.

Each write runs in a transaction rolled back at its end: every write starts from the same
tournament.
"""

from __future__ import annotations

import dataclasses
import re

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from tests.factories import (
    add,
    board_turn,
    confirmed_match,
    match_at,
    played_record,
    recorded_match,
)
from tests.kept import forget_kept_copies
from tests.tournament import writes
from tests.tournament.test_roles import named_patterns
from tournament.kit.table_codes import table_code
from tournament.matches.reading.rows import match_rows, partial_record
from tournament.models import Category, Match, Registration, Tournament
from tournament.sessions.services import session_start

# slow: every page read anew around each of some forty writes, twice over
pytestmark = [pytest.mark.django_db, pytest.mark.slow]

#: A CSRF token as a page carries it, masked anew for each answer: not what the page shows.
CSRF_TOKEN = re.compile(rb"\b[A-Za-z0-9]{64}\b")


def public_addresses(tournament) -> list[str]:
    """Every GET address of the site with the tournament's values: its slug, its sessions'
    and tables' numbers, its matches, its players and categories."""
    values = {
        "slug": [tournament.slug],
        "number": [1, 2],
        "table": [1, 2],
        "match_id": list(Match.objects.filter(table__session__tournament=tournament)
                         .values_list("pk", flat=True)),
        "player_id": list(Registration.objects.filter(tournament=tournament)
                          .order_by("pk").values_list("player_id", flat=True)[:3]),
        "category_id": list(Category.objects.filter(tournament=tournament)
                            .values_list("pk", flat=True)),
    }
    urls = set()
    for name, pattern in named_patterns():
        keys = list(pattern.pattern.converters)
        if any(key not in values for key in keys):
            continue
        combinations = [{}]
        for key in keys:
            combinations = [{**done, key: value} for done in combinations
                            for value in values[key]]
        urls.update(reverse(name, kwargs=kwargs) for kwargs in combinations)
    return sorted(url for url in urls if not url.endswith(".pdf"))


def read(client: Client, urls: list[str]) -> dict[tuple[str, bool], tuple[str, bytes]]:
    """(address, as a fragment) → (ETag, content) of every page that answers with an ETag,
    each made anew."""
    pages = {}
    for url in urls:
        for fragment in (False, True):
            forget_kept_copies()
            headers = {"HTTP_HX_REQUEST": "true"} if fragment else {}
            response = client.get(url, **headers)
            if response.status_code == 200 and response.has_header("ETag"):
                pages[url, fragment] = (response["ETag"].removeprefix("W/"),
                                        CSRF_TOKEN.sub(b"<token>", response.content))
    return pages


def changed_pages(before, after) -> tuple[set, set]:
    """The pages whose content changed, and those whose ETag did."""
    content = {page for page in before.keys() | after.keys()
               if before.get(page, (None, None))[1] != after.get(page, (None, None))[1]}
    etags = {page for page in before.keys() | after.keys()
             if before.get(page, (None, None))[0] != after.get(page, (None, None))[0]}
    return content, etags


@pytest.fixture
def world(tournament, organiser, referee, make_tournament):
    return writes.world(tournament=tournament, organiser=organiser, referee=referee,
                        make_tournament=make_tournament)


@pytest.fixture
def in_play(world, tournament, referee):
    """The world with session 1 started: table 1's match in play, three turns in; a call
    for a referee from table 2."""
    from tournament.room.services import call_make

    session_start(session=tournament.sessions.get(number=1))
    match = match_at(tournament=tournament)
    turns = played_record(match=match, seed=3)["rounds"][0]["turns"]
    for turn in turns[:3]:
        add(match, referee, board_turn(turn))
    table = tournament.sessions.get(number=1).tables.get(number=2)
    call = call_make(table=table, reason="dispute", code=table_code(tournament.pk, 2))
    return {**world, "next_turn": turns[3], "call": call.pk}


def organiser_client(organiser) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(organiser)
    return client


def address_writes(world, organiser) -> dict:
    """Each write address of ``writes.ADDRESSES`` posted its valid values, each from a client
    of its own (no message of another write's answer is read as this one's)."""
    def post(role, path, data):
        def write():
            client = (organiser_client(organiser) if role == "organiser"
                      else Client(raise_request_exception=False))
            response = client.post(path.format(**world), data)
            assert response.status_code < 500, (path, response.status_code)
            return not writes.refused(response)
        return write

    return {address: post(role, path, data)
            for address, (role, path, data) in writes.ADDRESSES.items()}


def replay_frames(tournament) -> tuple[int, dict[int, tuple]]:
    """The tournament's setup version, and for each of its matches its revision and what
    its replay, made afresh from the database, shows of the tournament: its record without
    its rounds (the players' names, the rules, the target, the options)."""
    frames = {}
    for match in Match.objects.filter(table__session__tournament=tournament).select_related(
            "table__session__tournament"):
        record = partial_record(match_rows(match=match))
        frames[match.pk] = (match.revision, dataclasses.replace(record, rounds=()))
    return Tournament.objects.get(pk=tournament.pk).setup_version, frames


def check_every_write(world, organiser, tournament,
                      extra: dict | None = None) -> tuple[dict, set[str]]:
    """Run every write in its own rolled-back transaction, the pages read around it; returns
    for each write whether it was accepted and which pages' content and ETags it changed, and
    the writes that raised the setup version."""
    reader = Client()
    urls = public_addresses(tournament)
    before = read(reader, urls)
    assert before, "no page answers with an ETag"
    assert read(reader, urls) == before, "a page read twice, nothing written between, differs"
    setup_before, frames_before = replay_frames(tournament)
    found, setup_moved = {}, set()
    for name, write in {**address_writes(world, organiser), **(extra or {})}.items():
        with transaction.atomic():
            accepted = write()
            after = read(reader, urls)
            setup_after, frames_after = replay_frames(tournament)
            transaction.set_rollback(True)
        content, etags = changed_pages(before, after)
        found[name] = (accepted, content, etags)
        stale = sorted(content - etags)
        assert not stale, f"{name}: the content of {stale} changed, its ETag did not"
        if not accepted:
            assert not etags, f"{name} was refused, yet moved the ETags of {sorted(etags)}"
        if setup_after != setup_before:
            setup_moved.add(name)
            continue
        unkept = [pk for pk, (revision, frame) in frames_after.items()
                  if pk in frames_before and frames_before[pk] != (revision, frame)
                  and frames_before[pk][0] == revision]
        assert not unkept, (f"{name}: what the replays of matches {unkept} show changed, "
                            "neither their revision nor the setup version moved")
    return found, setup_moved


def test_before_play_every_change_of_a_page_moves_its_etag(world, organiser, tournament):
    found, setup_moved = check_every_write(world, organiser, tournament)
    assert {"settings", "add a player", "seat"} <= setup_moved, sorted(setup_moved)
    accepted = {name for name, (ok, _content, _etags) in found.items() if ok}
    # the writes that change what the public reads of a tournament before play were made
    # (the swap posts the ids of writes.ADDRESSES, which are the players' on SQLite only)
    assert {"settings", "add a player", "reinstate", "seat",
            "start", "room settings", "announce"} <= accepted, sorted(accepted)
    for name in ("settings", "add a player", "seat", "start"):
        assert found[name][1], f"{name} changed no public page: the test reads too little"


def test_in_play_every_change_of_a_page_moves_its_etag(in_play, organiser, referee,
                                                       tournament):
    match = match_at(tournament=tournament)
    table_2 = match_at(tournament=tournament, table=2)
    staff = organiser_client(organiser)
    slug = tournament.slug
    extra = {
        "a turn in play": lambda: add(match, referee, board_turn(in_play["next_turn"])) or True,
        "a confirmation": lambda: confirmed_match(match=table_2, user=referee, seed=4) or True,
        "a match's first turn": lambda: add(table_2, referee, board_turn(
            played_record(match=table_2, seed=4)["rounds"][0]["turns"][0])) or True,
        "a match over, not confirmed": lambda: recorded_match(
            match=table_2, user=referee, seed=4) or True,
        "table 1 calls": lambda: Client().post(f"/t/{slug}/tables/1/call/", {
            "reason": "dispute", "code": table_code(tournament.pk, 1)}).status_code == 200,
        "the call answered": lambda: staff.post(
            f"/t/{slug}/room/calls/{in_play['call']}/answer/").status_code == 302,
    }
    found, setup_moved = check_every_write(in_play, organiser, tournament, extra)
    # a match's own writes move its revision; the other matches' replays stay in use
    assert not setup_moved & {"a turn in play", "a confirmation", "a match's first turn",
                              "a match over, not confirmed"}, sorted(setup_moved)
    accepted, content, etags = found["a turn in play"]
    assert accepted and content, "the turn changed nothing the public reads"
    # its match's page and live part, and what shows every match live: no standings, no
    # session, no player's page, no other match
    assert {url for url, _fragment in etags} - {url for url, _fragment in content} == set(), (
        sorted(etags - content))
    assert not [url for url, _fragment in etags
                if "standings" in url or "/players/" in url or "/sessions/" in url
                or f"/matches/{table_2.pk}/" in url], sorted(etags)
    # a match that starts or ends moves its session's page, its players' pages and its own,
    # each because it shows it: no standings, no other player's page, no other match
    for moved in ("a match's first turn", "a match over, not confirmed"):
        accepted, content, etags = found[moved]
        assert accepted and any("/sessions/" in url for url, _fragment in content), moved
        assert etags <= content, (moved, sorted(etags - content))
        assert not [url for url, _fragment in etags if "standings" in url
                    or f"/matches/{match.pk}/" in url], (moved, sorted(etags))
    accepted, content, etags = found["a confirmation"]
    assert accepted and any("standings" in url for url, _fragment in etags), sorted(etags)
    for call in ("table 1 calls", "the call answered"):
        accepted, _content, etags = found[call]
        assert accepted and not [url for url, _fragment in etags if "standings" in url], (
            call, sorted(etags))
    assert {"reinstate", "set the session clock", "announce"} <= {
        name for name, (ok, _content, _etags) in found.items() if ok}
