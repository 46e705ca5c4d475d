"""Two tournaments that look alike (an archive imported as a copy: the same name, the same
dates) are told apart by their dates, venue and address wherever one is chosen or listed: the
home page and the league's "add a tournament" list."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import tournament_with_players
from tests.pages import select, text
from tournament.core.tournaments import staff_role_grant, tournament_label
from tournament.models import League, StaffRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def twins():
    day = datetime.date(2025, 5, 17)
    first = tournament_with_players(slug="open-de-lyon", name="Open de Lyon", players=0,
                                    start_date=day, venue="Salle Pierre-Sémard")
    copy = tournament_with_players(slug="open-de-lyon-2", name="Open de Lyon", players=0,
                                   start_date=day, venue="Salle Pierre-Sémard")
    return first, copy


def test_the_label_names_the_dates_the_venue_and_the_address(twins):
    first, copy = twins
    labels = [tournament_label(first), tournament_label(copy)]
    assert labels[0] != labels[1]
    assert all("/t/open-de-lyon" in label and "Salle Pierre-Sémard" in label for label in labels)
    assert "/t/open-de-lyon-2/" in labels[1]


def test_the_home_page_shows_each_address(client, twins):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    cells = [text(cell) for cell in select(response, "#tournaments td.address")]
    assert sorted(cells) == ["/t/open-de-lyon-2/", "/t/open-de-lyon/"]


def test_the_league_s_add_list_tells_them_apart(twins, make_user):
    organiser = make_user("lea")
    for tournament in twins:
        staff_role_grant(tournament=tournament, user=organiser, role=StaffRole.Role.ORGANISER)
    league = League.objects.create(name="Season", slug="season")
    league.organisers.add(organiser)
    client = Client()
    client.force_login(organiser)
    page = client.get(reverse("tournament:league", kwargs={"slug": "season"}),
                      HTTP_ACCEPT_LANGUAGE="en")
    field = page.context["tournament_form"].fields["tournament"]
    labels = [label for _value, label in field.choices]
    assert len(labels) == 2 and len(set(labels)) == 2
    assert labels == [tournament_label(t) for t in field.queryset]
