"""How the pages travel: compressed HTML, connections kept."""

from __future__ import annotations

import gzip
import re

import pytest
from django.conf import settings

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
