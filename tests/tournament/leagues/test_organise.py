"""The organisers' league pages: create, edit, add and remove a tournament; who may, and
nothing written on a refusal."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.pages import messages
from tournament.core.tournaments import staff_role_grant
from tournament.models import League, StaffRole, Tournament

pytestmark = pytest.mark.django_db

RULE = {"name": "Season 2027", "description": "", "points_scale": "linear", "points_table": "",
        "best_results": "", "is_public": "on"}


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def snapshot():
    """What the league pages may write: every league and every tournament's league."""
    leagues = list(League.objects.order_by("pk").values())
    members = list(League.organisers.through.objects.order_by("pk").values())
    return leagues, members, list(Tournament.objects.order_by("pk").values_list("pk", "league_id"))


def test_an_organiser_of_a_tournament_creates_a_league_and_organises_it(organiser):
    client = logged_in(organiser)
    response = client.post(reverse("tournament:league_create"),
                           {**RULE, "slug": "season-2027", "points_scale": "table",
                            "points_table": "25,18, 15 ,12", "best_results": "3"})
    assert response.status_code == 302
    league = League.objects.get(slug="season-2027")
    assert response["Location"] == "/leagues/season-2027/"
    assert (league.points_scale, league.points_table, league.best_results) == (
        "table", "25, 18, 15, 12", 3)
    assert list(league.organisers.all()) == [organiser]
    assert client.get(response["Location"]).context["user_is_league_organiser"]


@pytest.mark.parametrize(("table", "code"), [
    ("", "points-table-empty"), ("25, eighteen", "points-table-not-a-number"),
    ("25, -1", "points-table-negative"), ("10, 12, 8", "points-table-increasing"),
])
def test_a_bad_points_table_is_refused_next_to_its_field(organiser, table, code):
    before = snapshot()
    response = logged_in(organiser).post(
        reverse("tournament:league_create"),
        {**RULE, "slug": "s", "points_scale": "table", "points_table": table})
    assert response.status_code == 400
    errors = response.context["form"].errors.as_data()
    assert [error.code for error in errors["points_table"]] == [code]
    assert set(errors) == {"points_table"}
    assert snapshot() == before


def test_a_taken_address_is_refused_the_same_way_whoever_holds_it(organiser, make_league):
    """A page of the site, a public league, a private league: one answer, which tells
    nothing of what holds the address (a private league's existence is not told)."""
    make_league("season")
    make_league("hidden", is_public=False)
    before = snapshot()
    answers = []
    for slug in ("new", "season", "hidden"):
        response = logged_in(organiser).post(reverse("tournament:league_create"),
                                             {**RULE, "slug": slug})
        assert response.status_code == 400
        errors = response.context["form"].errors.as_data()
        assert set(errors) == {"slug"}
        answers.append([(error.code, error.messages) for error in errors["slug"]])
    assert answers[0] == answers[1] == answers[2]
    assert answers[0][0][0] == "slug-unavailable"
    assert snapshot() == before


def test_only_organisers_and_superusers_create_leagues(client, outsider, referee, make_user):
    url = reverse("tournament:league_create")
    assert client.get(url).status_code == 302  # to the login page
    before = snapshot()
    for user in (outsider, referee):
        assert logged_in(user).post(url, {**RULE, "slug": "x"}).status_code == 403
    assert snapshot() == before
    superuser = make_user("root", is_superuser=True)
    assert logged_in(superuser).post(url, {**RULE, "slug": "x"}).status_code == 302


def test_the_league_organiser_edits_the_rule(season, league_organiser):
    client = logged_in(league_organiser)
    url = reverse("tournament:league_edit", kwargs={"slug": "season"})
    assert client.get(url).status_code == 200
    response = client.post(url, {**RULE, "points_scale": "table", "points_table": "10, 5",
                                 "best_results": "1", "is_public": ""})
    assert response.status_code == 302
    season.refresh_from_db()
    assert (season.name, season.points_table, season.best_results, season.is_public) == (
        "Season 2027", "10, 5", 1, False)
    ranks = client.get(reverse("tournament:league", kwargs={"slug": "season"})).context[
        "standing"].rows
    # Ana: 10 (winter 1st) and 0 (spring 3rd); Bo: 5 and 10: best one each.
    assert [(row.player.name, row.total) for row in ranks[:2]] == [("Ana", 10), ("Bo", 10)]


