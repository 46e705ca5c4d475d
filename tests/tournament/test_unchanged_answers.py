"""The polls and the clock answered from one read by their address, before the tournament is
loaded (``CachedPageMixin.unchanged_answer``, ``ClockView``, ``tournament.kit.prepared``): a
304 only to a reader who may see the tournament and names its version now; a private
tournament's answers stay a 404 to the public whatever it sends; the read agrees with the
version computed apart."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import seated_session, tournament_with_players
from tournament.core import freshness
from tournament.core.freshness import tournament_write
from tournament.kit.prepared import PreparedRead
from tournament.matches.reading.rows import match_by_address, match_with_tournament
from tournament.models import Match, StaffRole, Tournament
from tournament.room import selectors, services

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def played(make_user):
    tournament = tournament_with_players(players=8)
    session = seated_session(tournament=tournament, started=True)
    referee = make_user("arbitre")
    StaffRole.objects.create(tournament=tournament, user=referee, role="referee")
    services.clock_set(session=session, minutes=30, user=None)
    services.clock_start(session=session, user=None)
    player = session.tables.get(number=1).seats.order_by("order").first().player_id
    slug = tournament.slug
    addresses = {
        "standings": f"/t/{slug}/standings/",
        "session": f"/t/{slug}/sessions/{session.number}/",
        "player": f"/t/{slug}/players/{player}/",
        "match": reverse("tournament:match_live", kwargs={
            "slug": slug, "match_id": Match.objects.get(table__session=session,
                                                        table__number=1).pk}),
        "clock": reverse("tournament:table_clock_json",
                         kwargs={"slug": slug, "number": session.number, "table": 1}),
        "session clock": reverse("tournament:session_clock_json",
                                 kwargs={"slug": slug, "number": session.number}),
    }
    return tournament, session, referee, addresses


def _ask(client, url, etag=None):
    headers = dict(HTMX) if "clock" not in url else {}
    if etag is not None:
        headers["HTTP_IF_NONE_MATCH"] = etag
    return client.get(url, **headers)


def test_a_poll_with_nothing_new_is_one_read(client, played, django_assert_num_queries):
    _, _, _, addresses = played
    for name, url in addresses.items():
        first = _ask(client, url)
        assert first.status_code == 200, name
        with django_assert_num_queries(1):
            again = _ask(client, url, first["ETag"])
        assert again.status_code == 304, name
        assert again["ETag"] == first["ETag"].removeprefix("W/"), name
        assert "no-cache" in again["Cache-Control"], name


def test_a_version_moved_is_a_200_with_the_new_etag(client, played):
    tournament, _, _, addresses = played
    before = {name: _ask(client, url)["ETag"] for name, url in addresses.items()}
    with tournament_write(tournament_id=tournament.pk):
        pass  # every results page's version moves; the clock's does not
    services.clock_pause(session=tournament.sessions.get(), user=None)
    for name, url in addresses.items():
        answer = _ask(client, url, before[name])
        assert answer.status_code == 200, name
        assert answer["ETag"] != before[name], name
        assert _ask(client, url, answer["ETag"]).status_code == 304, name


def test_a_stale_or_made_up_etag_is_never_a_304(client, played):
    _, _, _, addresses = played
    etags = {name: _ask(client, url)["ETag"] for name, url in addresses.items()}
    for name, url in addresses.items():
        for sent in ('"made-up"', "*x", etags["standings" if name != "standings" else "session"]):
            assert _ask(client, url, sent).status_code == 200, (name, sent)


def test_a_private_tournaments_polls_and_clock_stay_a_404_to_the_public(client, played):
    """The public got the ETags while the tournament was public; once private, sending them
    back (or nothing) is a 404, as for a tournament that does not exist; its referee still
    reads the clock, and is answered 304 with it."""
    tournament, _, referee, addresses = played
    etags = {name: _ask(client, url)["ETag"] for name, url in addresses.items()}
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    for name, url in addresses.items():
        for sent in (etags[name], None, "*"):
            assert _ask(client, url, sent).status_code == 404, (name, sent)
    client.force_login(referee)
    clock = _ask(client, addresses["clock"])
    assert clock.status_code == 200 and clock.json()["clock"]["state"] == "running"
    assert _ask(client, addresses["clock"], clock["ETag"]).status_code == 304
    client.logout()
    assert _ask(client, addresses["clock"], clock["ETag"]).status_code == 404


def test_an_address_of_nothing_is_a_404_whatever_it_sends(client, played):
    tournament, session, _, addresses = played
    for url in (addresses["clock"].replace("/tables/1/", "/tables/99/"),
                addresses["session clock"].replace(f"/sessions/{session.number}/", "/sessions/9/"),
                addresses["standings"].replace(tournament.slug, "no-such-open"),
                addresses["session"].replace(tournament.slug, "no-such-open"),
                # a public tournament's session or player that does not exist: "any copy"
                # is no copy of it
                addresses["session"].replace(f"/sessions/{session.number}/", "/sessions/9/"),
                f"/t/{tournament.slug}/players/999999/"):
        assert _ask(client, url, "*").status_code == 404, url


@pytest.mark.parametrize("number", [2**31, 2**63, 10**30])
def test_an_address_of_a_number_no_column_holds_is_a_404(client, played, number):
    """An address whose number is longer than any id or number (typed, or made up): a 404
    whatever it sends, its read run on no database (SQLite takes no integer past 64 bits)."""
    tournament, session, _, addresses = played
    for url in (f"/t/{tournament.slug}/players/{number}/",
                f"/t/{tournament.slug}/sessions/{number}/",
                f"/t/{tournament.slug}/matches/{number}/live/",
                addresses["clock"].replace("/tables/1/", f"/tables/{number}/"),
                addresses["session clock"].replace(f"/sessions/{session.number}/",
                                                   f"/sessions/{number}/")):
        for etag in (None, "*", 'W/"made-up"'):
            assert _ask(client, url, etag).status_code == 404, (url, etag)


def test_any_copy_is_never_answered_from_a_version(client, played):
    """``If-None-Match: *`` names no version: the page itself is the answer, a 200."""
    _, _, _, addresses = played
    for name, url in addresses.items():
        assert _ask(client, url, "*").status_code == 200, name


def test_the_read_versions_agree_with_the_versions_computed_apart(played):
    """The second computation: ``session_version`` and ``player_version`` sum the state
    revisions in their own query, from the tournament's row."""
    tournament, session, _, _ = played
    Match.objects.filter(table__session=session, table__number=1).update(state_revision=7)
    tournament.refresh_from_db()
    players = list(session.seats.values_list("player_id", flat=True))
    read = freshness.session_version_read(slug=tournament.slug, number=session.number)
    assert read.tournament_id == tournament.pk and read.is_public
    assert read.version == freshness.session_version(tournament=tournament, number=session.number)
    for player in players:
        assert freshness.player_version_read(slug=tournament.slug, player_id=player).version == \
            freshness.player_version(tournament=tournament, player_id=player)
    assert freshness.results_version_read(slug=tournament.slug).version == \
        freshness.page_version(tournament=tournament)
    assert freshness.session_version_read(slug=tournament.slug, number=9).version == \
        freshness.page_version(tournament=tournament)  # no match: the results alone
    assert freshness.results_version_read(slug="no-such-open") is None
    for match in Match.objects.filter(table__session=session):
        assert freshness.match_version_read(slug=tournament.slug, match_id=match.pk).version \
            == freshness.page_version(tournament=tournament, revision=match.revision)


