"""Correcting a turn, or inserting one nobody entered: the turn's fields and a reason."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament import engine
from tournament.matches.forms.parsing import DRAW_CHOICES, PlacementFieldsMixin, RevisionForm
from tournament.matches.reading.replayed_match import ReplayedMatch
from tournament.matches.services import TurnInput, turn_snapshot
from tournament.models import Turn


class CorrectionForm(PlacementFieldsMixin, RevisionForm):
    """Any turn, corrected: every field of the turn, and why (required)."""

    not_played = forms.BooleanField(
        label=_("This turn was not played (strike it out)"), required=False
    )
    player = forms.TypedChoiceField(label=_("Player"), coerce=int)
    draws = forms.TypedChoiceField(label=_("Draws"), choices=DRAW_CHOICES, coerce=int)
    tile = forms.CharField(label=_("Tile"), max_length=12, required=False,
                           help_text=_("Blank: no tile placed."))
    cell = forms.CharField(label=_("Cell"), max_length=20, required=False,
                           help_text=_("e.g. D(1,0); blank in sheet mode."))
    corners = forms.CharField(label=_("Corners"), max_length=12, required=False,
                              help_text=_("Clockwise from the apex, e.g. 5-3-4."))
    bonus_claimed = forms.ChoiceField(label=_("Bonus claimed"), required=False)
    claimed = forms.IntegerField(label=_("Points announced"), required=False,
                                 min_value=-1000, max_value=1000)
    reason = forms.CharField(label=_("Why the correction"), max_length=500,
                             widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, replay: ReplayedMatch, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [
            (str(seat.order), f"{seat.letter} · {seat.name}") for seat in replay.seats
        ]
        self.fields["bonus_claimed"].choices = [("", "—")] + [
            (name, label) for name, label in engine.BONUS_LABELS.items()
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("not_played") or self.errors:
            return data
        cell, corners = data.get("cell"), data.get("corners")
        if (cell is None) != (corners is None):
            self.add_error("corners" if corners is None else "cell",
                           _("Give both the cell and the corners, or neither."))
        return data

    def turn_input(self) -> TurnInput | None:
        data = self.cleaned_data
        if data.get("not_played"):
            return None
        return TurnInput(
            player=data["player"],
            draws=data["draws"],
            tile=data["tile"],
            cell=data["cell"],
            corners=data["corners"],
            bonus_claimed=data.get("bonus_claimed") or "",
            points_claimed=data.get("claimed"),
        )

    @staticmethod
    def initial_for(turn: Turn) -> dict[str, Any]:
        """What was entered for the turn (``turn_snapshot``, as the audit log keeps it), under
        the form's field names."""
        initial = turn_snapshot(turn)
        initial["claimed"] = initial.pop("points_claimed")
        return initial


class InsertionForm(CorrectionForm):
    """A turn nobody entered, inserted before another: the correction's fields but "not
    played", and why (required). The player may be left blank: the one due at that point."""

    reason = forms.CharField(label=_("Why the turn is inserted"), max_length=500,
                             widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, replay: ReplayedMatch, **kwargs: Any) -> None:
        super().__init__(*args, replay=replay, **kwargs)
        del self.fields["not_played"]
        player = self.fields["player"]
        player.required = False
        player.empty_value = None
        player.choices = [("", "—")] + player.choices
        player.help_text = _("Blank: the player whose turn it was.")
