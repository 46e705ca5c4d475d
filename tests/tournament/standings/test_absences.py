"""Absences in the standings (docs/guides/check-in.md), recomputed here from the match totals the
tests play, not from the app's ranking: with "forfeit" each session missed counts as a
match played for nothing in the average share; with "unranked" it counts for nothing."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

import openpyxl
import pytest
from django.test import Client

from tests.factories import confirmed_match, match_at, players_of, tournament_with_players
from tests.pages import attribute, by_id, has_id, select, text
from tests.tournament.printing.helpers import assert_pdf
from tests.tournament.standings.test_final import eight, final_played
from tests.tournament.tournaments import settings_of
from tournament.models import CheckInRule, FinalSize, Tournament
from tournament.organiser.services import tournament_update
from tournament.seating.services import session_seat_players
from tournament.sessions.services import (
    check_in_mark,
    session_close,
    session_create,
    session_start,
)
from tournament.standings.selectors import standings_rows
from tournament.standings.tables import EXPORT_LEADING_COLUMNS

pytestmark = pytest.mark.django_db

# Ten players A..J; J never comes. I misses session 1, B misses session 2.
LETTERS = "ABCDEFGHIJ"
SESSIONS = [
    # (tables of letters, totals per table)
    ([("A", "B", "C", "D"), ("E", "F", "G", "H")], [(400, 300, 200, 100), (410, 310, 210, 110)]),
    ([("A", "C", "D", "E"), ("F", "G", "H", "I")], [(150, 420, 250, 350), (405, 120, 220, 330)]),
]
ABSENT = {"B": [2], "I": [1], "J": [1, 2]}


def build(rule: str) -> Tournament:
    tournament = tournament_with_players(
        slug="absent-cup", players=[f"Player {letter}" for letter in LETTERS], match_rounds=1,
        check_in=rule)
    tournament_update(
        tournament=tournament, name=tournament.name, start_date=tournament.start_date,
        end_date=None, venue="", rules=tournament.rules, target=None, match_rounds=1,
        ranking_criteria=["share", "total_points"], keep_clubs_apart=False, is_public=True)
    by_letter = {player.name[-1]: player for player in players_of(tournament)}
    for number, (tables, totals) in enumerate(SESSIONS, start=1):
        session = session_create(tournament=tournament)
        for letter, player in by_letter.items():
            if number not in ABSENT.get(letter, []):
                check_in_mark(session=session, player=player, present=True, user=None)
        session_seat_players(session=session, tables=[[by_letter[letter] for letter in table]
                                                      for table in tables])
        session = session_start(session=session)
        for table_number, table_totals in enumerate(totals, start=1):
            confirmed_match(match=match_at(tournament=tournament, session=number,
                                           table=table_number), totals=table_totals)
        session_close(session=session)
    return Tournament.objects.get(pk=tournament.pk)


def expected(rule: str) -> dict[str, dict]:
    """Each letter's matches, total, share (exact) and absences, from SESSIONS alone."""
    figures = {letter: {"matches": 0, "total": 0, "share": Fraction(0)} for letter in LETTERS}
    for tables, totals in SESSIONS:
        for table, table_totals in zip(tables, totals, strict=True):
            for letter, total in zip(table, table_totals, strict=True):
                figures[letter]["matches"] += 1
                figures[letter]["total"] += total
                figures[letter]["share"] += Fraction(total, sum(table_totals))
    for letter, row in figures.items():
        absences = ABSENT.get(letter, [])
        row["absent"] = tuple(absences)
        row["forfeits"] = len(absences) if rule == CheckInRule.FORFEIT else 0
        counted = row["matches"] + row["forfeits"]
        row["average"] = row["share"] / counted if row["matches"] else Fraction(0)
    return figures


@pytest.mark.parametrize("rule", [CheckInRule.FORFEIT, CheckInRule.UNRANKED])
def test_absences_count_as_the_rule_says(rule):
    tournament = build(rule)
    rows = {row["name"][-1]: row for row in standings_rows(tournament=tournament)}
    figures = expected(rule)
    for letter, want in figures.items():
        row = rows[letter]
        assert row["matches"] == want["matches"], letter
        assert row["total_points"] == want["total"], letter
        assert row["absent_sessions"] == want["absent"], letter
        assert row["forfeits"] == want["forfeits"], letter
        assert row["share"] == pytest.approx(float(want["average"]), abs=1e-9), letter
    # the ranking: by average share, then total points; J (never came) ranked nowhere
    ranked = sorted((letter for letter in LETTERS if figures[letter]["matches"]),
                    key=lambda letter: (-figures[letter]["average"], -figures[letter]["total"]))
    assert ranked == [
        row["name"][-1] for row in standings_rows(tournament=tournament) if row["ranked"]]
    assert rows["J"]["ranked"] is False


def test_a_forfeit_costs_the_absent_player_places():
    """B missed session 2: under "forfeit" their average is halved, under "unranked" not."""
    forfeit = {row["name"][-1]: row for row in standings_rows(tournament=build(CheckInRule.FORFEIT))}
    Tournament.objects.all().delete()
    unranked = {row["name"][-1]: row
                for row in standings_rows(tournament=build(CheckInRule.UNRANKED))}
    assert forfeit["B"]["share"] == pytest.approx(unranked["B"]["share"] / 2)
    assert forfeit["B"]["rank"] > unranked["B"]["rank"]
    assert forfeit["A"]["share"] == unranked["A"]["share"]  # present at both: the same


