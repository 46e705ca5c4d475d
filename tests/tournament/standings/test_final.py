"""The final table (docs/guides/final.md): opened once the qualifying sessions are closed, seated from
the standings, and its result placing the finalists first; the rest as qualifying left it.

The expected standings are recomputed here from the match results (``own_ranking``), not
read from the app's ranking: match points 3/2/1/0 at a table of 4 (no tie at a table in these
results but where a test says so), then total points."""

from __future__ import annotations

import doctest
from collections import defaultdict

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from tests.factories import (
    confirmed_match,
    match_at,
    played_session,
    players_of,
    tournament_with_players,
)
from tests.tournament.tournaments import settings_of as all_settings_of
from tournament.leagues.selectors import league_standing
from tournament.leagues.services import league_create, league_tournament_add
from tournament.models import (
    FinalSize,
    Match,
    RatingChange,
    Registration,
    Seat,
    Session,
    Tournament,
)
from tournament.organiser.services import registration_withdraw, tournament_update
from tournament.seating.final import final_open
from tournament.seating.services import session_seat
from tournament.sessions.services import session_close, session_open, session_start
from tournament.standings import final as final_module
from tournament.standings.final import final_cut, final_standings, final_tables
from tournament.standings.ranking import MatchResult, StandingPlayer, standings_compute
from tournament.standings.selectors import standings

pytestmark = pytest.mark.django_db

#: Two qualifying sessions of eight players (P1..P8, registered in that order) at two tables
#: of four: (seats by player number, totals).
QUALIFYING = [
    [((1, 2, 3, 4), (400, 300, 200, 100)), ((5, 6, 7, 8), (410, 310, 210, 110))],
    [((1, 5, 2, 6), (350, 250, 300, 150)), ((3, 7, 4, 8), (100, 420, 330, 210))],
]


def own_ranking(results) -> list[int]:
    """The players, best first, from ``results`` ((player numbers, totals) per table): match
    points (3/2/1/0 at a table of 4, by total; no tie at a table here), then total points."""
    points: dict[int, int] = defaultdict(int)
    totals: dict[int, int] = defaultdict(int)
    for seats, scores in results:
        by_total = sorted(range(len(seats)), key=lambda seat: -scores[seat])
        assert len(set(scores)) == len(scores), "own_ranking counts no tie at a table"
        for place, seat in enumerate(by_total):
            points[seats[seat]] += 3 - place
            totals[seats[seat]] += scores[seat]
    keys = {player: (-points[player], -totals[player]) for player in points}
    assert len(set(keys.values())) == len(keys), "own_ranking breaks no tie"
    return sorted(points, key=keys.__getitem__)


def settings_of(tournament: Tournament, **changes):
    """``tournament_update``'s arguments, the rounds per match kept (one: totals under the
    target end the match)."""
    return all_settings_of(tournament, match_rounds=1, **changes)


def qualifying_results() -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    return [table for session in QUALIFYING for table in session]


def eight(*, final_size: int, slug: str = "final-open") -> Tournament:
    """P1..P8 and the two qualifying sessions played and closed; the final's size set."""
    tournament = tournament_with_players(slug=slug, players=[f"P{n}" for n in range(1, 9)],
                                         match_rounds=1)
    tournament = tournament_update(**settings_of(tournament, final_size=final_size))
    by_number = dict(enumerate(players_of(tournament), start=1))
    for session in QUALIFYING:
        played_session(
            tournament=tournament,
            tables=[[by_number[n] for n in seats] for seats, _totals in session],
            totals=[list(totals) for _seats, totals in session],
        )
    return tournament


def number_of(player_id: int) -> int:
    return int(Registration.objects.get(player_id=player_id).player.name[1:])


def seated_numbers(session: Session) -> list[list[int]]:
    tables: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for table, order, player_id in Seat.objects.filter(session=session).values_list(
            "table__number", "order", "player_id"):
        tables[table].append((order, number_of(player_id)))
    return [[number for _order, number in sorted(tables[table])] for table in sorted(tables)]


