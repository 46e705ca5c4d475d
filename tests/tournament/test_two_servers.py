"""Two app servers of one site, as a federation runs them (docs/guides/operations.md, "A
federation's server"): the README's ``gunicorn`` line started twice, on two ports, against
one PostgreSQL database (the tests') and one Redis (``TRIOMINOS_CACHE_URL``), behind a proxy
that sends each connection to the next server in turn (``tests/servers.py``). The clients
here reach the site through it, each request on a connection of its own, so that one goes to
each server in turn, all from one address (the proxy's, as the servers see it behind one):
what one server wrote or counted, the other must show and count.

- a turn saved through one is on the other's pages at once, and the same content has the same
  ETag on both (a phone moved from one to the other still gets its 304s);
- a phone following the match on one is told of a turn saved through the other within 2 s;
- the lock-out after wrong passwords, the streams per address and the referee calls' wrong
  codes are counted once for the site: two servers do not give a client twice the budget.

PostgreSQL only: two processes need a database they both reach (the tests' SQLite is in
memory or one file per test worker). Redis: skipped without one, failed under CI
(``tests/conftest.py``).
"""

from __future__ import annotations

import os
import re
import socket
import time

import pytest
import requests
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connection
from django.urls import reverse

from tests.conftest import STAFF_PASSWORD, TEST_REDIS_URL, redis_needed
from tests.factories import entry_form, in_play
from tournament.kit.table_codes import table_code
from tournament.matches.stream import door
from tournament.models import Match
from tournament.room.services import CALL_ADDRESS_LIMIT

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

#: Each test worker's Redis database (its keys flushed before and after): the servers'
#: pages are kept under the tournament's id, which another worker's database reuses.
REDIS_DATABASES = {"main": 11, "gw0": 12, "gw1": 13, "gw2": 14, "gw3": 15}


def database_url() -> str:
    """The tests' PostgreSQL database, as ``DATABASE_URL`` names it."""
    database = connection.settings_dict
    user = database["USER"] + (f":{database['PASSWORD']}" if database["PASSWORD"] else "")
    return (f"postgres://{user}@{database['HOST'] or '127.0.0.1'}:{database['PORT'] or 5432}/"
            f"{database['NAME']}")


@pytest.fixture
def cache_url():
    if connection.vendor != "postgresql":
        pytest.skip("two app servers need one database both reach: PostgreSQL "
                    "(DATABASE_URL=postgres://...), not the tests' SQLite")
    redis_needed()
    import redis

    number = REDIS_DATABASES.get(os.environ.get("PYTEST_XDIST_WORKER", "main"), 11)
    url = TEST_REDIS_URL.rsplit("/", 1)[0] + f"/{number}"
    client = redis.Redis.from_url(url)
    client.flushdb()
    yield url
    client.flushdb()


@pytest.fixture
def proxy(transactional_db, cache_url):
    """The site: two app servers behind the proxy that alternates between them."""
    from tests.servers import AppServer, RoundRobinProxy, server_environment

    environment = server_environment(DATABASE_URL=database_url(), TRIOMINOS_CACHE_URL=cache_url)
    first, second = AppServer(environment), AppServer(environment)
    try:
        balancer = RoundRobinProxy((first.start().url, second.start().url)).start()
        try:
            yield balancer
        finally:
            balancer.stop()
    finally:
        first.stop()
        second.stop()


class Balanced(requests.Session):
    """A client of the site through ``proxy`` (a path, not a full address), each request on
    a connection of its own: the proxy sends them to each server in turn."""

    def __init__(self, proxy) -> None:
        super().__init__()
        self.proxy = proxy

    def request(self, method, url, *args, **kwargs):
        if url.startswith("/"):
            url = self.proxy.url + url
        kwargs["headers"] = {**(kwargs.get("headers") or {}), "Connection": "close"}
        kwargs.setdefault("timeout", 30)
        return super().request(method, url, *args, **kwargs)

    @property
    def last(self) -> int:
        """The server (0 or 1) the last request went to."""
        return self.proxy.chosen[-1]


