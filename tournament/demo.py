"""The demo tournament (slug ``demo``), built through the same services as a real one.

``demo_build()`` (re)creates it: 16 players from six clubs, three sessions of four tables of
four, an organiser and a referee. Sessions 1 and 2 are played and closed, session 3 is started
with two matches under way. Each match is a record of a whole match from the engine's
simulator, stored by the recording's record import and confirmed by the demo referee; the
sessions are started and closed by the organiser's services, which refuse to close a session
with a match not confirmed. Only the seating is a plan of the demo's own (``demo_seating``).
Session 3 has its room (docs/guides/room.md): its clock running, a call for a referee from table 3,
two announcements on the projector screen. The demo referee has a practice table
(``tournament.practice``), opened on the demo tournament.

Its players carry prize categories (women, juniors, seniors) and its clubs are ranked by
their best two players (docs/guides/categories.md).

Before it, the demo builds an earlier tournament (slug ``demo-autumn``, a month before: 12
players, ten of them the demo's, two sessions played and closed, then its final table of 4
opened, seated from the standings, played and closed: docs/guides/final.md; with check-in, one
player absent from session 1 and the others checked in: docs/guides/check-in.md), and a league "Demo season"
(slug ``demo-season``) of the two, through the leagues' services: the league's ranking and
the players' ratings have something to show.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, Q
from django.utils import translation
from django.utils.translation import gettext as _

from tournament import engine
from tournament.core.tournaments import staff_role_grant, tournament_create
from tournament.kit.table_codes import table_code
from tournament.leagues.services import league_create, league_tournament_add
from tournament.matches.services import match_record_import_and_confirm
from tournament.models import (
    CheckInRule,
    FinalSize,
    League,
    Match,
    Player,
    Registration,
    Session,
    StaffRole,
    Tournament,
)
from tournament.organiser.services import player_add, tournament_update, tournaments_delete
from tournament.practice.services import practice_open
from tournament.room import services as room_services
from tournament.seating.final import final_open
from tournament.seating.services import session_seat, session_seat_players
from tournament.sessions.services import (
    check_in_mark,
    session_close,
    session_create,
    session_start,
)

DEMO_SLUG = "demo"
EARLIER_SLUG = "demo-autumn"
LEAGUE_SLUG = "demo-season"
#: The earlier tournament's players: the demo's first ten, and two who came only then.
EARLIER_PLAYERS_FROM_DEMO = 10
#: The earlier tournament's session that one player misses (check-in: docs/guides/check-in.md).
EARLIER_ABSENT_SESSION = 1
EARLIER_ONLY_PLAYERS = [
    ("Yann Kerbrat", "Perpignan Catalans", "DEMO-17"),
    ("Giulia Rossi", "Strasbourg Jeux", "DEMO-18"),
]
EARLIER_DAYS_BEFORE = 30
DEMO_PASSWORD = "demo"
DEMO_ORGANISER = "organiser"
DEMO_REFEREE = "referee"
DEMO_SEED = 2024

# (name, club, licence). Names with accents on purpose: the pages and the PDFs must show them.
DEMO_PLAYERS = [
    ("Chloé Martin", "Triominos Club de Lyon", "DEMO-01"),
    ("Élodie Faure", "Triominos Club de Lyon", "DEMO-02"),
    ("Théo Girard", "Triominos Club de Lyon", "DEMO-03"),
    ("Mads Sørensen", "Dansk Triomino Klub", "DEMO-04"),
    ("Søren Holm", "Dansk Triomino Klub", "DEMO-05"),
    ("Amélie Dupont", "Cercle parisien", "DEMO-06"),
    ("Bruno Lefèvre", "Cercle parisien", "DEMO-07"),
    ("Margaux Rousseau", "Cercle parisien", "DEMO-08"),
    ("Inès Benali", "Marseille Triominos", "DEMO-09"),
    ("Zoé Garnier", "Marseille Triominos", "DEMO-10"),
    ("François Petit", "Marseille Triominos", "DEMO-11"),
    ("Jürgen Weiß", "Strasbourg Jeux", "DEMO-12"),
    ("Łukasz Nowak", "Strasbourg Jeux", "DEMO-13"),
    ("Núria Puig", "Perpignan Catalans", "DEMO-14"),
    ("Anaïs Morel", "Perpignan Catalans", "DEMO-15"),
    ("Gaël Le Goff", "Perpignan Catalans", "DEMO-16"),
]
#: The demo's prize categories (docs/guides/categories.md), and its club teams: the best two players.
DEMO_CATEGORIES = {
    "Women": ["Chloé Martin", "Élodie Faure", "Amélie Dupont", "Margaux Rousseau",
              "Inès Benali", "Zoé Garnier", "Núria Puig", "Anaïs Morel"],
    "Juniors": ["Théo Girard", "Zoé Garnier", "Gaël Le Goff"],
    "Seniors": ["Jürgen Weiß", "Bruno Lefèvre", "François Petit"],
}
DEMO_TEAM_SIZE = 2
DEMO_TABLE_SIZE = 4
FINISHED_SESSIONS = (1, 2)
# In session 3, the first two tables have a match under way, the others have not started.
PLAYING_TABLES_IN_PROGRESS = 2
#: The room in session 3 (docs/guides/room.md): its clock, a call from a table, two announcements.
DEMO_CLOCK_MINUTES = 90
DEMO_CALL_TABLE = 3
DEMO_ANNOUNCEMENTS = [
    "Bienvenue au tournoi de démonstration ! Welcome!",
    "Buvette ouverte jusqu'à 18 h · Snacks until 6 pm",
]


@dataclass
class DemoReport:
    tournament: Tournament
    earlier: Tournament | None = None
    league: League | None = None
    players: int = 0
    clubs: int = 0
    sessions: list[tuple[int, str, int]] = field(default_factory=list)  # number, status, tables
    users: list[tuple[str, str]] = field(default_factory=list)  # username, role
    matches_filled: int = 0


def demo_seating(players: list[Player], *, seed: int) -> list[list[list[Player]]]:
    """Three seatings of 16 players in which no two players meet twice.

    The players, shuffled, fill a 4×4 grid: session 1 seats its rows, session 2 its columns,
    session 3 its diagonals. Each table is seated clockwise in a shuffled order.
    """
    size = DEMO_TABLE_SIZE
    assert len(players) == size * size, "the demo seating is for 16 players"
    rng = random.Random(seed)
    order = players[:]
    rng.shuffle(order)
    grid = [order[row * size : (row + 1) * size] for row in range(size)]
    rows = [list(grid[row]) for row in range(size)]
    columns = [[grid[row][column] for row in range(size)] for column in range(size)]
    diagonals = [[grid[row][(row + shift) % size] for row in range(size)] for shift in range(size)]
    sessions = [rows, columns, diagonals]
    for tables in sessions:
        for table in tables:
            rng.shuffle(table)
    return sessions


def demo_match_record(match: Match, seed: int) -> dict[str, Any]:
    """A simulated record of a whole match between the match's players, in seat order."""
    tournament = match.table.session.tournament
    names = list(match.table.seats.order_by("order").values_list("player__name", flat=True))
    return engine.simulated_match_record(
        names=names, seed=seed, rules=tournament.rules, target=tournament.target,
        opening_bonus=tournament.opening_bonus, rounds=tournament.match_rounds,
    )


