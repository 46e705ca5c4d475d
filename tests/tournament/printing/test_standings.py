"""The standings, printable: every player in rank order, from the standings' own selector."""

from __future__ import annotations

import pytest

from tests.tournament.printing.helpers import (
    accented_tournament,
    assert_pdf,
    filled_match,
)
from tournament import services
from tournament.standings.selectors import standings_rows

pytestmark = pytest.mark.django_db


def test_every_player_in_rank_order(client, make_user):
    tournament = accented_tournament()
    referee = make_user("remi")
    services.staff_role_grant(tournament=tournament, user=referee, role="referee")
    filled_match(tournament, referee)
    rows = standings_rows(tournament=tournament)
    assert rows[0]["matches"] == 1 and rows[0]["rank"] == 1
    pages = assert_pdf(client.get(f"/t/{tournament.slug}/standings.pdf", HTTP_ACCEPT_LANGUAGE="en"))
    text = "\n".join(pages)
    positions = [text.index(row["name"]) for row in rows]
    assert positions == sorted(positions)
    for row in rows:
        line = next(line for line in text.splitlines() if row["name"] in line)
        assert line.startswith(f"{row['rank_label']} {row['name']}"), line
    assert "Mads Sørensen" in text and "Łukasz Nowak" in text
    # the session started for the match to be entered: table 2 is in play, table 1 counted
    assert "Still in play, not counted yet: session 1 table 2." in text


def test_tables_still_in_play_are_named(client, tournament):
    session = tournament.sessions.get()
    session.status = "playing"
    session.save()
    text = "\n".join(assert_pdf(client.get("/t/spring-open/standings.pdf", HTTP_ACCEPT_LANGUAGE="en")))
    assert "session 1 table 1, session 1 table 2" in text


def test_public_when_the_tournament_is(client, make_tournament):
    make_tournament(slug="secret-open", is_public=False)
    assert client.get("/t/secret-open/standings.pdf").status_code == 404


def test_kept_while_the_standings_do_not_change_made_anew_when_they_do(client, make_user,
                                                                        pdfs_made):
    """Every phone of the room may ask for them at once: the PDF is made once per content."""
    tournament = accented_tournament()
    url = f"/t/{tournament.slug}/standings.pdf"
    first = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert client.get(url, HTTP_ACCEPT_LANGUAGE="en").content == first.content
    assert len(pdfs_made) == 1
    assert_pdf(client.get(url, HTTP_ACCEPT_LANGUAGE="fr"))  # each language its own
    assert len(pdfs_made) == 2
    referee = make_user("remi")
    services.staff_role_grant(tournament=tournament, user=referee, role="referee")
    filled_match(tournament, referee)  # a match confirmed: the standings change
    text = "\n".join(assert_pdf(client.get(url, HTTP_ACCEPT_LANGUAGE="en")))
    assert len(pdfs_made) == 3
    leader = standings_rows(tournament=tournament)[0]
    assert leader["matches"] == 1 and f"1 {leader['name']}" in text
    assert "?html" not in url and "<html" in client.get(url + "?html").content.decode()
