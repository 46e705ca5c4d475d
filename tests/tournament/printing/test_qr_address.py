"""The pages that print QR codes say so when the codes would hold the laptop's own address."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

PAGES = ["/t/spring-open/", "/t/spring-open/sessions/1/", "/t/spring-open/organise/sessions/1/"]
LOCAL_ONLY = ["localhost", "127.0.0.1", "[::1]"]


@pytest.mark.parametrize("url", PAGES)
def test_a_laptop_without_a_network_address_is_told_what_to_set(organiser_client, tournament,
                                                                settings, url):
    settings.ALLOWED_HOSTS = LOCAL_ONLY
    page = organiser_client.get(url, HTTP_HOST="127.0.0.1:8000").content.decode()
    assert 'id="qr-address-warning"' in page
    assert "http://127.0.0.1:8000/" in page and "TRIOMINOS_ALLOWED_HOSTS" in page


@pytest.mark.parametrize("url", PAGES)
def test_no_warning_once_the_network_address_is_known(organiser_client, tournament, settings,
                                                      url):
    settings.ALLOWED_HOSTS = [*LOCAL_ONLY, "192.168.1.10"]
    for host in ("127.0.0.1:8000", "192.168.1.10:8000"):
        page = organiser_client.get(url, HTTP_HOST=host).content.decode()
        assert 'id="qr-address-warning"' not in page


def test_the_public_sees_no_warning(client, tournament, settings):
    settings.ALLOWED_HOSTS = LOCAL_ONLY
    assert 'id="qr-address-warning"' not in client.get(
        "/t/spring-open/sessions/1/", HTTP_HOST="127.0.0.1:8000").content.decode()
