"""Reads behind the league pages, each in a fixed number of queries.

``league_standing(*, league)`` reads every tournament of the league at once (four queries,
however many tournaments and players), ranks each tournament with the standings' own
selector (``tournament.standings.selectors.cached_standings_of``: confirmed matches only, from their
cached totals), and adds the final ranks up with ``tournament.leagues.ranking.league_ranking``.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from tournament.core.permissions import visible_tournament_ids
from tournament.leagues.ranking import (
    TABLE,
    LeaguePlayer,
    LeagueRow,
    PointsRule,
    TournamentFinish,
    league_ranking,
    parse_points_table,
)
from tournament.models import League, StaffRole, Tournament
from tournament.names import name_sort_key
from tournament.standings.selectors import cached_standings_of


def visible_leagues(*, user) -> list[League]:
    """The public leagues, and those the user organises (every league for a superuser), by
    name, accents and case aside (``name_key``, ``tournament.names``); ``tournament_count``:
    the tournaments the user may see in each (a private tournament is counted for its staff
    only)."""
    leagues = League.objects.all()
    if user.is_authenticated and user.is_superuser:
        return _by_name(leagues.annotate(tournament_count=Count("tournaments")))
    shown = Q(is_public=True)
    seen = Q(tournaments__is_public=True)
    if user.is_authenticated:
        shown |= Q(organisers=user)
        seen |= Q(tournaments__staff_roles__user=user)
    leagues = leagues.filter(pk__in=League.objects.filter(shown).values("pk"))
    return _by_name(leagues.annotate(
        tournament_count=Count("tournaments", filter=seen, distinct=True)))


def _by_name(leagues: QuerySet[League]) -> list[League]:
    listed = list(leagues)
    for league in listed:
        league.name_key = name_sort_key(league.name)
    return sorted(listed, key=lambda league: (league.name_key, league.pk))


def points_rule(league: League) -> PointsRule:
    """The league's rule as the ranking reads it."""
    table = parse_points_table(league.points_table) if league.points_scale == TABLE else ()
    return PointsRule(league.points_scale, table=table, best=league.best_results)


@dataclass(frozen=True)
class LeagueTournament:
    """A tournament of the league as its page lists it; ``confirmed_matches`` 0: no results
    yet; ``in_play``: a session is in play, the ranks may still change; ``private``: a
    private tournament, counted for its staff only."""

    tournament: Tournament
    confirmed_matches: int
    in_play: bool

    @property
    def private(self) -> bool:
        return not self.tournament.is_public

    @property
    def id(self) -> int:
        return self.tournament.pk


@dataclass(frozen=True)
class LeagueStanding:
    league: League
    rule: PointsRule
    tournaments: list[LeagueTournament]
    rows: list[LeagueRow]

    @property
    def has_private(self) -> bool:
        """Whether a private tournament counts here (the reader is of its staff)."""
        return any(item.private for item in self.tournaments)


def league_tournaments(*, league: League, user=None) -> list[Tournament]:
    """The league's tournaments that ``user`` may see (``visible_tournament_ids``: the public
    ones, and the private ones of their staff roles), earliest first; without a user, the
    public ones."""
    tournaments = list(league.tournaments.order_by("start_date", "pk"))
    visible = visible_tournament_ids(user=user, tournaments=tournaments)
    return [tournament for tournament in tournaments if tournament.pk in visible]


def league_standing(*, league: League, user=None) -> LeagueStanding:
    """The league's tournaments and ranking as ``user`` may see them (four queries, a fifth
    for a logged-in ``user`` when a tournament is private).

    A private tournament counts for the readers who may see it only: the league's public
    face (without a user: its page, exports and PDF for the public) is the ranking of its
    public tournaments, and nothing of a private one (its name, players, results) shows
    there (docs/guides/leagues.md)."""
    tournaments = league_tournaments(league=league, user=user)
    standings = cached_standings_of(tournaments=tournaments, without_merged=True)
    names: dict[int, LeaguePlayer] = {}
    finishes = []
    listed = []
    for tournament in tournaments:
        standing = standings[tournament.pk]
        for row in standing.rows:
            names[row["player_id"]] = LeaguePlayer(row["player_id"], row["name"], row["club"])
        # Ranked: the players who played a confirmed match and have not withdrawn (the others
        # are listed apart in the standings, and get nothing here).
        ranks = {row["player_id"]: row["rank"] for row in standing.rows if row["ranked"]}
        finishes.append(TournamentFinish(tournament.pk, ranks))
        listed.append(LeagueTournament(
            tournament=tournament,
            confirmed_matches=standing.confirmed_matches,
            in_play=standing.is_live,
        ))
    rule = points_rule(league)
    rows = league_ranking(rule=rule, finishes=finishes, players=names)
    return LeagueStanding(league=league, rule=rule, tournaments=listed, rows=rows)


def addable_tournaments(*, user, league: League) -> QuerySet[Tournament]:
    """The tournaments ``user`` may add to ``league``: those they organise (every one for a
    superuser) that are in no league yet, latest first."""
    tournaments = Tournament.objects.filter(league__isnull=True, practice_of__isnull=True)
    if not user.is_superuser:
        tournaments = tournaments.filter(
            staff_roles__user=user, staff_roles__role=StaffRole.Role.ORGANISER
        )
    return tournaments.order_by("-start_date", "name")


def league_period(tournaments: list[LeagueTournament]) -> tuple[datetime.date, datetime.date] | None:
    """The first and last days of the league's tournaments, or None without any."""
    if not tournaments:
        return None
    starts = [item.tournament.start_date for item in tournaments]
    ends = [item.tournament.end_date or item.tournament.start_date for item in tournaments]
    return min(starts), max(ends)
