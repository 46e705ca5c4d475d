"""The rating history: kept match by match through the real write path, it equals the full
rebuild (``ratings_rebuild``), whatever the order of the confirmations and the refreshes, after
a correction and after an un-confirmation; a tournament's ``is_rated`` decides what counts."""

from __future__ import annotations

import json
import random

import pytest
from django.test import Client

from tests.factories import confirmed_match, fresh, rounds_confirmed
from tests.tournament.ratings.helpers import (
    correct,
    matches_of,
    racks_entered_again,
    rating_rows,
    second_event,
)
from tests.tournament.tournaments import settings_of
from tournament.models import Match, PlayerRating, RatingChange, Seat, StaffRole, Tournament
from tournament.organiser.forms import TournamentForm
from tournament.organiser.services import tournament_update, tournaments_delete
from tournament.ratings.model import INITIAL, Skill, ranks_of, rate
from tournament.ratings.services import HistoryPoint, ratings_rebuild, ratings_refresh

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee(make_user):
    return make_user("rita-referee", is_superuser=True)


@pytest.fixture
def spring(make_tournament):
    """Ten players, two sessions in play at tables of 4, 4 and 2."""
    return make_tournament(slug="spring", players=10, sessions=2, started=True)


def confirmed_in_order() -> list[Match]:
    """The confirmed matches in the order they were played: the tournament's date, the
    session, then the confirmation within a session."""
    return list(Match.objects.filter(status=Match.Status.CONFIRMED).order_by(
        "table__session__tournament__start_date", "table__session__number", "confirmed_at", "id"))


def replayed_ratings(matches: list[Match]) -> dict[int, Skill]:
    """Every player's skill after ``matches`` rated one after the other with the model alone."""
    skills: dict[int, Skill] = {}
    for match in matches:
        seats = list(Seat.objects.filter(table=match.table_id).order_by("order")
                     .values_list("player_id", flat=True))
        after = rate([skills.get(player, INITIAL) for player in seats], match.totals)
        skills.update(zip(seats, after))
    return skills


