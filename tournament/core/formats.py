"""Dates as a reader writes them, for the pages (``templatetags/dates.py``) and the documents.

Django's formats give "1 décembre 2027"; French writes the first of the month "1er décembre".
"""

from __future__ import annotations

import datetime

from django.utils import formats, timezone, translation
from django.utils.translation import pgettext


def _first_of_the_month(text: str, day: int) -> str:
    if day == 1 and translation.get_language().startswith("fr") and text.startswith("1 "):
        return "1er" + text[1:]
    return text


def long_date(value: datetime.date | None) -> str:
    """The date in words in the page's language: "1er avril 2027", "April 1, 2027"."""
    if not value:
        return ""
    if isinstance(value, datetime.datetime):
        value = timezone.localtime(value) if timezone.is_aware(value) else value
    return _first_of_the_month(formats.date_format(value, "DATE_FORMAT"), value.day)


def long_datetime(value: datetime.datetime | None) -> str:
    """The date in words and the time: "1er avril 2027 14:05"."""
    if not value:
        return ""
    value = timezone.localtime(value) if timezone.is_aware(value) else value
    return _first_of_the_month(formats.date_format(value, "DATETIME_FORMAT"), value.day)


def rank_words(label: str) -> str:
    """A rank as a sentence writes it, from its label ("3", "3="): in French "1er", "3e",
    "3e ex æquo"; in English as the tables show it ("3", "3=").

    >>> with translation.override("fr"):
    ...     rank_words("1"), rank_words("3="), rank_words("12")
    ('1er', '3e ex\\xa0æquo', '12e')
    >>> with translation.override("en"):
    ...     rank_words("3=")
    '3='
    """
    tied = label.endswith("=")
    number = label.rstrip("=")
    if not number.isdecimal():
        return label
    if number == "1":
        ordinal = pgettext("a rank in words: first", "1")
    else:
        ordinal = pgettext("a rank in words, its number", "%(rank)s") % {"rank": number}
    if tied:
        return pgettext("a shared rank in words", "%(rank)s=") % {"rank": ordinal}
    return ordinal
