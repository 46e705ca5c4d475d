"""Create and edit a tournament: rule set, target, ranking criteria, visibility."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client

from tests.pages import has_id, select
from tournament.models import Session, StaffRole, Tournament

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Coupe d'automne",
    "slug": "coupe-automne",
    "start_date": "2025-10-04",
    "end_date": "2025-10-05",
    "venue": "Lyon",
    "rules": "goliath-tournament",
    "target": "",
    "criterion_1": "match_points",
    "criterion_2": "share",
    "criterion_3": "opponents",
    "keep_clubs_apart": "on",
    "is_public": "on",
}


def test_an_organiser_creates_a_tournament(organiser_client, organiser):
    response = organiser_client.post("/tournaments/new/", FORM)
    assert response.status_code == 302 and response["Location"] == "/t/coupe-automne/organise/players/"
    tournament = Tournament.objects.get(slug="coupe-automne")
    assert tournament.ranking_criteria == ["match_points", "share", "opponents"]
    assert tournament.keep_clubs_apart and tournament.is_public and tournament.target is None
    assert StaffRole.objects.get(tournament=tournament, user=organiser).role == "organiser"


def test_the_form_starts_with_the_default_criteria(organiser_client):
    page = organiser_client.get("/tournaments/new/").content.decode()
    assert '<option value="match_points" selected>' in page
    assert '<option value="total_points" selected>' in page


def test_who_may_create_a_tournament(client, referee_client, make_user):
    assert client.get("/tournaments/new/").status_code == 302  # log in first
    assert referee_client.get("/tournaments/new/").status_code == 403
    admin = Client()
    admin.force_login(make_user("root", is_superuser=True))
    assert admin.get("/tournaments/new/").status_code == 200


def test_bad_settings_are_explained_next_to_their_fields(organiser_client, tournament):
    form = {**FORM, "slug": "spring-open", "criterion_2": "match_points", "end_date": "2025-10-01",
            "target": "0"}
    response = organiser_client.post("/tournaments/new/", form)
    assert response.status_code == 400
    form_shown = response.context["form"]
    assert form_shown.has_error("criterion_2", "criterion-repeated")
    assert form_shown.has_error("end_date", "end-before-start")
    assert form_shown.has_error("target", "min_value")
    for field in ("criterion_2", "end_date", "target"):
        assert has_id(response, f"id_{field}_error")
    form = {**FORM, "slug": "spring-open"}
    response = organiser_client.post("/tournaments/new/", form)
    assert response.context["form"].has_error("slug", "slug-unavailable")
    assert has_id(response, "id_slug_error")
    form = {**FORM, "criterion_1": "", "criterion_2": "", "criterion_3": ""}
    response = organiser_client.post("/tournaments/new/", form)
    assert response.context["form"].has_error("criterion_1")
    assert has_id(response, "id_criterion_1_error")
    assert not Tournament.objects.filter(slug="coupe-automne").exists()


def test_a_private_tournaments_address_is_refused_as_any_other(organiser_client, tournament,
                                                                 make_tournament):
    """The create form answers the same for a public tournament's address and for a private
    one's it may not see: "not available", never "already exists"."""
    make_tournament(slug="closed-club-night", players=0, sessions=0, is_public=False)
    before = Tournament.objects.count()
    answers = []
    for slug in (tournament.slug, "closed-club-night"):
        response = organiser_client.post("/tournaments/new/", {**FORM, "slug": slug})
        assert response.status_code == 400
        errors = response.context["form"].errors.as_data()
        assert set(errors) == {"slug"}
        answers.append([(error.code, error.messages) for error in errors["slug"]])
    assert answers[0] == answers[1] == [("slug-unavailable", answers[0][0][1])]
    assert Tournament.objects.count() == before