def test_kept_ratings_equal_the_rebuild_after_confirmations_in_any_order_and_a_correction(
    spring, referee
):
    summer = second_event(spring, slug="summer")
    matches = matches_of(spring) + matches_of(summer)
    order = matches[:]
    random.Random(7).shuffle(order)
    assert [m.pk for m in order] != [m.pk for m in matches]
    for match in order:
        confirmed_match(match=match, user=referee)

    kept = rating_rows()
    seats = Seat.objects.filter(table__match__in=[m.pk for m in matches]).count()
    assert len(kept[0]) == seats == 30 and len(kept[1]) == 10
    played = [m.pk for m in confirmed_in_order()]
    assert [change[1] for change in kept[0]] == sorted(
        (change[1] for change in kept[0]), key=played.index
    )  # the history follows the order played, not the confirmations
    assert ratings_rebuild() == seats
    assert rating_rows() == kept
    expected = replayed_ratings(confirmed_in_order())
    assert {r.player_id: Skill(r.mu, r.sigma) for r in PlayerRating.objects.all()} == expected

    # A correction of the first confirmed match: its place stays, what follows is rated again.
    first = fresh(order[0])
    totals, confirmed_at = list(first.totals), first.confirmed_at
    correct(first, referee)
    # Un-confirmed: it no longer counts, and every later match was rated again without it.
    unconfirmed = rating_rows()
    assert not RatingChange.objects.filter(match=first).exists()
    assert len(unconfirmed[0]) == seats - len(totals)
    later = {c[:2]: c for c in unconfirmed[0]}
    assert any(later[k[:2]] != k for k in kept[0] if k[:2] in later)
    assert ratings_rebuild() == len(unconfirmed[0]) and rating_rows() == unconfirmed
    racks_entered_again(first, referee)
    first = rounds_confirmed(match=first, user=referee)
    assert first.status == Match.Status.CONFIRMED
    assert first.totals != totals and first.confirmed_at == confirmed_at
    corrected = rating_rows()
    # Only the ranks at the table count (docs/guides/ratings.md): the same ranks, the same ratings.
    assert (corrected == kept) == (ranks_of(first.totals) == ranks_of(totals))
    assert ratings_rebuild() == seats
    assert rating_rows() == corrected
    assert {r.player_id: Skill(r.mu, r.sigma) for r in PlayerRating.objects.all()} == (
        replayed_ratings(confirmed_in_order())
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_refreshes_from_any_points_in_any_order_give_the_same_rows(spring, referee, seed):
    for match in matches_of(spring):
        confirmed_match(match=match, user=referee)
    kept = rating_rows()
    points = [HistoryPoint.of(match) for match in confirmed_in_order()]
    rng = random.Random(seed)
    for _round in range(2):
        rng.shuffle(points)
        for point in points:
            ratings_refresh(since=point)
            assert rating_rows() == kept
    # Half the history lost (as an interrupted refresh would): a refresh from an earlier point
    # writes it back as it was.
    middle, earlier = sorted(points)[len(points) // 2], sorted(points)[1]
    RatingChange.objects.filter(middle.later()).delete()
    ratings_refresh(since=earlier)
    assert rating_rows() == kept


def test_unconfirming_a_match_removes_what_it_did(spring, referee):
    for match in matches_of(spring):
        confirmed_match(match=match, user=referee)
    history = confirmed_in_order()
    middle = history[2]
    players = set(Seat.objects.filter(table=middle.table_id).values_list("player_id", flat=True))
    before = {r.player_id: r.matches for r in PlayerRating.objects.all()}

    correct(middle, referee)
    assert fresh(middle).status == Match.Status.FINISHED
    assert not RatingChange.objects.filter(match=middle).exists()
    after = {r.player_id: r.matches for r in PlayerRating.objects.all()}
    assert {p: before[p] - after.get(p, 0) for p in before} == {
        p: int(p in players) for p in before
    }
    rest = [m for m in history if m.pk != middle.pk]
    assert {r.player_id: Skill(r.mu, r.sigma) for r in PlayerRating.objects.all()} == (
        replayed_ratings(rest)
    )
    kept = rating_rows()
    ratings_rebuild()
    assert rating_rows() == kept


def test_a_tournament_that_does_not_count_leaves_the_ratings(spring, referee):
    summer = second_event(spring, slug="summer")
    for match in matches_of(spring) + matches_of(summer):
        confirmed_match(match=match, user=referee)
    kept = rating_rows()

    tournament_update(**settings_of(spring, is_rated=False))
    assert not RatingChange.objects.filter(tournament=spring).exists()
    summer_changes = RatingChange.objects.filter(tournament=summer).order_by("at", "match_id")
    firsts = {}
    for change in summer_changes:
        firsts.setdefault(change.player_id, change)
    assert len(firsts) == 10
    assert all((c.mu_before, c.sigma_before) == (INITIAL.mu, INITIAL.sigma)
               for c in firsts.values())
    unrated = rating_rows()
    ratings_rebuild()
    assert rating_rows() == unrated
    assert PlayerRating.objects.filter(last_tournament=spring).count() == 0

    tournament_update(**settings_of(spring, is_rated=True))
    assert rating_rows() == kept


def test_a_private_tournament_counts_for_no_rating_until_it_is_public(spring, referee,
                                                                      make_user):
    """A rating is one figure everyone reads: a private tournament's results moving it would
    show them. Its confirmed matches count for nobody's rating while it is private, from the
    moment it is made public (the history refreshed from its first match, as a rebuild
    gives), and no longer once it is private again; through the settings page and the
    admin alike."""
    summer = second_event(spring, slug="summer")
    Tournament.objects.filter(pk=summer.pk).update(is_public=False)
    for match in matches_of(spring) + matches_of(summer):
        confirmed_match(match=match, user=referee)
    assert not RatingChange.objects.filter(tournament=summer).exists()
    assert PlayerRating.objects.filter(last_tournament=summer).count() == 0
    spring_only = rating_rows()
    assert {rating.matches for rating in PlayerRating.objects.all()} == {2}
    ratings_rebuild()
    assert rating_rows() == spring_only

    tournament_update(**settings_of(Tournament.objects.get(pk=summer.pk), is_public=True))
    assert RatingChange.objects.filter(tournament=summer).count() == \
        Seat.objects.filter(session__tournament=summer).count()
    public = rating_rows()
    ratings_rebuild()
    assert rating_rows() == public

    admin = Client()
    admin.force_login(make_user("root", is_superuser=True, is_staff=True))
    summer.refresh_from_db()
    form = {
        "name": summer.name, "slug": summer.slug, "start_date": "2025-06-14",
        "rules": summer.rules, "ranking_criteria": json.dumps(summer.ranking_criteria),
        "opening_bonus": "on", "data_version": summer.data_version,
        "time_up_action": summer.time_up_action, "screen_seconds": summer.screen_seconds,
        "match_entry": summer.match_entry,
        "screen_top": summer.screen_top, "check_in": summer.check_in,
        "final_size": summer.final_size, "team_size": summer.team_size,
        "team_criterion": summer.team_criterion, "prize_count": summer.prize_count,
        "staff_roles-TOTAL_FORMS": "0", "staff_roles-INITIAL_FORMS": "0",
        "registrations-TOTAL_FORMS": "0", "registrations-INITIAL_FORMS": "0",
    }
    response = admin.post(f"/admin/tournament/tournament/{summer.pk}/change/", form)
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert response["Location"] == "/admin/tournament/tournament/"
    assert not Tournament.objects.get(pk=summer.pk).is_public
    assert rating_rows() == spring_only


def test_the_settings_page_sets_whether_the_tournament_counts(spring, referee, make_user):
    for match in matches_of(spring):
        confirmed_match(match=match, user=referee)
    organiser = make_user("olga")
    StaffRole.objects.create(tournament=spring, user=organiser, role=StaffRole.Role.ORGANISER)
    client = Client()
    client.force_login(organiser)
    initial = TournamentForm.initial_from(spring)
    assert initial["is_rated"] is True
    form = {
        name: ("on" if value is True else "" if value in (None, False) else str(value))
        for name, value in initial.items()
    }
    response = client.post(f"/t/{spring.slug}/organise/settings/", {**form, "is_rated": ""})
    assert response.status_code == 302
    spring.refresh_from_db()
    assert not spring.is_rated
    assert not RatingChange.objects.exists() and not PlayerRating.objects.exists()
    response = client.post(f"/t/{spring.slug}/organise/settings/", form)
    assert response.status_code == 302
    assert RatingChange.objects.count() == Seat.objects.filter(session__tournament=spring).count()


def test_the_change_at_the_last_event_spans_the_players_matches_there(spring, referee):
    for match in matches_of(spring):
        confirmed_match(match=match, user=referee)
    summer = second_event(spring, slug="summer")
    for match in matches_of(summer):
        confirmed_match(match=match, user=referee)
    history = confirmed_in_order()
    skills: dict[int, Skill] = {}
    before_summer: dict[int, Skill] = {}
    counts: dict[int, int] = {}
    for match in history:
        seats = list(Seat.objects.filter(table=match.table_id).order_by("order")
                     .values_list("player_id", flat=True))
        if match.table.session.tournament_id == summer.pk:
            for player in seats:
                before_summer.setdefault(player, skills.get(player, INITIAL))
        skills.update(zip(seats, rate([skills.get(p, INITIAL) for p in seats], match.totals)))
        counts.update({p: counts.get(p, 0) + 1 for p in seats})
    ratings = {r.player_id: r for r in PlayerRating.objects.all()}
    assert set(ratings) == set(skills)
    for player, rating in ratings.items():
        assert rating.matches == counts[player]
        if player in before_summer:
            assert rating.last_tournament_id == summer.pk
            expected = skills[player].conservative - before_summer[player].conservative
        else:
            assert rating.last_tournament_id == spring.pk
            expected = skills[player].conservative  # from the initial rating, 0
        assert rating.last_event_change == pytest.approx(expected, abs=1e-9)


def test_deleting_a_tournament_rates_again_what_followed_it(spring, referee):
    for match in matches_of(spring):
        confirmed_match(match=match, user=referee)
    summer = second_event(spring, slug="summer")
    for match in matches_of(summer):
        confirmed_match(match=match, user=referee)
    with_spring = rating_rows()
    assert tournaments_delete(tournaments=Tournament.objects.filter(pk=spring.pk)) == 1
    assert not RatingChange.objects.filter(tournament=spring.pk).exists()
    kept = rating_rows()
    assert kept != with_spring
    ratings_rebuild()
    assert rating_rows() == kept
    # summer's first matches are now every player's first
    assert all(change.mu_before == INITIAL.mu for change in RatingChange.objects.filter(
        match=min(matches_of(summer), key=lambda m: (fresh(m).confirmed_at, m.pk))))
