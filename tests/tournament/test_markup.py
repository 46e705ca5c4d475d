"""The answers made lighter (tournament/kit/markup.py): the same page, fewer bytes; JSON in
an attribute that no value can break out of."""

from __future__ import annotations

import html
import json

from tournament.kit.markup import compact_html, json_attribute


def test_the_indentation_goes_and_the_white_space_that_shows_stays():
    page = ("<ul>\n    <li>a  b</li>\n\n  </ul>\n  <span>x</span> <span>y</span>"
            "<textarea>\n  kept\n    as typed</textarea>\n  <PRE>\n  code\n</PRE>\n  end")
    compact = compact_html(page)
    assert compact == ("<ul>\n<li>a  b</li>\n</ul>\n<span>x</span> <span>y</span>"
                       "<textarea>\n  kept\n    as typed</textarea>\n<PRE>\n  code\n</PRE>\nend")


def test_a_json_attribute_cannot_be_broken_out_of():
    value = {"cell": "U(0,1)", "evil": "' onmouseover='alert(1)' <script>&amp;"}
    text = str(json_attribute(value))
    assert "'" not in text and "<" not in text
    assert json.loads(html.unescape(text)) == value  # as the browser reads the attribute
    assert str(json_attribute(["D(0,-1)"])) == '["D(0,-1)"]'  # its quotes as they are
