"""Sheet mode's forms: one line a turn as the paper score sheet has it (who, tile, claimed
points, bonus code, draws), the lines of a round as a formset, and the check before saving."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournament import engine
from tournament.kit.seats import SEAT_LETTERS
from tournament.matches.forms.parsing import (
    WIDGET_RENDERER,
    PlacementFieldsMixin,
    RevisionForm,
    small_number,
)
from tournament.matches.services import TurnInput
from tournament.matches.sheet_codes import bonus_code, bonus_codes_text
from tournament.models import Turn


class SheetModeLineForm(PlacementFieldsMixin, forms.Form):
    """One line of a paper score sheet: who, tile, draws, bonus claimed, points announced."""

    who = forms.CharField(max_length=3, required=False, widget=forms.TextInput(
        attrs={"size": "2", "autocomplete": "off", "class": "sheet-who", "autocapitalize": "characters"}))
    tile = forms.CharField(max_length=12, required=False, widget=forms.TextInput(
        attrs={"size": "5", "autocomplete": "off", "inputmode": "numeric", "class": "sheet-tile"}))
    draws = forms.CharField(max_length=2, required=False, widget=forms.TextInput(
        attrs={"size": "1", "autocomplete": "off", "inputmode": "numeric", "class": "sheet-draws"}))
    bonus = forms.CharField(max_length=16, required=False, widget=forms.TextInput(
        attrs={"size": "3", "autocomplete": "off", "class": "sheet-bonus"}))
    points = forms.CharField(max_length=6, required=False, widget=forms.TextInput(
        attrs={"size": "4", "autocomplete": "off", "inputmode": "numeric", "class": "sheet-points"}))
    decision = forms.ChoiceField(required=False, choices=[
        ("", _("decide later")), (Turn.Decision.ENGINE, _("the engine's figure")),
        (Turn.Decision.CLAIM, _("the claim")),
    ])
    reason = forms.CharField(max_length=500, required=False)

    def __init__(self, *args: Any, seat_count: int = 4, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seat_count = seat_count
        self.player: int | None = None

    @property
    def is_blank(self) -> bool:
        data = getattr(self, "cleaned_data", None) or {}
        return not any(data.get(name) not in (None, "") for name in ("who", "tile", "draws", "bonus", "points"))

    def clean_who(self) -> int | None:
        text = self.cleaned_data["who"].strip().upper()
        if not text:
            return None
        letters = SEAT_LETTERS[: self.seat_count]
        if len(text) == 1 and text in letters:
            return letters.index(text)
        number = small_number(text, high=self.seat_count)
        if number is not None and number >= 1:
            return number - 1
        raise ValidationError(
            _("Who played: a seat letter (%(letters)s) or number (1 to %(count)s)."),
            params={"letters": ", ".join(letters), "count": self.seat_count},
        )

    def clean_draws(self) -> int | None:
        text = self.cleaned_data["draws"].strip()
        if not text:
            return None
        number = small_number(text, high=3)
        if number is None:
            raise ValidationError(_("Draws: a number from 0 to 3."))
        return number

    def clean_bonus(self) -> str:
        text = self.cleaned_data["bonus"].strip()
        if not text:
            return ""
        code = bonus_code(text)
        if code is not None:
            return code
        if text.lower() in engine.BONUS_LABELS:
            return text.lower()
        raise ValidationError(
            _("Bonus, as on the score sheet: %(codes)s."),
            code="unknown-bonus", params={"codes": bonus_codes_text()},
        )

    def clean_points(self) -> int | None:
        text = self.cleaned_data["points"].strip().replace("−", "-")
        if not text:
            return None
        try:
            if not text.isascii() or len(text) > 6:
                raise ValueError(text)
            value = int(text)
        except ValueError:
            raise ValidationError(_("Points: a whole number, like 14 or -25.")) from None
        if abs(value) > 1000:
            raise ValidationError(_("Points: a whole number, like 14 or -25."))
        return value

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("decision") == Turn.Decision.CLAIM and not (data.get("reason") or "").strip():
            self.add_error("reason", _("Say why the claim stands against the engine."))
        return data

    def turn_input(self, player: int | None) -> TurnInput:
        data = self.cleaned_data
        return TurnInput(
            player=player,
            draws=data.get("draws") or 0,
            tile=data.get("tile") or "",
            bonus_claimed=data.get("bonus") or "",
            points_claimed=data.get("points"),
            decision=data.get("decision") or "",
            decision_reason=(data.get("reason") or "").strip()
            if data.get("decision") == Turn.Decision.CLAIM else "",
        )


class BaseSheetModeFormSet(forms.BaseFormSet):
    def __init__(self, *args: Any, seat_count: int = 4, **kwargs: Any) -> None:
        self.seat_count = seat_count
        super().__init__(*args, **kwargs)

    def get_form_kwargs(self, index: int) -> dict[str, Any]:
        kwargs = super().get_form_kwargs(index)
        kwargs["seat_count"] = self.seat_count
        return kwargs


# its lines' inputs, alike but for their names, made once each (``WidgetRenderer``)
SheetModeFormSet = forms.formset_factory(SheetModeLineForm, formset=BaseSheetModeFormSet, extra=0,
                                     max_num=200, absolute_max=200, renderer=WIDGET_RENDERER)


class SheetModeForm(RevisionForm):
    default_renderer = WIDGET_RENDERER

    mismatches_seen = forms.BooleanField(
        label=_("I have looked at the claims that differ from the engine"), required=False,
        widget=forms.CheckboxInput(attrs={"autofocus": True}),
    )