def test_edit_the_settings(organiser_client, tournament):
    page = organiser_client.get("/t/spring-open/organise/settings/").content.decode()
    assert 'value="Spring Open"' in page
    form = {**FORM, "name": "Spring Open 2025", "criterion_1": "total_points", "criterion_2": "",
            "criterion_3": "", "is_public": ""}
    response = organiser_client.post("/t/spring-open/organise/settings/", form)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.name == "Spring Open 2025" and tournament.slug == "spring-open"
    assert tournament.ranking_criteria == ["total_points"] and not tournament.is_public


def test_the_rule_set_is_fixed_once_a_session_has_started(organiser_client, tournament):
    Session.objects.filter(tournament=tournament).update(status="playing")
    form = {**FORM, "rules": "travel-tour", "target": "300"}
    response = organiser_client.post("/t/spring-open/organise/settings/", form)
    assert response.status_code == 400
    assert response.context["form"].has_error("rules", "started")
    assert response.context["form"].has_error("target", "started")
    assert has_id(response, "id_rules_error") and has_id(response, "id_target_error")
    tournament.refresh_from_db()
    assert tournament.rules == "goliath-tournament"


def test_once_a_session_has_started_the_fixed_settings_are_shown_read_only(organiser_client,
                                                                          tournament):
    page = organiser_client.get("/t/spring-open/organise/settings/")
    assert not select(page, "#id_rules[disabled]")
    Session.objects.filter(tournament=tournament).update(status="playing")
    page = organiser_client.get("/t/spring-open/organise/settings/")
    for name in ("rules", "target", "match_rounds", "opening_bonus"):
        assert select(page, f"#id_{name}[disabled]"), name
        assert has_id(page, f"id_{name}_helptext"), name  # the reason, next to the field
    assert not select(page, "#id_name[disabled]")
    # the other settings still save, the fixed ones unchanged
    form = {key: value for key, value in FORM.items()
            if key not in ("rules", "target", "match_rounds", "opening_bonus")}
    response = organiser_client.post("/t/spring-open/organise/settings/",
                                     {**form, "name": "Renamed"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.name == "Renamed" and tournament.rules == "goliath-tournament"


def test_a_referee_cannot_edit_the_settings(referee_client, tournament):
    assert referee_client.post("/t/spring-open/organise/settings/", FORM).status_code == 403


@pytest.mark.parametrize("language", ["fr", "en"])
def test_date_inputs_hold_iso_dates_in_every_language(organiser_client, tournament, language):
    """A date input shows only an ISO value: "17/05/2025" would show an empty field."""
    response = organiser_client.get("/t/spring-open/organise/settings/",
                                    HTTP_ACCEPT_LANGUAGE=language)
    start = response.context["form"]["start_date"]
    assert start.field.widget.input_type == "date"
    assert start.field.widget.format_value(start.value()) == "2025-05-17"
    new = organiser_client.get("/tournaments/new/", HTTP_ACCEPT_LANGUAGE=language)
    start = new.context["form"]["start_date"]
    assert start.field.widget.format_value(start.value()) == datetime.date.today().isoformat()


def test_help_texts_and_errors_have_the_ids_their_fields_point_at(organiser_client, tournament):
    """Every id an input names in aria-describedby exists on the page."""
    form = {**FORM, "slug": "spring-open"}
    page = organiser_client.post("/tournaments/new/", form).content.decode()
    described = re.findall(r'aria-describedby="([^"]+)"', page)
    ids = set(re.findall(r'\sid="([^"]+)"', page))
    assert "id_slug_helptext id_slug_error" in described
    assert {name for value in described for name in value.split()} <= ids


def test_the_slug_is_named_as_part_of_the_web_address(organiser_client):
    """Not "Adresse", which reads like the venue's postal address."""
    form = organiser_client.get("/tournaments/new/", HTTP_ACCEPT_LANGUAGE="fr").context["form"]
    assert form["slug"].label == "Nom court dans l’adresse web"
    assert "/t/" not in str(form["slug"].help_text)
