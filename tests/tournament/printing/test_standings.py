"""The standings, printable: every player in rank order, from the standings' own selector;
every allowed choice of criteria laid out legibly, figures exactly as computed."""

from __future__ import annotations

import io

import pytest
from django.core.cache import cache
from pypdf import PdfReader

from tests.factories import accented_tournament, confirmed_match, match_at, played_session
from tests.tournament.printing.helpers import assert_pdf, cells_overflowing, pdf_pages
from tests.tournament.tournaments import settings_of
from tournament.core.tournaments import staff_role_grant
from tournament.models import Registration, Tournament
from tournament.organiser.services import player_add, registration_withdraw, tournament_update
from tournament.standings.ranking import CRITERIA
from tournament.standings.selectors import standings_rows

pytestmark = pytest.mark.django_db


def test_every_player_in_rank_order(client, make_user):
    tournament = accented_tournament()
    referee = make_user("remi")
    staff_role_grant(tournament=tournament, user=referee, role="referee")
    confirmed_match(match=match_at(tournament=tournament), user=referee, seed=3)
    rows = standings_rows(tournament=tournament)
    assert rows[0]["matches"] == 1 and rows[0]["rank"] == 1
    pages = assert_pdf(client.get(f"/t/{tournament.slug}/standings.pdf", HTTP_ACCEPT_LANGUAGE="en"))
    text = "\n".join(pages)
    positions = [text.index(row["name"]) for row in rows]
    assert positions == sorted(positions)
    for row in rows:
        line = next(line for line in text.splitlines() if row["name"] in line)
        # an unranked player (no confirmed match yet) has no rank before their name
        assert line.startswith(f"{row['rank_label']} {row['name']}".strip()), line
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


@pytest.mark.slow  # PDFs made three times
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
    staff_role_grant(tournament=tournament, user=referee, role="referee")
    # a match confirmed: the standings change
    confirmed_match(match=match_at(tournament=tournament), user=referee, seed=3)
    text = "\n".join(assert_pdf(client.get(url, HTTP_ACCEPT_LANGUAGE="en")))
    assert len(pdfs_made) == 3
    leader = standings_rows(tournament=tournament)[0]
    assert leader["matches"] == 1 and f"1 {leader['name']}" in text
    assert "?html" not in url and "<html" in client.get(url + "?html").content.decode()


def test_a_kept_pdf_changes_with_anything_it_prints_such_as_the_venue(client, pdfs_made):
    tournament = accented_tournament()
    url = f"/t/{tournament.slug}/standings.pdf"
    assert "Salle Pierre-Sémard" in "\n".join(assert_pdf(client.get(url)))
    tournament_update(**settings_of(tournament, venue="Gymnase Jean-Macé"))
    text = "\n".join(assert_pdf(client.get(url)))
    assert "Gymnase Jean-Macé" in text and "Salle Pierre-Sémard" not in text
    assert len(pdfs_made) == 2


def test_a_write_that_changes_nothing_printed_keeps_the_pdf(client, make_user, pdfs_made):
    tournament = accented_tournament()
    url = f"/t/{tournament.slug}/standings.pdf"
    first = client.get(url)
    version = Tournament.objects.get(pk=tournament.pk).data_version
    staff_role_grant(tournament=tournament, user=make_user("remi"), role="referee")
    assert Tournament.objects.get(pk=tournament.pk).data_version > version
    again = client.get(url)
    assert again.content == first.content and len(pdfs_made) == 1
    assert again["Last-Modified"] == first["Last-Modified"]  # when its content was made
    assert client.get(url, HTTP_IF_NONE_MATCH=again["ETag"]).status_code == 304


def test_the_hosts_port_makes_no_new_pdf(client, pdfs_made):
    """The address a client writes in its Host header is no part of the key: asking with every
    port in turn does not make the PDF again and again."""
    tournament = accented_tournament()
    url = f"/t/{tournament.slug}/standings.pdf"
    contents = {client.get(url, HTTP_HOST=f"localhost:{port}").content for port in (1, 2, 8000)}
    assert len(contents) == 1 and len(pdfs_made) == 1


def test_while_another_worker_makes_the_new_pdf_the_one_before_is_sent(client, make_user,
                                                                        pdfs_made):
    """Never the same document made twice at once: the one before, which prints when it was
    made, answers meanwhile; the new one once it is made."""
    tournament = accented_tournament()
    url = f"/t/{tournament.slug}/standings.pdf"
    before = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    key = f"printing:standings:{tournament.pk}:en"
    assert cache.add(f"{key}:making", 0, 60)  # another worker is making it
    confirmed_match(match=match_at(tournament=tournament), user=make_referee(tournament, make_user),
                    seed=3)
    meanwhile = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert meanwhile.content == before.content and len(pdfs_made) == 1
    assert "ETag" not in meanwhile  # not the current version: the next request asks again
    cache.delete(f"{key}:making")
    after = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert after.content != before.content and len(pdfs_made) == 2
    leader = standings_rows(tournament=tournament)[0]
    assert f"1 {leader['name']}" in "\n".join(pdf_pages(after.content))


def make_referee(tournament, make_user):
    referee = make_user("remi")
    staff_role_grant(tournament=tournament, user=referee, role="referee")
    return referee
