"""The figures a final leaves behind it (docs/guides/final.md, docs/guides/categories.md): the ranks of the
players it did not seat, and what every page derived from the standings reads of them.

Every expected rank or figure is worked out by hand from ``QUALIFYING`` (tests/.../test_final.py)
and written here, never read from the app's ranking."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from tests.factories import players_of
from tests.tournament.standings.test_final import eight, final_played, number_of, settings_of
from tournament.leagues.selectors import league_standing
from tournament.leagues.services import league_create, league_tournament_add
from tournament.models import FinalSize, Registration
from tournament.organiser.services import tournament_update
from tournament.organiser.services.categories import registrations_categorise
from tournament.players.selectors import player_career
from tournament.standings.categories import category_standings
from tournament.standings.final import final_cut, final_standings, final_tables
from tournament.standings.ranking import MatchResult, StandingPlayer, standings_compute
from tournament.standings.selectors import standings

pytestmark = pytest.mark.django_db


def test_non_finalists_are_renumbered_after_the_final_ties_kept():
    # Qualifying by total points: 1 to 6, then 7 and 8 tied (7=).
    # The final seated 1, 2, 5, 6 (the criteria changed after it): the others, 3 (3rd), 4 (4th),
    # 7 and 8 (7= both) come after the four places, 5, 6, 7=, 7=; not 5=, 5=, 7=, 7=.
    players = [StandingPlayer(n, f"P{n}") for n in range(1, 9)]
    totals = {1: 100, 2: 90, 3: 80, 4: 75, 5: 70, 6: 60, 7: 50, 8: 50}
    qualifying = standings_compute(
        players=players, criteria=["total_points"],
        results=[MatchResult((n,), (total,)) for n, total in totals.items()])
    assert [row["rank_label"] for row in qualifying] == ["1", "2", "3", "4", "5", "6", "7=",
                                                          "7="]
    rows = final_standings(qualifying=qualifying, players=players, criteria=["total_points"],
                           final_results=[MatchResult((1, 2, 5, 6), (400, 300, 200, 100))])
    assert [(row["player_id"], row["rank_label"], row["stage"]) for row in rows] == [
        (1, "1", "final"), (2, "2", "final"), (5, "3", "final"), (6, "4", "final"),
        (3, "5", "qualifying"), (4, "6", "qualifying"), (7, "7=", "qualifying"),
        (8, "7=", "qualifying")]


def best_match_after_the_final():
    """A final of 4 played (P1, P5, P7, P2 seated by match points), then the criteria changed
    to the best match. By hand from QUALIFYING, each one's best match: P7 420, P5 410, P1 400,
    P4 330, P6 310, P2 300, P8 210, P3 200; so the non-finalists' qualifying ranks are P4 4th,
    P6 5th, P8 7th, P3 8th, and they are placed 5, 6, 7, 8."""
    tournament = eight(final_size=FinalSize.FOUR)
    final_played(tournament, [[200, 410, 300, 100]])
    return tournament_update(**settings_of(tournament, ranking_criteria=["best_match"]))


def test_a_qualifying_rank_inside_the_final_places_gives_no_false_tie():
    tournament = best_match_after_the_final()
    rows = standings(tournament=tournament).rows
    assert [(number_of(row["player_id"]), row["rank_label"], row["qualifying_rank"])
            for row in rows[4:]] == [(4, "5", 4), (6, "6", 5), (8, "7", 7), (3, "8", 8)]


def test_the_pages_derived_from_the_standings_read_the_renumbered_ranks(
        make_user, grant_organiser):
    tournament = best_match_after_the_final()
    by_number = {number_of(player.pk): player for player in players_of(tournament)}
    registrations = {number: Registration.objects.get(tournament=tournament, player=player).pk
                     for number, player in by_number.items()}
    registrations_categorise(tournament=tournament, categories={
        registrations[4]: ["Seniors"], registrations[6]: ["Seniors"]})
    tournament.refresh_from_db()
    (seniors,) = category_standings(tournament=tournament)
    assert [(number_of(row["player_id"]), row["rank_label"], row["overall_rank_label"])
            for row in seniors.rows] == [(4, "1", "5"), (6, "2", "6")]

    (entry,) = player_career(player=by_number[6], user=AnonymousUser())["tournaments"]
    assert (entry["rank_label"], entry["player_count"]) == ("6", 8)

    user = grant_organiser(make_user("lea-league"), tournament)
    league = league_create(user=user, name="Season", slug="season")
    league_tournament_add(league=league, tournament=tournament, user=user)
    ranks = {number_of(row.player.id): row.results[tournament.pk].rank
             for row in league_standing(league=league).rows}
    assert (ranks[4], ranks[6], ranks[8], ranks[3]) == (5, 6, 7, 8)


def test_the_players_the_lot_takes_at_the_cut_line_are_seated_in_the_standings_order():
    # A final of 8: five players above the cut, then five sharing 6th (listed by name: ids 16
    # to 20) for the last three places. The lot says who plays, never where: the three it
    # takes sit in the standings' order, as every other shared rank does.
    rows = [{"player_id": 10 + n, "rank": n, "ranked": True} for n in range(1, 6)]
    rows += [{"player_id": 10 + n, "rank": 6, "ranked": True} for n in range(6, 11)]
    taken = set()
    for seed in range(40):
        cut = final_cut(rows, size=8, seed=seed)
        assert cut.finalists[:5] == (11, 12, 13, 14, 15)
        drawn_in = cut.finalists[5:]
        assert list(drawn_in) == sorted(drawn_in), seed
        assert cut.drawn == (16, 17, 18, 19, 20)
        taken.add(drawn_in)
        # The tables follow: 1, 4, 5, 8 and 2, 3, 6, 7 of that order.
        assert final_tables(cut.finalists) == [
            [11, 14, 15, drawn_in[2]], [12, 13, drawn_in[0], drawn_in[1]]]
    assert len(taken) > 1  # still a lot


def test_the_finals_organiser_page_says_what_is_true_of_a_final(make_user, grant_organiser):
    # Check-in on (turned on after qualifying): nobody checks in for a final, and nobody the
    # final leaves out is missing from it; it seats the final's four, from the standings, not
    # "avoiding players who already met".
    from django.test import Client
    from django.urls import reverse

    from tests.pages import by_id, has_id
    from tournament.models import CheckInRule
    from tournament.seating.final import final_open
    from tournament.seating.services import session_seat

    tournament = eight(final_size=FinalSize.FOUR)
    tournament = tournament_update(**settings_of(tournament, check_in=CheckInRule.UNRANKED))
    session = final_open(tournament=tournament)
    client = Client()
    client.force_login(grant_organiser(make_user("olga"), tournament))
    url = reverse("tournament:session_organise",
                  kwargs={"slug": tournament.slug, "number": session.number})

    page = client.get(url)
    assert page.context["missing"] == {"absent": [], "not_seated": []}
    assert page.context["to_seat"] == 4
    assert not has_id(page, "missing-players") and not has_id(page, "check-in")
    assert has_id(page, "final-no-check-in")

    session_seat(session=session)
    page = client.get(url)
    assert page.context["missing"] == {"absent": [], "not_seated": []}
    assert not has_id(page, "missing-players")
    assert by_id(page, "seating-method").get("data-method") == "final"


def clubs_after_the_final():
    """The final of 4 played as seated (P1, P5, P7, P2: 200, 410, 300, 100), clubs of one
    counted player by match points: Cézanne P5, Degas P1, Arp P2, Braque P6.

    By hand, match points in qualifying (QUALIFYING): P1 6, P5 4, P2 4, P6 2; in the final
    P5 3, P1 1, P2 0. Over the whole tournament: P5 7, P1 7, P2 4, P6 2 (no final)."""
    from tournament.organiser.services import registration_update

    tournament = eight(final_size=FinalSize.FOUR)
    final_played(tournament, [[200, 410, 300, 100]])
    for number, club in [(5, "Cézanne"), (1, "Degas"), (2, "Arp"), (6, "Braque")]:
        registration = Registration.objects.get(tournament=tournament, player__name=f"P{number}")
        registration_update(registration=registration, name=f"P{number}", club=club)
    return tournament_update(**settings_of(tournament, team_size=1,
                                           team_criterion="match_points"))


def test_a_club_counts_its_finalists_over_the_whole_tournament():
    from tournament.printing.prizes import prize_list_context, standings_sections
    from tournament.standings.teams import club_ranking

    tournament = clubs_after_the_final()
    teams = club_ranking(tournament=tournament)
    # Cézanne and Degas equal on 7: P5 (1st) ranks above P1 (3rd). Reaching the final lowers
    # nobody: Arp's P2, last of the final, still counts the 4 points of qualifying.
    assert [(team["club"], team["rank_label"], team["score"]) for team in teams] == [
        ("Cézanne", "1", 7.0), ("Degas", "2", 7.0), ("Arp", "3", 4.0), ("Braque", "4", 2.0)]
    printed = standings_sections(tournament=tournament)["team_rows"]
    assert [dict(row["cells"])["club"] for row in printed] == [
        "Cézanne", "Degas", "Arp", "Braque"]
    prizes = prize_list_context(tournament=tournament)["team_rows"]  # the first 3
    assert [dict(row["cells"])["club"] for row in prizes] == ["Cézanne", "Degas", "Arp"]


def test_a_finalists_career_row_says_it_counts_the_final_with_qualifying(client):
    from django.urls import reverse

    from tests.pages import select

    tournament = clubs_after_the_final()
    p5 = next(player for player in players_of(tournament) if player.name == "P5")
    (entry,) = player_career(player=p5, user=AnonymousUser())["tournaments"]
    # The same figures as the club ranking's: the whole tournament, the final included.
    assert (entry["matches"], entry["match_points"], entry["final_included"]) == (3, 7, True)
    p6 = next(player for player in players_of(tournament) if player.name == "P6")
    (entry,) = player_career(player=p6, user=AnonymousUser())["tournaments"]
    assert (entry["matches"], entry["match_points"], entry["final_included"]) == (2, 2, False)
    page = client.get(reverse("tournament:player_career", kwargs={"player_id": p5.pk}))
    assert select(page, f"#tournament-{tournament.pk} [data-final-included]")
