"""The room's words (``tournament.room``): a board row's status and needs, the time since an
entry, an item of a list by index."""

from __future__ import annotations

from django import template
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.room.selectors import needs_label, status_label

register = template.Library()


@register.simple_tag
def board_status(row) -> str:
    return status_label(row)


@register.simple_tag
def need_label(code: str) -> str:
    return needs_label(code)


@register.simple_tag
def since(moment) -> str:
    """The minutes since ``moment``: "just now", "4 min"."""
    minutes = int((timezone.now() - moment).total_seconds() // 60)
    if minutes < 1:
        return _("just now")
    return _("%(minutes)s min") % {"minutes": minutes}


@register.filter
def index(items, position: int):
    try:
        return items[position]
    except (IndexError, TypeError):
        return ""
