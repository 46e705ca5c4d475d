"""A process keeps the round in play's replay between a tablet's saves
(``tournament.matches.reading.replay_cache``): the next save or preview at the same state does not
load the rows again, and a copy is never served once the match moved on (a write by another
process, another tab), nor rolled back, nor in another language.

The copies are kept once the write is committed: the tests run each in a transaction, so
they run the commit's callbacks themselves (``django_capture_on_commit_callbacks``)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from tests.factories import (
    add,
    blocked_racks,
    blocked_round,
    board_turn,
    confirmed_match,
    fresh,
    match_at,
    played_record,
)
from tests.kept import forget_kept_copies
from tests.tournament.matches.helpers import confirmed_through, posted
from tournament.matches import services
from tournament.matches.reading.replay_cache import forget_replays, keep_replay, live_replay
from tournament.models import Registration, Round, Session, Turn
from tournament.organiser.services.registrations import registration_update

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(match, name: str, **kwargs) -> str:
    return reverse(f"tournament:{name}", kwargs={
        "slug": match.table.session.tournament.slug, "match_id": match.pk, **kwargs})


def placed(match, count: int) -> list[dict]:
    """The first ``count`` turns of a simulated round one that place a tile (no draw)."""
    turns = played_record(match=match, seed=5)["rounds"][0]["turns"]
    return [t for t in turns if t.get("place") and not t.get("draws")][:count]


def tile(turn: dict) -> str:
    return "-".join(map(str, sorted(turn["place"]["corners"])))


def tablet_save(client, match, turn, *, revision: int):
    """The tablet's htmx save of ``turn``, its page showing ``revision``."""
    return client.post(url(match, "match_turn_add"), posted(turn, revision),
                       HTTP_X_MATCH_SHOWN=str(revision), **HTMX)


def sql(queries: CaptureQueriesContext, table: str) -> list[str]:
    return [q["sql"] for q in queries.captured_queries
            if q["sql"].startswith("SELECT") and f'FROM "{table}"' in q["sql"]]


@pytest.fixture
def opened(tournament, referee):
    """A match in play, its first turn saved (by the services: nothing kept)."""
    forget_replays()
    match = match_at(tournament=tournament, started=True)
    turns = placed(match, 4)
    add(match, referee, board_turn(turns[0]))
    return match, turns


def test_a_save_after_a_save_loads_no_row_again(opened, referee_client,
                                                django_capture_on_commit_callbacks):
    match, turns = opened
    revision = fresh(match).revision
    with django_capture_on_commit_callbacks(execute=True):
        first = tablet_save(referee_client, match, turns[1], revision=revision)
    assert first.status_code == 200
    with CaptureQueriesContext(connection) as queries, \
            django_capture_on_commit_callbacks(execute=True):
        second = tablet_save(referee_client, match, turns[2], revision=revision + 1)
    assert second.status_code == 200 and second["X-Submission"] == "saved"
    # the replay kept by the first save: no seat, round or turn read; the match read once
    # (its claim does not read it again)
    assert sql(queries, "tournament_turn") == []
    assert sql(queries, "tournament_seat") == []
    assert len(sql(queries, "tournament_match")) == 1
    current = Turn.objects.current().filter(round__match=match).order_by("index")
    assert [t.tile for t in current] == [tile(t) for t in turns[:3]]
    assert all(t.verdict == "ok" for t in current)


def test_a_write_by_another_process_is_never_served_from_the_copy(
        opened, referee, referee_client, django_capture_on_commit_callbacks):
    match, turns = opened
    revision = fresh(match).revision
    with django_capture_on_commit_callbacks(execute=True):
        assert tablet_save(referee_client, match, turns[1], revision=revision).status_code == 200
    # another worker saves the next turn: this process's copy is of the revision before it
    services.match_turns_add(match=fresh(match), user=referee, seen_revision=revision + 1,
                             turns=[board_turn(turns[2])])
    # the tablet, still showing the revision before, is told so; nothing of it is written
    stale = tablet_save(referee_client, match, turns[2], revision=revision + 1)
    assert stale.status_code == 409 and stale["X-Submission"] == "stale"
    assert Turn.objects.current().filter(round__match=match).count() == 3
    # its next save is checked against the table as the other worker left it
    with CaptureQueriesContext(connection) as queries:
        saved = tablet_save(referee_client, match, turns[3], revision=revision + 2)
    assert saved.status_code == 200
    assert sql(queries, "tournament_turn")  # replayed from the database
    line = saved.context["replay"].live_round_view.turns
    assert [t.row.tile for t in line] == [tile(t) for t in turns[:4]]
    assert [t.report.verdict.value for t in line] == ["ok"] * 4


