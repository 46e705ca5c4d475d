"""The examples in the players' and the charts' docstrings hold."""

from __future__ import annotations

import doctest

import pytest
from django.utils import translation

from tournament.kit import charts
from tournament.players import tables

# Charts are kept in the shared cache, which is the database.
pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("module", [charts, tables], ids=lambda module: module.__name__)
def test_docstring_examples(module):
    with translation.override("en"):
        result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
