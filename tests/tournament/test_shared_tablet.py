"""A tablet shared by referees: the logout's answer erases what the browser kept, and every
answer names its login for the service worker, which keeps a page only for the login that
opened it (tests/browser/test_shared_tablet.py plays it offline)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.conftest import STAFF_PASSWORD
from tests.factories import entered_by_tables, fresh, match_at, scorer_client
from tournament.matches.scorers import scorer_path, table_scorer

pytestmark = pytest.mark.django_db


def logged_in(username: str) -> Client:
    """A browser logged in through the login page."""
    client = Client()
    answer = client.post("/login/", {"username": username, "password": STAFF_PASSWORD})
    assert answer.status_code == 302
    return client


def test_the_logout_erases_what_the_browser_kept(referee):
    client = logged_in(referee.username)
    answer = client.post("/logout/")
    assert answer.status_code == 302
    assert answer["Clear-Site-Data"] == '"cache", "storage"'
    assert "_auth_user_id" not in client.session


def test_the_logout_page_asks_before_logging_out(referee):
    """A GET (a link followed, the page the header's button leads to when turns wait) logs
    nobody out and erases nothing."""
    client = logged_in(referee.username)
    answer = client.get("/logout/")
    assert answer.status_code == 200 and "Clear-Site-Data" not in answer
    assert 'id="logout-pending"' in answer.content.decode()
    assert 'id="logout-discard"' in answer.content.decode()
    assert client.session["_auth_user_id"] == str(referee.pk)


def test_each_answer_names_its_login_and_a_new_login_is_named_anew(referee, make_user, tournament):
    make_user("tania-second")
    assert Client().get("/")["X-Kept-For"] == "-"
    first = logged_in(referee.username)
    named = first.get("/t/spring-open/")["X-Kept-For"]
    assert named != "-" and first.get("/")["X-Kept-For"] == named
    assert referee.username not in named and str(referee.pk) != named
    again = logged_in(referee.username)  # the same account on another login
    assert again.get("/")["X-Kept-For"] not in {named, "-"}
    assert logged_in("tania-second").get("/")["X-Kept-For"] not in {named, "-"}
    assert first.post("/logout/")["X-Kept-For"] == "-"


def test_a_scorer_phone_is_named_by_its_session_so_its_page_is_kept_as_shown(tournament):
    """A table's scorer phone has no login: its answers name its browser's session (not
    ``-``, under which the worker asks the server for the page again after every write),
    the same over its page and its writes; another phone is named otherwise, and a visitor
    without a session is nobody."""
    match = match_at(tournament=entered_by_tables(tournament=tournament), started=True)
    link = scorer_path(table_scorer(match=match))
    assert Client().get(link)["X-Kept-For"] == "-"  # a link opened binds nothing, keeps nothing
    phone, other = scorer_client(match), Client(REMOTE_ADDR="10.0.0.2")
    named = phone.get(match.get_absolute_url())["X-Kept-For"]
    assert named != "-"
    written = phone.post(f"{match.get_absolute_url()}turns/", {
        "revision": fresh(match).revision, "player": "0", "tile": "555", "cell": "U(0,0)",
        "draws": "0", "claimed": "25"}, HTTP_HX_REQUEST="true")
    assert written.status_code == 200 and written["X-Kept-For"] == named
    other.post(link)
    assert other.get(match.get_absolute_url())["X-Kept-For"] not in {named, "-"}
    assert Client().get(match.get_absolute_url())["X-Kept-For"] == "-"
