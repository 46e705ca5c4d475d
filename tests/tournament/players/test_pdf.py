"""The career as a PDF: made through the printing's WeasyPrint, with both charts drawn in it
(their labels are text in the PDF) and every tournament."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader
from weasyprint import HTML
from weasyprint.formatting_structure import boxes

from tests.pages import has_id
from tests.tournament.players.helpers import two_tournaments
from tests.tournament.printing.helpers import assert_document_footer, assert_pdf
from tournament.kit.charts import SIZE
from tournament.kit.pdf import DEFAULT_SITE_ROOT, StaticFilesFetcher


@pytest.fixture
def career(db):
    return two_tournaments()


def pdf_url(player) -> str:
    return reverse("tournament:player_career_pdf", kwargs={"player_id": player.pk})


def test_pdf_with_both_charts(client, career):
    before = timezone.now()
    response = client.get(pdf_url(career["ana"]), HTTP_ACCEPT_LANGUAGE="en")
    pages = assert_pdf(response)
    assert_document_footer(pages, owner="Ana", label="Career", printed_since=before)
    text = "\n".join(pages)
    assert response["Content-Disposition"] == (
        f'inline; filename="player-{career["ana"].pk}-career.pdf"'
    )
    # The axes' labels are the charts' own text (the page's tables say neither).
    assert "Rated matches, in order" in text
    assert "Sessions" in text
    for name in ("Spring", "Autumn Cup"):
        assert name in text
    # The charts are vectors: the pages draw paths, no image is embedded.
    reader = PdfReader(io.BytesIO(response.content))
    contents = b"".join(page.get_contents().get_data() for page in reader.pages)
    assert contents.count(b" re") + contents.count(b" l\n") > 20
    for page in reader.pages:
        assert not page.images


def test_the_charts_are_laid_out_as_drawn(client, career):
    """WeasyPrint's layout of the PDF's HTML: each chart as wide as the page and in the
    proportions it was drawn in (not in a square box, half of it blank)."""
    html = client.get(pdf_url(career["ana"]) + "?html").content.decode()
    fetcher = StaticFilesFetcher(fail_on_errors=True)
    document = HTML(string=html, base_url=DEFAULT_SITE_ROOT, url_fetcher=fetcher).render()
    charts = [
        box for page in document.pages for box in page._page_box.descendants()
        if isinstance(box, boxes.InlineReplacedBox) and box.element.tag.endswith("svg")
    ]
    assert len(charts) == 2
    for box in charts:
        assert box.height / box.width == pytest.approx(SIZE[1] / SIZE[0], rel=0.01)


def test_html_preview_carries_the_same_charts(client, career):
    response = client.get(pdf_url(career["ana"]) + "?html")
    assert response.status_code == 200
    assert has_id(response, "rating-chart") and has_id(response, "points-chart")


def test_pdf_of_a_private_career_is_404(client, career):
    ed = career["players"]["Ed"]
    career["spring"].is_public = False
    career["spring"].save()
    assert client.get(pdf_url(ed)).status_code == 404