def test_another_tournaments_match_under_this_address_is_a_404(client, played):
    tournament, _, _, addresses = played
    other = tournament_with_players(players=4, slug="autumn-open")
    seated_session(tournament=other, started=True)
    theirs = Match.objects.get(table__session__tournament=other)
    url = reverse("tournament:match_live", kwargs={"slug": tournament.slug,
                                                   "match_id": theirs.pk})
    assert freshness.match_version_read(slug=tournament.slug, match_id=theirs.pk) is None
    etag = _ask(client, url.replace(tournament.slug, "autumn-open"))["ETag"]
    for sent in (etag, "*", None):
        assert _ask(client, url, sent).status_code == 404, sent


def test_a_prepared_read_runs_its_sql_with_each_calls_arguments(played, make_user):
    """Compiled once, read with other arguments: each call's own row, never the first's."""
    tournament, session, _, _ = played
    other = tournament_with_players(players=4, slug="autumn-open")
    seated_session(tournament=other, started=True)
    read = PreparedRead(lambda *, slug, number: Tournament.objects.filter(
        slug=slug, sessions__number=number).values_list("pk", "slug"), slug=str, number=int)
    assert read(slug=tournament.slug, number=session.number) == (tournament.pk, tournament.slug)
    assert read(slug="autumn-open", number=1) == (other.pk, "autumn-open")
    assert read(slug="autumn-open", number=2) is None
    with pytest.raises(TypeError):
        read(slug="autumn-open")
    clock = selectors.clock_read(slug=tournament.slug, number=session.number, table=1)
    assert clock.session_id == session.pk and clock.call is None
    assert clock.clock_started_at is not None and clock.clock_started_at.tzinfo is not None


