"""The league's writes: create it, change its rule, add and remove its tournaments.

Every service runs inside ``transaction.atomic()``, takes keyword arguments only and raises
``ValidationError`` with a translated message (keyed by the form field it concerns, where one
does) when the change is refused; a refused change writes nothing.

Who may: ``league_create``, a superuser or the organiser of a tournament; the others, an
organiser of the league; adding or removing a tournament, an organiser of that tournament
too. A tournament is in one league at most.

No tournament's data version is raised (``tournament.core.freshness``): the pages kept at that
version (standings, sessions, players, matches) do not show the league; the tournament's own
page, which names its league, and the league's pages are made at each request.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.core.permissions import can_create_league, is_league_organiser, is_organiser
from tournament.kit.addresses import slug_claim
from tournament.leagues.ranking import (
    TABLE,
    PointsTableError,
    parse_points_table,
    points_table_text,
)
from tournament.models import League, Tournament

#: Addresses under /leagues/ that are pages, not leagues.
RESERVED_SLUGS = frozenset({"new"})


def points_table_clean(*, points_scale: str, points_table: str) -> str:
    """The points table as the league keeps it ("25, 18, 15"), or a ValidationError on the
    field ``points_table`` with the fault's code (``points-table-<code>``)."""
    if not points_table.strip():
        if points_scale == TABLE:
            raise ValidationError(
                {"points_table": ValidationError(
                    _("Give the points of each rank, for example 25, 18, 15, 12."),
                    code="points-table-empty")}
            )
        return ""
    try:
        values = parse_points_table(points_table)
    except PointsTableError as error:
        messages = {
            "empty": _("Give the points of each rank, for example 25, 18, 15, 12."),
            "not-a-number": _("“%(part)s” is not a whole number: write the points of each rank "
                              "as whole numbers separated by commas, for example 25, 18, 15."),
            "negative": _("“%(part)s” is negative: points cannot be below zero."),
            "increasing": _("“%(part)s” is more than the points of the rank before: a rank "
                            "cannot give more points than a better one."),
        }
        raise ValidationError(
            {"points_table": ValidationError(
                messages[error.code] % {"part": error.part}, code=f"points-table-{error.code}")}
        ) from error
    return points_table_text(values)


def _league_write(league: League, *, name, description, points_scale, points_table,
                  best_results, is_public) -> None:
    league.name = name
    league.description = description
    league.points_scale = points_scale
    league.points_table = points_table_clean(points_scale=points_scale, points_table=points_table)
    league.best_results = best_results
    league.is_public = is_public
    league.full_clean(exclude=["organisers"], validate_unique=False)


@transaction.atomic
def league_create(
    *,
    user,
    name: str,
    slug: str,
    description: str = "",
    points_scale: str = League.PointsScale.LINEAR,
    points_table: str = "",
    best_results: int | None = None,
    is_public: bool = True,
) -> League:
    """A new league; ``user`` becomes its organiser."""
    if not can_create_league(user):
        raise PermissionDenied
    league = League(slug=slug)
    _league_write(league, name=name, description=description, points_scale=points_scale,
                  points_table=points_table, best_results=best_results, is_public=is_public)
    slug_claim(league, reserved=RESERVED_SLUGS)
    league.organisers.add(user)
    return league


@transaction.atomic
def league_update(
    *,
    league: League,
    user,
    name: str,
    description: str,
    points_scale: str,
    points_table: str,
    best_results: int | None,
    is_public: bool,
) -> League:
    """Change the league's name, description, rule and visibility (the address stays)."""
    if not is_league_organiser(user, league):
        raise PermissionDenied
    league = League.objects.select_for_update().get(pk=league.pk)
    _league_write(league, name=name, description=description, points_scale=points_scale,
                  points_table=points_table, best_results=best_results, is_public=is_public)
    league.save()
    return league


def _tournament_checked(*, league: League, tournament: Tournament, user) -> Tournament:
    if not is_league_organiser(user, league):
        raise PermissionDenied
    if not is_organiser(user, tournament):
        raise ValidationError(
            {"tournament": ValidationError(
                _("Only an organiser of %(tournament)s may add it to a league or take it out.")
                % {"tournament": tournament.name}, code="not-organiser")}
        )
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


@transaction.atomic
def league_tournament_add(*, league: League, tournament: Tournament, user) -> Tournament:
    """Put ``tournament`` in ``league``; refused when it is in another league already."""
    tournament = _tournament_checked(league=league, tournament=tournament, user=user)
    if tournament.league_id == league.pk:
        raise ValidationError(
            {"tournament": ValidationError(
                _("%(tournament)s is already in this league.") % {"tournament": tournament.name},
                code="already-in-league")}
        )
    if tournament.league_id is not None:
        raise ValidationError(
            {"tournament": ValidationError(
                _("%(tournament)s is already in another league: take it out of that one first.")
                % {"tournament": tournament.name}, code="in-another-league")}
        )
    Tournament.objects.filter(pk=tournament.pk).update(league=league)
    tournament.league = league
    return tournament


@transaction.atomic
def league_tournament_remove(*, league: League, tournament: Tournament, user) -> Tournament:
    """Take ``tournament`` out of ``league`` (its results leave the league's ranking)."""
    tournament = _tournament_checked(league=league, tournament=tournament, user=user)
    if tournament.league_id != league.pk:
        raise ValidationError(
            {"tournament": ValidationError(
                _("%(tournament)s is not in this league.") % {"tournament": tournament.name},
                code="not-in-league")}
        )
    Tournament.objects.filter(pk=tournament.pk).update(league=None)
    tournament.league = None
    return tournament
