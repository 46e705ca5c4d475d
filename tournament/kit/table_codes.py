"""The code printed on a table's card: what a phone gives to call a referee to that table
(tournament.room), so that a phone elsewhere in the room cannot call for table 12.

Four digits, a keyed hash of the tournament and the table's number (``settings.SECRET_KEY``):
the card serves the whole event, whatever the session; the printing and the room both compute
it, and nothing stores it.
"""

from __future__ import annotations

from django.utils.crypto import constant_time_compare, salted_hmac

SALT = "tournament.kit.table_codes"
DIGITS = 4


def table_code(tournament_id: int, number: int) -> str:
    """The code of table ``number`` of the tournament: four digits."""
    digest = salted_hmac(SALT, f"{tournament_id}:{number}", algorithm="sha256").hexdigest()
    return f"{int(digest[:12], 16) % 10 ** DIGITS:0{DIGITS}d}"


def table_code_matches(tournament_id: int, number: int, given: str) -> bool:
    """Whether ``given`` (spaces aside) is the code of table ``number``."""
    return constant_time_compare(table_code(tournament_id, number), "".join(str(given).split()))
