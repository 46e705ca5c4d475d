"""The seating of a session, to pin on the wall: every player by name, with their table."""

from __future__ import annotations

import pytest

from tests.factories import ACCENTED_NAMES, accented_tournament
from tests.tournament.printing.helpers import assert_pdf
from tournament.core.tournaments import staff_role_grant
from tournament.models import Player
from tournament.names import name_sort_key, split_name, surname_sort_key
from tournament.seating.services import seating_swap

pytestmark = pytest.mark.django_db


def seating_url(slug: str, number: int = 1) -> str:
    return f"/t/{slug}/sessions/{number}/seating.pdf"


def printed(name: str) -> str:
    """The name as the list prints it: surname first."""
    given, surname = split_name(name)
    return f"{surname} {given}"


def test_every_player_by_surname_with_their_table(client):
    tournament = accented_tournament()
    pages = assert_pdf(client.get(seating_url(tournament.slug), HTTP_ACCEPT_LANGUAGE="en"))
    text = "\n".join(pages)
    lines = [line for line in text.splitlines()
             if any(printed(name) in line for name in ACCENTED_NAMES)]
    names = [next(name for name in ACCENTED_NAMES if printed(name) in line) for line in lines]
    # Sorted as a reader looks a surname up: Élodie Faure with the Fs, Łukasz Nowak with the Ns.
    assert names == sorted(ACCENTED_NAMES, key=surname_sort_key)
    assert names != sorted(ACCENTED_NAMES, key=name_sort_key)
    for line, name in zip(lines, names):
        table = 1 if ACCENTED_NAMES.index(name) < 4 else 2
        assert line.endswith(f"table {table}"), line
    assert "Session 1: find your table" in text


@pytest.mark.slow  # a PDF of many pages
def test_large_type_on_a4_pages_for_256_players(make_tournament, client):
    make_tournament(slug="large-open", players=64, table_size=4)
    pages = assert_pdf(client.get(seating_url("large-open")))
    assert 2 <= len(pages) <= 3  # two columns of about 20 names a page
    text = "\n".join(pages)
    for number in range(1, 65):
        assert printed(f"Player {number:02d} large-open") in text


def test_public_when_the_tournament_is(client, make_tournament):
    make_tournament(slug="secret-open", is_public=False)
    assert client.get(seating_url("secret-open")).status_code == 404


def test_the_staff_of_a_private_tournament_print_it(make_tournament, client, make_user):

    tournament = make_tournament(slug="secret-open", is_public=False)
    user = make_user("rita")
    staff_role_grant(tournament=tournament, user=user, role="referee")
    client.force_login(user)
    assert len(assert_pdf(client.get(seating_url("secret-open")))) == 1


def test_kept_while_the_seating_does_not_change_made_anew_after_a_swap(client, pdfs_made):
    """Everyone looks for their table as a session starts: the PDF is made once per seating."""
    tournament = accented_tournament()
    url = seating_url(tournament.slug)
    first = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert client.get(url, HTTP_ACCEPT_LANGUAGE="en").content == first.content
    assert len(pdfs_made) == 1
    # Mads (table 1) and Jürgen (table 2) swap: each line now names the other table.
    session = tournament.sessions.get(number=1)
    seating_swap(session=session, player_a=Player.objects.get(name="Mads Sørensen"),
                 player_b=Player.objects.get(name="Jürgen Weiß"))
    text = "\n".join(assert_pdf(client.get(url, HTTP_ACCEPT_LANGUAGE="en")))
    assert len(pdfs_made) == 2
    lines = {name: next(line for line in text.splitlines() if printed(name) in line)
             for name in ("Mads Sørensen", "Jürgen Weiß")}
    assert lines["Mads Sørensen"].endswith("table 2") and lines["Jürgen Weiß"].endswith("table 1")
