"""The league's ranking downloaded (CSV, XLSX) and printed (PDF), and the pages' queries."""

from __future__ import annotations

import csv
import datetime
import io
import zipfile
from xml.etree import ElementTree

import openpyxl
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django_tables2.export import TableExport

from tests.tournament.printing.helpers import assert_document_footer, assert_pdf, cells_overflowing
from tournament.leagues import tables
from tournament.models import League, Player

pytestmark = pytest.mark.django_db


def test_the_doctests():
    import doctest

    assert doctest.testmod(tables).failed == 0


def test_the_ranking_as_csv(client, season):
    League.objects.filter(pk=season.pk).update(best_results=1)
    response = client.get("/leagues/season/?_export=csv", HTTP_ACCEPT_LANGUAGE="en")
    assert response["Content-Disposition"] == 'attachment; filename="season-ranking.csv"'
    lines = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert lines[0] == ["Rank", "Player", "Club", "Winter", "Spring", "Points", "Best result",
                        "Tournaments"]
    assert lines[1:] == [
        ["1", "Ana", "Club A", "4", "(1)", "4", "4", "2"],
        ["2", "Bo", "Club B", "3", "(3)", "3", "3", "2"],  # equal results: the earlier counts
        ["3=", "Cy", "Club C", "2", "", "2", "2", "1"],
        ["3=", "Ed", "Club E", "", "2", "2", "2", "1"],
        ["5", "Di", "Club D", "1", "", "1", "1", "1"],
    ]


def test_the_ranking_as_xlsx_has_numbers(client, season):
    response = client.get("/leagues/season/?_export=xlsx", HTTP_ACCEPT_LANGUAGE="en")
    assert response["Content-Type"] == TableExport.FORMATS["xlsx"]
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0] == ("Rank", "Player", "Club", "Winter", "Spring", "Points", "Best result",
                       "Tournaments")
    assert rows[1] == (1, "Bo", "Club B", 3, 3, 6, 3, 2)


def test_formulas_are_neutralised_in_the_exports(client, season, people):
    Player.objects.filter(pk=people["Bo"].pk).update(name="=1+2", club="@club")
    lines = list(csv.reader(io.StringIO(
        client.get("/leagues/season/?_export=csv").content.decode("utf-8-sig"))))
    assert ["'=1+2", "'@club"] in [line[1:3] for line in lines]


@pytest.mark.parametrize("export_format", ["xlsx", "ods"])
def test_a_tournaments_name_is_never_a_formula_in_the_headers(client, season, export_format):
    """A tournament's name heads its column: written as a cell, it must be neutralised as
    one, or ``=HYPERLINK(...)`` is a live link in the organiser's spreadsheet."""
    hostile = '=HYPERLINK("http://evil.example/","Winter")'
    season.tournaments.filter(slug="winter").update(name=hostile)
    response = client.get(f"/leagues/season/?_export={export_format}", HTTP_ACCEPT_LANGUAGE="en")
    if export_format == "xlsx":
        sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
        headers = list(next(sheet.iter_rows()))
        assert all(cell.data_type != "f" for cell in headers)
        assert "'" + hostile in [cell.value for cell in headers]
    else:
        with zipfile.ZipFile(io.BytesIO(response.content)) as document:
            content = document.read("content.xml").decode()
        assert "table:formula" not in content
        texts = ["".join(element.itertext()) for element in ElementTree.fromstring(content).iter(
            "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}p")]
        assert "'" + hostile in texts


def test_the_ranking_as_pdf(client, season, people):
    Player.objects.filter(pk=people["Ana"].pk).update(name="Łukasz Nowak")
    before = timezone.now()
    response = client.get(reverse("tournament:league_ranking_pdf", kwargs={"slug": "season"}),
                          HTTP_ACCEPT_LANGUAGE="en")
    pages = assert_pdf(response)
    assert_document_footer(pages, owner="Season", label="League ranking", printed_since=before)
    assert response["Content-Disposition"] == 'inline; filename="season-ranking.pdf"'
    text = "\n".join(pages)
    for name in ("Łukasz Nowak", "Bo", "Cy", "Di", "Ed", "Winter", "Spring", "Season"):
        assert name in text
    assert text.index("Bo") < text.index("Łukasz Nowak") < text.index("Di")
    html = client.get("/leagues/season/ranking.pdf?html", HTTP_ACCEPT_LANGUAGE="en")
    assert cells_overflowing(html.content.decode()) == []


def test_the_pdf_of_an_empty_league(client, make_league):
    make_league("empty")
    pages = assert_pdf(client.get("/leagues/empty/ranking.pdf"))
    assert len(pages) == 1


def league_of(make_finished, make_league, count: int) -> League:
    tournaments = [
        make_finished(f"l{count}-t{number}", ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"][number % 3:],
                      start=datetime.date(2025, 1, 1) + datetime.timedelta(days=7 * number))
        for number in range(count)
    ]
    return make_league(f"league-{count}", tournaments=tournaments)


def count_queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured.captured_queries)


@pytest.mark.parametrize("logged_in", [False, True])
def test_the_league_page_queries_do_not_grow_with_tournaments(
    client, make_finished, make_league, league_organiser, logged_in
):
    if logged_in:
        client.force_login(league_organiser)
    small = league_of(make_finished, make_league, 2)
    large = league_of(make_finished, make_league, 6)
    for league in (small, large):
        client.get(f"/leagues/{league.slug}/")  # each tournament's standings kept
    for suffix in ("", "?_export=csv", "?_export=xlsx"):
        counts = [count_queries(client, f"/leagues/{league.slug}/{suffix}")
                  for league in (small, large)]
        assert counts[0] == counts[1], (suffix, counts)
    assert count_queries(client, f"/leagues/{large.slug}/ranking.pdf?html") == count_queries(
        client, f"/leagues/{small.slug}/ranking.pdf?html")


def test_the_league_page_query_bound(client, make_finished, make_league,
                                     django_assert_max_num_queries):
    league = league_of(make_finished, make_league, 5)
    client.get(f"/leagues/{league.slug}/")  # each tournament's standings kept
    with django_assert_max_num_queries(4):  # 3 for the page, 1 for the kept standings
        assert client.get(f"/leagues/{league.slug}/").status_code == 200


def test_the_list_queries_do_not_grow(client, make_league, django_assert_max_num_queries):
    for number in range(8):
        make_league(f"league-{number}")
    with django_assert_max_num_queries(2):
        page = client.get("/leagues/")
    assert page.status_code == 200
