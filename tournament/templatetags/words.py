"""Words as French writes them around the names and figures put into translated sentences:
``{% filter elide %}`` (``de Amélie`` → ``d’Amélie``) and ``rank|rank_words`` ("3e ex æquo")."""

from __future__ import annotations

from django import template

from tournament.kit.formats import rank_words as _rank_words
from tournament.names import elide as _elide

register = template.Library()


@register.filter(is_safe=True)
def elide(text: str) -> str:
    """The text with French elisions before the names put into it, in French."""
    return _elide(text)


@register.filter
def rank_words(label: str) -> str:
    """A rank label ("3=") as a sentence writes it ("3e ex æquo" in French)."""
    return _rank_words(str(label))