def test_a_match_confirmed_at_another_table_leaves_the_copy_in_use(
        opened, tournament, referee, referee_client, django_capture_on_commit_callbacks):
    """Another table's confirmation moves the standings (the results version), not what this
    table's replay shows: the tablet's next save loads no row again."""
    match, turns = opened
    revision = fresh(match).revision
    with django_capture_on_commit_callbacks(execute=True):
        assert tablet_save(referee_client, match, turns[1], revision=revision).status_code == 200
    before = fresh(match).table.session.tournament
    confirmed_match(match=match_at(tournament=tournament, table=2), user=referee)
    after = fresh(match).table.session.tournament
    assert after.results_version > before.results_version
    assert after.setup_version == before.setup_version
    with CaptureQueriesContext(connection) as queries, \
            django_capture_on_commit_callbacks(execute=True):
        saved = tablet_save(referee_client, match, turns[2], revision=revision + 1)
    assert saved.status_code == 200 and saved["X-Submission"] == "saved"
    assert sql(queries, "tournament_turn") == [] and sql(queries, "tournament_seat") == []


def test_a_player_renamed_is_never_served_from_the_copy(
        opened, referee_client, django_capture_on_commit_callbacks):
    """An organiser corrects a seated player's name between two saves of the table: the copy
    shows the old name, and the next save is checked and answered from the database."""
    match, turns = opened
    revision = fresh(match).revision
    with django_capture_on_commit_callbacks(execute=True):
        assert tablet_save(referee_client, match, turns[1], revision=revision).status_code == 200
    seat = fresh(match).table.seats.order_by("order").select_related("player").first()
    registration = Registration.objects.get(tournament=match.table.session.tournament,
                                            player=seat.player)
    registration_update(registration=registration, name="Zoé Renamed")
    with CaptureQueriesContext(connection) as queries:
        saved = tablet_save(referee_client, match, turns[2], revision=revision + 1)
    assert saved.status_code == 200
    assert sql(queries, "tournament_seat")  # the seats read again, not the copy's
    assert saved.context["replay"].rows.names[0] == "Zoé Renamed"


def test_two_tabs_at_one_revision_one_is_refused(opened, referee_client, client, referee,
                                                 django_capture_on_commit_callbacks):
    match, turns = opened
    other_tab = client
    other_tab.force_login(referee)
    revision = fresh(match).revision
    with django_capture_on_commit_callbacks(execute=True):
        assert tablet_save(referee_client, match, turns[1], revision=revision).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        first = tablet_save(referee_client, match, turns[2], revision=revision + 1)
        second = tablet_save(other_tab, match, turns[3], revision=revision + 1)
    assert first.status_code == 200 and second.status_code == 409
    assert fresh(match).revision == revision + 2
    assert Turn.objects.current().filter(round__match=match).count() == 3


def test_a_copy_is_lent_once_and_only_at_the_state_it_was_made_at(
        opened, django_capture_on_commit_callbacks):
    match, _turns = opened
    match = fresh(match)
    setup_version = match.table.session.tournament.setup_version

    def kept_then_asked(asked, *, language: str = "en") -> bool:
        forget_replays()
        with translation.override("en"):
            made = live_replay(match=match)
            with django_capture_on_commit_callbacks(execute=True):  # committed: kept
                keep_replay(made, setup_version=setup_version)
        with translation.override(language):
            return live_replay(match=asked) is made

    assert kept_then_asked(fresh(match))
    assert live_replay(match=match) is not live_replay(match=match)  # lent, not kept twice
    later = fresh(match)
    later.revision += 1
    assert not kept_then_asked(later)
    renamed = fresh(match)
    renamed.table.session.tournament.setup_version += 1
    assert not kept_then_asked(renamed)
    assert not kept_then_asked(fresh(match), language="fr")


def test_a_write_rolled_back_keeps_nothing(opened, django_capture_on_commit_callbacks):
    match, _turns = opened
    match = fresh(match)
    made = live_replay(match=match)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError), \
            transaction.atomic():
            keep_replay(made, setup_version=match.table.session.tournament.setup_version)
            raise RuntimeError("the write fails after its replay")
    assert live_replay(match=match) is not made


def test_a_session_closed_after_the_page_was_read_still_refuses_the_write(opened, referee):
    match, turns = opened
    match = fresh(match)  # read at its revision, with its session in play
    Session.objects.filter(pk=match.table.session_id).update(status=Session.Status.FINISHED)
    with pytest.raises(ValidationError) as refused:
        services.match_turns_add(match=match, user=referee, seen_revision=match.revision,
                                 turns=[board_turn(turns[1])])
    assert getattr(refused.value, "code", None) == "session_closed"
    assert fresh(match).revision == match.revision
    assert Turn.objects.current().filter(round__match=match).count() == 1


