"""The standings as shown and as downloaded: match points exact wherever they are shown, in
both languages; the CSV written from the rows; XLSX and ODS through django-tables2's export;
withdrawn players marked; text a spreadsheet would run as a formula neutralised."""

from __future__ import annotations

import csv
import doctest
import io
import re
from fractions import Fraction

import openpyxl
import pytest
import tablib
from django_tables2.export import TableExport
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tests.factories import played_session, players_of, tournament_with_players
from tests.tournament.tournaments import settings_of
from tournament.kit import spreadsheet
from tournament.kit import tables as shared_tables
from tournament.models import Player, Registration
from tournament.organiser.services import registration_withdraw, tournament_update
from tournament.standings import tables
from tournament.standings.ranking import (
    MatchResult,
    StandingPlayer,
    match_points,
    standings_compute,
)
from tournament.standings.selectors import standings_rows

pytestmark = pytest.mark.django_db

CRITERIA = ["match_points", "opponents", "share"]
HEADER = ["Rank", "Tied", "Player", "Club", "Matches", "Match points", "Opponents", "Share",
          "Status"]
HYPERLINK = '=HYPERLINK("http://example.org")'


#: ``five``'s players in seat order, and their totals: Bo and Cy tie second.
FIVE = [("Ana", "Lyon", 400), ("Bo", "=HYPERLINK(\"http://example.org\")", 300),
        ("Cy", "", 300), ("Di", "@Paris", 200), ("=1+2", "+33", 100)]


@pytest.fixture
def five(db):
    """``FIVE`` at one table of 5, confirmed: Ana 3 match points, Bo and Cy 1.875 each (the
    2nd and 3rd places' 1.5 and 1.5 shared: 3 * 5 / 8), Di 0.75, "=1+2" 0; opponents' strength
    Ana 4.5, Bo and Cy 5.625. Di has withdrawn since. Names and clubs that a spreadsheet would
    run as formulas. Ranked by ``CRITERIA``; Di, withdrawn, is listed last, unranked."""
    tournament = tournament_with_players(slug="five", players=[(n, c) for n, c, _ in FIVE],
                                         rules="goliath-family")  # tables of up to 6
    tournament = tournament_update(**settings_of(tournament, ranking_criteria=CRITERIA))
    played_session(tournament=tournament, tables=[players_of(tournament)],
                   totals=[[total for _name, _club, total in FIVE]])
    registration_withdraw(registration=Registration.objects.get(
        tournament=tournament, player__name="Di"))
    return tournament


def player_url(name: str) -> str:
    return f"/t/five/players/{Player.objects.get(name=name).pk}/"


def test_the_doctests():
    for module in (tables, shared_tables, spreadsheet):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed, module


@pytest.mark.parametrize(("language", "exact", "opponents", "rounded"), [
    ("fr", "1,875", "5,625", "1,88"), ("en", "1.875", "5.625", "1.88")])
def test_the_standings_page_shows_match_points_exactly(client, five, language, exact, opponents,
                                                       rounded):
    page = client.get("/t/five/standings/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert page.count(f'<td class="number">{exact}</td>') == 2  # Bo and Cy
    assert page.count(f'<td class="number">{opponents}</td>') == 2
    assert rounded not in page


@pytest.mark.parametrize(("language", "exact", "opponents"), [
    ("fr", "1,875", "5,625"), ("en", "1.875", "5.625")])
def test_the_player_page_shows_match_points_exactly(client, five, language, exact, opponents):
    response = client.get(player_url("Bo"), HTTP_ACCEPT_LANGUAGE=language)
    assert [text for _label, text in response.context["criteria_scores"]][:2] == [exact, opponents]
    assert f'<td class="number">{exact}</td>' in response.content.decode()  # the match's line


def test_the_csv_is_the_rows_exactly_with_withdrawals_marked(client, five):
    response = client.get("/t/five/standings/?_export=csv", HTTP_ACCEPT_LANGUAGE="en")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="five-standings.csv"'
    assert response.content.startswith("\ufeff".encode())
    lines = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert lines[0] == HEADER
    assert lines[1:] == [
        ["1", "", "Ana", "Lyon", "1", "3", "4.5", "0.3077", ""],
        ["2", "tied", "Bo", "'" + HYPERLINK, "1", "1.875", "5.625", "0.2308", ""],
        ["2", "tied", "Cy", "", "1", "1.875", "5.625", "0.2308", ""],
        ["4", "", "'=1+2", "'+33", "1", "0", "7.5", "0.0769", ""],
        ["", "", "Di", "'@Paris", "1", "0.75", "6.75", "0.1538", "withdrawn"],
    ]
    assert [line[2] for line in lines[1:]] == [
        spreadsheet.spreadsheet_cell(row["name"]) for row in standings_rows(tournament=five)]


def test_the_csv_in_french_opens_in_columns_in_a_french_spreadsheet(client, five):
    """French spreadsheets split a CSV at semicolons and read decimal commas."""
    lines = list(csv.reader(io.StringIO(
        client.get("/t/five/standings/?_export=csv").content.decode("utf-8-sig")), delimiter=";"))
    assert len(lines[0]) == len(HEADER) and lines[0][0] == "Rang"
    assert lines[2][:2] == ["2", "ex æquo"]
    assert lines[5][5:] == ["0,75", "6,75", "0,1538", "forfait"]


@pytest.mark.parametrize(("dialect", "delimiter", "share"), [
    ("comma", ",", "0.3077"), ("semicolon", ";", "0,3077")])
def test_either_csv_is_offered_by_name_in_either_language(client, five, dialect, delimiter,
                                                         share):
    for language in ("fr", "en"):
        page = client.get("/t/five/standings/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert f'id="download-csv-{dialect}"' in page
        response = client.get(f"/t/five/standings/?_export=csv&csv={dialect}",
                              HTTP_ACCEPT_LANGUAGE=language)
        lines = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")),
                                delimiter=delimiter))
        assert len(lines[1]) == len(HEADER) and lines[1][7] == share


