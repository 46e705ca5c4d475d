"""The engine's exceptions: narrow, all subclasses of :class:`ValueError`.

Each carries a message naming the input and, where there is one, the position::

    >>> from scoring import Tile
    >>> Tile.parse("3-4-9")
    Traceback (most recent call last):
    ...
    scoring.errors.UnknownTile: unknown-tile: '3-4-9': values must be 0 to 5
"""

from __future__ import annotations

from scoring.messages import render

__all__ = [
    "ScoringError",
    "UnknownTile",
    "MirrorTile",
    "InvalidCell",
    "IllegalPlacement",
    "RecordError",
]


class ScoringError(ValueError):
    """Base class of every error the engine raises on bad input."""


class UnknownTile(ScoringError):
    """A tile name or corner values that name no tile (values outside 0-5, bad syntax)."""

    code = "unknown-tile"


class MirrorTile(ScoringError):
    """Corner values read clockwise that show a mirror image, a tile that does not exist."""

    code = "mirror-tile"


class InvalidCell(ScoringError):
    """A cell that cannot be read: not ``[x, y, "U"|"D"]`` nor ``"U(x,y)"``."""


class IllegalPlacement(ScoringError):
    """A placement the board refuses; ``code`` is one of the codes of record-format.md.

    ``params`` holds the facts the message was made from (tile, cell, point, values), so a
    caller can phrase the problem in another language.

    >>> error = IllegalPlacement("occupied", "4-4-4 at U(0,0): taken", cell="U(0,0)")
    >>> error.code, str(error), error.params
    ('occupied', 'occupied: 4-4-4 at U(0,0): taken', {'cell': 'U(0,0)'})
    """

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.params = params


class RecordError(ScoringError):
    """A match record that cannot be read: bad JSON, a missing field, a wrong type.

    The message is one line and names the JSON path. ``template`` is the key of its English
    text in :data:`scoring.messages.RECORD_ERRORS` and ``params`` the values it was formatted
    with (the path, the values shown), so a caller can phrase the error in another language.

    >>> error = RecordError("expected/integer-minimum", path="rounds[0].turns[3].draws",
    ...                     minimum=0, value=-1)
    >>> str(error)
    'rounds[0].turns[3].draws: expected an integer >= 0, got -1'
    >>> error.template, error.params["path"]
    ('expected/integer-minimum', 'rounds[0].turns[3].draws')
    """

    def __init__(self, template: str, **params: object) -> None:
        super().__init__(render(template, params))
        self.template = template
        self.params = params
