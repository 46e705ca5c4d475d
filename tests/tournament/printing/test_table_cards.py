"""Table cards: one A4 landscape page per physical table, with the QR code of the table's
address for the whole event (/t/<slug>/tables/<n>/), read back from the PDF; for staff only."""

from __future__ import annotations

import io

import pytest
from django.test import override_settings
from pypdf import PdfReader

from tests.pages import select
from tests.tournament.printing.helpers import assert_pdf
from tournament.kit.qr import qr_png_data_uri
from tournament.models import StaffRole
from tournament.organiser.services import player_add
from tournament.printing.selectors import tournament_table_count
from tournament.seating.services import session_seat_players
from tournament.sessions.services import session_create

pytestmark = pytest.mark.django_db

A4_LANDSCAPE = (842, 595)  # points, rounded


def cards_url(slug: str, query: str = "") -> str:
    return f"/t/{slug}/tables.pdf{query}"


def card_tables(pages: list[str]) -> list[int]:
    """The table each page is the card of, from its "Table <n>" line above the QR code."""
    numbers = []
    for page in pages:
        titles = [line for line in page.splitlines() if line.startswith("Table ")]
        assert len(titles) == 1, page
        numbers.append(int(titles[0].removeprefix("Table ")))
    return numbers


@pytest.fixture
def uneven_tournament(make_tournament):
    """Session 1 at 2 tables, session 2 at 3, session 3 at 1, session 4 not seated yet."""
    tournament = make_tournament(slug="big-open", players=0, sessions=0)
    players = [
        player_add(tournament=tournament, name=f"Player {number:02d}").player
        for number in range(1, 13)
    ]
    for tables in ([players[:4], players[4:8]], [players[:4], players[4:8], players[8:]],
                   [players[:4]]):
        session_seat_players(session=session_create(tournament=tournament), tables=tables)
    session_create(tournament=tournament)
    return tournament


def test_one_a4_landscape_page_per_table_of_the_largest_session(staff_client, uneven_tournament):
    response = staff_client(uneven_tournament).get(cards_url("big-open"))
    pages = assert_pdf(response)
    assert card_tables(pages) == [1, 2, 3]
    for number, page in enumerate(pages, start=1):
        lines = page.splitlines()
        assert str(number) in lines  # the number in large type
        assert "BIG OPEN" in lines  # the tournament
        assert "Scan to follow this table's match" in lines
    reader = PdfReader(io.BytesIO(response.content))
    assert {tuple(round(float(v)) for v in page.mediabox[2:]) for page in reader.pages} == {
        A4_LANDSCAPE
    }
    assert 'filename="big-open-table-cards.pdf"' in response["Content-Disposition"]


