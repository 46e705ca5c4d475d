"""Forms of the match entry: they read what the scorekeeper typed or tapped; the services save.

Every field error is in the user's language and shown next to its field; what the engine
refuses comes back from the services with the engine's reason.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from tournament import engine
from tournament.core.seats import SEAT_LETTERS
from tournament.matches.replayed import LiveRound, ReplayedMatch
from tournament.matches.services import TurnInput, turn_snapshot
from tournament.models import Turn

DRAW_CHOICES = [(str(n), str(n)) for n in range(4)]

#: Sheet mode's short bonus codes (o: opening, b: bridge, p: pont in French, 2: two sides,
#: h/hh/hhh: hexagons): each language's help gives its own initials, both are accepted.
BONUS_CODES = {
    "o": "opening",
    "b": "bridge",
    "p": "bridge",
    "2": "two-sides",
    "h": "hexagon",
    "hh": "double-hexagon",
    "hhh": "triple-hexagon",
}
_CORNERS_RE = re.compile(r"^\s*(\d)\s*-?\s*(\d)\s*-?\s*(\d)\s*$")


def small_number(text: str, *, high: int) -> int | None:
    """``text`` as a number from 0 to ``high`` written in ASCII digits; None otherwise (``²``
    or ``٣`` are digits to ``str.isdigit()``, not numbers a scorekeeper types)."""
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(high)):
        return None
    value = int(text)
    return value if value <= high else None


def tile_error(given: str) -> ValidationError:
    return ValidationError(
        _("“%(given)s” is not a tile: three values from 0 to 5, like 345 or 3-4-5."),
        code="unknown-tile",
        params={"given": given},
    )


def clean_tile(text: str) -> str:
    """A canonical tile name from what was typed ('' stays '')."""
    text = text.strip()
    if not text:
        return ""
    try:
        return str(engine.parse_tile(text))
    except engine.UnknownTile:
        raise tile_error(text) from None


def clean_cell(text: str) -> engine.Cell | None:
    text = text.strip()
    if not text:
        return None
    try:
        if len(text) > 30:  # no cell of a table is written that long
            raise engine.InvalidCell(text)
        return engine.parse_cell(text)
    except (engine.InvalidCell, ValueError):
        raise ValidationError(
            _("“%(given)s” is not a cell: write it like U(0,0) or D(-1,2)."),
            params={"given": text},
        ) from None


def clean_corners(text: str) -> tuple[int, int, int] | None:
    text = text.strip()
    if not text:
        return None
    match = _CORNERS_RE.match(text)
    if match is None:
        raise ValidationError(
            _("“%(given)s”: give the three corner values clockwise from the apex, like 5-3-4."),
            params={"given": text},
        )
    a, b, c = (int(v) for v in match.groups())
    return (a, b, c)


class PlacementFieldsMixin:
    """``clean_tile``, ``clean_cell`` and ``clean_corners`` for the forms that have such fields
    (Django calls only those of the form's fields): the tile in its canonical name, the cell
    and the corners parsed, '' or None when blank."""

    cleaned_data: dict[str, Any]

    def clean_tile(self) -> str:
        return clean_tile(self.cleaned_data["tile"])

    def clean_cell(self) -> engine.Cell | None:
        return clean_cell(self.cleaned_data["cell"])

    def clean_corners(self) -> tuple[int, int, int] | None:
        return clean_corners(self.cleaned_data["corners"])


class RevisionForm(forms.Form):
    """The revision of the match the page showed: a save from an older one is refused."""

    revision = forms.IntegerField(widget=forms.HiddenInput, min_value=0)


class TurnForm(PlacementFieldsMixin, RevisionForm):
    """Board mode: the tile, the cell and how it is turned, the draws, the points announced.

    ``live`` is the round in play: the player defaults to the engine's next one, and a cell
    where the tile fits one way only needs no orientation.
    """

    player = forms.TypedChoiceField(label=_("Player"), coerce=int, required=False,
                                    empty_value=None)
    tile = forms.CharField(
        label=_("Tile"),
        max_length=12,
        required=False,
        widget=forms.TextInput(attrs={
            "inputmode": "numeric", "autocomplete": "off", "placeholder": "345",
            "size": "5", "autocapitalize": "off",
        }),
    )
    cell = forms.CharField(label=_("Cell"), max_length=20, required=False)
    corners = forms.CharField(label=_("Orientation"), max_length=12, required=False)
    draws = forms.TypedChoiceField(label=_("Draws before placing"), choices=DRAW_CHOICES,
                                   coerce=int, initial="0", widget=forms.RadioSelect)
    claimed = forms.IntegerField(
        label=_("Points announced"),
        required=False,
        min_value=-1000,
        max_value=1000,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "autocomplete": "off",
                                        "class": "claim-input"}),
    )

    def __init__(self, *args: Any, replay: ReplayedMatch, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.replay = replay
        self.live: LiveRound | None = replay.live
        self.fields["player"].choices = [("", "—")] + [
            (str(seat.order), f"{seat.letter} · {seat.name}") for seat in replay.seats
        ]
        self.fields["player"].widget = forms.RadioSelect(choices=self.fields["player"].choices[1:])
        if self.live is not None:
            # named in words as on the board (a referee does not read U(0,0)); the value
            # keeps the cell's notation
            placements = self.live.board.placements if self.live.board is not None else []
            self.fields["cell"].widget = forms.Select(choices=[("", "—")] + [
                (str(c), engine.cell_words(c, engine.cell_neighbours(c, placements)))
                for c in self._open_cells()
            ])

    def _open_cells(self) -> list[engine.Cell]:
        board = self.live.board if self.live is not None else None
        return board.open_cells() if board is not None else []

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        live = self.live
        if live is None or self.errors:
            return data
        if live.is_opening and data.get("player") is None:
            self.add_error("player", ValidationError(
                _("Who opens the round? Choose the player."), code="player_required"))
        if not data.get("tile"):
            self.add_error("tile", ValidationError(
                _("Pick the tile played (or use the draw and pass button)."),
                code="tile_missing"))
            return data
        if data.get("cell") is None:
            self.add_error("cell", ValidationError(_("Tap the cell where the tile went."),
                                                   code="cell_missing"))
            return data
        if data.get("corners") is None:
            options = live.orientations(data["tile"], data["cell"])
            if len(options) == 1:
                data["corners"] = options[0]
            elif options:
                self.add_error("corners", ValidationError(
                    _("The tile fits this cell in several ways: choose how it is turned."),
                    code="corners_ambiguous"))
                return data
            else:
                rotation = engine.parse_tile(data["tile"]).rotations()[0]
                data["corners"] = rotation  # the engine says why it does not fit
        if data.get("claimed") is None:
            self.add_error("claimed", ValidationError(
                _("Enter the points the player announced (or tap “as computed” if that is "
                  "what they said)."), code="claim_missing"))
        return data

    def turn_input(self) -> TurnInput:
        data = self.cleaned_data
        return TurnInput(
            player=data.get("player") if self.live is not None and self.live.is_opening else None,
            draws=data["draws"],
            tile=data["tile"],
            cell=data["cell"],
            corners=data["corners"],
            points_claimed=data["claimed"],
        )


class PassForm(RevisionForm):
    """A turn without a placement: the draws the rules allow (3, or what the pool holds)."""

    draws = forms.IntegerField(min_value=0, max_value=3, widget=forms.HiddenInput)

    def turn_input(self) -> TurnInput:
        return TurnInput(player=None, draws=self.cleaned_data["draws"])


class DecisionForm(RevisionForm):
    decision = forms.ChoiceField(
        label=_("Decision"),
        choices=[(Turn.Decision.ENGINE, _("the engine's figure")), (Turn.Decision.CLAIM, _("the claim"))],
    )
    reason = forms.CharField(label=_("Reason"), required=False, max_length=500)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("decision") == Turn.Decision.CLAIM and not data.get("reason", "").strip():
            self.add_error("reason", _("Say why the claim stands against the engine."))
        return data


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


class RoundEndForm(RevisionForm):
    """The racks shown at the end of a round, per seat: the tiles, or their total when the
    tiles were not noted; and the settlement claimed (optional; a blank is 0)."""

    reason = forms.CharField(label=_("Why the racks change"), required=False, max_length=500)

    def __init__(self, *args: Any, replay: ReplayedMatch, expected: list[int] | None = None,
                 correcting: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = replay.seats
        self.correcting = correcting
        for seat in replay.seats:
            i = seat.order
            count = expected[i] if expected is not None else None
            self.fields[f"rack_{i}"] = forms.CharField(
                label=f"{seat.letter} · {seat.name}",
                required=False,
                max_length=200,
                widget=forms.TextInput(attrs={"autocomplete": "off", "placeholder": "012 345",
                                              "class": "rack-input"}),
                help_text=(ngettext("%(count)s tile expected", "%(count)s tiles expected", count)
                           % {"count": count}
                           if count is not None else ""),
            )
            self.fields[f"total_{i}"] = forms.IntegerField(
                label=_("or the total"), required=False, min_value=0, max_value=999,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "total-input"}),
            )
            self.fields[f"settlement_{i}"] = forms.IntegerField(
                label=_("settlement claimed"), required=False, min_value=-2000, max_value=2000,
                widget=forms.NumberInput(attrs={"inputmode": "numeric",
                                                "class": "settlement-input"}),
            )
        if not correcting:
            del self.fields["reason"]
        else:
            self.fields["reason"].required = True

    def seat_rows(self) -> list[dict[str, Any]]:
        return [
            {"seat": seat, "rack": self[f"rack_{seat.order}"], "total": self[f"total_{seat.order}"],
             "settlement": self[f"settlement_{seat.order}"]}
            for seat in self.seats
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        racks: list[list[str] | int] = []
        for seat in self.seats:
            i = seat.order
            text = (data.get(f"rack_{i}") or "").strip()
            total = data.get(f"total_{i}")
            if text and total is not None:
                self.add_error(f"rack_{i}", _("Give the tiles or the total, not both."))
                continue
            if total is not None:
                racks.append(total)
                continue
            names = []
            for token in re.split(r"[\s,;]+", text) if text else []:
                try:
                    names.append(str(engine.parse_tile(token)))
                except engine.UnknownTile:
                    self.add_error(f"rack_{i}", tile_error(token))
            racks.append(names)
        # the settlement claimed: the players left blank get 0 (the losers of a round out)
        settlement = [data.get(f"settlement_{seat.order}") for seat in self.seats]
        data["racks"] = racks
        data["settlement_claimed"] = (
            None if all(v is None for v in settlement) else [v or 0 for v in settlement]
        )
        return data

    @staticmethod
    def initial_for(replay: ReplayedMatch, racks: list[Any] | None,
                    settlement: list[int] | None) -> dict[str, Any]:
        initial: dict[str, Any] = {}
        for seat in replay.seats:
            i = seat.order
            if racks:
                rack = racks[i]
                if isinstance(rack, int):
                    initial[f"total_{i}"] = rack
                else:
                    initial[f"rack_{i}"] = " ".join(rack)
            if settlement:
                initial[f"settlement_{i}"] = settlement[i]
        return initial


class RecordUploadForm(RevisionForm):
    record = forms.FileField(label=_("Match record (JSON)"))
    names_in_seat_order = forms.BooleanField(
        label=_("The record's players are in seat order, whatever their names"), required=False
    )

    def clean_record(self) -> bytes:
        upload = self.cleaned_data["record"]
        if upload.size > 2_000_000:
            raise ValidationError(_("This file is too large for a match record (2 MB at most)."))
        return upload.read()


# -- sheet mode --------------------------------------------------------------------------------


class SheetLineForm(PlacementFieldsMixin, forms.Form):
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
        text = self.cleaned_data["bonus"].strip().lower()
        if not text:
            return ""
        if text in BONUS_CODES:
            return BONUS_CODES[text]
        if text in engine.BONUS_LABELS:
            return text
        raise ValidationError(
            _("Bonus: o (opening), b (bridge), 2 (two sides), h, hh or hhh (hexagons).")
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


class BaseSheetFormSet(forms.BaseFormSet):
    def __init__(self, *args: Any, seat_count: int = 4, **kwargs: Any) -> None:
        self.seat_count = seat_count
        super().__init__(*args, **kwargs)

    def get_form_kwargs(self, index: int) -> dict[str, Any]:
        kwargs = super().get_form_kwargs(index)
        kwargs["seat_count"] = self.seat_count
        return kwargs


SheetFormSet = forms.formset_factory(SheetLineForm, formset=BaseSheetFormSet, extra=0,
                                     max_num=200, absolute_max=200)


class SheetModeForm(RevisionForm):
    mismatches_seen = forms.BooleanField(
        label=_("I have looked at the claims that differ from the engine"), required=False,
        widget=forms.CheckboxInput(attrs={"autofocus": True}),
    )
