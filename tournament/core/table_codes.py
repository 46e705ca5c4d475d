"""The code printed on a table's card: what a phone gives to call a referee to that table
(tournament.room), so that a phone elsewhere in the room cannot call for table 12.

Four digits, a keyed hash of the table's id (``settings.SECRET_KEY``): the printing and the
room both compute it, and nothing stores it.
"""

from __future__ import annotations

from django.utils.crypto import constant_time_compare, salted_hmac

SALT = "tournament.core.table_codes"
DIGITS = 4


def table_code(table_id: int) -> str:
    """The table's code: four digits."""
    digest = salted_hmac(SALT, str(table_id), algorithm="sha256").hexdigest()
    return f"{int(digest[:12], 16) % 10 ** DIGITS:0{DIGITS}d}"


def table_code_matches(table_id: int, given: str) -> bool:
    """Whether ``given`` (spaces aside) is the table's code."""
    return constant_time_compare(table_code(table_id), "".join(str(given).split()))
