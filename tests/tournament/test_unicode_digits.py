"""Every number the app reads from a request is written in ASCII digits
(``tournament/kit/digits.py``): ``²`` and ``³³`` are digits to ``str.isdigit()`` that
``int()`` refuses, ``٣`` and ``３`` digits ``int()`` reads that nobody types. Each place that
reads one is tried with them (the match's stream: ``tests/tournament/matches/test_stream.py``)."""

from __future__ import annotations

import doctest

import pytest
from django.urls import reverse

from tests.factories import fresh, match_at
from tournament.kit import digits
from tournament.kit.formats import rank_words
from tournament.kit.tables import rank_value
from tournament.leagues.ranking import PointsTableError, parse_points_table
from tournament.matches.forms.parsing import small_number
from tournament.models import Turn

UNICODE_DIGITS = ["²", "³³", "٣", "３", "१२", "2²", "¹0"]
HTMX = {"HTTP_HX_REQUEST": "true"}


def test_the_doctests():
    assert doctest.testmod(digits).failed == 0


@pytest.mark.parametrize("text", UNICODE_DIGITS)
def test_unicode_digits_are_no_number(text):
    assert text.isdigit()  # what the guards once trusted
    assert not digits.is_ascii_number(text)
    assert digits.ascii_number(text, digits=9) is None


@pytest.mark.parametrize("text", ["", "-1", "+1", " 1", "1 ", "1.0", "0x1", "1_000"])
def test_anything_but_ascii_digits_is_no_number(text):
    assert not digits.is_ascii_number(text)


def test_ascii_digits_are_read_up_to_their_count():
    assert digits.ascii_number("007", digits=3) == 7
    assert digits.ascii_number("1234", digits=3) is None
    assert digits.is_ascii_number("9" * 5000)  # any length when no count is asked


@pytest.mark.parametrize("text", UNICODE_DIGITS)
def test_a_small_number_typed_in_unicode_digits_is_none(text):
    assert small_number(text, high=99) is None


@pytest.mark.parametrize("text", UNICODE_DIGITS)
def test_a_points_table_in_unicode_digits_is_not_a_number(text):
    for table, part in ((text, text), (f"-{text}", f"-{text}")):
        with pytest.raises(PointsTableError) as refusal:
            parse_points_table(table)
        assert (refusal.value.code, refusal.value.part) == ("not-a-number", part)


@pytest.mark.parametrize("text", UNICODE_DIGITS)
def test_a_rank_label_in_unicode_digits_stays_text(text):
    assert rank_value(text) == text
    assert rank_words(text) == text


@pytest.mark.django_db
@pytest.mark.parametrize("revision", ["²", "³³", "٣"])
@pytest.mark.parametrize("draws", ["0", "²"])
def test_a_turn_posted_with_unicode_digits_is_refused_not_a_500(
        tournament, referee_client, revision, draws):
    match = match_at(tournament=tournament, started=True)
    referee_client.raise_request_exception = False
    url = reverse("tournament:match_turn_add", kwargs={"slug": tournament.slug,
                                                       "match_id": match.pk})
    response = referee_client.post(url, {
        "revision": revision, "player": "0", "tile": "555", "cell": "U(0,0)", "draws": draws,
        "claimed": "25", "submission_key": "5b1e7c2a-90d4-4f3e-8a61-2c7d9e0f1a2b"}, **HTMX)
    # refused, or stale where the form's field read the digits ``int()`` reads (٣ is 3)
    assert (response.status_code, response["X-Submission"]) in ((400, "refused"), (409, "stale"))
    assert not Turn.objects.filter(round__match=match).exists()
    assert fresh(match).revision == match.revision


@pytest.mark.django_db
@pytest.mark.parametrize("draws", ["²", "٣"])
def test_a_preview_with_unicode_digits_is_answered_not_a_500(tournament, referee_client, draws):
    match = match_at(tournament=tournament, started=True)
    referee_client.raise_request_exception = False
    url = reverse("tournament:match_turn_preview", kwargs={"slug": tournament.slug,
                                                           "match_id": match.pk})
    response = referee_client.post(url, {"revision": str(match.revision), "player": "٣",
                                         "tile": "555", "cell": "U(0,0)", "draws": draws},
                                   **HTMX)
    assert response.status_code == 200
