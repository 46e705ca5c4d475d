"""The reason a closed session is reopened for; a player checked in (docs/guides/check-in.md)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class SessionReopenForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Why the session's results must change, e.g. a score entered at the wrong "
                    "table. Kept in the session's audit log."),
    )


class CheckInForm(forms.Form):
    """One tap of the check-in: this player is present (or no longer)."""

    player = forms.IntegerField(min_value=1, max_value=2**31 - 1)
    present = forms.TypedChoiceField(
        choices=[("1", _("present")), ("0", _("absent"))], coerce=lambda value: value == "1")