def test_others_cannot_edit_a_league(season, organiser, outsider, client):
    url = reverse("tournament:league_edit", kwargs={"slug": "season"})
    assert client.post(url, RULE).status_code == 302  # anonymous: to the login page
    before = snapshot()
    for user in (organiser, outsider):  # an organiser of another tournament, nobody
        assert logged_in(user).post(url, RULE).status_code == 403
        assert logged_in(user).get(url).status_code == 403
    assert snapshot() == before


def test_a_tournament_joins_and_leaves_the_league(season, league_organiser, make_finished):
    summer = make_finished("summer", ["Cy", "Di"])
    staff_role_grant(tournament=summer, user=league_organiser,
                              role=StaffRole.Role.ORGANISER)
    client = logged_in(league_organiser)
    page = client.get(reverse("tournament:league", kwargs={"slug": "season"}))
    choices = list(page.context["tournament_form"].fields["tournament"].queryset)
    assert choices == [summer]  # winter and spring are in the league already
    response = client.post(reverse("tournament:league_tournament_add", kwargs={"slug": "season"}),
                           {"tournament": "summer"})
    assert response.status_code == 302
    assert Tournament.objects.get(slug="summer").league == season

    response = client.post(reverse("tournament:league_tournament_remove",
                                   kwargs={"slug": "season"}), {"tournament": "winter"})
    assert response.status_code == 302
    assert messages(response) == [("success", "")]
    assert Tournament.objects.get(slug="winter").league is None


def test_a_tournament_of_another_organiser_cannot_be_added(season, league_organiser,
                                                         make_finished, make_league):
    theirs = make_finished("theirs", ["Cy", "Di"])  # league_organiser has no role in it
    before = snapshot()
    response = logged_in(league_organiser).post(
        reverse("tournament:league_tournament_add", kwargs={"slug": "season"}),
        {"tournament": "theirs"})
    assert response.status_code == 400
    assert [e.code for e in response.context["tournament_form"].errors.as_data()["tournament"]] == [
        "invalid_choice"]
    assert snapshot() == before
    assert theirs.league is None


def test_a_tournament_in_another_league_is_refused(season, league_organiser, make_league,
                                                  make_finished):
    from tournament.leagues.services import league_tournament_add

    other = make_league("other")
    winter = Tournament.objects.get(slug="winter")
    before = snapshot()
    with pytest.raises(Exception) as refusal:
        league_tournament_add(league=other, tournament=winter, user=league_organiser)
    assert refusal.value.error_dict["tournament"][0].code == "in-another-league"
    with pytest.raises(Exception) as refusal:
        league_tournament_add(league=season, tournament=winter, user=league_organiser)
    assert refusal.value.error_dict["tournament"][0].code == "already-in-league"
    assert snapshot() == before


def test_removing_needs_the_tournaments_organiser_too(season, make_user, client):
    """A second organiser of the league who does not organise winter cannot take it out."""
    colleague = make_user("colleague")
    season.organisers.add(colleague)
    url = reverse("tournament:league_tournament_remove", kwargs={"slug": "season"})
    before = snapshot()
    response = logged_in(colleague).post(url, {"tournament": "winter"})
    assert response.status_code == 302
    assert messages(response) == [("error", "not-organiser")]
    assert snapshot() == before


def test_others_cannot_add_or_remove(season, outsider, organiser, client, make_league):
    hidden = make_league("hidden", is_public=False)
    add = reverse("tournament:league_tournament_add", kwargs={"slug": "season"})
    remove = reverse("tournament:league_tournament_remove", kwargs={"slug": "season"})
    winter = {"tournament": "winter"}
    before = snapshot()
    assert client.post(add, {"tournament": "spring-open"}).status_code == 302  # login
    assert client.post(remove, winter)["Location"].startswith(reverse("login"))
    for user in (outsider, organiser):
        assert logged_in(user).post(add, {"tournament": "spring-open"}).status_code == 403
        assert logged_in(user).post(remove, winter).status_code == 403
    hidden_add = reverse("tournament:league_tournament_add", kwargs={"slug": hidden.slug})
    assert logged_in(organiser).post(hidden_add, {"tournament": "spring-open"}).status_code == 404
    assert snapshot() == before


def test_taking_out_a_tournament_not_in_the_league_is_a_404(season, league_organiser,
                                                            make_finished):
    make_finished("elsewhere", ["Cy", "Di"])
    url = reverse("tournament:league_tournament_remove", kwargs={"slug": "season"})
    before = snapshot()
    for data in ({"tournament": "elsewhere"}, {"tournament": "nowhere"}, {}):
        assert logged_in(league_organiser).post(url, data).status_code == 404
    assert snapshot() == before