def test_the_xlsx_export_has_numbers_a_french_spreadsheet_reads(client, five):
    response = client.get("/t/five/standings/?_export=xlsx", HTTP_ACCEPT_LANGUAGE="en")
    assert response["Content-Type"] == TableExport.FORMATS["xlsx"]
    assert response["Content-Disposition"] == 'attachment; filename="five-standings.xlsx"'
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    assert sheet.title == "Standings"
    values = [[cell.value for cell in row] for row in sheet.iter_rows()]
    assert values[0] == HEADER
    assert values[1][:8] == [1, None, "Ana", "Lyon", 1, 3, 4.5, 0.3077]
    # The rank is a number in every ranked line (a spreadsheet sorts it), the tie in its own
    # column; the withdrawn player, not ranked, last without a rank.
    assert values[2][:8] == [2, "tied", "Bo", "'" + HYPERLINK, 1, 1.875, 5.625, 0.2308]
    assert [row[0] for row in values[1:5]] == [1, 2, 2, 4]
    assert values[5][0] in (None, "")
    assert values[5][2:4] == ["Di", "'@Paris"] and values[5][8] == "withdrawn"
    assert values[4][2:4] == ["'=1+2", "'+33"]
    # Text stays text: no cell of the sheet is a formula.
    assert "f" not in {cell.data_type for row in sheet.iter_rows() for cell in row}


def test_the_ods_export(client, five):
    response = client.get("/t/five/standings/?_export=ods")
    assert response["Content-Type"] == TableExport.FORMATS["ods"]
    assert response["Content-Disposition"] == 'attachment; filename="five-standings.ods"'
    data = tablib.Dataset().load(response.content, format="ods")
    assert data.headers[0] == "Rang" and data.headers[-1] == "Statut"
    assert list(data[1][:8]) == [2, "ex æquo", "Bo", "'" + HYPERLINK, 1, 1.875, 5.625, 0.2308]
    assert data[4][2] == "Di" and data[4][8] == "forfait"
    assert data[3][2:4] == ("'=1+2", "'+33")


def test_the_standings_page_links_every_download(client, five):
    page = client.get("/t/five/standings/").content.decode()
    for export_format in ("csv&amp;csv=semicolon", "csv&amp;csv=comma", "xlsx", "ods"):
        assert f'href="?_export={export_format}"' in page


def test_every_download_the_page_links_is_a_file_of_its_format(client, five):
    """The downloads docs/guides/organiser.md lists are the page's links, and each gives its file."""
    page = client.get("/t/five/standings/").content.decode()
    linked = re.findall(r'href="\?_export=(\w+)[&"]', page)
    assert sorted(set(linked)) == ["csv", "ods", "xlsx"]
    for export_format in set(linked):
        response = client.get(f"/t/five/standings/?_export={export_format}")
        assert response.status_code == 200
        assert response["Content-Type"].startswith(TableExport.FORMATS[export_format])
        assert response["Content-Disposition"] == (
            f'attachment; filename="five-standings.{export_format}"')


@given(st.lists(st.lists(st.integers(min_value=-50, max_value=500), min_size=2, max_size=6),
                min_size=1, max_size=12))
@settings(max_examples=examples(150), deadline=None)
def test_match_points_shown_are_the_exact_fractions(tables_totals):
    """Whatever the tables (2 to 6 players) and totals, the match points and opponents'
    strength shown are the exact sums of the fractions ``match_points`` gives."""
    players = [StandingPlayer(number, f"P{number}") for number in range(6)]
    results = [MatchResult(tuple(range(len(totals))), tuple(totals)) for totals in tables_totals]
    exact = dict.fromkeys(range(6), Fraction(0))
    for totals in tables_totals:
        for seat, points in enumerate(match_points(totals)):
            exact[seat] += points
    opponents = dict.fromkeys(range(6), Fraction(0))
    for totals in tables_totals:
        for seat in range(len(totals)):
            opponents[seat] += sum(exact[other] for other in range(len(totals)) if other != seat)
    for row in standings_compute(players=players, results=results,
                                 criteria=["match_points", "opponents"]):
        player = row["player_id"]
        assert Fraction(tables.points_display(row["match_points"], separator=".")) == exact[player]
        assert Fraction(tables.points_display(row["opponents"], separator=".")) == opponents[player]
