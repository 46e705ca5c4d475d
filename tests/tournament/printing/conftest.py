"""``staff_client(tournament, role)``: a client logged in as a new organiser or referee of it.

``pdfs_made``: the HTML of every PDF WeasyPrint makes during the test (the real one runs), to
tell a PDF made from one kept. (The kept PDFs live in the database cache, in the test's own
database: each test starts without any.)"""

from __future__ import annotations

import pytest
from django.test import Client

from tournament.core.tournaments import staff_role_grant
from tournament.kit import pdf
from tournament.models import StaffRole


@pytest.fixture
def pdfs_made(monkeypatch) -> list[str]:
    made: list[str] = []
    html_to_pdf = pdf.html_to_pdf

    def counted(html, **options):
        made.append(html)
        return html_to_pdf(html, **options)

    monkeypatch.setattr(pdf, "html_to_pdf", counted)
    return made


@pytest.fixture
def staff_client(make_user):
    """``staff_client(tournament, role)``: a client logged in as a new organiser or referee."""

    def staff_client(tournament, role=StaffRole.Role.ORGANISER):
        user = make_user(f"{role}-{tournament.slug}")
        staff_role_grant(tournament=tournament, user=user, role=role)
        client = Client(HTTP_ACCEPT_LANGUAGE="en")
        client.force_login(user)
        return client

    return staff_client
