"""The match pages' words for what the engine stores as codes."""

from __future__ import annotations

from django import template

from tournament.matches.selectors import ReplayedRound, TurnLine
from tournament.matches.tables import placed_words

register = template.Library()


@register.simple_tag
def turn_place(round_view: ReplayedRound, line: TurnLine) -> str:
    """Where ``line``'s tile went in ``round_view``, in words ('' when nothing went on the
    table): ``below and right of 3-4-5``."""
    return placed_words(round_view.turns).get(line.row.pk, "")
