"""The WeasyPrint helper: static files read from disk, nothing fetched over the network."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from weasyprint.urls import FatalURLFetchingError

from tournament.kit.pdf import RefusedAddress, StaticFileNotFound, StaticFilesFetcher, html_to_pdf


def test_static_files_come_from_disk_whatever_the_host():
    response = StaticFilesFetcher().fetch("http://192.168.1.10:8000/static/printing/print.css")
    assert response.content_type == "text/css"
    assert b"@page" in response.read()


@pytest.mark.parametrize("url", [
    "http://example.com/logo.png",
    "https://localhost:8000/t/spring-open/",
    "file:///etc/passwd",
    "http://localhost:8000/static/../tournament/settings.py",
])
def test_anything_else_is_refused(url):
    with pytest.raises((RefusedAddress, StaticFileNotFound)):
        StaticFilesFetcher().fetch(url)


def test_a_missing_static_file_is_an_error():
    with pytest.raises(StaticFileNotFound):
        StaticFilesFetcher().fetch("http://localhost:8000/static/printing/missing.css")


def test_a_page_that_asks_for_another_address_fails_rather_than_print_without_it():
    html = '<link rel="stylesheet" href="http://example.com/style.css"><p>x</p>'
    with pytest.raises(FatalURLFetchingError):
        html_to_pdf(html)


def test_the_print_stylesheet_applies_a4_and_the_footer():
    html = (
        '<link rel="stylesheet" href="/static/printing/print.css">'
        '<div class="print-footer print-footer--tournament">Open de Lyon</div>'
        '<div class="print-footer print-footer--page">page <span class="page-number"></span></div>'
        '<p style="break-after: page">one</p><p>two</p>'
    )
    reader = PdfReader(io.BytesIO(html_to_pdf(html)))
    assert len(reader.pages) == 2
    assert [round(float(v)) for v in reader.pages[0].mediabox[2:]] == [595, 842]
    assert "Open de Lyon page 2 / 2" in reader.pages[1].extract_text()
    fonts = {
        str(font.get_object()["/BaseFont"])
        for page in reader.pages
        for font in page["/Resources"]["/Font"].values()
    }
    assert fonts and all("DejaVu-Sans" in font for font in fonts), fonts
