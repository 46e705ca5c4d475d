"""The code printed on a table's card: what a phone gives to call a referee to that table
(tournament.room), so that a phone elsewhere in the room cannot call for table 12.

Six characters from an alphabet easy to read off a card and to type (Crockford's: the digits
and the capitals but I, L, O and U), a keyed hash of the tournament and the table's number
(``settings.SECRET_KEY``): the card serves the whole event, whatever the session; the
printing and the room both compute it, and nothing stores it. 32⁶, about a thousand million
codes a table: with the room's limit of wrong codes (``tournament.room.services``), a whole
event of guessing tries one in some hundred thousand of them (docs/guides/room.md).

What a phone gives is read as a person types it: any case, spaces and hyphens left out, an
O read as 0, an I or an L as 1.
"""

from __future__ import annotations

from django.utils.crypto import constant_time_compare, salted_hmac

SALT = "tournament.kit.table_codes"
#: The code's characters: 32 of them, none that reads as another.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 6
#: Characters a person may type for another.
READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})


def table_code(tournament_id: int, number: int) -> str:
    """The code of table ``number`` of the tournament: six characters of :data:`ALPHABET`."""
    digest = salted_hmac(SALT, f"{tournament_id}:{number}", algorithm="sha256").digest()
    bits = int.from_bytes(digest[:8], "big")
    return "".join(ALPHABET[(bits >> (5 * index)) & 31] for index in range(LENGTH))


def table_code_printed(code: str) -> str:
    """The code as the card prints it, in two halves easy to read aloud.

    >>> table_code_printed("K7M4QX")
    'K7M-4QX'
    """
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def table_code_read(given: str) -> str:
    """``given`` as a person typed it, read as a code.

    >>> table_code_read(" k7m-4qo ")
    'K7M4Q0'
    """
    return "".join(str(given).replace("-", " ").split()).upper().translate(READ_AS)


def table_code_matches(tournament_id: int, number: int, given: str) -> bool:
    """Whether ``given`` (read as :func:`table_code_read` reads it) is the code of table
    ``number``."""
    return constant_time_compare(table_code(tournament_id, number), table_code_read(given))