def record_truncated(record: dict[str, Any], *, turns: int) -> dict[str, Any]:
    """The start of a match: its first round cut after ``turns`` turns, without the round's end.

    >>> record_truncated({"players": ["A", "B"], "rounds": [{"turns": [1, 2, 3], "racks": []}]},
    ...                  turns=2)
    {'players': ['A', 'B'], 'rounds': [{'turns': [1, 2]}]}
    """
    first_round = record["rounds"][0]
    return {**record, "rounds": [{"turns": list(first_round["turns"][:turns])}]}


def earlier_seating(players: list[Player], *, seed: int) -> list[list[list[Player]]]:
    """Two seatings of 12 players in which no two players meet twice: the shuffled players
    fill a 3×4 grid; session 1 seats its rows (three tables of four), session 2 its columns
    (four tables of three)."""
    assert len(players) == 12, "the earlier tournament's seating is for 12 players"
    rng = random.Random(seed)
    order = players[:]
    rng.shuffle(order)
    rows = [order[row * 4 : (row + 1) * 4] for row in range(3)]
    columns = [[rows[row][column] for row in range(3)] for column in range(4)]
    return [rows, columns]


def demo_remove() -> None:
    """Delete the demo's league, its two tournaments (their practice tables with them) and the
    players entered only for them."""
    League.objects.filter(slug=LEAGUE_SLUG).delete()
    tournaments = Tournament.objects.filter(
        Q(slug__in=[DEMO_SLUG, EARLIER_SLUG]) | Q(practice_of__slug__in=[DEMO_SLUG, EARLIER_SLUG]))
    player_ids = list(
        Registration.objects.filter(tournament__in=tournaments).values_list("player_id", flat=True)
    )
    tournaments_delete(tournaments=tournaments)
    Player.objects.filter(pk__in=player_ids).annotate(
        other_registrations=Count("registrations")
    ).filter(other_registrations=0).delete()


