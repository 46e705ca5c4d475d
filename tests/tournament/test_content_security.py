"""The Content-Security-Policy: on every page, and no template that it would break
(tests/browser/test_content_security.py walks the pages in a browser)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db

TEMPLATES = Path(settings.BASE_DIR) / "templates"


@pytest.mark.parametrize("address", ["/", "/login/", "/t/spring-open/", "/t/spring-open/standings/",
                                     "/offline-worker.js"])
def test_pages_and_the_worker_are_sent_with_the_policy(client, tournament, address):
    answer = client.get(address)
    assert answer.status_code == 200
    policy = answer["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy


def test_a_pdf_is_sent_without_it(client, tournament):
    answer = client.get("/t/spring-open/standings.pdf")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    assert "Content-Security-Policy" not in answer


def test_no_template_holds_an_inline_script_or_handler():
    """What the policy refuses: a <script> without src, an on...= handler, a javascript: link,
    a <style> element in a page (the printed ones are read by WeasyPrint, not a browser)."""
    found = []
    for template in TEMPLATES.rglob("*.html"):
        text = template.read_text()
        for tag in re.findall(r"<script\b[^>]*>", text):
            if "src=" not in tag:
                found.append((template.name, tag))
        found += [(template.name, handler) for handler in re.findall(r"\son[a-z]+=", text)]
        found += [(template.name, "javascript:") for _ in re.findall(r"javascript:", text)]
        if "<style" in text and "printing" not in template.parts:
            found.append((template.name, "<style>"))
    assert found == []
