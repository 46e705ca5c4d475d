"""The options of a printed document, read from its address's query string."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.printing.documents import MAX_ROUNDS


class ScoreSheetOptionsForm(forms.Form):
    """``?rounds=N``: N sheets per table, numbered round 1 to N (default: one, unnumbered)."""

    rounds = forms.IntegerField(
        label=_("sheets per table"),
        required=False,
        min_value=1,
        max_value=MAX_ROUNDS,
        help_text=_("One sheet per round: 1 to %(max)s.") % {"max": MAX_ROUNDS},
    )

    def rounds_wanted(self) -> int:
        return self.cleaned_data.get("rounds") or 1
