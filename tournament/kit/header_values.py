"""What a response header may carry of a text the request gave (a value typed, an address).

A header is read whole, before the page: nginx keeps all of a response's headers in one
buffer of 4 or 8 KB (``proxy_buffer_size``) and answers 502 beyond; a browser, a phone's
proxy or a strict client may drop the answer. A refusal that quoted the value submitted, at
any length, into its header (the tablet's announcement, ``HX-Trigger-After-Settle``) gave a
100,000-character header for a 100,000-character tile. Such a text goes into a header through
:func:`header_text`: one line of printable characters, ``HEADER_TEXT_LIMIT`` at most.
"""

from __future__ import annotations

import re
import unicodedata

#: Characters of a text a header carries at most: a sentence with the value it quotes (in
#: JSON's ``\\u`` escapes, six bytes each at worst: well within a proxy's 4 KB).
HEADER_TEXT_LIMIT = 300

_BLANKS = re.compile(r"\s+")


def header_text(text: str, *, limit: int = HEADER_TEXT_LIMIT) -> str:
    """``text`` fit for a header: its control and format characters (line breaks, tabs, NUL,
    direction marks) and its blanks run together as one space, and cut to ``limit``
    characters, the cut marked "…".

    >>> header_text("“1-2-\\r\\nX: 3” is not\\u202e a tile")
    '“1-2- X: 3” is not a tile'
    >>> header_text("x" * 100_000, limit=8)
    'xxxxxxx…'
    """
    printable = "".join(" " if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") else c
                        for c in text[:limit * 4])
    line = _BLANKS.sub(" ", printable).strip()
    return line if len(line) <= limit else line[:limit - 1] + "…"
