"""Dates as a reader writes them: ``{{ day|long_date }}``, ``{{ moment|long_datetime }}``, and
lengths of time, ``{{ seconds|duration }}`` ("1 h 30"; ``tournament.kit.formats``)."""

from __future__ import annotations

from django import template
from django.utils import timezone

from tournament.kit.formats import duration, long_date, long_datetime

register = template.Library()
register.filter("long_date", long_date)
register.filter("long_datetime", long_datetime)
register.filter("duration", duration)


@register.simple_tag
def now_long_datetime() -> str:
    """The current date and time, as ``long_datetime`` writes them."""
    return long_datetime(timezone.now())
