"""Numbers as a request writes them: in ASCII digits, nothing else.

``str.isdigit()`` says yes to the digits of every script and to more: ``"²"`` and ``"³³"``
are digits to it that ``int()`` refuses (a ``ValueError``, a 500 where a guard let them
through), and ``"٣"`` or ``"３"`` are digits ``int()`` reads though no scorekeeper types them
and no browser sends them. A number read from a request (a form, a header, an address) is
checked here, never with ``isdigit()`` or ``isdecimal()`` alone.
"""

from __future__ import annotations


def is_ascii_number(text: str, *, digits: int | None = None) -> bool:
    """Whether ``text`` is a whole number written in ASCII digits only (0 to 9, no sign, no
    blank), of ``digits`` digits at most when given.

    >>> is_ascii_number("42"), is_ascii_number("²"), is_ascii_number("٣"), is_ascii_number("")
    (True, False, False, False)
    >>> is_ascii_number("12345", digits=4)
    False
    """
    return (text.isascii() and text.isdigit()
            and (digits is None or len(text) <= digits))


def ascii_number(text: str, *, digits: int) -> int | None:
    """``text`` as a whole number when it is written in at most ``digits`` ASCII digits; None
    otherwise (``int()`` is never asked to read what it may refuse, nor a number of any length).

    >>> ascii_number("0042", digits=9), ascii_number("³³", digits=9), ascii_number("1" * 10, digits=9)
    (42, None, None)
    """
    return int(text) if is_ascii_number(text, digits=digits) else None
