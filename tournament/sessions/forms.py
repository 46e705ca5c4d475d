"""The reason a closed session is reopened for."""

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
