"""The engine's problem messages and reading errors reach the referee in French: every
template of scoring/messages.py is in the French catalogue, with the same placeholders. The
wording checks of the match pages live here (the other tests assert codes, ids, context)."""

from __future__ import annotations

import html
import json
import string

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from scoring.messages import MESSAGES, RECORD_ERRORS
from tests.tournament.matches.helpers import add, first_match, seated_names
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
    match = first_match(tournament)
    add(match, referee, services.TurnInput(player=0, cell=engine.Cell(0, 0, "U"), corners=(5, 5, 5)))
    with translation.override("fr"), pytest.raises(services.TurnsRefused) as refused:
        add(match, referee, services.TurnInput(cell=engine.Cell(0, 0, "D"), corners=(4, 5, 5)))
    message = refused.value.refusals[0].problems[0].message
    assert "ne peut pas poser 4-5-5 en D(0,0)\u00a0: son coin en (1,0) montre 4, la table y montre 5" in message


def test_a_reading_error_in_french_with_what_was_found_translated():
    with pytest.raises(engine.RecordError) as error:
        engine.load_record(b'{"players": ["Ana", "Bo"], "rounds": [{"turns": [{"player": [0]}]}]}')
    with translation.override("fr"):
        assert (engine.record_error_message(error.value)
                == "rounds[0].turns[0].player\u00a0: il faut un entier, pas la liste [0]")
    with translation.override("en"):
        assert engine.record_error_message(error.value) == str(error.value)


def test_the_records_archive_link_reads_in_the_users_language(make_user):
    from tests.tournament.matches.test_archive import staff, zip_url
    from tests.tournament.printing.helpers import accented_tournament
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
    match = first_match(tournament)
    record = {"format": "triominos-match/1", "players": seated_names(match),
              "rounds": [{"turns": [turn]}]}
    bad = SimpleUploadedFile("match.json", json.dumps(record).encode())
    upload = reverse("tournament:match_record_upload",
                     kwargs={"slug": tournament.slug, "match_id": match.pk})
    response = referee_client.post(upload, {"revision": 0, "record": bad},
                                   HTTP_ACCEPT_LANGUAGE=language, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert message in html.unescape(response.content.decode())
