"""``pdfs_made``: the HTML of every PDF WeasyPrint makes during the test (the real one runs), to
tell a PDF made from one kept. (The kept PDFs live in the database cache, in the test's own
database: each test starts without any.)"""

from __future__ import annotations

import pytest

from tournament.printing import pdf


@pytest.fixture
def pdfs_made(monkeypatch) -> list[str]:
    made: list[str] = []
    html_to_pdf = pdf.html_to_pdf

    def counted(html, **options):
        made.append(html)
        return html_to_pdf(html, **options)

    monkeypatch.setattr(pdf, "html_to_pdf", counted)
    return made
