"""Fixtures of the league tests.

- ``people``: the players ``NAMES`` (club "Club <initial>"), the same records in every
  tournament.
- ``make_finished(slug, names, totals=None, start=date)``: a tournament of those players whose
  one session is played at one table and closed (``tests/factories.py``).
- ``season``: a public league "season" of two finished tournaments (and its organiser
  ``league_organiser``, organiser of both); see its docstring for the ranks.
"""

from __future__ import annotations

import datetime

import pytest

from tests.factories import played_session, tournament_with_players
from tournament.models import League, Player, Tournament
from tournament.organiser.services import player_add

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]


def register(tournament: Tournament, players: list[Player]) -> None:
    """Register existing player records (a league's players are the same people)."""
    from tournament.models import Registration

    Registration.objects.bulk_create(
        [Registration(tournament=tournament, player=player) for player in players]
    )


@pytest.fixture
def people(db) -> dict[str, Player]:
    return {name: Player.objects.create(name=name, club=f"Club {name[0]}") for name in NAMES}


@pytest.fixture
def make_finished(people):
    """``make_finished(slug, names, totals=None, start=date)``: a tournament of those players
    (the family rules, for tables of up to 6; one round a match) whose one session is played
    at one table and closed, the players finishing in the order of ``names`` (or by
    ``totals``)."""

    def make_finished(slug: str, names: list[str], *, totals=None,
                      start: datetime.date = datetime.date(2025, 1, 1), is_public=True):
        tournament = tournament_with_players(slug=slug, players=0, start_date=start,
                                             is_public=is_public, rules="goliath-family",
                                             match_rounds=1)
        players = [people[name] for name in names]
        register(tournament, players)
        played_session(tournament=tournament, tables=[players], totals=[
            totals or [100 * (len(players) - index) for index in range(len(players))]])
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


__all__ = ["NAMES", "player_add", "register"]
