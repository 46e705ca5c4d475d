"""Dates and figures as a reader writes them, for the pages (``templatetags/dates.py``) and the
documents.

``figure``: a rating, its mean, its uncertainty or a change of rating, to one decimal, rounded
half away from zero (2.25 shows 2.3, -2.25 shows -2.3), as the decimal a reader sees, never
"-0.0" nor "+0.0" (Django's ``number_format`` cuts the decimals off: 2.0503 would show 2.0).

Django's formats give "1 décembre 2027"; French writes the first of the month "1er décembre".
"""

from __future__ import annotations

import datetime
from decimal import ROUND_HALF_UP, Decimal

from django.utils import formats, timezone, translation
from django.utils.translation import pgettext

from tournament.kit.digits import is_ascii_number


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


def figure(value: float, *, places: int = 1, signed: bool = False,
           separator: str | None = None) -> str:
    """``value`` to ``places`` decimals, half away from zero, with the page's decimal separator
    (12,3 in French); ``signed``: "+" before a positive figure. What rounds to zero shows
    "0.0", without a sign.

    >>> figure(2.0503, separator="."), figure(-5.69, separator=","), figure(-2.25, separator=".")
    ('2.1', '-5,7', '-2.3')
    >>> figure(0.04, signed=True, separator="."), figure(-0.04, separator=".")
    ('0.0', '0.0')
    >>> figure(1.25, signed=True, separator=".")
    '+1.3'
    """
    separator = separator or formats.get_format("DECIMAL_SEPARATOR")
    rounded = Decimal(repr(float(value))).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)
    if rounded.is_zero():
        rounded = abs(rounded)
    text = f"{rounded:+f}" if signed and rounded > 0 else f"{rounded:f}"
    return text.replace(".", separator)


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
    if not is_ascii_number(number):
        return label
    if number == "1":
        ordinal = pgettext("a rank in words: first", "1")
    else:
        ordinal = pgettext("a rank in words, its number", "%(rank)s") % {"rank": number}
    if tied:
        return pgettext("a shared rank in words", "%(rank)s=") % {"rank": ordinal}
    return ordinal


def duration(seconds: float | None) -> str:
    """A length of time in hours and minutes, as a clock is set: "1 h 30", "2 h", "45 min" in
    French ("1 h 30 min" in English), the minutes rounded; "" for None.

    >>> with translation.override("fr"):
    ...     [duration(5400), duration(7200), duration(2700), duration(3900)]
    ['1\\xa0h\\xa030', '2\\xa0h', '45\\xa0min', '1\\xa0h\\xa005']
    """
    if seconds is None:
        return ""
    hours, minutes = divmod(round(seconds / 60), 60)
    if not hours:
        return pgettext("a duration", "%(minutes)s min") % {"minutes": minutes}
    if not minutes:
        return pgettext("a duration", "%(hours)s h") % {"hours": hours}
    return pgettext("a duration", "%(hours)s h %(minutes)02d min") % {
        "hours": hours, "minutes": minutes}