def token_of(html: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


def servers_password(user, password: str = STAFF_PASSWORD):
    """``user``'s password hashed as the servers check it (the tests hash faster, with a
    hasher the servers' settings do not name)."""
    user.password = PBKDF2PasswordHasher().encode(password, PBKDF2PasswordHasher().salt())
    user.save(update_fields=["password"])
    return user


def login(client: Balanced, username: str, password: str) -> requests.Response:
    form = client.get("/login/")
    return client.post("/login/", data={"username": username, "password": password,
                                        "csrfmiddlewaretoken": token_of(form.text)},
                       allow_redirects=False)


def save_turn(referee: Balanced, match: Match, turn: dict) -> requests.Response:
    url = reverse("tournament:match_turn_add", kwargs={"slug": "spring-open", "match_id": match.pk})
    return referee.post(url, data=entry_form(turn, match.revision),
                        headers={"HX-Request": "true", "X-CSRFToken": referee.cookies["csrftoken"]})


def test_a_turn_saved_through_one_is_on_the_others_pages_at_once_with_one_etag(
        proxy, tournament, referee):
    match, turns = in_play(tournament, referee)
    phone = Balanced(proxy)
    pages = [f"/t/spring-open/matches/{match.pk}/", "/t/spring-open/standings/",
             f"/t/spring-open/sessions/{match.table.session.number}/"]
    # the same content, the same ETag on both: a phone moved to the other server gets a 304
    etags = {}
    for page in pages:
        first = phone.get(page)
        assert first.status_code == 200 and first.headers.get("ETag"), page
        made_by = phone.last
        again = phone.get(page, headers={"If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304, page
        assert phone.last != made_by  # asked of the other server
        etags[page] = first.headers["ETag"]

    referee_client = Balanced(proxy)
    servers_password(referee)
    assert login(referee_client, referee.username, STAFF_PASSWORD).status_code == 302
    saved = save_turn(referee_client, Match.objects.get(pk=match.pk), turns[2])
    assert saved.headers.get("X-Submission") == "saved", saved.status_code
    revision = int(saved.headers["X-Match-Revision"])
    assert revision == Match.objects.get(pk=match.pk).revision

    # through either server at once: the match's page has moved, the standings have not
    served = set()
    for _ in range(2):  # three requests each time: the match's page from each server
        moved = phone.get(pages[0], headers={"If-None-Match": etags[pages[0]]})
        served.add(phone.last)
        assert moved.status_code == 200 and moved.headers["ETag"] != etags[pages[0]]
        assert 'id="turn-' in moved.text and moved.text.count('id="turn-') > 2
        assert phone.get(pages[1], headers={"If-None-Match": etags[pages[1]]}).status_code == 304
        assert phone.get(pages[2]).status_code == 200
    assert served == {0, 1}
    new = phone.get(pages[0]).headers["ETag"]
    assert phone.get(pages[0], headers={"If-None-Match": new}).status_code == 304


def stream_events(url: str, *, deadline: float) -> socket.socket:
    """A raw stream opened at ``url`` (its answer's head read, 200 asserted)."""
    host, port_path = url.removeprefix("http://").split(":", 1)
    port, path = port_path.split("/", 1)
    stream = socket.create_connection((host, int(port)), timeout=10)
    stream.sendall(f"GET /{path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    received = b""
    while b"retry: 5000" not in received and time.monotonic() < deadline:
        received += stream.recv(4096)
    assert received.startswith(b"HTTP/1.1 200"), received[:200]
    return stream


def test_a_phone_following_on_one_is_told_of_a_turn_saved_through_the_other(
        proxy, tournament, referee):
    match, turns = in_play(tournament, referee)
    stream = stream_events(f"{proxy.url}/t/spring-open/matches/{match.pk}/stream/"
                           f"?revision={match.revision}", deadline=time.monotonic() + 20)
    streamed_by = proxy.chosen[-1]
    try:
        referee_client = Balanced(proxy)
        servers_password(referee)
        assert login(referee_client, referee.username, STAFF_PASSWORD).status_code == 302
        saved = save_turn(referee_client, Match.objects.get(pk=match.pk), turns[2])
        saved_at = time.monotonic()
        assert saved.headers.get("X-Submission") == "saved"
        assert referee_client.last != streamed_by  # saved through the other server
        revision = saved.headers["X-Match-Revision"]
        received = b""
        stream.settimeout(2)
        while f"id: {revision}".encode() not in received:
            chunk = stream.recv(65536)
            assert chunk, "the stream ended"
            received += chunk
            assert time.monotonic() - saved_at < 2, received[-300:]
        assert time.monotonic() - saved_at < 2
    finally:
        stream.close()


def test_the_lock_out_counts_the_guesses_made_through_both_servers(proxy, make_user):
    servers_password(make_user("guessed"), "the-right-one-42")
    client = Balanced(proxy)
    statuses = []
    for guess in range(settings.AXES_FAILURE_LIMIT + 1):
        password = "the-right-one-42" if guess == settings.AXES_FAILURE_LIMIT else f"guess-{guess}"
        statuses.append(login(client, "guessed", password).status_code)
    # the fifth wrong one locks out: three went to one server, two to the other
    assert statuses == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429, 429]


def test_wrong_table_codes_through_both_servers_count_once(proxy, tournament):
    client = Balanced(proxy)
    call = "/t/spring-open/tables/2/call/"
    form = client.get(call)
    assert form.status_code == 200
    right = table_code(tournament.pk, 2)
    wrong = [f"{guess:06d}" for guess in range(CALL_ADDRESS_LIMIT.tries + 1)
             if f"{guess:06d}" != right][:CALL_ADDRESS_LIMIT.tries]
    statuses = []
    for code in [*wrong, right]:
        page = client.get(call)
        statuses.append(client.post(call, data={"reason": "dispute", "code": code,
                                                "csrfmiddlewaretoken": token_of(page.text)}
                                    ).status_code)
    assert statuses == [400] * CALL_ADDRESS_LIMIT.tries + [429]


def test_one_address_gets_its_streams_once_for_the_site(proxy, tournament, referee):
    """The streams' bound per address (64) across two servers: 32 held on each, the next is
    refused by either; one let go, one more is let in."""
    match, _ = in_play(tournament, referee)
    stream = f"{proxy.url}/t/spring-open/matches/{match.pk}/stream/"
    held = []
    deadline = time.monotonic() + 60
    try:
        for _ in range(door.MAX_STREAMS_PER_ADDRESS):
            held.append(stream_events(stream, deadline=deadline))
        assert proxy.chosen.count(0) == proxy.chosen.count(1) == len(held) // 2
        for _ in range(2):
            with requests.get(stream, timeout=10, stream=True) as refused:
                assert refused.status_code == 429
                assert 0 < int(refused.headers["Retry-After"]) <= 600
        assert proxy.chosen[-2:] in ([0, 1], [1, 0])  # refused by either
        held.pop().close()  # its server ends the stream, its slot is given back
        for _ in range(50):
            again = requests.get(stream, timeout=10, stream=True)
            status = again.status_code
            again.close()
            if status == 200:
                break
            time.sleep(0.1)
        assert status == 200
    finally:
        for stream in held:
            stream.close()


def confirm_round(client: requests.Session, server: str, match: Match) -> str:
    """The first round of ``match`` confirmed through ``server`` by a logged-in referee, as the
    entry screen posts it: the answer's ``X-Submission``."""
    url = server + reverse("tournament:match_round_confirm",
                           kwargs={"slug": match.table.session.tournament.slug,
                                   "match_id": match.pk, "number": 1})
    answer = client.post(url, data={"revision": str(match.revision)},
                         headers={"HX-Request": "true", "X-CSRFToken": client.cookies["csrftoken"],
                                  "Referer": url},
                         timeout=60)
    return f"{answer.status_code} {answer.headers.get('X-Submission', '')}"


def test_the_ratings_take_turns_across_servers(proxy, make_tournament, referee):
    """Two rated matches confirmed at the same moment, one through each server: both saved,
    and the ratings kept are what ``ratings_rebuild`` writes (the ratings' turn is
    PostgreSQL's: a refresh waits for the other server's)."""
    from tests.concurrency import run_at_once
    from tests.factories import recorded_match
    from tournament.core.tournaments import staff_role_grant
    from tournament.management.commands.ratings_rebuild import kept_ratings
    from tournament.models import StaffRole
    from tournament.ratings.services import ratings_rebuild

    rated = make_tournament(slug="rated-open", players=4, table_size=2, started=True,
                            match_rounds=1)
    assert rated.is_rated
    staff_role_grant(tournament=rated, user=referee, role=StaffRole.Role.REFEREE)
    matches = [recorded_match(match=match) for match in
               Match.objects.filter(table__session__tournament=rated).order_by("table__number")]
    servers = [f"http://{host}:{port}" for host, port in proxy.servers]
    servers_password(referee)
    clients = []
    for server in servers:  # one referee's tablet on each server
        client = requests.Session()
        page = client.get(server + "/login/", timeout=30)
        assert client.post(server + "/login/", allow_redirects=False, timeout=30, data={
            "username": referee.username, "password": STAFF_PASSWORD,
            "csrfmiddlewaretoken": token_of(page.text)}).status_code == 302
        clients.append(client)
    before = kept_ratings()

    outcomes = run_at_once({
        f"server {number}": lambda number=number: confirm_round(
            clients[number], servers[number], Match.objects.get(pk=matches[number].pk))
        for number in (0, 1)})
    assert outcomes == {"server 0": "200 saved", "server 1": "200 saved"}, outcomes

    kept = kept_ratings()
    assert {match_id for match_id, _ in kept[0]} >= {match.pk for match in matches}
    assert kept != before
    ratings_rebuild()
    assert kept_ratings() == kept
