"""Fixtures of the league tests.

- ``finished(make_tournament, slug, order, players=...)``: a tournament of the shared
  ``PLAYERS`` records whose one session is confirmed so that the players finish in ``order``
  (a table of 4 and one of 3 when 7 players).
- ``season``: a public league "season" of two finished tournaments (and its organiser
  ``league_organiser``, organiser of both); see its docstring for the ranks.
"""

from __future__ import annotations

import datetime

import pytest

from tests.tournament.standings.helpers import result, seat
from tournament.models import League, Player, Tournament
from tournament.organiser.services import player_add

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]


def register(tournament: Tournament, players: list[Player]) -> None:
    """Register existing player records (a league's players are the same people)."""
    from tournament.models import Registration

    Registration.objects.bulk_create(
        [Registration(tournament=tournament, player=player) for player in players]
    )


def play_in_order(tournament: Tournament, players: list[Player], *, totals=None) -> None:
    """One confirmed session at one table of all ``players`` (at most 6), in finishing order
    (descending totals unless ``totals`` are given)."""
    session = seat(tournament, [players])
    result(session, 1, totals or [100 * (len(players) - index) for index in range(len(players))])


@pytest.fixture
def people(db) -> dict[str, Player]:
    return {name: Player.objects.create(name=name, club=f"Club {name[0]}") for name in NAMES}


@pytest.fixture
def make_finished(make_tournament, people):
    """``make_finished(slug, names, totals=None, start=date)``: a tournament of those players
    at one confirmed table, finishing in the order of ``names`` (or by ``totals``)."""

    def make_finished(slug: str, names: list[str], *, totals=None,
                      start: datetime.date = datetime.date(2025, 1, 1), is_public=True):
        tournament = make_tournament(slug=slug, players=0, sessions=0, is_public=is_public)
        Tournament.objects.filter(pk=tournament.pk).update(start_date=start)
        tournament.refresh_from_db()
        players = [people[name] for name in names]
        register(tournament, players)
        play_in_order(tournament, players, totals=totals)
        return tournament

    return make_finished


@pytest.fixture
def league_organiser(make_user):
    return make_user("lea-league")


@pytest.fixture
def make_league(league_organiser, grant_organiser):
    def make_league(slug: str = "season", *, tournaments=(), **fields) -> League:
        league = League.objects.create(name=slug.title(), slug=slug, **fields)
        league.organisers.add(league_organiser)
        grant_organiser(league_organiser, *tournaments)
        Tournament.objects.filter(pk__in=[t.pk for t in tournaments]).update(league=league)
        return league

    return make_league


@pytest.fixture
def season(make_finished, make_league):
    """Two tournaments, linear points:
    - "winter" (Jan.): Ana 1st, Bo 2nd, Cy 3rd, Di 4th: 4, 3, 2, 1 points;
    - "spring" (Mar.): Bo 1st, Ed 2nd, Ana 3rd: 3, 2, 1 points.
    Totals: Ana 5, Bo 6, Cy 2, Ed 2, Di 1."""
    winter = make_finished("winter", ["Ana", "Bo", "Cy", "Di"], start=datetime.date(2025, 1, 11))
    spring = make_finished("spring", ["Bo", "Ed", "Ana"], start=datetime.date(2025, 3, 8))
    return make_league("season", tournaments=[winter, spring])


__all__ = ["NAMES", "player_add", "play_in_order", "register"]
