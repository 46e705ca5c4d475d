"""What awaits a referee at each table of a session: the selector, and the session's pages as
the staff and the public see them.

The matches are filled through the recording services: table 1 has two claims to decide (a
third decided), table 2 an illegal turn (a correction made it so), table 3 its round 2 to
confirm (round 1 confirmed), table 4 nothing waiting.
"""

from __future__ import annotations

import pytest
from django.utils import translation

from tests.factories import add, fresh, import_record, played_record, truncated
from tests.pages import by_id, has_id, select, text
from tests.tournament.queries import page_queries
from tournament import engine
from tournament.matches import services as match_services
from tournament.matches.reading.replay import match_replay
from tournament.models import Match, Session, Turn
from tournament.seating.selectors import session_attention
from tournament.seating.tables import attention_line
from tournament.sessions.services import session_start

pytestmark = pytest.mark.django_db

Cell = engine.Cell
SESSION_URL = "/t/autumn-cup/sessions/1/"
ORGANISE_URL = "/t/autumn-cup/organise/sessions/1/"


@pytest.fixture
def tournament(make_tournament):
    """16 players: session 1 seated at 4 tables (the staff fixtures are this tournament's)."""
    return make_tournament(slug="autumn-cup", players=16)


def matches_of(tournament) -> dict[int, Match]:
    """Session 1's matches by table number, with their table, session and tournament."""
    return {
        match.table.number: match
        for match in Match.objects.filter(table__session__tournament=tournament,
                                          table__session__number=1)
        .select_related("table__session__tournament")
    }


def place(corners: tuple[int, int, int], cell: engine.Cell, claimed: int | None = None,
          player: int | None = None):
    """A placement in board mode (``player`` None: the engine's next; the opening needs one)."""
    return match_services.TurnInput(player=player, cell=cell, corners=corners,
                                    points_claimed=claimed)


def session_of(tournament) -> Session:
    return tournament.sessions.select_related("tournament").get(number=1)


@pytest.fixture
def in_play(tournament, referee) -> dict[int, Match]:
    """Session 1 started, its four tables filled as the module's docstring says."""
    session_start(session=session_of(tournament))
    matches = matches_of(tournament)

    claims = matches[1]
    add(claims, referee, place((5, 5, 5), Cell(0, 0, "U"), claimed=30, player=0))  # the engine: 25
    add(claims, referee, place((5, 5, 4), Cell(0, 0, "D"), claimed=20))  # the engine: 14
    (decided,) = add(claims, referee, place((4, 4, 5), Cell(1, 0, "U"), claimed=99))
    assert Turn.objects.current().filter(round__match=claims, verdict="mismatch").count() == 3
    match_services.match_turn_decide(match=fresh(claims), user=referee,
                                     seen_revision=fresh(claims).revision, turn_id=decided.pk,
                                     decision="engine")

    illegal = matches[2]
    add(illegal, referee, place((5, 5, 5), Cell(0, 0, "U"), claimed=25, player=0))
    (second,) = add(illegal, referee, place((5, 5, 4), Cell(0, 0, "D"), claimed=14))
    add(illegal, referee, place((4, 4, 5), Cell(1, 0, "U")))
    # the second tile was 3-5-5, to the left: the third no longer touches the table
    match_services.match_turn_correct(
        match=fresh(illegal), user=referee, seen_revision=fresh(illegal).revision,
        turn_id=second.pk, turn=place((5, 3, 5), Cell(-1, 0, "D"), claimed=13),
        reason="wrong cell",
    )

    to_confirm = matches[3]
    import_record(to_confirm, referee, truncated(played_record(match=to_confirm, seed=3), rounds=2))
    match_services.match_round_confirm(match=fresh(to_confirm), user=referee,
                                       seen_revision=fresh(to_confirm).revision, round_index=0)

    add(matches[4], referee, place((5, 5, 5), Cell(0, 0, "U"), claimed=25, player=0))
    return matches


WAITING = {
    1: {"pending_decisions": 2, "illegal_turns": 0, "rounds_to_confirm": []},
    2: {"pending_decisions": 0, "illegal_turns": 1, "rounds_to_confirm": []},
    3: {"pending_decisions": 0, "illegal_turns": 0, "rounds_to_confirm": [2]},
}


def test_the_selector_says_what_awaits_a_referee_at_each_match(tournament, in_play):
    attention = session_attention(session=session_of(tournament))
    assert attention == {in_play[table].pk: waiting for table, waiting in WAITING.items()}


def test_the_selector_agrees_with_the_match_pages_replay(tournament, in_play):
    """The figures read from the rows are the ones the match page and the confirmation find
    by replaying each match."""
    attention = session_attention(session=session_of(tournament))
    nothing = {"pending_decisions": 0, "illegal_turns": 0, "rounds_to_confirm": []}
    for match in in_play.values():
        rounds = match_replay(match=fresh(match)).rounds
        assert attention.get(match.pk, nothing) == {
            "pending_decisions": sum(len(r.pending_decisions) for r in rounds),
            "illegal_turns": sum(len(r.illegal_turns) for r in rounds),
            "rounds_to_confirm": [r.number for r in rounds if r.closed and not r.confirmed],
        }


