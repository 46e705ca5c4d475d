"""The options of a printed document, read from its address's query string."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.printing.documents import MAX_ROUNDS
from tournament.validators import parse_table_numbers


class TableNumbersField(forms.CharField):
    """``?tables=1-4,7``: table numbers and ranges (``validators.parse_table_numbers``),
    cleaned to a frozenset of numbers, or None when left blank (every table)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("label", _("tables"))
        kwargs.setdefault("required", False)
        kwargs.setdefault(
            "help_text", _("Blank for every table, or numbers and ranges such as 1-4,7.")
        )
        super().__init__(**kwargs)

    def clean(self, value) -> frozenset[int] | None:
        return parse_table_numbers(super().clean(value))


class ScoreSheetOptionsForm(forms.Form):
    """``?rounds=N``: N sheets per table, numbered round 1 to N (default: one, unnumbered).
    ``?tables=1-4,7``: those tables only (default: every table the user referees).

    ``session_tables``: the numbers of the session's tables; ``refereed``: the tables the user
    may referee (None: every table), as ``permissions.refereed_tables`` gives them.
    """

    tables = TableNumbersField()

    rounds = forms.IntegerField(
        label=_("sheets per table"),
        required=False,
        min_value=1,
        max_value=MAX_ROUNDS,
        help_text=_("One sheet per round: 1 to %(max)s.") % {"max": MAX_ROUNDS},
    )

    def __init__(self, data, *, session_tables: frozenset[int], refereed: frozenset[int] | None):
        super().__init__(data)
        self.session_tables = session_tables
        self.refereed = refereed

    def clean_tables(self) -> frozenset[int]:
        """The tables to print: those asked for, else those the user referees."""
        asked = self.cleaned_data["tables"]
        if asked is None:
            if self.refereed is None:
                return self.session_tables
            if self.session_tables and not self.session_tables & self.refereed:
                raise forms.ValidationError(
                    _("You referee tables %(yours)s only: this session has none of them."),
                    code="none-of-yours", params={"yours": _numbers(self.refereed)},
                )
            return self.session_tables & self.refereed
        if self.refereed is not None and asked - self.refereed:
            raise forms.ValidationError(
                _("You referee tables %(yours)s only."), code="not-yours",
                params={"yours": _numbers(self.refereed)},
            )
        if asked - self.session_tables:
            raise forms.ValidationError(
                _("This session has no table %(numbers)s."), code="no-such-table",
                params={"numbers": _numbers(asked - self.session_tables)},
            )
        return asked

    def rounds_wanted(self) -> int:
        return self.cleaned_data.get("rounds") or 1

    def tables_wanted(self) -> frozenset[int]:
        return self.cleaned_data["tables"]


class TableCardOptionsForm(forms.Form):
    """``?tables=1-4,7``: the cards of those tables only (default: tables 1 to
    ``table_count``, the most tables a seated session of the tournament has)."""

    tables = TableNumbersField()

    def __init__(self, data, *, table_count: int):
        super().__init__(data)
        self.table_count = table_count

    def clean_tables(self) -> frozenset[int]:
        every_table = frozenset(range(1, self.table_count + 1))
        asked = self.cleaned_data["tables"]
        if asked is None:
            return every_table
        if asked - every_table:
            raise forms.ValidationError(
                _("No seated session has a table %(numbers)s."), code="no-such-table",
                params={"numbers": _numbers(asked - every_table)},
            )
        return asked

    def tables_wanted(self) -> frozenset[int]:
        return self.cleaned_data["tables"]


def _numbers(numbers: frozenset[int]) -> str:
    return ", ".join(str(number) for number in sorted(numbers))
