"""Blank score sheets: one A4 page per table, read back from the PDF; for staff only."""

from __future__ import annotations

import io
import re

import pytest
from django.test import override_settings
from pypdf import PdfReader

from tests.factories import ACCENTED_NAMES, accented_tournament, entered_by_tables
from tests.tournament.printing.helpers import assert_pdf
from tournament.core.tournaments import staff_role_grant
from tournament.models import StaffRole
from tournament.sessions.services import session_create

pytestmark = pytest.mark.django_db

A4 = (595, 842)  # points, rounded


def sheets_url(slug: str, number: int = 1, query: str = "") -> str:
    return f"/t/{slug}/sessions/{number}/sheets.pdf{query}"


@pytest.mark.slow  # a PDF of many pages
def test_one_a4_page_per_table_naming_its_table_and_its_players(staff_client, make_tournament):
    tournament = make_tournament(slug="big-open", players=14)  # tables of 4, 4, 4 and 2
    response = staff_client(tournament).get(sheets_url("big-open"))
    pages = assert_pdf(response)
    assert len(pages) == 4
    for number, page in enumerate(pages, start=1):
        assert f"Session 1 · Table {number}" in page
        seated = set(range((number - 1) * 4 + 1, min(number * 4, 14) + 1))
        for player in range(1, 15):
            assert (f"Player {player:02d} big-open" in page) == (player in seated), (number, player)
        assert "Big Open" in page  # the tournament, in the header and the footer
        assert f"page {number} / 4" in page
    reader = PdfReader(io.BytesIO(response.content))
    assert {tuple(round(float(v)) for v in page.mediabox[2:]) for page in reader.pages} == {A4}
    assert 'filename="big-open-session-1-score-sheets.pdf"' in response["Content-Disposition"]


def test_players_in_seat_order_with_accents_intact(staff_client):
    tournament = accented_tournament()
    pages = assert_pdf(staff_client(tournament).get(sheets_url(tournament.slug)))
    assert len(pages) == 2
    for page, names in zip(pages, (ACCENTED_NAMES[:4], ACCENTED_NAMES[4:])):
        positions = [page.index(name) for name in names]
        assert positions == sorted(positions), page  # seat order: A, B, C, D
    assert "Sørensen" in pages[0] and "Łukasz" in pages[0] and "Chloé" in pages[0]
    assert "Salle Pierre-Sémard" in pages[1]


def test_the_qr_code_holds_the_match_address(staff_client):
    tournament = accented_tournament()
    html = staff_client(tournament).get(sheets_url(tournament.slug, query="?html")).content.decode()
    match_ids = tournament.sessions.get().tables.order_by("number").values_list("match", flat=True)
    for match_id in match_ids:
        assert f'alt="http://testserver/t/{tournament.slug}/matches/{match_id}/"' in html
    assert html.count('class="sheet-qr" src="data:image/png;base64,') == 2


def test_several_sheets_per_table_are_numbered_by_round(staff_client, tournament):
    pages = assert_pdf(staff_client(tournament).get(sheets_url(tournament.slug, query="?rounds=3")))
    assert len(pages) == 6
    labels = [page[page.index("Session 1 · Table"):].split("\n")[0] for page in pages]
    assert [label.split(" page ")[0] for label in labels] == [
        f"Session 1 · Table {table} · round {round_}" for table in (1, 2) for round_ in (1, 2, 3)
    ]


@pytest.mark.parametrize("rounds", ["0", "13", "two", "-1"])
def test_a_bad_number_of_sheets_is_refused_with_a_message(staff_client, tournament, rounds):
    response = staff_client(tournament).get(sheets_url(tournament.slug, query=f"?rounds={rounds}"))
    assert response.status_code == 400
    assert list(response.context["form"].errors) == ["rounds"]


def test_french_by_default(staff_client, tournament):
    client = staff_client(tournament)
    client.defaults.pop("HTTP_ACCEPT_LANGUAGE")
    pages = assert_pdf(client.get(sheets_url(tournament.slug)))
    assert "objectif 400 points" in pages[0] and "Session 1, table 1 page 1 / 2" in pages[0]


def test_a_session_without_tables_prints_a_page_that_says_so(staff_client, tournament):
    session_create(tournament=tournament)
    pages = assert_pdf(staff_client(tournament).get(sheets_url(tournament.slug, number=2)))
    assert len(pages) == 1 and "No table is seated in this session yet." in pages[0]


def test_an_unknown_session_is_a_404(staff_client, tournament):
    assert staff_client(tournament).get(sheets_url(tournament.slug, number=9)).status_code == 404


# Permissions: organisers and referees only.


def test_referees_print_them(staff_client, tournament):
    client = staff_client(tournament, StaffRole.Role.REFEREE)
    assert len(assert_pdf(client.get(sheets_url(tournament.slug)))) == 2


def test_not_public(client, tournament):
    response = client.get(sheets_url(tournament.slug))
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_not_for_an_account_without_a_role(client, tournament, outsider):
    client.force_login(outsider)
    assert client.get(sheets_url(tournament.slug)).status_code == 403


