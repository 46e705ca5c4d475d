"""How a seat is named everywhere: a letter, A, B, C... clockwise, in the order of play.

The match page, the paper score sheet, the seating and the player pages all name seats with
:func:`seat_letter`, so that "seat B" on the session page is seat B on the sheet.
"""

from __future__ import annotations

#: Seat letters, in seat order (a table seats at most six).
SEAT_LETTERS = "ABCDEF"


def seat_letter(order: int) -> str:
    """The letter of the seat ``order`` (0 for the first).

    >>> [seat_letter(order) for order in range(4)]
    ['A', 'B', 'C', 'D']
    """
    return SEAT_LETTERS[order]
