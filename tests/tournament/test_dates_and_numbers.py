"""Dates and numbers as each language writes them: "1er avril 2027", "27,6 %" in French;
"April 1, 2027", "27.6%" in English."""

from __future__ import annotations

import datetime

import pytest
from django.utils import translation

from tournament.kit.formats import long_date
from tournament.standings.tables import criterion_display

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "day", "expected"), [
    ("fr", 1, "1er avril 2027"),
    ("fr", 2, "2 avril 2027"),
    ("fr", 11, "11 avril 2027"),
    ("en", 1, "April 1, 2027"),
])
def test_the_first_of_the_month(language, day, expected):
    with translation.override(language):
        assert long_date(datetime.date(2027, 4, day)) == expected


def test_the_tournament_page_dates_the_first_of_the_month(client, tournament):
    tournament.start_date = datetime.date(2027, 12, 1)
    tournament.save()
    assert "1er décembre 2027" in client.get("/t/spring-open/").content.decode()


@pytest.mark.parametrize(("language", "expected"), [("fr", "27,6\u202f%"), ("en", "27.6%")])
def test_a_percentage(language, expected):
    with translation.override(language):
        assert criterion_display("share", {"share": 0.276}) == expected