def final_played(tournament: Tournament, totals: list[list[int]], *, seed: int = 0) -> Session:
    """Open the final, seat it, start it, confirm its matches with ``totals``, close it."""
    session = final_open(tournament=tournament)
    session_seat(session=session, seed=seed)
    session = session_start(session=Session.objects.get(pk=session.pk))
    for table, table_totals in enumerate(totals, start=1):
        confirmed_match(match=match_at(tournament=tournament, session=session.number,
                                       table=table), totals=table_totals)
    return session_close(session=session)


def ranked_numbers(tournament: Tournament) -> list[tuple[str, int, str]]:
    """(rank label, player number, stage) of every row, in order."""
    return [(row["rank_label"], number_of(row["player_id"]), row.get("stage", ""))
            for row in standings(tournament=tournament).rows]


def test_the_module_doctests_pass():
    assert doctest.testmod(final_module).failed == 0


def test_a_final_of_4_is_seated_from_the_standings_and_places_its_players_first():
    tournament = eight(final_size=FinalSize.FOUR)
    qualifying = own_ranking(qualifying_results())
    assert qualifying == [1, 5, 7, 2, 6, 4, 8, 3]  # by hand: 6, 4, 4, 4, 2, 2, 1, 1 points
    session = final_open(tournament=tournament)
    assert (session.number, session.is_final, session.status) == (3, True, Session.Status.DRAFT)
    session_seat(session=session)
    assert seated_numbers(session) == [qualifying[:4]]
    # Until the final's match is confirmed, the standings are the qualifying ones.
    assert [number for _label, number, _stage in ranked_numbers(tournament)] == qualifying
    assert standings(tournament=tournament).final_in_play

    final_totals = [200, 410, 300, 100]  # P1, P5, P7, P2 as seated
    session = Session.objects.get(pk=session.pk)
    session = session_start(session=session)
    confirmed_match(match=match_at(tournament=tournament, session=3), totals=final_totals)
    places = own_ranking([(tuple(qualifying[:4]), tuple(final_totals))])
    rest = [number for number in qualifying if number not in places]
    result = standings(tournament=tournament)
    assert result.final_decided and not result.final_in_play
    assert ranked_numbers(tournament) == (
        [(str(rank), number, "final") for rank, number in enumerate(places, start=1)]
        + [(str(rank), number, "qualifying") for rank, number in enumerate(rest, start=5)]
    )
    assert places == [5, 7, 1, 2]
    # The rest keep their qualifying figures: the final's match is not counted for them...
    rows = {number_of(row["player_id"]): row for row in result.rows}
    qualifying_only = {
        row["player_id"]: row for row in standings_compute(
            players=[StandingPlayer(row["player_id"], row["name"]) for row in result.rows],
            results=[MatchResult(tuple(players_by_number(tournament)[n] for n in seats), totals)
                     for seats, totals in qualifying_results()],
            criteria=tournament.ranking_criteria)
    }
    for number in rest:
        row = rows[number]
        assert row["match_points"] == qualifying_only[row["player_id"]]["match_points"]
        assert row["qualifying_rank"] == qualifying.index(number) + 1
    # ... and the finalists show the final's.
    assert [rows[n]["total_points"] for n in places] == [410, 300, 200, 100]
    assert [rows[n]["qualifying_rank"] for n in places] == [2, 3, 1, 4]
    assert result.confirmed_matches == 5
    session_close(session=session)


def players_by_number(tournament: Tournament) -> dict[int, int]:
    return {n: player.pk for n, player in enumerate(players_of(tournament), start=1)}