def test_the_largest_session_is_read_in_one_query(uneven_tournament, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert tournament_table_count(tournament=uneven_tournament) == 3


def test_each_page_prints_its_tables_address_which_its_qr_code_holds(staff_client, tournament):
    client = staff_client(tournament)
    pages = assert_pdf(client.get(cards_url(tournament.slug)))
    html = client.get(cards_url(tournament.slug, "?html")).content.decode()
    for number, page in enumerate(pages, start=1):
        address = f"http://testserver/t/spring-open/tables/{number}/"
        assert address in page.splitlines()
        assert [line for line in page.splitlines() if "/t/" in line] == [address]
        assert f'src="{qr_png_data_uri(address)}" alt="{address}"' in html
    assert html.count('class="table-card__qr"') == 2


def test_the_address_on_a_card_opens_the_tables_match(staff_client, tournament):
    client = staff_client(tournament)
    pages = assert_pdf(client.get(cards_url(tournament.slug, "?tables=2")))
    address = pages[0].splitlines()[-1].removeprefix("http://testserver")
    match = tournament.sessions.get().tables.get(number=2).match
    assert client.get(address)["Location"] == f"/t/spring-open/matches/{match.pk}/"


@override_settings(ALLOWED_HOSTS=["localhost", "127.0.0.1", "192.168.1.10"])
def test_printed_from_the_laptop_itself_the_cards_hold_the_network_address(staff_client,
                                                                           tournament):
    client = staff_client(tournament)
    for host in ("localhost:8000", "192.168.1.10:8000"):
        pages = assert_pdf(client.get(cards_url(tournament.slug), HTTP_HOST=host))
        for number, page in enumerate(pages, start=1):
            assert f"http://192.168.1.10:8000/t/spring-open/tables/{number}/" in page.splitlines()
        html = client.get(cards_url(tournament.slug, "?html"), HTTP_HOST=host).content.decode()
        address = "http://192.168.1.10:8000/t/spring-open/tables/1/"
        assert f'src="{qr_png_data_uri(address)}" alt="{address}"' in html


# Which tables: those asked for (a card lost or torn), else every table.


def test_chosen_tables_only(staff_client, make_tournament):
    tournament = make_tournament(slug="big-open", players=20)  # five tables of 4
    pages = assert_pdf(staff_client(tournament).get(cards_url("big-open", "?tables=2,4-5")))
    assert card_tables(pages) == [2, 4, 5]


@pytest.mark.parametrize(("tables", "code"), [
    ("3", "no-such-table"),
    ("2-4", "no-such-table"),
    ("2-1", "table-range"),
    ("two", "table-list"),
])
def test_tables_that_cannot_be_printed_are_refused_with_a_message(staff_client, tournament,
                                                                   tables, code):
    response = staff_client(tournament).get(cards_url(tournament.slug, f"?tables={tables}"))
    assert response.status_code == 400
    assert response.context["form"].has_error("tables", code)
    assert select(response, 'p.message--error[data-field="tables"]')  # next to its option


def test_no_seated_session_prints_a_page_that_says_so(staff_client, make_tournament):
    tournament = make_tournament(slug="early-open", sessions=0)
    session_create(tournament=tournament)  # a draft: nobody seated yet
    pages = assert_pdf(staff_client(tournament).get(cards_url("early-open")))
    assert len(pages) == 1
    assert "No session is seated yet: there is no table to print." in pages[0]


def test_french_by_default(staff_client, tournament):
    client = staff_client(tournament)
    client.defaults.pop("HTTP_ACCEPT_LANGUAGE")
    pages = assert_pdf(client.get(cards_url(tournament.slug)))
    assert "Scannez pour suivre la partie de cette table" in pages[0]
    assert "Table 1" in pages[0].splitlines()
    response = client.get(cards_url(tournament.slug, "?tables=5"))
    assert response.status_code == 400
    assert "Aucune session placée n’a de table 5." in response.content.decode()


# Permissions: organisers and referees only, like the score sheets.


def test_referees_print_them(staff_client, tournament):
    client = staff_client(tournament, StaffRole.Role.REFEREE)
    assert card_tables(assert_pdf(client.get(cards_url(tournament.slug)))) == [1, 2]


def test_a_referee_limited_to_some_tables_prints_every_card(client, tournament,
                                                            referee_of_table_2):
    """The cards show nothing a referee's tables would keep from them: the addresses are
    public, and a card is printed once for the whole room."""
    client.force_login(referee_of_table_2)
    assert len(assert_pdf(client.get(cards_url(tournament.slug)))) == 2


def test_not_public(client, tournament):
    response = client.get(cards_url(tournament.slug))
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_not_for_an_account_without_a_role(client, tournament, outsider):
    client.force_login(outsider)
    assert client.get(cards_url(tournament.slug)).status_code == 403


def test_not_for_the_staff_of_another_tournament(staff_client, tournament, make_tournament):
    other = make_tournament(slug="other-open")
    assert staff_client(other).get(cards_url(tournament.slug)).status_code == 403


def test_each_card_prints_the_code_that_calls_a_referee_to_its_table(staff_client, tournament,
                                                                   client):
    """The code on card n calls a referee to table n, and to no other table."""
    from tournament.kit.table_codes import table_code, table_code_printed
    from tournament.models import RefereeCall
    from tournament.sessions.services import session_start

    pages = assert_pdf(staff_client(tournament).get(cards_url(tournament.slug)))
    codes = {}
    for number, page in enumerate(pages, start=1):
        words = page.split()
        codes[number] = next(word for word in words if len(word) == 7 and word[3] == "-")
        assert codes[number] == table_code_printed(table_code(tournament.pk, number))
    session_start(session=tournament.sessions.get(number=1))
    anyone = client
    anyone.logout()
    refused = anyone.post("/t/spring-open/tables/1/call/", {"reason": "dispute", "code": codes[2]})
    assert refused.status_code == 400 and not RefereeCall.objects.exists()
    # as a phone types it: lower case, the hyphen kept
    anyone.post("/t/spring-open/tables/1/call/", {"reason": "dispute", "code": codes[1].lower()})
    assert RefereeCall.objects.get().table.number == 1
