"""The examples in the printing modules' docstrings hold."""

from __future__ import annotations

import doctest

import pytest

from tournament.kit import qr
from tournament.printing import documents


@pytest.mark.parametrize("module", [documents, qr], ids=lambda module: module.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
