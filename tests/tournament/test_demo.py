"""``python manage.py demo``: what it says it creates, it creates; twice in a row too."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command
from django.db.models import Count
from django.test import RequestFactory
from django.utils import translation

from tests.tournament.ratings.helpers import rating_rows
from tournament.core.permissions import can_referee, is_organiser
from tournament.demo import DEMO_PLAYERS, EARLIER_ONLY_PLAYERS, demo_build, record_truncated
from tournament.models import (
    League,
    Match,
    Player,
    PlayerRating,
    RatingChange,
    Seat,
    Session,
    StaffRole,
    Tournament,
    Turn,
)
from tournament.practice.services import practice_match
from tournament.ratings.services import ratings_rebuild
from tournament.standings.selectors import standings

pytestmark = pytest.mark.django_db


def run_demo() -> str:
    out = StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


@pytest.fixture
def debug_on(settings):
    settings.DEBUG = True


@pytest.mark.slow  # the demo built
def test_demo_creates_what_it_says(debug_on):
    output = run_demo()
    tournament = Tournament.objects.get(slug="demo")
    assert "Demo tournament ready" in output and "/t/demo/" in output
    assert "16 players from 6 clubs" in output
    assert tournament.registrations.count() == 16
    clubs = set(tournament.registrations.values_list("player__club", flat=True))
    assert len(clubs) == 6
    names = set(tournament.registrations.values_list("player__name", flat=True))
    assert {"Chloé Martin", "Mads Sørensen", "Łukasz Nowak"} <= names
    # the referee's practice table, in the site's language (French) though built in English
    practice = Tournament.objects.get(practice_of=tournament)
    with translation.override("fr"):
        table_name = translation.gettext("Practice table · %(tournament)s") % {
            "tournament": tournament.name}
        player_a = translation.gettext("Practice player %(letter)s") % {"letter": "A"}
    assert practice.name == table_name != f"Practice table · {tournament.name}"
    assert player_a in set(practice.registrations.values_list("player__name", flat=True))

    sessions = list(tournament.sessions.annotate(tables_=Count("tables")).order_by("number"))
    assert [s.number for s in sessions] == [1, 2, 3]
    assert all(s.tables_ == 4 for s in sessions)
    for session in sessions:
        assert f"session {session.number}: {session.status}, 4 tables" in output
        assert Seat.objects.filter(session=session).count() == 16
        assert Match.objects.filter(table__session=session).count() == 4

    for username in ("organiser", "referee"):
        assert f"{username} / demo" in output
    login = RequestFactory().post("/login/")  # django-axes checks logins per request
    organiser = authenticate(login, username="organiser", password="demo")
    referee = authenticate(login, username="referee", password="demo")
    assert is_organiser(organiser, tournament) and not is_organiser(referee, tournament)
    assert can_referee(referee, tournament.sessions.get(number=3).tables.get(number=4))
    practice = practice_match(tournament=tournament, user=referee)  # the referee's practice
    assert practice is not None and can_referee(referee, practice.table)
    assert practice_match(tournament=tournament, user=organiser) is None


@pytest.mark.slow  # the demo built
def test_the_demo_is_honest_about_its_matches(debug_on):
    run_demo()
    matches = Match.objects.filter(table__session__tournament__slug="demo")
    assert matches.exclude(status=Match.Status.PENDING).exists()
    for session in Session.objects.filter(status=Session.Status.FINISHED):
        assert not Match.objects.filter(table__session=session, status=Match.Status.PENDING).exists()
        # Closed by the organiser's service, which refuses while a match is not confirmed.
        assert not Match.objects.filter(table__session=session).exclude(
            status=Match.Status.CONFIRMED).exists()


@pytest.mark.slow  # the demo built
def test_demo_seating_never_seats_two_players_together_twice(debug_on):
    run_demo()
    met: set[frozenset[int]] = set()
    for table in Match.objects.filter(table__session__tournament__slug="demo"):
        players = list(Seat.objects.filter(table=table.table).values_list("player_id", flat=True))
        assert len(players) == 4
        for index, first in enumerate(players):
            for second in players[index + 1 :]:
                pair = frozenset((first, second))
                assert pair not in met
                met.add(pair)


@pytest.mark.slow  # the demo built
def test_demo_runs_twice_and_recreates(debug_on, make_tournament):
    other = make_tournament(slug="real-event")  # must survive the demo's recreation
    run_demo()
    first_id = Tournament.objects.get(slug="demo").pk
    output = run_demo()
    assert "Demo tournament ready" in output
    assert Tournament.objects.filter(slug="demo").count() == 1
    assert Tournament.objects.get(slug="demo").pk != first_id
    people = len(DEMO_PLAYERS) + len(EARLIER_ONLY_PLAYERS)  # the earlier tournament's two
    assert Player.objects.filter(licence__startswith="DEMO-").count() == people
    assert League.objects.filter(slug="demo-season").count() == 1
    assert Tournament.objects.filter(slug="demo-autumn").count() == 1
    assert StaffRole.objects.filter(tournament__slug="demo").count() == 2
    assert Tournament.objects.filter(pk=other.pk).exists()
    assert other.registrations.count() == 8
    # the first demo's matches left no trace in the ratings: they equal a rebuild's
    kept = rating_rows()
    assert kept[0] and not RatingChange.objects.filter(tournament_id=first_id).exists()
    ratings_rebuild()
    assert rating_rows() == kept


def test_the_demo_refuses_a_production_database(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG is off"):
        call_command("demo", stdout=StringIO())
    assert not Tournament.objects.filter(slug="demo").exists()


@pytest.mark.slow  # the demo built
def test_the_demo_plays_sessions_1_and_2_and_starts_session_3():
    """Whole matches in sessions 1-2, the start of a match at tables 1 and 2 of session 3."""
    report = demo_build()
    assert report.matches_filled == 10
    assert [status for _n, status, _t in report.sessions] == ["finished", "finished", "playing"]
    matches = Match.objects.filter(table__session__tournament=report.tournament)
    filled = matches.exclude(status=Match.Status.PENDING)
    assert sorted(filled.values_list("table__session__number", flat=True)) == [1] * 4 + [2] * 4 + [3] * 2
    turns = {
        table: Turn.objects.current().filter(round__match__in=filled, round__index=0,
                                             round__match__table__number=table,
                                             round__match__table__session__number=3).count()
        for table in (1, 2)
    }
    assert turns == {1: 10, 2: 14}
    assert not matches.filter(table__session__number__lte=2, status="pending").exists()


def test_record_truncated_keeps_the_start_of_the_first_round():
    record = {"players": ["A", "B"], "rounds": [{"turns": [1, 2, 3], "racks": [[], []]}, {}]}
    assert record_truncated(record, turns=2) == {"players": ["A", "B"], "rounds": [{"turns": [1, 2]}]}


@pytest.mark.slow  # the demo built
def test_demo_match_records_come_from_the_engine_for_the_seated_players(debug_on):
    from scoring import check_record, parse_record
    from tournament.demo import demo_match_record

    run_demo()
    match = Match.objects.get(table__session__tournament__slug="demo", table__session__number=1,
                              table__number=3)
    record = demo_match_record(match, seed=7)
    seated = list(match.table.seats.order_by("order").values_list("player__name", flat=True))
    assert record["players"] == seated and record["rules"] == "goliath-tournament"
    report = check_record(parse_record(record))
    assert report.valid and report.finished
    assert max(report.totals) >= 400


@pytest.mark.slow  # the demo built
def test_the_demo_has_a_league_of_an_earlier_tournament_and_the_demo(debug_on, client):
    from tournament.leagues.selectors import league_standing

    output = run_demo()
    league = League.objects.get(slug="demo-season")
    assert "/leagues/demo-season/" in output
    assert league.name == "Saison de démonstration"  # the site's language, as its tournaments
    earlier, demo = [item.tournament for item in league_standing(league=league).tournaments]
    assert (earlier.slug, demo.slug) == ("demo-autumn", "demo")
    assert earlier.end_date < demo.start_date
    organiser = league.organisers.get()
    assert organiser.username == "organiser" and is_organiser(organiser, earlier)
    # The earlier tournament: two sessions and its final played and closed, every match
    # confirmed.
    assert list(earlier.sessions.values_list("status", "is_final")) == [
        ("finished", False), ("finished", False), ("finished", True)]
    matches = Match.objects.filter(table__session__tournament=earlier)
    assert matches.count() == 8 and not matches.exclude(status=Match.Status.CONFIRMED).exists()
    # Its final: the top four of the qualifying standings, placed first.
    result = standings(tournament=earlier)
    finalists = set(Seat.objects.filter(session__tournament=earlier, session__is_final=True)
                    .values_list("player_id", flat=True))
    assert result.final_decided and {row["player_id"] for row in result.final_rows} == finalists
    assert sorted(row["qualifying_rank"] for row in result.final_rows) == [1, 2, 3, 4]
    assert [row["rank"] for row in result.rows[:5]] == [1, 2, 3, 4, 5]
    assert client.get("/t/demo-autumn/standings/").context["final_table"] is not None
    # Players partly the same: ten of the demo's, two who came only to the earlier one.
    earlier_people = set(earlier.registrations.values_list("player_id", flat=True))
    demo_people = set(demo.registrations.values_list("player_id", flat=True))
    assert len(earlier_people & demo_people) == 10 and len(earlier_people - demo_people) == 2

    standing = league_standing(league=league)
    assert len(standing.rows) == 18
    both = [row for row in standing.rows if row.played == 2]
    assert len(both) == 10 and standing.rows[0].total >= 25
    page = client.get("/leagues/demo-season/")
    assert page.status_code == 200 and len(page.context["standing"].rows) == 18
    # Ratings kept from both tournaments' confirmed matches (the earlier one's first).
    assert PlayerRating.objects.filter(player_id__in=earlier_people - demo_people).count() == 2
    assert PlayerRating.objects.filter(player_id__in=demo_people).count() == 16


@pytest.mark.slow  # the demo built
def test_the_demo_shows_the_room(debug_on, client):
    """Session 3's clock runs, table 3 has called a referee, the projector has announcements;
    the board and the screen show them (docs/guides/room.md)."""
    from django.utils import timezone

    from tournament.models import RefereeCall
    from tournament.room.clock import session_clock

    output = run_demo()
    assert "/t/demo/screen/" in output and "/t/demo/room/" in output
    session = Session.objects.get(tournament__slug="demo", number=3)
    assert session_clock(session, now=timezone.now()).state == "running"
    call = RefereeCall.objects.get(session=session)
    assert (call.table.number, call.answered_at) == (3, None)
    screen = client.get("/t/demo/screen/")
    assert screen.context["announcements"] and screen.context["tables_pages"]
    client.force_login(StaffRole.objects.get(tournament__slug="demo", role="referee").user)
    board = client.get("/t/demo/room/")
    assert board.context["rows"][0]["number"] == 3 and board.context["rows"][0]["needs"] == ["call"]


@pytest.mark.slow  # the demo built
def test_the_demo_shows_categories_and_a_club_ranking(debug_on, client):
    """Women, juniors and seniors, each with its standings; the clubs ranked by their best two
    players; the prize list printed (docs/guides/categories.md)."""
    from tournament.models import Category

    run_demo()
    names = sorted(Category.objects.filter(tournament__slug="demo").values_list("name",
                                                                                flat=True))
    assert names == ["Juniors", "Seniors", "Women"]
    women = Category.objects.get(tournament__slug="demo", name="Women")
    assert women.registrations.count() == 8
    page = client.get(f"/t/demo/standings/categories/{women.pk}/")
    assert page.status_code == 200 and page.context["category"].ranked_count == 8
    clubs = client.get("/t/demo/standings/clubs/")
    assert clubs.status_code == 200
    teams = list(clubs.context["teams_table"].data)
    assert len(teams) == 6 and teams[0]["rank"] == 1 and all(team["ranked"] for team in teams)
    assert client.get("/t/demo/prizes.pdf")["Content-Type"] == "application/pdf"


@pytest.mark.slow  # the demo built
def test_the_demo_shows_check_in_with_one_player_absent(debug_on, client):
    """The earlier tournament uses check-in (docs/guides/check-in.md): in session 1 every player
    seated was checked in and one registered player was not, nor seated; the standings count
    that absence as a forfeit; the final is seated without a check-in and misses nobody."""
    from tournament.models import CheckIn, CheckInRule

    run_demo()
    autumn = Tournament.objects.get(slug="demo-autumn")
    assert autumn.check_in == CheckInRule.FORFEIT
    registered = set(autumn.registrations.values_list("player_id", flat=True))
    absent: dict[int, list[int]] = {}
    for session in autumn.sessions.filter(is_final=False).order_by("number"):
        checked_in = set(CheckIn.objects.filter(session=session).values_list("player_id",
                                                                             flat=True))
        assert set(Seat.objects.filter(session=session).values_list("player_id", flat=True)
                   ) == checked_in
        for player_id in registered - checked_in:
            absent.setdefault(player_id, []).append(session.number)
    assert len(absent) == 1 and list(absent.values()) == [[1]]
    final = autumn.sessions.get(is_final=True)
    assert final.status == Session.Status.FINISHED and not final.check_ins.exists()
    result = standings(tournament=autumn)
    assert result.final_decided
    missed = {row["player_id"]: list(row["absent_sessions"]) for row in result.rows
              if row["absent_sessions"]}
    assert missed == absent
    (row,) = [row for row in result.rows if row["player_id"] in absent]
    assert row["forfeits"] == 1 and row["matches"] == 1
    page = client.get("/t/demo-autumn/standings/")
    assert page.status_code == 200 and page.context["tournament"].uses_check_in
    table = page.context["standings_table"]
    assert "absent" in [column.name for column in table.columns]
