"""HTML answers made lighter: the templates' indentation and blank lines left out.

The templates are indented for their reader; an answer polled by every phone of the room or
sent after every save carries that indentation each time (a third of a match's answer). A
run of white space that begins a line becomes the line break alone: white space between
words or tags stays white space, so the page reads and lays out the same. The content of a
``<pre>`` or a ``<textarea>``, where white space is what it shows, is left as it is.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.utils.safestring import SafeString, mark_safe

_KEPT_AS_IS = re.compile(r"(<(pre|textarea)\b.*?</\2>)", re.DOTALL | re.IGNORECASE)
_INDENTED = re.compile(r"\n\s+")


def compact_html(html: str) -> str:
    """``html`` without the white space after each line break (``<pre>`` and ``<textarea>``
    kept whole).

    >>> compact_html("<ul>\\n    <li>a b</li>\\n\\n  </ul>")
    '<ul>\\n<li>a b</li>\\n</ul>'
    """
    parts = _KEPT_AS_IS.split(html)
    # split() gives: text, (whole kept element, its tag name), text, ...
    out = []
    for index, part in enumerate(parts):
        kind = index % 3
        if kind == 0:
            out.append(_INDENTED.sub("\n", part))
        elif kind == 1:
            out.append(part)
    return "".join(out)


def compact_response(response):
    """A post-render callback of a ``TemplateResponse``: its content made compact."""
    response.content = compact_html(response.content.decode(response.charset)).encode(
        response.charset)
    return response


def json_attribute(value: Any) -> SafeString:
    """``value`` as JSON for an attribute written between single quotes (``data-x='{{ }}'``):
    its double quotes as they are (``&quot;`` would weigh six times as much), and only ``&``,
    ``'`` and ``<`` escaped."""
    text = json.dumps(value, separators=(",", ":"))
    return mark_safe(  # every character that could end the attribute or start markup escaped
        text.replace("&", "&amp;").replace("'", "&#x27;").replace("<", "&lt;"))
