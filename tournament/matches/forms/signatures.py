"""A seat's word on a round (``tournament.matches.services.signatures``): agreed, or disputed
with a reason; on the table's scorer phone, passed round, with the seat and its code."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournament.kit.seats import seat_letter
from tournament.matches.services.signatures import REASON_MAX_LENGTH
from tournament.matches.signatures import CODE_LENGTH


class RoundSignForm(forms.Form):
    """The round read (``round``, ``digest``: what the seat saw, which the write holds to:
    not the match's revision, which every other seat's word moves), agreed or disputed."""

    AGREE, DISPUTE = "agree", "dispute"

    round = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=1000)
    digest = forms.CharField(widget=forms.HiddenInput, max_length=64)
    word = forms.ChoiceField(
        label=_("Your word on this round"), widget=forms.RadioSelect,
        choices=[(AGREE, _("I agree with this round: racks, settlement, totals")),
                 (DISPUTE, _("I disagree: call a referee"))])
    reason = forms.CharField(label=_("What you disagree with"), required=False,
                             max_length=REASON_MAX_LENGTH, widget=forms.Textarea(attrs={"rows": 2}))

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("word") == self.DISPUTE and not cleaned.get("reason", "").strip():
            self.add_error("reason", ValidationError(
                _("Say what you disagree with: the referee reads it."), code="reason_required"))
        return cleaned


class SeatCodeSignForm(RoundSignForm):
    """On the scorer phone: the seat signing, and its code printed beside its name."""

    seat = forms.TypedChoiceField(label=_("Your seat"), coerce=int)
    code = forms.CharField(label=_("Your seat code (beside your name on the sheet)"),
                           max_length=CODE_LENGTH * 2,
                           widget=forms.TextInput(attrs={"autocomplete": "off",
                                                         "autocapitalize": "characters",
                                                         "spellcheck": "false"}))

    field_order = ["seat", "code", "word", "reason"]

    def __init__(self, *args, names: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [(seat, f"{seat_letter(seat)} · {name}")
                                       for seat, name in enumerate(names)]
