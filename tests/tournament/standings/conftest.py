"""Fixtures of the standings and public pages' tests.

- ``seven``: 7 players, two finished sessions and a third in play, with hand-computed results.
"""

from __future__ import annotations

import pytest

from tests.tournament.standings.helpers import result, seat
from tournament.models import Match, Session
from tournament.organiser.services import player_add

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]


@pytest.fixture
def seven(make_tournament):
    """7 players, two finished sessions (a table of 4 and one of 3 each), a third in play.

    The results are test_ranking's: Ana 4 match points, Bo 3.75, Cy 3.5, Ed 3, Flo 3, Di 2.25,
    Gus 1.5. In session 3, table 1 is confirmed, table 2 is still in play.
    """
    tournament = make_tournament(slug="seven", players=0, sessions=0)
    players = {
        name: player_add(tournament=tournament, name=name,
                         club="Lyon" if name in "AnaBo" else "").player
        for name in NAMES
    }
    p = players
    one = seat(tournament, [[p["Ana"], p["Bo"], p["Cy"], p["Di"]], [p["Ed"], p["Flo"], p["Gus"]]])
    result(one, 1, [420, 300, 300, 100])
    result(one, 2, [150, 405, 250])
    two = seat(tournament, [[p["Ana"], p["Ed"], p["Cy"], p["Gus"]], [p["Bo"], p["Di"], p["Flo"]]])
    result(two, 1, [200, 410, 380, 90])
    result(two, 2, [400, 400, 0])
    three = seat(tournament, [[p["Gus"], p["Flo"], p["Di"], p["Ana"]], [p["Bo"], p["Cy"], p["Ed"]]],
                 status=Session.Status.PLAYING)
    result(three, 1, [401, 0, 0, 0], status=Match.Status.FINISHED)  # not confirmed: left out
    result(three, 2, [100, 200, 300], status=Match.Status.PLAYING)
    return tournament