def _demo_user(username: str):
    User = get_user_model()
    user, _created = User.objects.get_or_create(username=username)
    user.set_password(DEMO_PASSWORD)
    user.is_active = True
    user.save()
    return user


@transaction.atomic
def league_name() -> str:
    """The demo league's name in the site's language (French by default), like its
    tournaments' names."""
    with translation.override(settings.LANGUAGE_CODE):
        return _("Demo season")


def league_description() -> str:
    with translation.override(settings.LANGUAGE_CODE):
        return _("The demo's tournaments, ranked together: points per final rank.")


def demo_build(*, today: datetime.date | None = None) -> DemoReport:
    """(Re)create the demo tournament: sessions 1 and 2 played and closed, session 3 in play."""
    demo_remove()
    today = today or datetime.date.today()
    organiser = _demo_user(DEMO_ORGANISER)
    referee = _demo_user(DEMO_REFEREE)
    earlier = _demo_earlier(today=today, organiser=organiser, referee=referee)
    tournament = tournament_create(
        name="Tournoi de démonstration",
        slug=DEMO_SLUG,
        start_date=today,
        end_date=today + datetime.timedelta(days=1),
        venue="Salle des fêtes, Lyon",
        organiser=organiser,
    )
    staff_role_grant(tournament=tournament, user=referee, role=StaffRole.Role.REFEREE)
    tournament = tournament_update(
        tournament=tournament, name=tournament.name, start_date=tournament.start_date,
        end_date=tournament.end_date, venue=tournament.venue, rules=tournament.rules,
        target=tournament.target, ranking_criteria=tournament.ranking_criteria,
        keep_clubs_apart=tournament.keep_clubs_apart, is_public=tournament.is_public,
        team_size=DEMO_TEAM_SIZE,
    )
    players = [
        player_add(tournament=tournament, name=name, club=club, licence=licence,
                   categories=[category for category, names in DEMO_CATEGORIES.items()
                               if name in names]).player
        for name, club, licence in DEMO_PLAYERS
    ]

    report = DemoReport(
        tournament=tournament,
        players=len(players),
        clubs=len({club for _name, club, _licence in DEMO_PLAYERS}),
        users=[(DEMO_ORGANISER, StaffRole.Role.ORGANISER), (DEMO_REFEREE, StaffRole.Role.REFEREE)],
    )
    for number, tables in enumerate(demo_seating(players, seed=DEMO_SEED), start=1):
        session = session_create(tournament=tournament, seed=DEMO_SEED + number)
        session_seat_players(session=session, tables=tables)
        session = session_start(session=session)
        report.matches_filled += _demo_play_session(session, referee=referee)
        if session.number in FINISHED_SESSIONS:
            session = session_close(session=session)
        else:
            _demo_room(session, organiser=organiser)
        report.sessions.append((session.number, session.status, len(tables)))
    report.earlier = earlier
    with translation.override(settings.LANGUAGE_CODE):  # its players' names, as the site's
        practice_open(tournament=tournament, user=referee)  # the referee's practice table
    report.league = league_create(
        user=organiser, name=league_name(), slug=LEAGUE_SLUG,
        description=league_description(),
        points_scale=League.PointsScale.TABLE, points_table="25, 18, 15, 12, 10, 8, 6, 4, 2, 1",
    )
    for member in (earlier, tournament):
        league_tournament_add(league=report.league, tournament=member, user=organiser)
    return report


