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

from tournament.kit.formats import long_datetime
from tournament.kit.pdf import DEFAULT_SITE_ROOT, StaticFilesFetcher


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


def _render(html: str):
    fetcher = StaticFilesFetcher(fail_on_errors=True)
    return HTML(string=html, base_url=DEFAULT_SITE_ROOT, url_fetcher=fetcher).render()


def _text_extent(box) -> tuple[float, float, float, float] | None:
    """(left, top, right, bottom) of the text laid out inside ``box``, None if it has none."""
    texts = [text for text in box.descendants() if isinstance(text, boxes.TextBox) and text.text.strip()]
    if not texts:
        return None
    return (min(t.position_x for t in texts), min(t.position_y for t in texts),
            max(t.position_x + t.width for t in texts), max(t.position_y + t.height for t in texts))


def footer_overlaps(html: str) -> list[str]:
    """WeasyPrint's layout of a printed document's footers: on every page, the text of the
    left, centre and right footers (the margin boxes) side by side, none running into another
    nor past the page. Returns what does not hold."""
    wrong = []
    for number, page in enumerate(_render(html).pages, start=1):
        page_box = page._page_box
        footers = {}
        for box in page_box.children:
            if isinstance(box, boxes.MarginBox) and box.at_keyword.startswith("@bottom"):
                extent = _text_extent(box)
                if extent is not None:
                    footers[box.at_keyword] = extent
        order = [footers[k] for k in ("@bottom-left", "@bottom-center", "@bottom-right") if k in footers]
        for (left_box, right_box) in zip(order, order[1:]):
            if left_box[2] > right_box[0] - 1:  # at least a point between them
                wrong.append(f"page {number}: footers overlap")
        if order and order[-1][2] > page_box.margin_width() + 0.01:
            wrong.append(f"page {number}: footer past the page")
        if order and max(extent[3] for extent in order) > page_box.margin_height() + 0.01:
            wrong.append(f"page {number}: footer below the page")
    return wrong


def text_outside(html: str, css_class: str) -> list[str]:
    """The text of the elements of class ``css_class`` that WeasyPrint lays out past their own
    box's edges (which ``overflow: hidden`` would clip)."""
    wrong = []
    for page in _render(html).pages:
        for box in page._page_box.descendants():
            if isinstance(box, (boxes.LineBox, boxes.InlineBox, boxes.TextBox)):
                continue
            element = getattr(box, "element", None)
            if element is None or css_class not in element.get("class", "").split():
                continue
            left, top = box.content_box_x(), box.content_box_y()
            right, bottom = left + box.width, top + box.height
            for line in box.descendants():
                if isinstance(line, boxes.LineBox) and (
                        line.position_y < top - 0.01 or line.position_y + line.height > bottom + 0.01):
                    wrong.append(" ".join(text.text for text in line.descendants()
                                          if isinstance(text, boxes.TextBox)))
                if isinstance(line, boxes.TextBox) and (
                        line.position_x < left - 0.01 or line.position_x + line.width > right + 0.01):
                    wrong.append(line.text)
    return wrong
