"""The league pages: the list, a league's page and ranking, who sees what."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.exports import cells
from tests.pages import by_id, has_id, readable, select, text
from tournament.leagues.selectors import league_standing
from tournament.models import League, Player, Tournament
from tournament.standings.selectors import standings_rows

pytestmark = pytest.mark.django_db


def league_url(league, name="tournament:league"):
    return reverse(name, kwargs={"slug": league.slug})


def ranking(response) -> list[tuple[str, str, str]]:
    """(rank, name, total) of each line of the ranking table."""
    lines = []
    for row in select(response, "#league-ranking tbody tr[data-player]"):
        cells = [text(cell) for cell in row if cell.tag.endswith("td")]
        lines.append((cells[0], cells[1], cells[-3]))
    return lines


def test_the_league_page_shows_its_tournaments_and_ranking(client, season):
    response = client.get(league_url(season))
    assert response.status_code == 200
    assert ranking(response) == [
        ("1", "Bo", "6"), ("2", "Ana", "5"), ("3=", "Cy", "2"), ("3=", "Ed", "2"), ("5", "Di", "1"),
    ]
    listed = [item.get("data-tournament") for item in select(response, "#league-tournaments li")]
    assert listed == ["winter", "spring"]  # earliest first
    links = {a.get("href") for a in select(response, "#league-tournaments a")}
    assert links == {"/t/winter/", "/t/spring/"}
    # each player's name leads to their career
    for row in select(response, "#league-ranking tbody tr[data-player]"):
        hrefs = [a.get("href") for a in row.iter() if a.tag.endswith("a")]
        assert f"/players/{row.get('data-player')}/" in hrefs
    assert text(by_id(response, "league-rule"))
    assert by_id(response, "league-ranking-pdf").get("href") == "/leagues/season/ranking.pdf"
    # Not an organiser: no organiser's forms.
    assert not has_id(response, "league-organise")


def test_the_league_links_its_players_ratings(client, season):
    response = client.get(league_url(season))
    expected = reverse("tournament:league_ratings", kwargs={"slug": season.slug})
    assert by_id(response, "league-ratings").get("href") == expected


def test_the_league_ranks_follow_each_tournaments_standings(season):
    standing = league_standing(league=season)
    for item in standing.tournaments:
        ranks = {row["player_id"]: row["rank"] for row in standings_rows(tournament=item.tournament)
                 if row["matches"]}
        from_league = {row.player.id: row.results[item.id].rank for row in standing.rows
                       if item.id in row.results}
        assert from_league == ranks


def test_dropped_results_are_marked_in_the_table(client, season):
    League.objects.filter(pk=season.pk).update(best_results=1)
    response = client.get(league_url(season))
    dropped = select(response, "#league-ranking tr[data-player] .league-points--dropped")
    # Ana (4 and 1: the 1 dropped) and Bo (3 and 3: the later one dropped).
    assert sorted(text(span) for span in dropped) == ["(1)", "(3)"]
    assert ranking(response)[:2] == [("1", "Ana", "4"), ("2", "Bo", "3")]


def test_players_who_did_not_play_get_nothing(season, people):
    """A registered player without a confirmed match is not in the league's ranking."""
    from tests.tournament.leagues.conftest import register

    register(Tournament.objects.get(slug="spring"), [people["Gus"]])
    names = {row.player.name for row in league_standing(league=season).rows}
    assert "Gus" not in names and "Ed" in names


def test_a_tournament_without_a_confirmed_match_gives_no_results(
    season, make_tournament, league_organiser
):
    empty = make_tournament(slug="summer", players=4, sessions=1)
    Tournament.objects.filter(pk=empty.pk).update(league=season)
    standing = league_standing(league=season)
    item = next(item for item in standing.tournaments if item.id == empty.pk)
    assert item.confirmed_matches == 0
    assert not any(empty.pk in row.results for row in standing.rows)


def test_merged_records_are_never_listed(season, people):
    kept = Player.objects.create(name="Ana Kept")
    Player.objects.filter(pk=people["Ana"].pk).update(merged_into=kept)
    names = {row.player.name for row in league_standing(league=season).rows}
    assert "Ana" not in names


