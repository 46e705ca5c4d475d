"""The engine's problem messages and reading errors reach the referee in French: every
template of scoring/messages.py is in the French catalogue, with the same placeholders. The
wording checks of the match pages live here (the other tests assert codes, ids, context)."""

from __future__ import annotations

import html
import json
import re
import string

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from scoring.messages import MESSAGES, RECORD_ERRORS
from tests.factories import accented_tournament, add, match_at, seated_names
from tournament import engine
from tournament.matches import services

pytestmark = pytest.mark.django_db

TEMPLATES = {**MESSAGES, **RECORD_ERRORS}


def placeholders(template: str) -> set[str]:
    return {name for _text, name, _spec, _conv in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("template", sorted(TEMPLATES))
def test_every_engine_message_is_translated_with_its_placeholders(template):
    english = TEMPLATES[template]
    with translation.override("fr"):
        french = translation.gettext(english)
    assert french != english, f"translate {english!r} in locale/fr"
    assert placeholders(french) == placeholders(english)


def test_a_problem_in_french_with_its_bonus_and_sum_translated():
    params = {"player": "Chloé", "claimed": 5, "tile": "1-2-2", "cell": "U(-1,2)",
              "sum": "5 + 40 (bridge) - 5 (draws) = 40"}
    with translation.override("fr"):
        message = engine.problem_message("claim-mismatch", params)
    assert message == "Chloé annonce 5 pour 1-2-2 en U(-1,2), le tour vaut 5 + 40 (pont) - 5 (pioches) = 40"
    with translation.override("en"):
        assert engine.problem_message("claim-mismatch", params).endswith("5 + 40 (bridge) - 5 (draws) = 40")


def test_the_french_reason_of_a_refusal(tournament, referee):
    match = match_at(tournament=tournament)
    add(match, referee, services.TurnInput(player=0, cell=engine.Cell(0, 0, "U"), corners=(5, 5, 5)))
    with translation.override("fr"), pytest.raises(services.TurnsRefused) as refused:
        add(match, referee, services.TurnInput(cell=engine.Cell(0, 0, "D"), corners=(4, 5, 5)))
    message = refused.value.refusals[0].problems[0].message
    assert message == (f"{seated_names(match)[1]} ne peut pas poser 4-5-5 en haut à droite de "
                       "5-5-5\u00a0: son coin contre 5-5-5 montre 4, la table y montre 5")


def test_a_reading_error_in_french_with_what_was_found_translated():
    with pytest.raises(engine.RecordError) as error:
        engine.load_record(b'{"players": ["Ana", "Bo"], "rounds": [{"turns": [{"player": [0]}]}]}')
    with translation.override("fr"):
        assert (engine.record_error_message(error.value)
                == "rounds[0].turns[0].player\u00a0: il faut un entier, pas la liste [0]")
    with translation.override("en"):
        assert engine.record_error_message(error.value) == str(error.value)


def test_the_records_archive_link_reads_in_the_users_language(make_user):
    from tests.tournament.archive.test_export import staff, zip_url
    from tournament.models import StaffRole

    tournament = accented_tournament()
    organiser = staff(tournament, make_user, "lyon-organiser", StaffRole.Role.ORGANISER)
    detail = reverse("tournament:detail", kwargs={"slug": tournament.slug})
    link = f'href="{zip_url(tournament)}"'
    for language, label in [("fr", "Tous les relevés de partie (ZIP)"),
                            ("en", "All match records (ZIP)")]:
        content = organiser.get(detail, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert link in content and label in content


BAD_TURNS = [{"draws": 3}, {"player": 0, "draws": "two"}]  # no player; draws a string


@pytest.mark.parametrize(("language", "turn", "message"), [
    ("fr", BAD_TURNS[0], "Ce fichier n’est pas un relevé de partie lisible\u00a0: "
                         "rounds[0].turns[0].player\u00a0: champ manquant"),
    ("en", BAD_TURNS[0], "This file is not a readable match record: "
                         "rounds[0].turns[0].player: missing"),
    ("fr", BAD_TURNS[1], "Ce fichier n’est pas un relevé de partie lisible\u00a0: "
                         'rounds[0].turns[0].draws\u00a0: il faut un entier, pas le texte "two"'),
    ("en", BAD_TURNS[1], "This file is not a readable match record: "
                         'rounds[0].turns[0].draws: expected an integer, got a string "two"'),
], ids=["fr-missing", "en-missing", "fr-wrong-type", "en-wrong-type"])
def test_an_unreadable_record_is_explained_in_the_users_language(referee_client, tournament,
                                                                 language, turn, message):
    match = match_at(tournament=tournament)
    record = {"format": "triominos-match/1", "players": seated_names(match),
              "rounds": [{"turns": [turn]}]}
    bad = SimpleUploadedFile("match.json", json.dumps(record).encode())
    upload = reverse("tournament:match_record_upload",
                     kwargs={"slug": tournament.slug, "match_id": match.pk})
    response = referee_client.post(upload, {"revision": 0, "record": bad},
                                   HTTP_ACCEPT_LANGUAGE=language, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert message in html.unescape(response.content.decode())


# -- the match pages' words --------------------------------------------------------------------


def page_url(match, name="match", **kwargs):
    from django.urls import reverse
    return reverse(f"tournament:{name}", kwargs={
        "slug": match.table.session.tournament.slug, "match_id": match.pk, **kwargs})


def two_turns(match, referee):
    """5-5-5 in the middle, then 4-5-5 above and right of it (a claim that differs)."""
    add(match, referee,
        services.TurnInput(player=0, cell=engine.Cell(0, 0, "U"), corners=(5, 5, 5),
                           points_claimed=25),
        services.TurnInput(cell=engine.Cell(0, 0, "D"), corners=(5, 5, 4), points_claimed=20,
                           draws=3))


def get(client, address, language):
    return client.get(address, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_the_audit_heading_takes_a_no_break_space_before_its_colon(referee, referee_client,
                                                                   tournament):
    match = match_at(tournament=tournament)
    two_turns(match, referee)
    page = get(referee_client, page_url(match, "match_audit"), "fr")
    assert f"<h1>Journal\u00a0: {match}</h1>" in page
    assert f"<h1>Audit log: {match}</h1>" in get(referee_client, page_url(match, "match_audit"), "en")


def test_cells_are_named_in_words_not_codes_on_the_match_pages(referee, referee_client, tournament):
    match = match_at(tournament=tournament)
    two_turns(match, referee)
    second = services_turn(match, index=1)
    for address in (page_url(match), page_url(match, "match_audit")):
        page = get(referee_client, address, "fr")
        assert "au centre de la table" in page and "en haut à droite de 5-5-5" in page
        assert shown_cell_codes(page) == []
        page = get(referee_client, address, "en")
        assert "in the middle of the table" in page and "above and right of 5-5-5" in page
    page = get(referee_client, page_url(match, "match_turn_correct", turn_id=second.pk), "fr")
    now = current_turn(page)
    assert "4-5-5 en haut à droite de 5-5-5" in now and shown_cell_codes(now) == []
    assert 'value="D(0,0)"' in page  # typed entry keeps its codes


def test_the_entry_pages_cell_list_names_the_free_places_in_words(referee, referee_client,
                                                                  tournament):
    match = match_at(tournament=tournament)
    add(match, referee, services.TurnInput(player=0, cell=engine.Cell(0, 0, "U"),
                                           corners=(5, 5, 5), points_claimed=25))
    page = get(referee_client, page_url(match), "fr")
    assert '<option value="D(0,0)">Place libre en haut à droite de 5-5-5</option>' in page
    page = get(referee_client, page_url(match), "en")
    assert '<option value="D(0,0)">Free place above and right of 5-5-5</option>' in page
    assert shown_cell_codes(page) == []


def shown_cell_codes(page: str) -> list[str]:
    """Cell codes in the text shown (not in attributes such as an option's value, nor in
    the engine's problem messages)."""
    page = re.sub(r'<div class="problem-message">.*?</div>', "", page, flags=re.S)
    return re.findall(r">[^<]*?([UD]\(-?\d+,-?\d+\))", page)


def current_turn(page: str) -> str:
    """The text of the correction page's line on the turn as it is now."""
    found = re.search(r'<p class="current-turn">(.*?)</p>', page, re.S)
    assert found, "the page shows the turn as it is now"
    return found.group(1)


def services_turn(match, *, index):
    from tournament.models import Turn
    return Turn.objects.current().get(round__match=match, index=index)


def test_the_correction_page_says_the_engines_figure_in_words(referee, referee_client, tournament):
    match = match_at(tournament=tournament)
    two_turns(match, referee)
    second = services_turn(match, index=1)
    address = page_url(match, "match_turn_correct", turn_id=second.pk)
    now = current_turn(get(referee_client, address, "fr"))
    assert "le calcul donne -1 point ·" in now and "calcul -1" not in now
    assert "the engine counts -1 points" in current_turn(get(referee_client, address, "en"))


def test_the_english_sheet_help_gives_english_initials(referee_client, tournament):
    match = match_at(tournament=tournament)
    page = get(referee_client, page_url(match, "match_sheet_mode"), "en")
    assert "B bridge, T two sides" in page and "P bridge" not in page
    assert "P pont, C deux côtés" in get(referee_client, page_url(match, "match_sheet_mode"), "fr")


def test_counts_in_the_audit_log_take_their_plural_form(referee, referee_client, tournament):
    match = match_at(tournament=tournament)
    two_turns(match, referee)
    page = get(referee_client, page_url(match, "match_audit"), "fr")
    assert "3 pioches" in page and "(s)" not in page
    page = get(referee_client, page_url(match, "match_audit"), "en")
    assert "3 draws" in page and "(s)" not in page


def test_a_tile_that_fits_nowhere_is_refused_without_the_cells_code(referee, referee_client,
                                                                    tournament):
    match = match_at(tournament=tournament)
    two_turns(match, referee)
    data = {"tile": "012", "cell": "U(1,0)", "draws": "0"}
    refused = referee_client.post(page_url(match, "match_turn_preview"), data,
                                  HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "0-1-2 ne va pas dans la case choisie\u00a0: la tuile retourne au joueur." in refused
    refused = referee_client.post(page_url(match, "match_turn_preview"), data,
                                  HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "0-1-2 does not fit the cell chosen: the tile goes back to the player." in refused


def test_the_audit_log_puts_french_spaces_in_its_lines(referee, referee_client, tournament):
    match = match_at(tournament=tournament)
    two_turns(match, referee)
    page = get(referee_client, page_url(match, "match_audit"), "fr")
    names = seated_names(match)
    assert f"A · {names[0]}\u00a0: 5-5-5 au centre de la table" in page
    assert f"A · {names[0]}: " in get(referee_client, page_url(match, "match_audit"), "en")


def test_the_match_pages_name_a_table_as_the_glossary_does(referee_client, tournament):
    match = match_at(tournament=tournament)
    number, session = match.table.number, match.table.session.number
    for name in ("match", "match_sheet_mode"):
        page = get(referee_client, page_url(match, name), "en")
        assert f"Session {session}, table {number}" in page
        assert f"Session {session} · Table {number}" not in page


def test_the_versions_of_a_corrected_turn_name_their_place_in_words(referee, referee_client,
                                                                    tournament):
    from tests.factories import fresh
    match = match_at(tournament=tournament)
    two_turns(match, referee)
    second = services_turn(match, index=1)
    services.match_turn_correct(
        match=fresh(match), user=referee, seen_revision=fresh(match).revision, turn_id=second.pk,
        turn=services.TurnInput(player=1, cell=engine.Cell(0, 0, "D"), corners=(5, 5, 4),
                                points_claimed=14), reason="mal lu")
    corrected = services_turn(match, index=1)
    page = get(referee_client, page_url(match, "match_turn_correct", turn_id=corrected.pk), "fr")
    versions = re.search(r'<ol class="versions">(.*?)</ol>', page, re.S).group(1)
    assert "4-5-5 en haut à droite de 5-5-5" in versions
    assert shown_cell_codes(versions) == []
