"""What the tablet reads from a write's answer, without parsing the page: the match's revision
(``X-Match-Revision``), what became of the submission (``X-Submission``: saved, already saved,
stale, refused), the sentence to announce (an ``HX-Trigger-After-Settle`` event), and a login
that expired on a script's request told by a 401 with the login page's address, never by a
redirect that ``fetch`` would follow to the login page's 200."""

from __future__ import annotations

import doctest
import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import fresh, match_at
from tournament.kit import header_values
from tournament.models import Session, Tournament, Turn

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
KEY = "5b1e7c2a-90d4-4f3e-8a61-2c7d9e0f1a2b"


def _url(match, name: str = "match_turn_add") -> str:
    return reverse(f"tournament:{name}", kwargs={
        "slug": match.table.session.tournament.slug, "match_id": match.pk})


def _opening(match, **changes) -> dict:
    return {"revision": fresh(match).revision, "player": "0", "tile": "555", "cell": "U(0,0)",
            "draws": "0", "claimed": "25", "submission_key": KEY, **changes}


def _announced(response) -> dict:
    return json.loads(response["HX-Trigger-After-Settle"])["entry-announce"]


def test_a_saved_turn_says_its_revision_and_that_it_was_saved(tournament, referee_client):
    match = match_at(tournament=tournament, started=True)
    response = referee_client.post(_url(match), _opening(match), **HTMX)
    assert response.status_code == 200
    assert response["X-Match-Revision"] == str(fresh(match).revision)
    assert response["X-Submission"] == "saved"
    announced = _announced(response)
    assert announced["kind"] == "saved" and announced["text"]
    assert response["HX-Trigger-After-Settle"].isascii()  # French sentences, escaped


def test_the_same_submission_again_is_told_already_saved(tournament, referee_client):
    match = match_at(tournament=tournament, started=True)
    first = _opening(match)
    referee_client.post(_url(match), first, **HTMX)
    again = referee_client.post(_url(match), first, **HTMX)
    assert again.status_code == 200
    assert again["X-Submission"] == "already-saved"
    assert _announced(again)["kind"] == "already-saved"
    assert again["X-Match-Revision"] == str(fresh(match).revision)
    assert Turn.objects.filter(round__match=match).count() == 1


def test_a_stale_save_and_a_refused_one_are_told_apart(tournament, referee_client):
    match = match_at(tournament=tournament, started=True)
    seen = fresh(match).revision
    referee_client.post(_url(match), _opening(match), **HTMX)
    stale = referee_client.post(_url(match), _opening(match, revision=seen,
                                                      submission_key=KEY[::-1]), **HTMX)
    assert stale.status_code == 409
    assert stale["X-Submission"] == "stale" and _announced(stale)["kind"] == "stale"
    assert stale["X-Match-Revision"] == str(fresh(match).revision)
    refused = referee_client.post(_url(match), _opening(match, cell="U(8,8)",
                                                        submission_key=KEY[::-1]), **HTMX)
    assert refused.status_code == 400
    assert refused["X-Submission"] == "refused"
    assert _announced(refused)["kind"] == "refused" and _announced(refused)["text"]


def test_a_claim_that_differs_is_announced_pending_not_saved(tournament, referee_client):
    match = match_at(tournament=tournament, started=True)
    response = referee_client.post(_url(match), _opening(match, claimed="31"), **HTMX)
    assert response.status_code == 200
    assert response["X-Submission"] == "saved"
    assert _announced(response)["kind"] == "pending"


def test_a_session_closed_meanwhile_refuses_the_turn_with_its_reason(tournament,
                                                                      referee_client):
    match = match_at(tournament=tournament, started=True)
    Session.objects.filter(pk=match.table.session.pk).update(status=Session.Status.FINISHED)
    response = referee_client.post(_url(match), _opening(match), **HTMX)
    assert response.status_code == 400
    assert response["X-Submission"] == "refused"
    assert _announced(response)["text"]
    assert not Turn.objects.filter(round__match=match).exists()


@pytest.mark.parametrize("name", ["match_turn_add", "match_turn_undo", "match_turn_preview"])
def test_an_expired_login_on_a_script_request_is_a_401_with_the_login_address(tournament, name):
    match = match_at(tournament=tournament, started=True)
    anonymous = Client()
    response = anonymous.post(_url(match, name), _opening(match), **HTMX)
    assert response.status_code == 401
    page = reverse("tournament:match", kwargs={"slug": tournament.slug, "match_id": match.pk})
    assert response["X-Login-Url"].startswith(reverse("login") + "?next=")
    assert page.replace("/", "%2F") in response["X-Login-Url"]
    assert not Turn.objects.filter(round__match=match).exists()
    # a browser's form (no script) still goes to the login page
    assert anonymous.post(_url(match, name), _opening(match)).status_code == 302


def test_the_401_tells_nothing_of_a_private_tournament(tournament):
    match = match_at(tournament=tournament, started=True)
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    anonymous = Client()
    private = anonymous.post(_url(match), _opening(match), **HTMX)
    missing = anonymous.post(_url(match).replace(tournament.slug, "no-such-event"), {}, **HTMX)
    assert private.status_code == missing.status_code == 401
    assert private.content == missing.content


#: What a proxy holds of a response's headers (nginx's proxy_buffer_size: 4 KB, or 8).
HEADERS_BUFFER = 4096


def _header_bytes(response) -> int:
    return sum(len(name) + len(value) + 4 for name, value in response.headers.items())


@pytest.mark.parametrize("field", ["player", "draws"])
def test_a_100000_character_value_refused_keeps_its_headers_small(tournament, referee_client,
                                                                 field):
    """A choice refused quotes the value submitted, at any length (Django's "Select a valid
    choice. … is not one of the available choices."): the announcement (a header) carries a
    bounded line of it, printable, under what a proxy holds; nothing is written."""
    match = match_at(tournament=tournament, started=True)
    hostile = "0\r\nX-Injected: 1\u202e\t" + "9" * 100_000
    response = referee_client.post(_url(match), _opening(match, **{field: hostile}), **HTMX)
    assert response.status_code == 400
    assert response["X-Submission"] == "refused"
    header = response["HX-Trigger-After-Settle"]
    assert len(header) < 2000
    assert header.isascii() and header.isprintable()
    text = _announced(response)["text"]
    assert text.endswith("…") and text.isprintable()
    assert "X-Injected" not in response.headers
    assert _header_bytes(response) < HEADERS_BUFFER
    assert not Turn.objects.filter(round__match=match).exists()


def test_an_expired_login_at_a_100000_character_address_keeps_its_headers_small(tournament):
    match = match_at(tournament=tournament, started=True)
    long_slug = "a" * 100_000
    response = Client().post(_url(match).replace(tournament.slug, long_slug), {}, **HTMX)
    assert response.status_code == 401
    assert response["X-Login-Url"] == reverse("login")  # the way back left out, not cut
    assert _header_bytes(response) < HEADERS_BUFFER


def test_the_header_texts_doctests():
    assert doctest.testmod(header_values).failed == 0