def test_the_confirmation_after_a_round_end_loads_no_row_again(
        tournament, referee, referee_client, django_capture_on_commit_callbacks):
    forget_replays()
    match = match_at(tournament=tournament, started=True)
    blocked_round(match, referee)
    revision = fresh(match).revision
    racks = blocked_racks()
    data = {"revision": str(revision)}
    for seat, rack in enumerate(racks):
        data[f"rack_{seat}"] = " ".join(rack)
        data[f"total_{seat}"] = ""
    with django_capture_on_commit_callbacks(execute=True):
        ended = referee_client.post(url(match, "match_round_end", number=1), data, **HTMX)
    assert ended.status_code == 200 and ended.context["round_to_confirm"].number == 1
    with CaptureQueriesContext(connection) as queries:
        confirmed = referee_client.post(url(match, "match_round_confirm", number=1),
                                        {"revision": str(revision + 1)}, **HTMX)
    assert confirmed.status_code == 200 and confirmed["X-Submission"] == "saved"
    assert sql(queries, "tournament_seat") == []  # the write used the copy's rows
    assert Round.objects.get(match=match, index=0).confirmed_at is not None


def live_part(client, match) -> bytes:
    """A phone's poll of the match's live part, as htmx asks it (no gzip: the page itself)."""
    answer = client.get(url(match, "match_live"), **HTMX)
    assert answer.status_code == 200 and "Content-Encoding" not in answer
    return answer.content


def test_a_phone_polls_the_live_part_from_the_copy_the_save_kept(
        opened, referee_client, client, django_capture_on_commit_callbacks):
    """The phones' poll of a match made after a save reads the replay that save kept (no seat
    or turn read), gives it back for the next save, and shows what a poll made from the
    database shows, byte for byte."""
    match, turns = opened
    revision = fresh(match).revision
    with django_capture_on_commit_callbacks(execute=True):
        assert tablet_save(referee_client, match, turns[1], revision=revision).status_code == 200
    with CaptureQueriesContext(connection) as queries, \
            django_capture_on_commit_callbacks(execute=True):
        from_copy = live_part(client, match)
    assert sql(queries, "tournament_turn") == [] and sql(queries, "tournament_seat") == []
    # given back: the next save does not read the rows either
    with CaptureQueriesContext(connection) as queries, \
            django_capture_on_commit_callbacks(execute=True):
        assert tablet_save(referee_client, match, turns[2],
                           revision=revision + 1).status_code == 200
    assert sql(queries, "tournament_turn") == []
    # the same state made from the database: the same bytes
    with CaptureQueriesContext(connection) as queries, \
            django_capture_on_commit_callbacks(execute=True):
        after_copy = live_part(client, match)
    forget_kept_copies()
    with CaptureQueriesContext(connection) as made_again:
        from_database = live_part(client, match)
    assert sql(made_again, "tournament_turn") and not sql(queries, "tournament_turn")
    assert after_copy == from_database
    assert from_copy != after_copy  # the turn between them shows


def test_a_phone_poll_after_a_write_elsewhere_is_made_from_the_database(
        opened, referee, referee_client, client, django_capture_on_commit_callbacks):
    match, turns = opened
    revision = fresh(match).revision
    with django_capture_on_commit_callbacks(execute=True):
        assert tablet_save(referee_client, match, turns[1], revision=revision).status_code == 200
    services.match_turns_add(match=fresh(match), user=referee, seen_revision=revision + 1,
                             turns=[board_turn(turns[2])])  # another worker
    with CaptureQueriesContext(connection) as queries:
        shown = live_part(client, match)
    assert sql(queries, "tournament_turn")  # not the copy, one turn behind
    forget_kept_copies()
    assert live_part(client, match) == shown


def test_the_live_part_from_the_copy_after_a_confirmed_round_is_the_one_made_again(
        tournament, referee, referee_client, client, django_capture_on_commit_callbacks):
    """Round 1 confirmed (taken from its stored scores by the copy), round 2 in play."""
    forget_replays()
    match = match_at(tournament=tournament, started=True)
    record = played_record(match=match, seed=5)
    confirmed_through(match, referee, record, rounds=1)
    second = [t for t in record["rounds"][1]["turns"] if t.get("place") and not t.get("draws")]
    add(match, referee, board_turn(second[0]))
    revision = fresh(match).revision
    with django_capture_on_commit_callbacks(execute=True):
        assert tablet_save(referee_client, match, second[1], revision=revision).status_code == 200
    with CaptureQueriesContext(connection) as queries, \
            django_capture_on_commit_callbacks(execute=True):
        from_copy = live_part(client, match)
    assert sql(queries, "tournament_turn") == []
    forget_kept_copies()
    assert live_part(client, match) == from_copy
