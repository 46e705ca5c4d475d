"""Validators shared by the models and the forms. Every message is translatable."""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# ASCII digits only: ``\d`` would take other scripts' digits, which ``int()`` reads too, but
# nobody types them for a table.
_TABLE_RANGE = re.compile(r"^\s*([0-9]+)\s*(?:-\s*([0-9]+)\s*)?$")
#: The highest table number a list may name (4,000 players at tables of 4 need 1,000 tables);
#: a range is checked against it before its numbers are made.
MAX_TABLE_NUMBER = 9999
#: The highest session number a form takes (the database holds more; no tournament plays
#: more than a few dozen sessions).
MAX_SESSION_NUMBER = 999


def parse_table_numbers(text: str) -> frozenset[int] | None:
    """Parse a list of table numbers such as ``"1-4,7"``; blank means every table (None).

    >>> sorted(parse_table_numbers("1-3, 7"))
    [1, 2, 3, 7]
    >>> parse_table_numbers("") is None
    True
    """
    if not text.strip():
        return None
    numbers: set[int] = set()
    for part in text.split(","):
        match = _TABLE_RANGE.match(part)
        if match is None:
            raise ValidationError(
                _("“%(part)s” is not a table number or a range: write them like 1-4,7."),
                code="table-list",
                params={"part": _shortened(part.strip())},
            )
        if any(
            len(digits.lstrip("0")) > len(str(MAX_TABLE_NUMBER))
            for digits in match.groups() if digits
        ):
            raise ValidationError(
                _("“%(part)s”: tables are numbered up to %(max)s."),
                code="table-max",
                params={"part": _shortened(part.strip()), "max": MAX_TABLE_NUMBER},
            )
        first = int(match.group(1))
        last = int(match.group(2) or first)
        if first < 1 or last < first:
            raise ValidationError(
                _("“%(part)s” is not a valid range: tables are numbered from 1, low to high."),
                code="table-range",
                params={"part": _shortened(part.strip())},
            )
        if last > MAX_TABLE_NUMBER:
            raise ValidationError(
                _("“%(part)s”: tables are numbered up to %(max)s."),
                code="table-max",
                params={"part": part.strip(), "max": MAX_TABLE_NUMBER},
            )
        numbers.update(range(first, last + 1))
    return frozenset(numbers)


def _shortened(text: str, length: int = 20) -> str:
    """A value quoted back in a message: its start, if it is long."""
    return text if len(text) <= length else text[:length] + "…"


def validate_table_numbers(text: str) -> None:
    parse_table_numbers(text)


RANKING_CRITERIA_CODES = (
    "match_points",
    "table_wins",
    "total_points",
    "share",
    "best_match",
    "opponents",
)


def validate_ranking_criteria(value: object) -> None:
    """A non-empty list of distinct ranking criterion codes."""
    if not isinstance(value, list) or not value:
        raise ValidationError(_("Choose at least one ranking criterion."), code="criteria-empty")
    unknown = [code for code in value if code not in RANKING_CRITERIA_CODES]
    if unknown:
        raise ValidationError(
            _("Unknown ranking criterion: %(codes)s."),
            code="criteria-unknown",
            params={"codes": ", ".join(map(str, unknown))},
        )
    if len(set(value)) != len(value):
        raise ValidationError(
            _("Each ranking criterion may appear only once."), code="criteria-repeated"
        )