def test_without_check_in_nobody_is_absent(make_tournament):
    tournament = make_tournament(slug="open", players=8, sessions=1)
    for row in standings_rows(tournament=tournament):
        assert row["absent_sessions"] == () and row["forfeits"] == 0


def test_the_standings_page_says_the_rule_and_who_missed_what():
    tournament = build(CheckInRule.FORFEIT)
    page = Client().get(f"/t/{tournament.slug}/standings/")
    assert page.status_code == 200
    assert attribute(by_id(page, "absences-rule"), "data-rule") == "forfeit"
    letter_b = next(row for row in players_of(tournament) if row.name.endswith("B"))
    cells = select(page, f'#standings tr[data-player="{letter_b.pk}"] td.absent')
    assert len(cells) == 1 and "".join(cells[0].itertext()).startswith("2")
    assert [attribute(tag, "data-forfeits") for tag in cells[0].iter() if tag.get(
        "data-forfeits")] == ["1"]


def test_the_spreadsheet_export_carries_the_sessions_missed():
    tournament = build(CheckInRule.UNRANKED)
    response = Client().get(f"/t/{tournament.slug}/standings/?_export=xlsx")
    assert response.status_code == 200
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    column = rows[0].index("Absent")
    name_column = 2  # rank, tied, name: EXPORT_LEADING_COLUMNS
    missed = {row[name_column][-1]: row[column] for row in rows[1:]}
    assert missed == {letter: ", ".join(map(str, ABSENT.get(letter, []))) or None
                      for letter in LETTERS}


def test_the_csv_carries_the_sessions_missed():
    tournament = build(CheckInRule.FORFEIT)
    response = Client().get(f"/t/{tournament.slug}/standings/?_export=csv&csv=comma")
    assert response.status_code == 200
    lines = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    column = len(EXPORT_LEADING_COLUMNS) + len(tournament.ranking_criteria)
    missed = {line[2][-1]: line[column] for line in lines[1:]}
    assert missed == {letter: ", ".join(map(str, ABSENT.get(letter, []))) for letter in LETTERS}


@pytest.mark.parametrize("rule", [CheckInRule.FORFEIT, CheckInRule.UNRANKED])
def test_the_printed_standings_carry_the_sessions_missed_and_the_rule(rule):
    tournament = build(rule)
    url = f"/t/{tournament.slug}/standings.pdf"
    page = Client().get(url + "?html", HTTP_ACCEPT_LANGUAGE="en")
    assert attribute(by_id(page, "absences-rule"), "data-rule") == rule
    headers = [cell.get("class").split()[0] for cell in select(page, "table.standings-table th")]
    assert headers[-1] == "standings-absent"
    missed = {
        select_text(row, "name")[-1]: select_text(row, "absent")
        for row in select(page, "table.standings-table tbody tr")
    }
    assert missed == {letter: ", ".join(map(str, ABSENT.get(letter, []))) for letter in LETTERS}
    # the PDF itself: each player's line ends with the sessions missed
    text = "\n".join(assert_pdf(Client().get(url, HTTP_ACCEPT_LANGUAGE="en")))
    for letter, sessions in ABSENT.items():
        line = next(line for line in text.splitlines() if f"Player {letter}" in line)
        assert line.endswith(", ".join(map(str, sessions))), line


def test_without_check_in_the_print_has_no_absences():
    tournament = tournament_with_players(slug="present-cup", players=["Ann", "Bob"])
    page = Client().get(f"/t/{tournament.slug}/standings.pdf?html", HTTP_ACCEPT_LANGUAGE="en")
    assert not has_id(page, "absences-rule")
    assert not select(page, "th.standings-absent")


def select_text(row, name: str) -> str:
    """The text of the printed table's cell of column ``name`` in ``row``."""
    (cell,) = [cell for cell in row if f"standings-{name}" in cell.get("class", "").split()]
    return text(cell)


@pytest.mark.parametrize("rule", [CheckInRule.FORFEIT, CheckInRule.UNRANKED])
def test_the_final_is_seated_without_check_in_and_nobody_misses_it(rule):
    """The final's players are named by the standings (docs/guides/check-in.md): seating it asks
    for no check-in, and the qualifiers it leaves out are not absent from it."""
    tournament = eight(final_size=FinalSize.FOUR)
    before = {row["player_id"]: (row["share"], row["absent_sessions"])
              for row in standings_rows(tournament=tournament)}
    tournament_update(**settings_of(tournament, check_in=rule, match_rounds=1))
    final = final_played(tournament, [[200, 410, 300, 100]])
    assert final.is_final and not final.check_ins.exists()
    rows = standings_rows(tournament=tournament)
    assert [row["stage"] for row in rows] == ["final"] * 4 + ["qualifying"] * 4
    assert all(row["absent_sessions"] == () and row["forfeits"] == 0 for row in rows)
    for row in rows[4:]:  # the others keep the qualifying figures, no forfeit for the final
        assert (row["share"], row["absent_sessions"]) == before[row["player_id"]]
