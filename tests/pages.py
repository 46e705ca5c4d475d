"""Reading a page's HTML as a browser does (tinyhtml5, the HTML5 parser WeasyPrint uses, and
cssselect2), so that tests look things up by id or CSS selector instead of cutting the markup
with ``str.split``; and a response's messages with their level and code."""

from __future__ import annotations

import re
from xml.etree.ElementTree import Element

import cssselect2
import tinyhtml5
from django.contrib.messages import get_messages


def _root(page) -> cssselect2.ElementWrapper:
    html = page if isinstance(page, str) else page.content.decode()
    return cssselect2.ElementWrapper.from_html_root(tinyhtml5.parse(html))


def select(page, selector: str) -> list[Element]:
    """The elements matching a CSS selector (``page``: a response or its HTML)."""
    return [wrapper.etree_element for wrapper in _root(page).query_all(selector)]


def by_id(page, element_id: str) -> Element:
    """The element of this id; fails the test when there is none."""
    found = select(page, f"#{element_id}")
    assert found, f"no element with id {element_id!r}"
    return found[0]


def has_id(page, element_id: str) -> bool:
    return bool(select(page, f"#{element_id}"))


def text(element: Element) -> str:
    """The element's text, runs of HTML white space collapsed (no-break spaces kept: French
    typography puts them before a colon)."""
    return re.sub(r"[ \t\n\r\f]+", " ", "".join(element.itertext())).strip()


def attribute(element: Element, name: str) -> str | None:
    return element.get(name)


def messages(response) -> list[tuple[str, str]]:
    """The messages this request added (not those still waiting from earlier requests):
    (level, code) pairs, the code being a refusal's ValidationError code (empty for a
    success)."""
    storage = get_messages(response.wsgi_request)
    return [
        (message.level_tag, message.extra_tags or "")
        for message in storage._queued_messages  # Django's storage: those added now
    ]


_SECRETS = {"nonce", "integrity"}


def readable(page) -> str:
    """What a reader of the page can learn from it: its text and its attributes' values, less
    the per-request secrets (a CSRF token, a nonce), whose random letters would spell any short
    name now and then. Each piece on a line of its own."""
    pieces = []
    for element in _root(page).etree_element.iter():
        pieces.extend(piece for piece in (element.text, element.tail) if piece)
        for name, value in element.attrib.items():
            if name in _SECRETS or "csrf" in (element.get("name") or "") + name:
                continue
            pieces.append(re.sub(r'"X-CSRFToken"\s*:\s*"[^"]*"', "", value))
    return "\n".join(pieces)
