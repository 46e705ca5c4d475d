"""The check of every figure (``tournament.figures``): it finds a figure planted in the
database, the command says so by its exit code, and the organiser's page shows the list or
"0 differences"; the page is the organiser's alone."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from tests.factories import played_session, players_of, tournament_with_players
from tournament.figures.check import NO_DIFFERENCE, figures_check
from tournament.models import Match, PlayerRating

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(make_user):
    """Eight players in clubs A, B, C, two sessions played and closed, club teams of two."""
    tournament = tournament_with_players(slug="figures-open", players=8)
    tournament.team_size = 2
    tournament.save(update_fields=["team_size"])
    players = players_of(tournament)
    played_session(tournament=tournament, tables=[players[:4], players[4:]])
    played_session(tournament=tournament, tables=[players[::2], players[1::2]])
    return tournament


def run(*args) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("check_figures", *args, stdout=out)
    except SystemExit as exit_:
        return exit_.code, out.getvalue()
    return 0, out.getvalue()


def test_nothing_differs_on_a_tournament_played_through_the_services(played):
    assert figures_check(tournament=played) == []
    assert run("figures-open") == (0, NO_DIFFERENCE + "\n")
    assert run() == (0, NO_DIFFERENCE + "\n")


def test_a_match_total_changed_in_the_database_is_found(played):
    match = Match.objects.filter(table__session__tournament=played).order_by("pk").first()
    totals = list(match.totals)
    totals[0] += 500  # now the best of the table whatever it was
    Match.objects.filter(pk=match.pk).update(totals=totals)
    seated = match.table.seats.order_by("order").first().player

    found = figures_check(tournament=played)
    mine = {(d.area, d.figure) for d in found if d.who == seated.name}
    assert {("standings", "total_points"), ("standings", "best_match")} <= mine
    assert any(d.area == "clubs" for d in found)
    code, out = run("figures-open")
    assert code == 1 and f"total_points · {seated.name}" in out


def test_a_rating_changed_in_the_database_is_found(played):
    rating = PlayerRating.objects.order_by("player_id").first()
    PlayerRating.objects.filter(pk=rating.pk).update(mu=rating.mu + 1)
    found = figures_check(tournament=played)
    assert [(d.area, d.figure, d.who) for d in found] == [
        ("ratings", "mu", rating.player.name)]


def test_a_state_revision_ahead_of_its_match_is_found(played):
    """A page's version sums the state revisions of the matches it shows; each is the
    revision its match's state last moved at, never past the match's revision."""
    match = Match.objects.filter(table__session__tournament=played).order_by("pk").first()
    assert 0 < match.state_revision <= match.revision
    Match.objects.filter(pk=match.pk).update(state_revision=match.revision + 5)
    found = figures_check(tournament=played)
    assert [(d.area, d.figure, d.expected, d.shown) for d in found] == [
        ("versions", "state", str(match.revision), str(match.revision + 5))]


def test_the_pages_versions_are_recounted(played):
    """Each session's and player's page version, recounted apart, equals what the pages
    answer with: a page that forgot a match it shows would be found here."""
    from tournament.core import freshness
    from tournament.figures.records import match_states
    from tournament.figures.recount import page_versions

    results_version, states = match_states(played)
    expected = page_versions(results_version, states)
    assert {kind for kind, _who in expected} == {"session", "player"}
    assert len([1 for kind, _who in expected if kind == "player"]) == 8
    played.refresh_from_db()
    for (kind, who), version in expected.items():
        made = (freshness.session_version(tournament=played, number=who) if kind == "session"
                else freshness.player_version(tournament=played, player_id=who))
        assert made == version, (kind, who)


def test_an_unknown_tournament_is_an_error():
    with pytest.raises(CommandError):
        call_command("check_figures", "no-such-cup")


def test_the_organisers_page_shows_the_check(played, client, make_user):
    from tournament.core.tournaments import staff_role_grant
    from tournament.models import StaffRole
    organiser = make_user("olga-figures")
    staff_role_grant(tournament=played, user=organiser, role=StaffRole.Role.ORGANISER)
    client.force_login(organiser)
    url = reverse("tournament:figures_check", kwargs={"slug": played.slug})
    assert url in client.get(reverse("tournament:organise",
                                     kwargs={"slug": played.slug})).content.decode()
    response = client.get(url)
    assert response.status_code == 200 and response.context["differences"] == []
    assert b'id="figures-checked"' in response.content

    match = Match.objects.filter(table__session__tournament=played).order_by("pk").first()
    Match.objects.filter(pk=match.pk).update(totals=[t + 1 for t in match.totals])
    response = client.get(url)
    assert response.context["differences"]
    assert b'id="figures-differences"' in response.content


def test_the_check_is_the_organisers_alone(played, client, make_user):
    url = reverse("tournament:figures_check", kwargs={"slug": played.slug})
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(make_user("nobody-here"))
    assert client.get(url).status_code == 403
    played.is_public = False
    played.save(update_fields=["is_public"])
    assert client.get(url).status_code == 404
