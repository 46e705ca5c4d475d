"""The pages link to the printed documents; the score sheets' links only for the staff."""

from __future__ import annotations

import re

import pytest

from tournament.sessions.services import session_create

pytestmark = pytest.mark.django_db


def test_the_tournament_page_links_to_the_standings_and_the_seating(client, tournament):
    page = client.get("/t/spring-open/").content.decode()
    assert 'href="/t/spring-open/standings.pdf"' in page
    assert 'href="/t/spring-open/sessions/1/seating.pdf"' in page
    assert "sheets.pdf" not in page and "records.zip" not in page and "tables.pdf" not in page


def test_organisers_also_get_the_score_sheets(organiser_client):
    for url in ("/t/spring-open/", "/t/spring-open/sessions/1/",
                "/t/spring-open/organise/sessions/1/"):
        page = organiser_client.get(url).content.decode()
        assert 'href="/t/spring-open/sessions/1/sheets.pdf"' in page, url


def test_organisers_get_the_table_cards_on_the_tournament_and_session_pages(organiser_client):
    for url in ("/t/spring-open/", "/t/spring-open/organise/sessions/1/"):
        page = organiser_client.get(url).content.decode()
        assert 'href="/t/spring-open/tables.pdf"' in page, url


def test_referees_get_the_score_sheets_and_the_records_archive(referee_client):
    for url in ("/t/spring-open/", "/t/spring-open/sessions/1/"):
        page = referee_client.get(url).content.decode()
        assert 'href="/t/spring-open/sessions/1/sheets.pdf"' in page, url
    page = referee_client.get("/t/spring-open/").content.decode()
    assert 'href="/t/spring-open/records.zip"' in page
    assert 'href="/t/spring-open/tables.pdf"' in page
    assert 'href="/t/spring-open/organise/"' not in page


def test_the_public_session_page_links_to_its_seating(client, tournament):
    page = client.get("/t/spring-open/sessions/1/").content.decode()
    assert 'href="/t/spring-open/sessions/1/seating.pdf"' in page
    assert "sheets.pdf" not in page


def test_the_standings_page_links_to_its_pdf(client, tournament):
    page = client.get("/t/spring-open/standings/").content.decode()
    assert 'href="/t/spring-open/standings.pdf"' in page



def test_the_print_line_separates_only_the_sessions_it_shows(client, tournament):
    """The next session, opened but not seated (a draft), prints nothing: the line holds no
    separator of its own (the stylesheet puts one between the sessions shown)."""
    session_create(tournament=tournament)
    page = client.get("/t/spring-open/").content.decode()
    end = page.index('href="/t/spring-open/sessions/1/seating.pdf"')
    line = page[page.rindex('<p class="jump-links">', 0, end):]
    line = line[: line.index("</p>")]
    assert line.count('<span class="dotted-item">') == 1 and "sessions/2/" not in line
    assert "·" not in re.sub(r'<span class="dotted-item">.*?</span>', "", line, flags=re.S)