def test_a_final_of_8_splits_the_finalists_1_4_5_8_and_2_3_6_7_and_ranks_both_tables_together():
    tournament = eight(final_size=FinalSize.EIGHT)
    qualifying = own_ranking(qualifying_results())
    totals = [[300, 200, 100, 50], [250, 400, 150, 60]]
    session = final_played(tournament, totals)
    first, second = [qualifying[i] for i in (0, 3, 4, 7)], [qualifying[i] for i in (1, 2, 5, 6)]
    assert seated_numbers(session) == [first, second]
    # Both winners first (the better final total first), then both seconds, and so on.
    by_place = defaultdict(list)
    for seats, scores in ((first, totals[0]), (second, totals[1])):
        for place, seat in enumerate(sorted(range(4), key=lambda seat: -scores[seat])):
            by_place[place].append((-scores[seat], seats[seat]))
    expected = [number for place in range(4) for _total, number in sorted(by_place[place])]
    assert ranked_numbers(tournament) == [
        (str(rank), number, "final") for rank, number in enumerate(expected, start=1)]


def test_a_tie_in_the_final_goes_to_the_better_qualifying_rank():
    tournament = eight(final_size=FinalSize.FOUR)
    final_played(tournament, [[200, 300, 300, 100]])  # P5 (2nd) and P7 (3rd) tie
    labels = ranked_numbers(tournament)[:4]
    assert labels == [("1", 5, "final"), ("2", 7, "final"), ("3", 1, "final"),
                      ("4", 2, "final")]


def test_a_tie_in_the_final_and_in_qualifying_shares_the_place():
    players = [StandingPlayer(n, f"P{n}") for n in range(1, 6)]
    qualifying = standings_compute(
        players=players, criteria=["match_points"],
        results=[MatchResult((1, 2, 3, 4, 5), (500, 400, 400, 300, 100))])
    assert [row["rank_label"] for row in qualifying] == ["1", "2=", "2=", "4", "5"]
    rows = final_standings(qualifying=qualifying, players=players, criteria=["match_points"],
                           final_results=[MatchResult((1, 2, 3, 4), (100, 250, 250, 50))])
    assert [(row["player_id"], row["rank_label"], row["stage"]) for row in rows] == [
        (2, "1=", "final"), (3, "1=", "final"), (1, "3", "final"), (4, "4", "final"),
        (5, "5", "qualifying")]


def test_a_tie_across_the_cut_line_is_drawn_by_lot_with_the_session_seed():
    tournament = eight(final_size=FinalSize.FOUR)
    tournament = tournament_update(**settings_of(tournament, ranking_criteria=["table_wins"]))
    rows = standings(tournament=tournament).rows
    wins = {number_of(row["player_id"]): row["table_wins"] for row in rows}
    assert wins == {1: 2, 5: 1, 7: 1, 2: 0, 3: 0, 4: 0, 6: 0, 8: 0}  # by hand from QUALIFYING
    tied = sorted(number for number, count in wins.items() if count == 0)
    picked = set()
    for seed in range(1, 30):
        cut = final_cut(rows, size=4, seed=seed)
        assert cut == final_cut(rows, size=4, seed=seed)  # the same seed, the same finalists
        numbers = [number_of(player_id) for player_id in cut.finalists]
        assert numbers[:3] == [1, 5, 7] or numbers[:3] == [1, 7, 5]
        assert sorted(number_of(player_id) for player_id in cut.drawn) == tied
        picked.add(numbers[3])
    assert len(picked) > 1 and picked <= set(tied)  # a lot, not the names' order

    session = final_open(tournament=tournament)
    session_seat(session=session)
    seated = seated_numbers(session)[0]
    session = Session.objects.get(pk=session.pk)
    cut = final_cut(rows, size=4, seed=session.seed)
    assert seated == [number_of(player_id) for player_id in cut.finalists]
    final_played_seated(tournament, session, [400, 300, 200, 100])
    after = ranked_numbers(tournament)
    # The players the lot left out come after the four places, at 5, not at 4=; inside the
    # final, the three without a win tie, the better qualifying rank first (2= shared).
    assert after[:4] == [("1", 1, "final"), ("2=", 5, "final"), ("2=", 7, "final"),
                         ("4", seated[3], "final")]
    assert [label for label, _number, _stage in after[4:]] == ["5="] * 4


