"""The one mapping between a match's rows and the engine's records.

A Turn row holds a turn as entered; the engine reads an :class:`engine.TurnRecord`. Entry
(board and sheet mode), the record import, corrections and the replay all cross between the
two here, and only here:

- :func:`turn_row` makes an unsaved Turn row of a record turn, refusing the values the row
  cannot hold (the limits are read from the model's fields: a small integer's range, a
  column's length...);
- :func:`turn_record` reads a row back as the engine's record turn;
- :func:`round_end_racks` reads the racks of a RoundEnd row as the record has them.

What a row stores of a placement: its cell and corners when they were given; its tile name
normalised (``3-4-5``) when one was given and is a tile, as given otherwise (the engine then
says it is no tile); with corners only, the tile they show, or nothing when they show none
(the engine then says so: the corners are kept).
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from django.core.exceptions import ValidationError
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils.translation import gettext as _

from tournament import engine
from tournament.models import RoundEnd, Turn


def _field_range(name: str) -> tuple[int, int]:
    """The values an integer field of Turn holds on every database Django supports."""
    field = Turn._meta.get_field(name)
    return BaseDatabaseOperations.integer_field_ranges[field.get_internal_type()]


#: What a Turn row can hold, from the model's fields.
PLAYER_RANGE = _field_range("player")
DRAWS_RANGE = _field_range("draws")
CELL_RANGE = _field_range("cell_x")
POINTS_RANGE = _field_range("points_claimed")
TILE_LENGTH = Turn._meta.get_field("tile").max_length
#: Corners are stored as ``a-b-c``: each a sign and its digits in a third of the column's
#: length, the dashes aside (every integer a record may hold: a corner that shows no tile is
#: kept, and the engine says so).
_CORNER_DIGITS = (Turn._meta.get_field("corners").max_length - 2) // 3 - 1
CORNER_RANGE = (-(10**_CORNER_DIGITS - 1), 10**_CORNER_DIGITS - 1)
#: Stored corners: three integers, each perhaps negative, between dashes (``5--1-5``).
_STORED_CORNERS = re.compile(r"(-?\d+)-(-?\d+)-(-?\d+)")


def _within(value: int, limits: tuple[int, int]) -> bool:
    low, high = limits
    return low <= value <= high


def turn_row(record: engine.TurnRecord, *, index: int, user, round_=None) -> Turn:
    """An unsaved Turn row for ``record`` (its ``round`` set when given).

    Raises ValidationError keyed by the entry form's field (``player``, ``draws``, ``cell``,
    ``corners``, ``tile``, ``points_claimed``) when a value does not fit the row; the engine
    judges everything else (an unknown tile, bad corners, an illegal placement...)."""
    errors: dict[str, ValidationError] = {}
    if not _within(record.player, PLAYER_RANGE):
        errors["player"] = ValidationError(_("There is no such seat at this table."),
                                           code="player_out_of_range")
    if not _within(record.draws, DRAWS_RANGE):
        errors["draws"] = ValidationError(_("Too many draws."), code="draws_out_of_range")
    if record.claimed is not None and not _within(record.claimed, POINTS_RANGE):
        errors["points_claimed"] = ValidationError(
            _("No turn scores that many points."), code="points_out_of_range")
    place = record.place
    tile = ""
    cell = corners = None
    if place is not None:
        cell, corners = place.cell, place.corners
        if cell is not None and not (_within(cell.x, CELL_RANGE) and _within(cell.y, CELL_RANGE)):
            errors["cell"] = ValidationError(_("This cell is too far from the table's centre."),
                                             code="cell_out_of_range")
        if corners is not None and not all(_within(v, CORNER_RANGE) for v in corners):
            errors["corners"] = ValidationError(
                _("The corner values must be numbers from 0 to 5."), code="corners_out_of_range")
        if place.tile is not None:
            tile = place.tile
            with contextlib.suppress(engine.UnknownTile):  # kept as given: the engine says so
                tile = str(engine.parse_tile(place.tile))
            if len(tile) > TILE_LENGTH:
                errors["tile"] = ValidationError(
                    _("“%(tile)s” is not a tile name.") % {"tile": place.tile[:20]},
                    code="tile_too_long")
        elif corners is not None:
            shown = engine.tile_from_corners(corners)
            tile = str(shown) if shown is not None else ""
    if errors:
        raise ValidationError(errors)
    row = Turn(
        index=index,
        player=record.player,
        draws=record.draws,
        tile=tile,
        bonus_claimed=record.bonus.value if record.bonus is not None else "",
        points_claimed=record.claimed,
        decision=record.decision or "",
        decision_reason=record.reason or "",
        created_by=user if user is not None and user.is_authenticated else None,
    )
    if round_ is not None:
        row.round = round_
    if cell is not None:
        row.cell_x, row.cell_y, row.cell_orientation = cell.x, cell.y, cell.o
    if corners is not None:
        row.corners = "-".join(map(str, corners))
    return row


def corners_of(text: str) -> tuple[int, int, int] | None:
    """Stored corners ``"2-0-1"`` as three ints (``"-1-5-5"``: -1, 5, 5)."""
    if not text:
        return None
    found = _STORED_CORNERS.fullmatch(text)
    if found is None:
        raise ValueError(f"corners {text!r}: expected three integers between dashes")
    a, b, c = (int(v) for v in found.groups())
    return (a, b, c)


def turn_record(turn: Turn) -> engine.TurnRecord:
    """One Turn row as the engine's TurnRecord.

    A board-mode turn gives its cell and corners; its tile name is left out unless it
    disagrees with the corners (what was entered is kept, and the engine says so).
    """
    place = None
    corners = corners_of(turn.corners)
    if turn.cell_x is not None and corners is not None:
        cell = engine.Cell(turn.cell_x, turn.cell_y, turn.cell_orientation)
        shown = engine.tile_from_corners(corners)
        tile = turn.tile if turn.tile and (shown is None or str(shown) != turn.tile) else None
        place = engine.PlaceRecord(tile=tile, cell=cell, corners=corners)
    elif turn.tile:
        place = engine.PlaceRecord(tile=turn.tile)
    return engine.TurnRecord(
        player=turn.player,
        draws=turn.draws,
        place=place,
        claimed=turn.points_claimed,
        bonus=engine.Bonus(turn.bonus_claimed) if turn.bonus_claimed else None,
        decision=turn.decision or None,
        reason=turn.decision_reason or None,
    )


def round_end_racks(end: RoundEnd | None) -> tuple[Any, ...] | None:
    """The racks of a round's end as the record has them (None: not shown)."""
    if end is None or not end.racks:
        return None
    return tuple(rack if isinstance(rack, int) else tuple(rack) for rack in end.racks)
