"""The match options of a tournament (no opening bonus, a fixed number of rounds): set in the
organiser's settings next to the rule set, fixed once a session has started, passed to the
engine, said on the match page and the printed sheets, carried by record.json, and checked
against an imported record."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from tests.factories import fresh, import_record, match_at, seated_names
from tests.tournament.organiser.test_tournament_settings import FORM
from tournament import engine
from tournament.models import Session, Tournament

pytestmark = pytest.mark.django_db


def with_options(tournament: Tournament, *, rounds: int | None, opening_bonus: bool) -> Tournament:
    Tournament.objects.filter(pk=tournament.pk).update(match_rounds=rounds,
                                                       opening_bonus=opening_bonus)
    tournament.refresh_from_db()
    return tournament


def record_for(match, *, rounds: int | None, opening_bonus: bool, seed: int = 3) -> dict:
    return engine.simulated_match_record(names=seated_names(match), seed=seed,
                                         rounds=rounds, opening_bonus=opening_bonus)


def test_the_options_in_words_in_both_languages():
    with translation.override("fr"):
        assert engine.options_label(opening_bonus=False, rounds=5) == (
            "5 manches · sans prime d’ouverture")
        assert engine.options_label(opening_bonus=True, rounds=1) == "1 manche"
    with translation.override("en"):
        assert engine.options_label(opening_bonus=False, rounds=5) == (
            "5 rounds · no opening bonus")
    assert engine.options_label(opening_bonus=True, rounds=None) == ""


def test_the_organiser_sets_the_options_next_to_the_rule_set(organiser_client, tournament):
    form = {**FORM, "slug": "spring-open", "match_rounds": "5"}  # opening bonus unticked
    response = organiser_client.post("/t/spring-open/organise/settings/", form)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.match_rounds, tournament.opening_bonus) == (5, False)
    rules = tournament.rule_set
    assert (rules.round_limit, rules.opening_bonus, rules.zero_triple_opening_bonus) == (5, 0, 0)

    response = organiser_client.post("/t/spring-open/organise/settings/",
                                     {**form, "match_rounds": "0"})
    assert response.status_code == 400
    assert response.context["form"].has_error("match_rounds")


def test_the_options_are_fixed_once_a_session_has_started(organiser_client, tournament):
    Session.objects.filter(tournament=tournament).update(status="playing")
    form = {**FORM, "slug": "spring-open", "match_rounds": "3"}
    response = organiser_client.post("/t/spring-open/organise/settings/", form)
    assert response.status_code == 400
    form_errors = response.context["form"]
    assert form_errors.has_error("match_rounds", "started")
    # the opening bonus is a read-only box now: a browser posts nothing for it, which is no
    # change (an unticked box cannot be told from a disabled one)
    assert not form_errors.has_error("opening_bonus")
    assert not form_errors.has_error("rules")
    tournament.refresh_from_db()
    assert (tournament.match_rounds, tournament.opening_bonus) == (None, True)


def test_a_match_ends_after_the_tournaments_rounds(tournament, referee):
    tournament = with_options(tournament, rounds=1, opening_bonus=False)
    match = match_at(tournament=tournament, started=True)  # entry waits for the session's start
    view = import_record(match, referee, record_for(match, rounds=1, opening_bonus=False))
    assert view.finished and len(view.rounds) == 1
    assert all(turn.bonus != "opening" for turn in view.rounds[0].turns)


def test_record_json_carries_the_options(tournament, referee, referee_client):
    tournament = with_options(tournament, rounds=2, opening_bonus=False)
    match = match_at(tournament=tournament, started=True)  # entry waits for the session's start
    import_record(match, referee, record_for(match, rounds=2, opening_bonus=False))
    url = reverse("tournament:match_record", kwargs={"slug": tournament.slug,
                                                     "match_id": match.pk})
    data = json.loads(referee_client.get(url).content)
    assert data["options"] == {"opening_bonus": False, "rounds": 2}


@pytest.mark.parametrize(("rounds", "opening_bonus"), [(None, True), (3, False), (2, True)])
def test_an_imported_record_with_other_options_is_refused(tournament, referee, rounds,
                                                          opening_bonus):
    tournament = with_options(tournament, rounds=2, opening_bonus=False)
    match = match_at(tournament=tournament, started=True)  # entry waits for the session's start
    with pytest.raises(ValidationError) as error:
        import_record(match, referee, record_for(match, rounds=rounds,
                                                 opening_bonus=opening_bonus))
    assert [e.code for e in error.value.error_dict["record"]] == ["record-options"]
    assert fresh(match).revision == 0


def test_an_options_refusal_is_said_in_the_users_language(tournament, referee):
    tournament = with_options(tournament, rounds=4, opening_bonus=True)
    match = match_at(tournament=tournament, started=True)  # entry waits for the session's start
    with translation.override("fr"), pytest.raises(ValidationError) as error:
        import_record(match, referee, record_for(match, rounds=None, opening_bonus=False))
    (message,) = error.value.message_dict["record"]
    with translation.override("fr"):
        assert engine.options_label(opening_bonus=True, rounds=4) in message
        assert engine.options_label(opening_bonus=False, rounds=None) in message


def test_the_match_page_and_every_printed_sheet_say_the_options(tournament, referee,
                                                                referee_client):
    tournament = with_options(tournament, rounds=5, opening_bonus=False)
    match = match_at(tournament=tournament, started=True)  # entry waits for the session's start
    with translation.override("fr"):
        label = tournament.match_options_label
    assert label == "5 manches · sans prime d’ouverture"
    kwargs = {"slug": tournament.slug, "match_id": match.pk}
    pages = [
        reverse("tournament:match", kwargs=kwargs),
        reverse("tournament:match_report_pdf", kwargs=kwargs) + "?html",
        reverse("tournament:score_sheets_pdf", kwargs={"slug": tournament.slug,
                                                          "number": 1}) + "?html",
        reverse("tournament:detail", kwargs={"slug": tournament.slug}),
    ]
    for page in pages:
        response = referee_client.get(page, HTTP_ACCEPT_LANGUAGE="fr")
        assert response.status_code == 200, page
        assert label in response.content.decode(), page
    with_options(tournament, rounds=None, opening_bonus=True)
    for page in pages:
        assert 'class="match-options"' not in referee_client.get(page).content.decode(), page
