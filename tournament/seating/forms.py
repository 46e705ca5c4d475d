"""The seating's forms: how to seat session 1 (at random or by rating); swap two players
before the session starts."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.models import SeatingMethod


class SeatingMethodForm(forms.Form):
    """How to seat the players: offered for session 1 only (later sessions are seated from
    the standings; a method by rating posted for them is refused next to the field). Left
    out, the session's method stays as it is."""

    method = forms.ChoiceField(
        label=_("Seat the players"), choices=SeatingMethod.choices, required=False
    )


class SwapForm(forms.Form):
    """Two players seated in the session; ``seated`` are (player id, label) pairs."""

    player_a = forms.TypedChoiceField(label=_("Player"), coerce=int)
    player_b = forms.TypedChoiceField(label=_("Swap with"), coerce=int)

    def __init__(self, *args, seated: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "—"), *seated]
        self.fields["player_a"].choices = choices
        self.fields["player_b"].choices = choices

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("player_a") and cleaned.get("player_a") == cleaned.get("player_b"):
            self.add_error("player_b", forms.ValidationError(
                _("Choose two different players."), code="same-player"))
        return cleaned