#: The widest printed standings: long names and clubs, four-figure totals, two players tied
#: second at a table of 5 (1.875 match points each), a withdrawal. A share's "%" is held to its
#: figure by a no-break space.
WIDE_TABLE = [
    ("Marie-Christine Delacroix", "Triominos Club de Villeurbanne", 1412),
    ("Jean-Baptiste Vandenberghe", "Cercle des joueurs de Saint-Étienne", 1187),
    ("Anne-Sophie Lemaire-Dupont", "Association ludique du Grand Lyon", 1187),
    ("Łukasz Nowak", "Dansk Triomino Klub København", 604),
    ("Núria Puig i Ferrer", "Club de Triominos de Barcelona", 0),
]
WIDE_LINES = {
    "fr": [
        "RANG JOUEUR CLUB PARTIES PP VICT. TOTAL PART MEILL. ADV.",
        "1 Marie-Christine Delacroix Triominos Club de Villeurbanne 1 3 1 1412 32,2\u202f% 1412 4,5",
        "2= Anne-Sophie Lemaire-Dupont Association ludique du Grand Lyon 1 1,875 0 1187 27,0\u202f% 1187 5,625",
        "2= Jean-Baptiste Vandenberghe Cercle des joueurs de Saint-Étienne 1 1,875 0 1187 27,0\u202f% 1187 5,625",
        "4 Núria Puig i Ferrer Club de Triominos de Barcelona 1 0 0 0 0,0\u202f% 0 7,5",
        "Łukasz Nowak FORFAIT Dansk Triomino Klub København 1 0,75 0 604 13,8\u202f% 604 6,75",
    ],
    "en": [
        "RANK PLAYER CLUB MATCHES MP WINS TOTAL SHARE BEST OPP.",
        "1 Marie-Christine Delacroix Triominos Club de Villeurbanne 1 3 1 1412 32.2% 1412 4.5",
        "2= Anne-Sophie Lemaire-Dupont Association ludique du Grand Lyon 1 1.875 0 1187 27.0% 1187 5.625",
        "2= Jean-Baptiste Vandenberghe Cercle des joueurs de Saint-Étienne 1 1.875 0 1187 27.0% 1187 5.625",
        "4 Núria Puig i Ferrer Club de Triominos de Barcelona 1 0 0 0 0.0% 0 7.5",
        "Łukasz Nowak WITHDRAWN Dansk Triomino Klub København 1 0.75 0 604 13.8% 604 6.75",
    ],
}
LEGEND = {
    "fr": ["PP (points de partie)", "Vict. (victoires à la table)", "Total (total des points)",
           "Part (part moyenne des points de la table)", "Meill. (meilleure partie)",
           "Adv. (force des adversaires)"],
    "en": ["MP (match points)", "Wins (table wins)", "Total (total points)",
           "Share (average share of the table's points)", "Best (best match)",
           "Opp. (opponents' strength)"],
}


def wide_tournament(make_tournament, criteria):
    tournament = make_tournament(slug="wide", players=0, sessions=0,
                                 rules="goliath-family")  # tables of up to 6
    tournament.ranking_criteria = list(criteria)
    tournament.save()
    players = [player_add(tournament=tournament, name=name, club=club).player
               for name, club, _total in WIDE_TABLE]
    played_session(tournament=tournament, tables=[players],
                   totals=[[total for _name, _club, total in WIDE_TABLE]])
    registration_withdraw(registration=Registration.objects.get(
        tournament=tournament, player=players[3]))
    return tournament


@pytest.mark.parametrize("language", ["fr", "en"])
def test_six_criteria_are_laid_out_legibly(client, make_tournament, language):
    """The widest choice of criteria (all six): A4 landscape, short headers explained by a
    legend, every row on one line of text and every figure as computed, exactly."""
    wide_tournament(make_tournament, CRITERIA)
    response = client.get("/t/wide/standings.pdf", HTTP_ACCEPT_LANGUAGE=language)
    text = "\n".join(assert_pdf(response))
    page = PdfReader(io.BytesIO(response.content)).pages[0]
    assert page.mediabox.width > page.mediabox.height  # landscape
    lines = text.splitlines()
    for expected in WIDE_LINES[language]:
        assert expected in lines, expected
    legend = " ".join(text.split())
    for entry in LEGEND[language]:
        assert entry in legend, entry
    html = client.get("/t/wide/standings.pdf?html", HTTP_ACCEPT_LANGUAGE=language)
    assert cells_overflowing(html.content.decode()) == []


@pytest.mark.parametrize("criteria", [
    ["match_points"], ["match_points", "total_points", "share"],
    ["opponents", "share", "best_match"], ["share", "table_wins", "best_match", "opponents"],
])
def test_every_choice_of_criteria_fits_portrait_up_to_three(client, make_tournament, criteria):
    wide_tournament(make_tournament, criteria)
    response = client.get("/t/wide/standings.pdf", HTTP_ACCEPT_LANGUAGE="en")
    page = PdfReader(io.BytesIO(response.content)).pages[0]
    assert (page.mediabox.width > page.mediabox.height) == (len(criteria) > 3)
    html = client.get("/t/wide/standings.pdf?html", HTTP_ACCEPT_LANGUAGE="en")
    assert cells_overflowing(html.content.decode()) == []
