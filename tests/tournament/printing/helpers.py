"""Helpers of the printing tests: PDFs read back as text, their footers, their layout.

- ``pdf_pages(content)``: the text of each page of a PDF (bytes), read back by pypdf.
- ``assert_pdf(response)``: the response is a PDF; returns its pages' text.
- ``assert_document_footer(pages, owner=..., label=..., printed_since=...)``: every page ends
  with the footer of ``printing/base_print.html``: whose document, its label and when it was
  printed, the page's number.
- ``cells_overflowing(html)``: WeasyPrint's layout of a printed ranking: what wraps or overflows.
"""

from __future__ import annotations

import datetime
import io

from django.utils import timezone, translation
from pypdf import PdfReader
from weasyprint import HTML
from weasyprint.formatting_structure import boxes

from tournament.core.formats import long_datetime
from tournament.core.pdf import DEFAULT_SITE_ROOT, StaticFilesFetcher


def pdf_pages(content: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


def assert_pdf(response) -> list[str]:
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-")
    return pdf_pages(response.content)


def assert_document_footer(
    pages: list[str], *, owner: str, label: str, printed_since: datetime.datetime,
    language: str = "en",
) -> None:
    """Each page's last line is "<owner> <label> · <printed at> page <n> / <pages>", printed
    between ``printed_since`` and now (to the minute, as the documents print it in
    ``language``)."""
    with translation.override(language):
        printed = {long_datetime(printed_since), long_datetime(timezone.now())}
    for number, page in enumerate(pages, start=1):
        footer = page.rstrip().splitlines()[-1]
        assert footer in {
            f"{owner} {label} · {at} page {number} / {len(pages)}" for at in printed
        }, footer


def cells_overflowing(html: str) -> list[str]:
    """WeasyPrint's own layout of a ranking's HTML: every figure and its header on one line
    (words may wrap), and no text past its cell's edges or the page's. Returns what does not
    hold."""
    fetcher = StaticFilesFetcher(fail_on_errors=True)
    document = HTML(string=html, base_url=DEFAULT_SITE_ROOT, url_fetcher=fetcher).render()
    wrong = []
    for page in document.pages:
        page_box = page._page_box
        page_right = page_box.content_box_x() + page_box.width
        for box in page_box.descendants():
            if not isinstance(box, boxes.TableCellBox):
                continue
            classes = box.element.get("class", "")
            texts = [text for text in box.descendants() if isinstance(text, boxes.TextBox)]
            words = " ".join(text.text for text in texts)
            lines = [line for line in box.descendants() if isinstance(line, boxes.LineBox)]
            if "number" in classes and len(lines) > 1:
                wrong.append(f"{words!r} on {len(lines)} lines")
            left, right = box.content_box_x(), box.content_box_x() + box.width
            for text in texts:
                if text.position_x < left - 0.01 or text.position_x + text.width > right + 0.01:
                    wrong.append(f"{text.text!r} out of its cell")
                if text.position_x + text.width > page_right + 0.01:
                    wrong.append(f"{text.text!r} past the page's edge")
    return wrong
