"""Board mode's forms: a turn (tile, cell, way round, draws, claim), a pass, a decision on a
differing claim, a round's end (racks and settlement claimed), a record file for an empty match."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.choices import CallableChoiceIterator
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from tournament import engine
from tournament.matches.forms.parsing import (
    DRAW_CHOICES,
    WIDGET_RENDERER,
    PlacementFieldsMixin,
    RevisionForm,
    tile_error,
)
from tournament.matches.reading.replayed_match import LiveRound, ReplayedMatch
from tournament.matches.reading.turn_preview import (
    CLAIM_LIMITS,
    TILES_OR_TOTAL,
    TURN_REFUSALS,
)
from tournament.matches.services import TurnInput
from tournament.models import Turn


def refusal(code: str) -> ValidationError:
    """The form's refusal of a turn, in the words the tablet also says (``TURN_REFUSALS``)."""
    return ValidationError(TURN_REFUSALS[code], code=code)


class TurnForm(PlacementFieldsMixin, RevisionForm):
    """Board mode: the tile, the cell and how it is turned, the draws, the points announced.

    ``live`` is the round in play: the player defaults to the engine's next one, and a cell
    where the tile fits one way only needs no orientation.
    """

    default_renderer = WIDGET_RENDERER  # drawn again after every save: its widgets made once

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
        min_value=CLAIM_LIMITS[0],
        max_value=CLAIM_LIMITS[1],
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
            # keeps the cell's notation. Named when the list is drawn: a save's check does not
            # draw it, nor its answer when the tablet keeps its table (``tiles_kept``)
            self.fields["cell"].widget = forms.Select(
                choices=CallableChoiceIterator(self._cell_choices))

    def _cell_choices(self) -> list[tuple[str, str]]:
        placements = self.live.board.placements if self.live.board is not None else []
        return [("", "—")] + [
            (str(c), engine.cell_words(c, engine.cell_neighbours(c, placements)))
            for c in self._open_cells()
        ]

    def _open_cells(self) -> list[engine.Cell]:
        board = self.live.board if self.live is not None else None
        return board.open_cells() if board is not None else []

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        live = self.live
        if live is None or self.errors:
            return data
        if live.is_opening and data.get("player") is None:
            self.add_error("player", refusal("player_required"))
        if not data.get("tile"):
            self.add_error("tile", refusal("tile_missing"))
            return data
        if data.get("cell") is None:
            self.add_error("cell", refusal("cell_missing"))
            return data
        if data.get("corners") is None:
            options = live.orientations(data["tile"], data["cell"])
            if len(options) == 1:
                data["corners"] = options[0]
            elif options:
                self.add_error("corners", refusal("corners_ambiguous"))
                return data
            else:
                rotation = engine.parse_tile(data["tile"]).rotations()[0]
                data["corners"] = rotation  # the engine says why it does not fit
        if data.get("claimed") is None:
            self.add_error("claimed", refusal("claim_missing"))
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


class RoundEndForm(RevisionForm):
    """The racks shown at the end of a round, per seat: the tiles, or their total when the
    tiles were not noted; and the settlement claimed (optional; a blank is 0)."""

    default_renderer = WIDGET_RENDERER

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
                self.add_error(f"rack_{i}", TILES_OR_TOTAL)
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