def test_not_for_the_staff_of_another_tournament(staff_client, tournament, make_tournament):
    other = make_tournament(slug="other-open")
    assert staff_client(other).get(sheets_url(tournament.slug)).status_code == 403


@override_settings(ALLOWED_HOSTS=["localhost", "127.0.0.1", "192.168.1.10"])
def test_printed_from_the_laptop_itself_the_qr_codes_hold_the_network_address(
    staff_client, tournament
):
    client = staff_client(tournament)
    html = client.get(sheets_url(tournament.slug, query="?html"), HTTP_HOST="localhost:8000")
    match_id = tournament.sessions.get().tables.get(number=1).match.pk
    assert f'alt="http://192.168.1.10:8000/t/spring-open/matches/{match_id}/"' in html.content.decode()
    html = client.get(sheets_url(tournament.slug, query="?html"), HTTP_HOST="192.168.1.10:8000")
    assert f'alt="http://192.168.1.10:8000/t/spring-open/matches/{match_id}/"' in html.content.decode()


# Which tables: those asked for (a reprint), else every table the user referees.


def table_numbers_printed(pages: list[str]) -> list[int]:
    return [int(re.search(r"Session 1(?: · Table|, table) (\d+)", page).group(1)) for page in pages]


def test_chosen_tables_only(staff_client, make_tournament):
    tournament = make_tournament(slug="big-open", players=20)  # five tables of 4
    client = staff_client(tournament)
    pages = assert_pdf(client.get(sheets_url("big-open", query="?tables=2,4-5&rounds=2")))
    assert table_numbers_printed(pages) == [2, 2, 4, 4, 5, 5]


@pytest.mark.parametrize(("tables", "code"), [
    ("9", "no-such-table"),
    ("2-1", "table-range"),
    ("two", "table-list"),
])
def test_tables_that_cannot_be_printed_are_refused_with_a_message(staff_client, tournament,
                                                                   tables, code):
    response = staff_client(tournament).get(sheets_url(tournament.slug, query=f"?tables={tables}"))
    assert response.status_code == 400
    assert response.context["form"].has_error("tables", code)


def test_a_referee_limited_to_some_tables_gets_theirs(client, tournament, referee_of_table_2):
    client.force_login(referee_of_table_2)
    assert table_numbers_printed(assert_pdf(client.get(sheets_url(tournament.slug)))) == [2]
    response = client.get(sheets_url(tournament.slug, query="?tables=1-2"))
    assert response.status_code == 400
    assert response.context["form"].has_error("tables", "not-yours")


def test_a_limited_referee_with_no_table_in_the_session_is_told(client, make_tournament,
                                                                make_user):
    tournament = make_tournament(slug="small-open", players=8)  # two tables
    user = make_user("far-referee")
    staff_role_grant(tournament=tournament, user=user, role=StaffRole.Role.REFEREE,
                              tables="7-8")
    client.force_login(user)
    response = client.get(sheets_url("small-open"))
    assert response.status_code == 400
    assert response.context["form"].has_error("tables", "none-of-yours")


def test_the_organisers_session_page_offers_chosen_tables(staff_client, tournament):
    html = staff_client(tournament).get(f"/t/{tournament.slug}/organise/sessions/1/").content.decode()
    form = html[html.index('id="print-sheets"'):]
    form = form[: form.index("</form>")]
    assert f'/t/{tournament.slug}/sessions/1/sheets.pdf' in html and 'name="tables"' in form
    assert 'name="rounds"' in form


def test_the_footers_stay_on_one_line_under_a_long_name(staff_client, make_tournament):
    """The three footers share the page's width: the table's label never breaks."""
    tournament = make_tournament(slug="long", name="Championnat régional de Triominos du "
                                 "Pays de la Loire, édition de printemps", players=48)
    tournament.venue = "Salle polyvalente Jean-Baptiste-Poquelin, Saint-Herblain"
    tournament.save()
    pages = assert_pdf(staff_client(tournament).get(sheets_url("long")))
    for number, page in enumerate(pages, start=1):
        lines = page.splitlines()
        assert any(f"Session 1 · Table {number}" in line for line in lines), lines[-3:]


@pytest.mark.slow  # a PDF
def test_a_table_keeping_its_own_score_gets_its_scorer_link_printed_whole(staff_client):
    """The private link under the QR code, whole on the page (nothing cut at its edge), and
    each table its own."""
    from tournament.matches.scorers import scorer_path, table_scorer

    tournament = entered_by_tables(tournament=accented_tournament())
    pages = assert_pdf(staff_client(tournament).get(sheets_url(tournament.slug)))
    tables = tournament.sessions.get().tables.order_by("number")
    links = ["http://testserver" + scorer_path(table_scorer(match=table.match)) for table in tables]
    assert len(pages) == len(links) == 2
    for page, link, other in zip(pages, links, reversed(links)):
        assert link in "".join(page.split()), page
        assert other not in "".join(page.split())