@pytest.mark.parametrize("players", [8, 40])
def test_the_selector_reads_in_two_queries_whatever_the_sessions_size(
    make_tournament, referee, players, django_assert_num_queries
):
    tournament = make_tournament(slug=f"open-{players}", players=players, started=True)
    matches = matches_of(tournament)
    for match in matches.values():  # a round entered at every table, none confirmed
        import_record(match, referee, truncated(played_record(match=match, seed=3), rounds=1))
    session = session_of(tournament)
    with django_assert_num_queries(2):
        attention = session_attention(session=session)
    assert len(matches) == players // 4
    assert [waiting["rounds_to_confirm"] for waiting in attention.values()] == [[1]] * len(matches)


def test_the_line_under_a_match_in_english_and_in_french():
    waiting = {"pending_decisions": 2, "illegal_turns": 1, "rounds_to_confirm": [2, 3]}
    with translation.override("en"):
        assert attention_line(waiting) == (
            "decisions to take: 2 · illegal turns: 1 · to confirm: round 2, round 3"
        )
        assert attention_line({**waiting, "pending_decisions": 0, "illegal_turns": 0}) == (
            "to confirm: round 2, round 3"
        )
    with translation.override("fr"):
        assert attention_line(waiting) == (
            "décisions à prendre\u00a0: 2 · tours illégaux\u00a0: 1 · à confirmer\u00a0: manche 2, manche 3"
        )


def attention_of(page: str, table: int) -> list[str]:
    """The lines under a table's match on the seating (none: an empty list)."""
    return [text(line) for line in select(page, f"#table-{table} .attention")]


def assert_the_lines(page: str, *, decisions: str, illegal: str, confirm: str) -> None:
    assert attention_of(page, 1) == [decisions]
    assert attention_of(page, 2) == [illegal]
    assert attention_of(page, 3) == [confirm]
    assert attention_of(page, 4) == []


def test_the_organiser_page_shows_the_lines_and_the_tables_waiting(
    organiser_client, in_play, django_assert_num_queries
):
    # the tournament, the login (two), the role, the session, its seating, what awaits a
    # referee (two), the players to seat, the earlier meetings, the players seated but
    # withdrawn, the session's audit log (closed, reopened)
    with django_assert_num_queries(12):
        response = organiser_client.get(ORGANISE_URL, HTTP_ACCEPT_LANGUAGE="en")
    page = response.content.decode()
    assert_the_lines(page, decisions="decisions to take: 2", illegal="illegal turns: 1",
                     confirm="to confirm: round 2")
    links = select(page, "#waiting-tables a")
    assert [(text(link), link.get("href")) for link in links] == [
        (str(table), f"/t/autumn-cup/matches/{in_play[table].pk}/") for table in (1, 2, 3)]
    assert [table["number"] for table in response.context["waiting_tables"]] == [1, 2, 3]
    assert page.index('id="waiting-tables"') < page.index('id="seating"')


def test_the_organiser_page_in_french(organiser_client, in_play):
    page = organiser_client.get(ORGANISE_URL, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Tables en attente d’un arbitre\u00a0:" in page
    assert_the_lines(page, decisions="décisions à prendre\u00a0: 2", illegal="tours illégaux\u00a0: 1",
                     confirm="à confirmer\u00a0: manche 2")


def test_nothing_waiting_no_summary(organiser_client, referee_client, tournament):
    for client, url in ((organiser_client, ORGANISE_URL), (referee_client, SESSION_URL)):
        page = client.get(url).content.decode()
        assert has_id(page, "seating")
        assert not select(page, ".attention") and not has_id(page, "waiting-tables")


def test_a_referee_sees_the_lines_on_the_public_page_and_they_refresh(
    referee_client, in_play, django_assert_num_queries
):
    # the anonymous page's four (the tournament, the session, its seating, the sessions), the
    # login (two), the role, what awaits a referee (two)
    with django_assert_num_queries(9):
        response = referee_client.get(SESSION_URL, HTTP_ACCEPT_LANGUAGE="en")
    page = response.content.decode()
    assert_the_lines(page, decisions="decisions to take: 2", illegal="illegal turns: 1",
                     confirm="to confirm: round 2")
    assert by_id(page, "session-live").get("hx-trigger") == "every 15s"
    assert not has_id(page, "waiting-tables")  # the summary is the organiser's page's
    # the page polling itself gets the lines as they are now
    claims = in_play[1]
    pending = Turn.objects.current().filter(round__match=claims, verdict="mismatch",
                                            decision="").first()
    match_services.match_turn_decide(match=fresh(claims), user=None,
                                     seen_revision=fresh(claims).revision, turn_id=pending.pk,
                                     decision="engine")
    fragment = referee_client.get(SESSION_URL, HTTP_HX_REQUEST="true",
                                  HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert fragment.lstrip().startswith('<div id="session-live"')
    assert_the_lines(fragment, decisions="decisions to take: 1", illegal="illegal turns: 1",
                     confirm="to confirm: round 2")


def test_the_public_page_in_french_for_a_referee(referee_client, in_play):
    page = referee_client.get(SESSION_URL, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert_the_lines(page, decisions="décisions à prendre\u00a0: 2", illegal="tours illégaux\u00a0: 1",
                     confirm="à confirmer\u00a0: manche 2")


def test_the_public_sees_none_of_it(client, in_play, django_assert_num_queries):
    # as before, nothing read for the staff's lines
    with page_queries(4):
        page = client.get(SESSION_URL, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    fragment = client.get(SESSION_URL, HTTP_HX_REQUEST="true").content.decode()
    for seen in (page, fragment):
        assert has_id(seen, "seating")
        assert not select(seen, ".attention") and not has_id(seen, "waiting-tables")
