"""How people's names sort: as a reader looks one up in a printed list.

The databases compare names code point by code point (SQLite always; PostgreSQL under the C
collation it is often given), which puts "Élodie" and "Łukasz" after "Zoé". Every list of
players sorted by name sorts with :func:`name_sort_key` instead, in Python.
"""

from __future__ import annotations

import unicodedata

# Letters that Unicode does not decompose into a base letter and an accent.
_UNDECOMPOSED = str.maketrans(
    {"ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ı": "i", "ß": "ss", "æ": "ae", "œ": "oe", "þ": "th"}
)


def name_sort_key(name: str) -> tuple[str, str]:
    """Sort names as a reader looks them up: accents and case aside, then exactly.

    >>> sorted(["Zoé", "Élodie", "Łukasz", "emma", "Søren", "Sarah"], key=name_sort_key)
    ['Élodie', 'emma', 'Łukasz', 'Sarah', 'Søren', 'Zoé']
    """
    folded = name.casefold().translate(_UNDECOMPOSED)
    plain = "".join(
        char for char in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(char)
    )
    return plain, name
