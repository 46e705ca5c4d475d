"""What every form of the match entry reads the same way: a tile, a cell, a way round, a small
number, the placement's fields and the revision the page was made at.

The forms, by page: ``entry.py`` (board mode's turn, pass, decision, a round's end, a record
uploaded), ``corrections.py`` (correcting or inserting a turn), ``sheet_mode.py`` (a round typed
in from its paper score sheet). They read what the scorekeeper typed or tapped; the services
save. Every field error is in the user's language and shown next to its field; what the engine
refuses comes back from the services with the engine's reason.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.forms.renderers import DjangoTemplates
from django.utils import translation

from tournament import engine
from tournament.kit.digits import ascii_number
from tournament.matches.reading.turn_preview import TURN_REFUSALS

DRAW_CHOICES = [(str(n), str(n)) for n in range(4)]

_CORNERS_RE = re.compile(r"^\s*(\d)\s*-?\s*(\d)\s*-?\s*(\d)\s*$")


def small_number(text: str, *, high: int) -> int | None:
    """``text`` as a number from 0 to ``high`` written in ASCII digits; None otherwise (``²``
    or ``٣`` are digits to ``str.isdigit()``, not numbers a scorekeeper types)."""
    value = ascii_number(text.strip(), digits=len(str(high)))
    return value if value is not None and value <= high else None


def tile_error(given: str) -> ValidationError:
    return ValidationError(TURN_REFUSALS["unknown-tile"], code="unknown-tile",
                           params={"given": given})


def clean_tile(text: str) -> str:
    """A canonical tile name from what was typed ('' stays '')."""
    text = text.strip()
    if not text:
        return ""
    try:
        return str(engine.parse_tile(text))
    except engine.UnknownTile:
        raise tile_error(text) from None


def clean_cell(text: str) -> engine.Cell | None:
    text = text.strip()
    if not text:
        return None
    try:
        if len(text) > 30:  # no cell of a table is written that long
            raise engine.InvalidCell(text)
        return engine.parse_cell(text)
    except (engine.InvalidCell, ValueError):
        raise ValidationError(TURN_REFUSALS["invalid-cell"], code="invalid-cell",
                              params={"given": text}) from None


def clean_corners(text: str) -> tuple[int, int, int] | None:
    text = text.strip()
    if not text:
        return None
    match = _CORNERS_RE.match(text)
    if match is None:
        raise ValidationError(TURN_REFUSALS["invalid-corners"], code="invalid-corners",
                              params={"given": text})
    a, b, c = (int(v) for v in match.groups())
    return (a, b, c)


class PlacementFieldsMixin:
    """``clean_tile``, ``clean_cell`` and ``clean_corners`` for the forms that have such fields
    (Django calls only those of the form's fields): the tile in its canonical name, the cell
    and the corners parsed, '' or None when blank."""

    cleaned_data: dict[str, Any]

    def clean_tile(self) -> str:
        return clean_tile(self.cleaned_data["tile"])

    def clean_cell(self) -> engine.Cell | None:
        return clean_cell(self.cleaned_data["cell"])

    def clean_corners(self) -> tuple[int, int, int] | None:
        return clean_corners(self.cleaned_data["corners"])


class _Unkeyed(Exception):
    """A widget's context holds something other than plain data: it is rendered as it is."""


_PLAIN = (str, int, float, bool, type(None))


def _frozen(value: Any) -> Any:
    """``value`` as a key that tells apart what renders apart: the type with the value (True
    renders as a bare attribute, 1 as ``="1"``; a safe string is not escaped), a dict's
    items in their order (the attributes' order)."""
    kind = type(value)
    if kind in _PLAIN or (isinstance(value, str) and hasattr(value, "__html__")):
        return (kind, value)
    if kind is dict:
        return (dict, tuple((key, _frozen(item)) for key, item in value.items()))
    if kind in (list, tuple):
        return (kind, tuple(_frozen(item) for item in value))
    raise _Unkeyed


class WidgetRenderer(DjangoTemplates):
    """Django's form renderer, each widget's HTML made once per context: a turn's answer
    draws the same turn form after every save (its inputs, the draws' radios), which Django
    renders from templates each time. A context that holds anything but plain data (a lazy
    translation, an object) is rendered as it is, uncached."""

    #: How many widgets' HTML are kept (a form's few inputs in each language, and room).
    KEPT = 2048

    def __init__(self) -> None:
        self._kept: dict[Any, str] = {}

    def render(self, template_name: str, context: dict[str, Any], request=None) -> str:
        if request is not None or not template_name.startswith("django/forms/widgets/"):
            return super().render(template_name, context, request=request)
        try:
            key = (template_name, translation.get_language(), _frozen(context))
        except _Unkeyed:
            return super().render(template_name, context)
        html = self._kept.get(key)
        if html is None:
            html = super().render(template_name, context)
            if len(self._kept) >= self.KEPT:
                self._kept.clear()
            self._kept[key] = html
        return html


#: The renderer of the entry screen's forms (``default_renderer``).
WIDGET_RENDERER = WidgetRenderer()


class RevisionForm(forms.Form):
    """The revision of the match the page showed: a save from an older one is refused."""

    revision = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