def _demo_room(session: Session, *, organiser) -> None:
    """The room of the session in play: its clock running, a call for a referee from a table
    (with its card's code), the announcements on the projector."""
    room_services.clock_set(session=session, minutes=DEMO_CLOCK_MINUTES, user=organiser)
    room_services.clock_start(session=session, user=organiser)
    table = session.tables.get(number=DEMO_CALL_TABLE)
    room_services.call_make(table=table, reason="tiles-missing",
                            code=table_code(session.tournament_id, table.number))
    for text in DEMO_ANNOUNCEMENTS:
        room_services.announcement_add(tournament=session.tournament, text=text)


def _demo_earlier(*, today: datetime.date, organiser, referee) -> Tournament:
    """The tournament a month before the demo: two sessions, every match confirmed, closed.
    Built first, so that its matches come first in the rating history. It uses check-in
    (docs/guides/check-in.md): one player misses session 1, a forfeit in its standings."""
    start = today - datetime.timedelta(days=EARLIER_DAYS_BEFORE)
    tournament = tournament_create(
        name="Tournoi d'automne", slug=EARLIER_SLUG, start_date=start, end_date=start,
        venue="Maison des jeux, Villeurbanne", organiser=organiser, final_size=FinalSize.FOUR,
        check_in=CheckInRule.FORFEIT,
    )
    staff_role_grant(tournament=tournament, user=referee, role=StaffRole.Role.REFEREE)
    entries = DEMO_PLAYERS[:EARLIER_PLAYERS_FROM_DEMO] + EARLIER_ONLY_PLAYERS
    players = [
        player_add(tournament=tournament, name=name, club=club, licence=licence).player
        for name, club, licence in entries
    ]
    for number, tables in enumerate(earlier_seating(players, seed=DEMO_SEED - 1), start=1):
        session = session_create(tournament=tournament, seed=DEMO_SEED - 10 * number)
        if number == EARLIER_ABSENT_SESSION:  # the last seat of the last table stays empty
            tables = [*tables[:-1], tables[-1][:-1]]
        for table in tables:  # at the door: the players seated are those checked in
            for player in table:
                check_in_mark(session=session, player=player, present=True, user=organiser)
        session_seat_players(session=session, tables=tables)
        _demo_play_whole(session, referee=referee)
    # Its final table, as an organiser runs it: opened, seated from the standings, played.
    final = final_open(tournament=tournament)
    session_seat(session=final, seed=DEMO_SEED)
    _demo_play_whole(final, referee=referee)
    return tournament


def _demo_play_whole(session: Session, *, referee) -> None:
    """Start the seated session, play and confirm every match as its referee, close it."""
    session = session_start(session=session)
    matches = Match.objects.filter(table__session=session).select_related("table")
    for match in matches.order_by("table__number"):
        record = demo_match_record(match, session.seed * 100 + match.table.number)
        match_record_import_and_confirm(match=match, user=referee, record=record)
    session_close(session=session)


def _demo_play_session(session: Session, *, referee) -> int:
    """Play the session's matches as its referee: whole matches in sessions 1-2 (every round
    confirmed), the start of a match at the first tables of session 3. Returns how many."""
    matches = list(
        Match.objects.filter(table__session=session).select_related("table").order_by("table__number")
    )
    filled = 0
    for match in matches:
        seed = session.seed * 100 + match.table.number
        if session.number in FINISHED_SESSIONS:
            record = demo_match_record(match, seed)
        elif match.table.number <= PLAYING_TABLES_IN_PROGRESS:
            record = record_truncated(
                demo_match_record(match, seed), turns=6 + 4 * match.table.number
            )
        else:
            continue
        match_record_import_and_confirm(match=match, user=referee, record=record)
        filled += 1
    return filled
