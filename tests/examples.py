"""How many examples a Hypothesis test runs, from the profile loaded (``tests/conftest.py``).

A test gives its thorough count, the one CI runs: ``@settings(max_examples=examples(300))``.
The ``ci`` profile keeps it; ``dev`` takes a tenth of it, at least 5 (or the count itself when
smaller), so that the quick loop still tries a few values of every kind.
"""

from __future__ import annotations

from hypothesis import settings

#: The profile's max_examples that keeps each test's own count (the ``ci`` profile's).
THOROUGH = 100


def examples(thorough: int) -> int:
    """``thorough`` scaled by the loaded profile's max_examples (per cent of ``THOROUGH``)."""
    scaled = thorough * settings.default.max_examples // THOROUGH
    return min(thorough, max(5, scaled))
