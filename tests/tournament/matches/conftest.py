"""The recording tests play in a session that has started (a seated session refuses entry)."""

import pytest


@pytest.fixture
def tournament(make_tournament):
    return make_tournament(started=True)