def test_another_method_than_get_is_never_answered_from_the_read(client, played):
    """A POST (or PUT) with the ETag the poll had is refused as before, never a 200 or 304
    given from the read."""
    _, _, _, addresses = played
    for name, url in addresses.items():
        etag = _ask(client, url)["ETag"]
        for method in (client.post, client.put):
            answer = method(url, HTTP_IF_NONE_MATCH=etag)
            assert answer.status_code in (403, 405), (name, method, answer.status_code)


def _fields(instance) -> dict:
    return {field.attname: getattr(instance, field.attname)
            for field in type(instance)._meta.concrete_fields}


def test_a_match_read_by_its_address_is_the_orms_match_with_its_chain(played):
    """Read in one query compiled once: the same rows, field by field (dates, JSON, flags),
    as the ORM's ``select_related`` gives, for two matches in turn; another tournament's slug,
    an id of no match and an id beyond any row's are None, not an error."""
    tournament, session, _, _ = played
    other = tournament_with_players(players=4, slug="autumn-open")
    seated_session(tournament=other, started=True)
    matches = [Match.objects.filter(table__session=session).order_by("pk").last(),
               Match.objects.get(table__session__tournament=other)]
    for expected in matches:
        expected = match_with_tournament(expected.pk).get()
        read = match_by_address(slug=expected.table.session.tournament.slug,
                                match_id=expected.pk)
        assert type(read) is Match and not read._state.adding and read._state.db == "default"
        for got, wanted in ((read, expected), (read.table, expected.table),
                            (read.table.session, expected.table.session),
                            (read.table.session.tournament, expected.table.session.tournament)):
            assert _fields(got) == _fields(wanted), type(wanted).__name__
        assert Match.table.is_cached(read)
    assert match_by_address(slug="autumn-open", match_id=matches[0].pk) is None
    assert match_by_address(slug=tournament.slug, match_id=Match.objects.latest("pk").pk + 9) is None
    assert match_by_address(slug=tournament.slug, match_id=2**63) is None
    assert match_by_address(slug=tournament.slug, match_id=0) is None


def test_a_tournament_read_for_a_page_is_the_orms_with_its_states(played):
    """A session's and a player's page read their tournament with the state revisions they
    key on, in one compiled query: the ORM's tournament and sum, whatever the match states."""
    tournament, session, referee, _ = played
    seats = session.tables.get(number=1).seats.order_by("order")
    player, outsider = seats[0].player_id, seats[0].player_id + 10_000
    match = Match.objects.get(table__session=session, table__number=1)
    Match.objects.filter(pk=match.pk).update(state_revision=7)
    reads = (
        (freshness.tournament_with_session_states, freshness.tournaments_with_session_states,
         {"number": session.number}, {"number": 9}),
        (freshness.tournament_with_player_states, freshness.tournaments_with_player_states,
         {"player_id": player}, {"player_id": outsider}),
    )
    for read, queryset, arguments, none_shown in reads:
        for given in (arguments, none_shown):
            got = read(slug=tournament.slug, **given)
            wanted = queryset(*given.values()).get(pk=tournament.pk)
            assert _fields(got) == _fields(wanted) and got.match_states == wanted.match_states
            assert not got._state.adding and got._state.db == "default"
        assert read(slug=tournament.slug, **arguments).match_states >= 7
        assert read(slug="no-such-open", **arguments) is None
        assert read(slug=tournament.slug, **dict.fromkeys(arguments, 2**63)) is None


def test_a_match_read_by_its_address_costs_one_query(played, django_assert_num_queries):
    tournament, session, _, addresses = played
    match = Match.objects.filter(table__session=session).first()
    with django_assert_num_queries(1):
        read = match_by_address(slug=tournament.slug, match_id=match.pk)
        assert read.table.session.tournament.pk == tournament.pk