def final_played_seated(tournament, session, totals):
    session = session_start(session=session)
    confirmed_match(match=match_at(tournament=tournament, session=session.number), totals=totals)
    return session_close(session=session)


def test_the_final_cannot_open_while_a_session_is_open():
    tournament = eight(final_size=FinalSize.FOUR)
    session_open(tournament=tournament)
    with pytest.raises(ValidationError) as refused:
        final_open(tournament=tournament)
    assert refused.value.code == "previous-not-closed"
    assert not tournament.sessions.filter(is_final=True).exists()
    assert tournament.sessions.count() == 3


def test_the_final_needs_its_setting_qualifying_sessions_and_opens_once():
    tournament = tournament_with_players(slug="no-final", players=8, match_rounds=1)
    with pytest.raises(ValidationError) as refused:
        final_open(tournament=tournament)
    assert refused.value.code == "no-final"
    tournament = tournament_update(**settings_of(tournament, final_size=FinalSize.FOUR))
    with pytest.raises(ValidationError) as refused:
        final_open(tournament=tournament)
    assert refused.value.code == "no-qualifying"

    tournament = eight(final_size=FinalSize.FOUR, slug="twice")
    final_open(tournament=tournament)
    with pytest.raises(ValidationError) as refused:
        final_open(tournament=tournament)
    assert refused.value.code == "final-exists"
    # No qualifying session after the final either.
    with pytest.raises(ValidationError) as refused:
        session_open(tournament=tournament)
    assert refused.value.code == "final-opened"
    assert tournament.sessions.count() == 3


def test_the_final_needs_as_many_ranked_players_as_it_seats():
    tournament = eight(final_size=FinalSize.EIGHT)
    registration_withdraw(registration=Registration.objects.get(
        tournament=tournament, player__name="P3"))
    with pytest.raises(ValidationError) as refused:
        final_open(tournament=tournament)
    assert refused.value.code == "too-few-ranked"
    assert tournament.sessions.count() == 2


def test_the_final_size_is_fixed_once_the_final_is_open():
    tournament = eight(final_size=FinalSize.FOUR)
    final_open(tournament=tournament)
    for size in (FinalSize.EIGHT, FinalSize.NONE):
        with pytest.raises(ValidationError) as refused:
            tournament_update(**settings_of(tournament, final_size=size, name="Renamed"))
        assert refused.value.error_dict["final_size"][0].code == "final-opened"
    tournament.refresh_from_db()
    assert (tournament.final_size, tournament.name) == (FinalSize.FOUR, "Final Open")
    # The same size again, or none said, changes nothing and is not refused.
    tournament_update(**settings_of(tournament, final_size=FinalSize.FOUR, name="Renamed"))
    tournament_update(**settings_of(tournament, name="Renamed again"))
    tournament.refresh_from_db()
    assert (tournament.final_size, tournament.name) == (FinalSize.FOUR, "Renamed again")


def test_a_rule_set_of_three_players_at_most_has_no_final():
    # No rule set here seats fewer than four (engine.rule_set_names): one that did is stood
    # in for by what final_refusal reads of a tournament.
    from types import SimpleNamespace

    from tournament.seating.final import final_refusal

    three = SimpleNamespace(rule_set=SimpleNamespace(max_players=3))
    assert final_refusal(tournament=three, size=4).code == "final-table-too-large"
    assert final_refusal(tournament=three, size=0) is None


def test_final_matches_are_rated_like_any_match():
    tournament = eight(final_size=FinalSize.FOUR)
    session = final_played(tournament, [[200, 410, 300, 100]])
    final_matches = Match.objects.filter(table__session=session)
    assert RatingChange.objects.filter(match__in=final_matches).count() == 4


