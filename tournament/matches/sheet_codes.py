"""The bonus codes of the paper score sheet, which sheet mode reads back.

The printed score sheet has three bonus boxes per player, each headed by a letter in the
sheet's language (:func:`box_marks`): a bridge ("P" for pont in French, "B" in English), two
sides ("C" for deux côtés, "T"), and hexagons ("H", where the scorekeeper writes 1, 2 or 3).
Sheet mode accepts what the paper says, in either language and in either case ("C", "c",
"H2", "h 2"), and the shorter codes it always took (``2``, ``h``, ``hh``, ``hhh``, ``o`` for
the opening). The sheet's legend and sheet mode's help both name the codes through
:func:`bonus_codes_text`, so that paper and screen say the same thing.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

#: Every code sheet mode reads, lower case and without spaces, to the bonus it claims. The
#: box letters of every language's score sheet are here (a test holds them to
#: :func:`box_marks` in each language).
BONUS_CODES = {
    "o": "opening",
    "b": "bridge",  # English sheet: B
    "p": "bridge",  # French sheet: P (pont)
    "2": "two-sides",
    "t": "two-sides",  # English sheet: T
    "c": "two-sides",  # French sheet: C (deux côtés)
    "h": "hexagon",
    "hh": "double-hexagon",
    "hhh": "triple-hexagon",
    "h1": "hexagon",  # the sheet's H box with the number of hexagons written in it
    "h2": "double-hexagon",
    "h3": "triple-hexagon",
    "1h": "hexagon",
    "2h": "double-hexagon",
    "3h": "triple-hexagon",
}


def box_marks() -> tuple[str, str, str]:
    """The letters heading the score sheet's bonus boxes (bridge, two sides, hexagons), in the
    active language."""
    return (pgettext("score sheet box: a bridge", "B"),
            pgettext("score sheet box: two sides", "T"),
            pgettext("score sheet box: hexagons", "H"))


def bonus_code(text: str) -> str | None:
    """The bonus a sheet-mode code claims ("C", "h2", "H 3", "hh"...), or None."""
    return BONUS_CODES.get("".join(text.split()).lower())


def bonus_codes_text() -> str:
    """The codes as the score sheet prints them, in the active language: the legend of the
    printed sheet and the help of sheet mode both say this."""
    bridge, two_sides, hexagon = box_marks()
    return _("%(bridge)s bridge, %(two_sides)s two sides, %(hexagon)s1, %(hexagon)s2 or "
             "%(hexagon)s3 hexagons (also 2, h, hh, hhh), o opening") % {
        "bridge": bridge, "two_sides": two_sides, "hexagon": hexagon}
