"""A tournament's settings: set up by its first organiser, changed later (the rule set and target
are fixed once a session has started), and tournaments deleted with what they hold (the
ratings rated again without their matches)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.core.freshness import tournament_write
from tournament.core.tournaments import staff_role_grant, tournament_create
from tournament.kit.transactions import whole_write
from tournament.models import CheckInRule, FinalSize, RankingCriterion, Session, Tournament
from tournament.ratings import services as ratings
from tournament.ratings.services import ratings_tournament_moved, ratings_tournament_rated_changed
from tournament.seating.final import final_refusal


@transaction.atomic
def tournament_set_up(
    *,
    organiser,
    name: str,
    slug: str,
    start_date: datetime.date,
    end_date: datetime.date | None = None,
    venue: str = "",
    rules: str,
    target: int | None = None,
    match_rounds: int | None = None,
    opening_bonus: bool = True,
    ranking_criteria: Sequence[str],
    keep_clubs_apart: bool = False,
    is_public: bool = True,
    is_rated: bool = True,
    final_size: int | None = FinalSize.NONE,
    team_size: int | None = None,
    team_criterion: str | None = None,
    prize_count: int | None = None,
    prize_one_per_player: bool = False,
    check_in: str | None = None,
) -> Tournament:
    """Create a tournament with its settings; ``organiser`` becomes its organiser. The club
    teams and the prize list: docs/guides/categories.md."""
    tournament = tournament_create(
        name=name, slug=slug, start_date=start_date, end_date=end_date, venue=venue,
        rules=rules, target=target, match_rounds=match_rounds, opening_bonus=opening_bonus,
        is_public=is_public, keep_clubs_apart=keep_clubs_apart,
        check_in=check_in or CheckInRule.OFF,
    )
    tournament.ranking_criteria = list(ranking_criteria)
    tournament.is_rated = is_rated
    _final_size_set(tournament, final_size or FinalSize.NONE)
    tournament.team_size = team_size or 0
    tournament.team_criterion = team_criterion or RankingCriterion.MATCH_POINTS
    tournament.prize_count = prize_count or tournament.prize_count
    tournament.prize_one_per_player = bool(prize_one_per_player)
    tournament.full_clean()
    tournament.save(update_fields=["ranking_criteria", "is_rated", "final_size",
                                   "team_size", "team_criterion", "prize_count",
                                   "prize_one_per_player"])
    staff_role_grant(tournament=tournament, user=organiser, role="organiser")
    return tournament


def tournament_settings_locked(*, tournament: Tournament) -> bool:
    """Are the rule set, the target and the match options fixed? Once a session has started
    (its matches are played under them)."""
    return tournament.sessions.filter(
        status__in=[Session.Status.PLAYING, Session.Status.FINISHED]
    ).exists()


@whole_write
def tournament_update(
    *,
    tournament: Tournament,
    name: str,
    start_date: datetime.date,
    end_date: datetime.date | None,
    venue: str,
    rules: str,
    target: int | None,
    ranking_criteria: Sequence[str],
    keep_clubs_apart: bool,
    is_public: bool,
    match_rounds: int | None = None,
    opening_bonus: bool = True,
    is_rated: bool | None = None,
    final_size: int | None = None,
    team_size: int | None = None,
    team_criterion: str | None = None,
    prize_count: int | None = None,
    prize_one_per_player: bool | None = None,
    check_in: str | None = None,
) -> Tournament:
    """Change the settings. The rule set, the target and the match options (rounds per
    match, opening bonus) are fixed once a session has started; the ranking criteria may
    change at any time (the standings follow). ``is_rated`` (None: unchanged) and
    ``is_public`` may change at any time too: when the tournament comes to count for the
    ratings, or no longer does (rated and public), the ratings are refreshed from its first
    confirmed match. ``final_size`` (None: unchanged) is fixed once the final is open
    (docs/guides/final.md). The club teams and the prize list (``team_size``, ``team_criterion``,
    ``prize_count``, ``prize_one_per_player``: docs/guides/categories.md) may change at any time;
    None leaves each as it is.
    ``check_in`` (a ``CheckInRule``; None: unchanged) may change at any
    time: the sessions seated from then on follow it, and the standings read every seated
    session's absences under the rule of the moment (docs/guides/check-in.md).

    Run whole (``whole_write``): a change that moves the ratings takes their turn once the
    tournament is locked, without waiting; when another write holds it, the update runs
    again with the turn taken first."""
    with tournament_write(tournament_id=tournament.pk):
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament_settings_locked(tournament=tournament):
            errors = {}
            if rules != tournament.rules:
                errors["rules"] = ValidationError(
                    _("A session has started: the rule set can no longer change."), code="started")
            if target != tournament.target:
                errors["target"] = ValidationError(
                    _("A session has started: the target can no longer change."), code="started")
            if match_rounds != tournament.match_rounds:
                errors["match_rounds"] = ValidationError(
                    _("A session has started: the rounds per match can no longer change."),
                    code="started")
            if opening_bonus != tournament.opening_bonus:
                errors["opening_bonus"] = ValidationError(
                    _("A session has started: the opening bonus can no longer change."),
                    code="started")
            if errors:
                raise ValidationError(errors)
        start_date_before = tournament.start_date
        tournament.name = name
        tournament.start_date = start_date
        tournament.end_date = end_date
        tournament.venue = venue
        tournament.rules = rules
        tournament.target = target
        tournament.match_rounds = match_rounds
        tournament.opening_bonus = opening_bonus
        tournament.ranking_criteria = list(ranking_criteria)
        tournament.keep_clubs_apart = keep_clubs_apart
        if final_size is not None:
            _final_size_set(tournament, final_size)
        for field, value in (("team_size", team_size), ("team_criterion", team_criterion),
                             ("prize_count", prize_count),
                             ("prize_one_per_player", prize_one_per_player)):
            if value is not None:
                setattr(tournament, field, value)
        if is_rated and tournament.archive_copy:
            raise ValidationError({"is_rated": ValidationError(
                _("This tournament is a copy of an archive whose tournament is already here: its "
                  "matches count there, and cannot count twice."), code="copy-not-rated")})
        counted_before = tournament.counts_for_ratings
        tournament.is_public = is_public
        if is_rated is not None:
            tournament.is_rated = is_rated
        if check_in is not None:
            tournament.check_in = check_in or CheckInRule.OFF
        tournament.full_clean()
        tournament.save()
        if tournament.counts_for_ratings != counted_before:
            ratings_tournament_rated_changed(tournament)
        else:
            ratings_tournament_moved(tournament, start_date_before=start_date_before)
        return tournament


def _final_size_set(tournament: Tournament, final_size: int) -> None:
    """Set the final table's size, refused (keyed ``final_size``) once the final is open or
    when the rule set cannot seat a final table."""
    final_size = int(final_size)
    if final_size != tournament.final_size and tournament.sessions.filter(is_final=True).exists():
        raise ValidationError({"final_size": ValidationError(
            _("The final is open: its size can no longer change."), code="final-opened")})
    refusal = final_refusal(tournament=tournament, size=final_size)
    if refusal is not None:
        raise ValidationError({"final_size": refusal})
    tournament.final_size = final_size


def tournaments_delete(*, tournaments) -> int:
    """Delete the tournaments of a queryset with everything in them, then rate again every
    match confirmed after their first rated one (their matches no longer count). Returns the
    number of tournaments deleted. The ratings' turn is taken first (``ratings_write``)."""
    return ratings.ratings_write(lambda: _tournaments_delete(tournaments))


def _tournaments_delete(tournaments) -> int:
    ratings.ratings_turn()
    first = ratings.HistoryPoint.first_of(
        ratings.rated_matches().filter(table__session__tournament__in=tournaments)
    )
    count = tournaments.count()
    tournaments.delete()
    if first is not None:
        ratings.ratings_refresh(since=first)
    return count