def test_a_league_reads_the_final_standings(make_user, grant_organiser):
    tournament = eight(final_size=FinalSize.FOUR)
    final_played(tournament, [[200, 410, 300, 100]])
    user = grant_organiser(make_user("lea-league"), tournament)
    league = league_create(user=user, name="Season", slug="season")
    league_tournament_add(league=league, tournament=tournament, user=user)
    ranking = league_standing(league=league)
    ranks = {number_of(row.player.id): row.results[tournament.pk].rank for row in ranking.rows}
    assert [number for number, rank in sorted(ranks.items(), key=lambda item: item[1])][:4] == [
        5, 7, 1, 2]


def test_the_organiser_opens_the_final_from_the_organise_page(make_user, grant_organiser):
    tournament = eight(final_size=FinalSize.FOUR)
    client = Client()
    client.force_login(grant_organiser(make_user("olga"), tournament))
    page = client.get(reverse("tournament:organise", kwargs={"slug": tournament.slug}))
    assert page.context["can_open_final"] and page.context["can_open_session"]
    response = client.post(reverse("tournament:final_open", kwargs={"slug": tournament.slug}))
    session = tournament.sessions.get(is_final=True)
    assert response.status_code == 302 and response["Location"] == reverse(
        "tournament:session_organise", kwargs={"slug": tournament.slug, "number": session.number})
    page = client.get(reverse("tournament:organise", kwargs={"slug": tournament.slug}))
    assert not page.context["can_open_final"] and not page.context["can_open_session"]
    # Seated from its page's button, as any session.
    response = client.post(reverse("tournament:session_seat", kwargs={
        "slug": tournament.slug, "number": session.number}), {"method": "random"})
    assert response.status_code == 302
    assert seated_numbers(session) == [own_ranking(qualifying_results())[:4]]


def test_another_tournaments_organiser_cannot_open_the_final(make_user, grant_organiser):
    tournament = eight(final_size=FinalSize.FOUR)
    other = tournament_with_players(slug="elsewhere", players=4)
    client = Client()
    client.force_login(grant_organiser(make_user("otto"), other))
    response = client.post(reverse("tournament:final_open", kwargs={"slug": tournament.slug}))
    assert response.status_code == 403
    assert not tournament.sessions.filter(is_final=True).exists()


def test_the_settings_page_refuses_a_new_size_next_to_its_field(make_user, grant_organiser):
    tournament = eight(final_size=FinalSize.FOUR)
    final_open(tournament=tournament)
    client = Client()
    client.force_login(grant_organiser(make_user("olga"), tournament))
    url = reverse("tournament:tournament_edit", kwargs={"slug": tournament.slug})
    form = client.get(url).context["form"]
    data = {name: value for name, value in form.initial.items() if value is not None}
    data["start_date"] = tournament.start_date.isoformat()
    data["final_size"] = "8"
    response = client.post(url, data)
    assert response.status_code == 400
    assert [error.code for error in response.context["form"].errors.as_data()["final_size"]] == [
        "final-opened"]
    tournament.refresh_from_db()
    assert tournament.final_size == FinalSize.FOUR


def test_final_tables_refuse_an_unknown_size():
    with pytest.raises(ValueError):
        final_tables([1, 2, 3])
    assert final_tables([4, 3, 2, 1]) == [[4, 3, 2, 1]]
    with pytest.raises(ValueError):
        final_cut([{"player_id": 1, "rank": 1, "ranked": True}], size=4, seed=0)


def test_a_finalists_career_counts_every_match_of_the_tournament():
    from django.contrib.auth.models import AnonymousUser

    from tournament.players.selectors import player_career

    tournament = eight(final_size=FinalSize.FOUR)
    final_played(tournament, [[200, 410, 300, 100]])  # P1, P5, P7, P2 as seated
    p5 = players_of(tournament)[4]
    (entry,) = player_career(player=p5, user=AnonymousUser())["tournaments"]
    # P5: 3 + 1 match points in qualifying (QUALIFYING), 3 in the final; three matches.
    assert (entry["rank"], entry["matches"], entry["match_points"]) == (1, 3, 7)


