"""The match pages' words for what the engine stores as codes."""

from __future__ import annotations

from django import template

from tournament.matches.reading.replayed_rounds import ReplayedRound, TurnLine
from tournament.matches.tables import place_before, placed_words

register = template.Library()


@register.simple_tag
def turn_place(round_view: ReplayedRound, line: TurnLine) -> str:
    """Where ``line``'s tile went in ``round_view``, in words ('' when nothing went on the
    table): ``below and right of 3-4-5``."""
    return placed_words(round_view.turns).get(line.row.pk, "")


@register.simple_tag
def version_place(round_view: ReplayedRound, line: TurnLine, version) -> str:
    """Where a version of ``line``'s turn put its tile, in words, on the table as it is
    before that turn now ('' without a cell)."""
    return place_before(round_view, line.index, version.cell) if version.cell else ""
