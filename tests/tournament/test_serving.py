"""How the pages travel: compressed HTML, connections kept."""

from __future__ import annotations

import gzip
import re
import subprocess
import sys
from pathlib import Path

import pytest
import requests
from django.conf import settings

from tests.servers import AppServer, served_on_thread, server_environment

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("headers", [{}, {"HTTP_HX_REQUEST": "true"}])
def test_html_is_compressed_for_a_browser_that_accepts_it(client, tournament, headers):
    plain = client.get("/t/spring-open/standings/", **headers)
    packed = client.get("/t/spring-open/standings/", HTTP_ACCEPT_ENCODING="gzip", **headers)
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    assert without_token(gzip.decompress(packed.content)) == without_token(plain.content)


def without_token(html: bytes) -> bytes:
    """The page without its CSRF token (masked anew for each answer)."""
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    return html.replace(token.group(1), b"") if token else html


def test_a_304_stays_empty(client, tournament):
    first = client.get("/t/spring-open/standings/", HTTP_ACCEPT_ENCODING="gzip")
    again = client.get("/t/spring-open/standings/", HTTP_ACCEPT_ENCODING="gzip",
                       HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""


def test_database_connections_are_kept_and_checked():
    database = settings.DATABASES["default"]
    assert database["CONN_MAX_AGE"] > 0 and database["CONN_HEALTH_CHECKS"] is True


@pytest.mark.slow  # a database migrated and a server started in subprocesses
def test_a_client_on_the_server_cannot_spoof_its_address_to_dodge_the_lock_out(tmp_path):
    """django-axes counts wrong passwords per username and address: the server must not take
    a client's ``X-Forwarded-For`` for its address, or each guess comes from a new one."""
    environment = server_environment(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    root = Path(settings.BASE_DIR)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], env=environment, cwd=root,
                   check=True, timeout=300)
    subprocess.run([sys.executable, "manage.py", "shell", "-c",
                    "from django.contrib.auth.models import User; "
                    "User.objects.create_user('referee', password='the-right-one-42')"],
                   env=environment, cwd=root, check=True, timeout=120)
    with AppServer(environment) as server:
        site = server.url
        browser = requests.Session()
        form = browser.get(f"{site}/login/", timeout=60)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text).group(1)
        statuses = []
        for guess in range(settings.AXES_FAILURE_LIMIT + 1):
            password = "the-right-one-42" if guess == settings.AXES_FAILURE_LIMIT else f"guess-{guess}"
            answer = browser.post(f"{site}/login/", timeout=10, allow_redirects=False,
                                  data={"username": "referee", "password": password,
                                        "csrfmiddlewaretoken": token},
                                  headers={"X-Forwarded-For": f"203.0.113.{guess + 1}"})
            statuses.append(answer.status_code)
        assert statuses == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429, 429]


@pytest.fixture
def pages_on_threads(transactional_db):
    """``tournament.serving`` served by uvicorn, as gunicorn's ASGI worker serves it, on a
    thread of the tests' process (the same database as the tests)."""
    from tournament.serving import PagesOnThreads

    with served_on_thread(PagesOnThreads(4)) as address:
        yield address


def test_pages_on_threads_answer_as_django_does_and_streams_wait_in_the_loop(
        pages_on_threads, tournament, referee):
    """``tournament.serving``: a page, its 304, a form posted with its cookie and token, a
    query string and repeated headers reach Django's WSGI handler whole; a match's stream is
    Django's ASGI handler's (under WSGI it would answer 204)."""
    from tests.factories import in_play

    site = pages_on_threads
    browser = requests.Session()
    standings = browser.get(f"{site}/t/spring-open/standings/", timeout=30)
    assert standings.status_code == 200 and standings.headers["ETag"]
    again = browser.get(f"{site}/t/spring-open/standings/", timeout=30,
                        headers={"If-None-Match": standings.headers["ETag"]})
    assert again.status_code == 304 and again.content == b""
    packed = requests.get(f"{site}/t/spring-open/standings/", timeout=30, stream=True,
                          headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.raw.read()).startswith(b"<!doctype html>")

    form = browser.get(f"{site}/login/", timeout=30)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text).group(1)
    # the cookie jar's CSRF cookie, and another cookie in a second Cookie header
    answer = browser.post(f"{site}/login/?next=/", timeout=30, allow_redirects=False,
                          data={"username": referee.username, "password": "not-the-one",
                                "csrfmiddlewaretoken": token})
    # the form again, with the name posted in it: the body was read, the token accepted
    assert answer.status_code == 200 and f'value="{referee.username}"' in answer.text
    assert browser.get(f"{site}/no-such-page/", timeout=30).status_code == 404

    match, _turns = in_play(tournament, referee)
    with requests.get(f"{site}/t/spring-open/matches/{match.pk}/stream/", timeout=30,
                      stream=True) as stream:
        assert stream.status_code == 200
        assert stream.headers["Content-Type"] == "text/event-stream"
        assert next(stream.iter_lines()) == b"retry: 5000"