def test_the_records_archive_carries_the_final_to_another_installation():
    from tests.tournament.archive.helpers import wipe
    from tournament.archive import export
    from tournament.archive.imports import past_results_import

    tournament = eight(final_size=FinalSize.FOUR)
    final_played(tournament, [[200, 410, 300, 100]])

    def shown(tournament):
        return [(row["rank_label"], row["name"], row.get("stage")) for row in
                standings(tournament=tournament).rows]

    before = shown(tournament)
    data = export.tournament_records_zip(tournament=tournament)
    wipe(tournament)
    imported = past_results_import(data=data).tournament
    assert imported.final_size == FinalSize.FOUR
    assert list(imported.sessions.values_list("is_final", flat=True)) == [False, False, True]
    assert shown(imported) == before and before[0][2] == "final"


def test_an_archive_whose_final_has_no_final_size_is_refused_whole():
    import io
    import json
    import zipfile

    from tests.tournament.archive.helpers import wipe, zip_with
    from tournament.archive import export
    from tournament.archive.imports import past_results_import

    tournament = eight(final_size=FinalSize.FOUR)
    final_played(tournament, [[200, 410, 300, 100]])
    data = export.tournament_records_zip(tournament=tournament)
    wipe(tournament)
    manifest = json.loads(zipfile.ZipFile(io.BytesIO(data)).read("tournament.json"))
    manifest["tournament"]["final_size"] = 0
    tampered = zip_with(data, **{"tournament.json": json.dumps(manifest).encode()})
    with pytest.raises(ValidationError) as refused:
        past_results_import(data=tampered)
    assert "sessions[2].is_final" in " ".join(refused.value.messages)
    assert not Tournament.objects.exists()


def test_three_equal_in_the_final_are_parted_by_their_qualifying_ranks_only():
    # Final: P1, P2, P3 equal on every criterion; P1 qualified 1st, P2 and P3 shared 2nd.
    players = [StandingPlayer(n, f"P{n}") for n in range(1, 6)]
    qualifying = standings_compute(
        players=players, criteria=["match_points"],
        results=[MatchResult((1, 2, 3, 4, 5), (500, 400, 400, 300, 100))])
    rows = final_standings(qualifying=qualifying, players=players, criteria=["match_points"],
                           final_results=[MatchResult((3, 2, 1, 4), (250, 250, 250, 50))])
    assert [(row["player_id"], row["rank_label"]) for row in rows[:4]] == [
        (1, "1"), (2, "2="), (3, "2="), (4, "4")]


def test_the_whole_tournament_of_a_player_out_of_the_final_counts_the_final_of_those_met():
    """A player the final did not seat keeps their own figures, but their opponents' strength
    over the whole tournament counts what those opponents did in the final: the club teams
    and a career read that figure."""
    players = [StandingPlayer(id=number, name=f"P{number}") for number in range(1, 6)]
    qualifying_results = [MatchResult((1, 2, 3, 4, 5), (500, 400, 300, 200, 100))]
    qualifying = standings_compute(players=players, criteria=["match_points"],
                                   results=qualifying_results)
    rows = final_standings(qualifying=qualifying, players=players, results=qualifying_results,
                           criteria=["match_points"],
                           final_results=[MatchResult((1, 2, 3, 4), (100, 200, 300, 400))])
    by_player = {row["player_id"]: row for row in rows}
    out = by_player[5]
    assert out["stage"] == "qualifying" and out["opponents"] == qualifying[0]["match_points"] + \
        qualifying[1]["match_points"] + qualifying[2]["match_points"] + qualifying[3]["match_points"]
    met = sum(by_player[player]["overall"]["match_points"] for player in (1, 2, 3, 4))
    assert out["overall"]["opponents"] == met > out["opponents"]
    assert out["overall"]["match_points"] == out["match_points"]