def test_the_list_shows_public_leagues_and_the_users_own(client, season, make_league,
                                                          league_organiser, make_user):
    hidden = make_league("hidden", is_public=False)
    response = client.get(reverse("tournament:leagues"))
    shown = [a.get("href") for a in select(response, "#leagues a")]
    assert "/leagues/season/" in shown and "/leagues/hidden/" not in shown
    assert not has_id(response, "league-create")

    client.force_login(league_organiser)
    response = client.get(reverse("tournament:leagues"))
    shown = [a.get("href") for a in select(response, "#leagues a")]
    assert {"/leagues/season/", "/leagues/hidden/"} <= set(shown)
    assert has_id(response, "league-create")  # an organiser of winter and spring

    other = Client()
    other.force_login(make_user("someone"))
    assert other.get(league_url(hidden)).status_code == 404
    assert client.get(league_url(hidden)).status_code == 200


def test_the_list_sorts_the_names_accents_and_case_aside(client, make_league):
    for slug, name in (("zoe", "Zoé"), ("ete", "Été"), ("automne", "automne")):
        League.objects.filter(pk=make_league(slug).pk).update(name=name)
    response = client.get(reverse("tournament:leagues"))
    assert [a.get("href") for a in select(response, "#leagues tbody a")] == [
        "/leagues/automne/", "/leagues/ete/", "/leagues/zoe/"]
    response = client.get(reverse("tournament:leagues"), {"sort": "-name"})
    assert [a.get("href") for a in select(response, "#leagues tbody a")] == [
        "/leagues/zoe/", "/leagues/ete/", "/leagues/automne/"]


def test_a_private_league_is_a_404_to_the_public_on_every_page(client, make_league):
    hidden = make_league("hidden", is_public=False)
    for name in ("tournament:league", "tournament:league_ranking_pdf", "tournament:league_edit"):
        assert client.get(league_url(hidden, name)).status_code == 404
    assert client.get(league_url(hidden) + "?_export=csv").status_code == 404


def test_a_private_tournament_counts_for_its_staff_only(client, make_finished, make_league,
                                                        league_organiser, make_user):
    """A public league with a private tournament: the public reads the ranking of the public
    tournaments alone, with neither the private one's name nor its players nor its points;
    its staff read it counted, and told so."""
    make_finished("open", ["Ana", "Bo"])
    secret = make_finished("secret", ["Cy", "Di", "Ana"], is_public=False)
    league = make_league("open-league", tournaments=[Tournament.objects.get(slug="open"), secret])
    league_organiser_of_open_only = make_user("lou")
    league.organisers.add(league_organiser_of_open_only)
    public = client.get(league_url(league))
    assert [item.get("data-tournament") for item in
            select(public, "#league-tournaments li")] == ["open"]
    assert [line[1] for line in ranking(public)] == ["Ana", "Bo"]
    assert not re.search(r"\b(Secret|Cy|Di)\b", readable(public))
    assert not has_id(public, "league-private-note")
    for reader in (None, league_organiser_of_open_only):
        reader_client = Client()
        if reader is not None:
            reader_client.force_login(reader)
        for export_format in ("csv", "xlsx", "ods"):
            export = reader_client.get(league_url(league) + f"?_export={export_format}")
            shown = cells(export.content, export_format)
            assert "Ana" in shown and not {"Cy", "Di", "Secret"} & set(shown), export_format
    staff = Client()
    staff.force_login(league_organiser)  # an organiser of "secret" too
    counted = staff.get(league_url(league))
    assert [line[1] for line in ranking(counted)] == ["Cy", "Ana", "Di", "Bo"]
    assert has_id(counted, "league-private-secret") and has_id(counted, "league-private-note")


def test_the_list_counts_the_tournaments_a_reader_may_see(client, make_finished, make_league,
                                                         league_organiser):
    secret = make_finished("secret", ["Cy", "Di"], is_public=False)
    make_league("open-league", tournaments=[make_finished("open", ["Ana", "Bo"]), secret])

    def counted(reader):
        return [cell.text for cell in select(reader.get(reverse("tournament:leagues")),
                                             "#leagues td.number")]
    assert counted(client) == ["1"]
    staff = Client()
    staff.force_login(league_organiser)
    assert counted(staff) == ["2"]


def test_the_league_page_names_tournaments_in_play(client, season, league_organiser):
    from tournament.models import Session

    Session.objects.filter(tournament__slug="spring").update(status=Session.Status.PLAYING)
    standing = league_standing(league=season)
    assert [item.in_play for item in standing.tournaments] == [False, True]


def test_a_tournament_page_names_its_public_league(client, season):
    tournament = season.tournaments.order_by("start_date").first()
    response = client.get(tournament.get_absolute_url())
    assert by_id(response, "tournament-league").get("href") == league_url(season)
    League.objects.filter(pk=season.pk).update(is_public=False)
    assert not has_id(client.get(tournament.get_absolute_url()), "tournament-league")
