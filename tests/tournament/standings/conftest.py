"""Fixtures of the standings and public pages' tests.

- ``seven``: 7 players, two finished sessions and a third in play, with hand-computed results.
"""

from __future__ import annotations

import pytest

from tests.factories import (
    match_at,
    played_session,
    players_of,
    recorded_match,
    seated_session,
    tournament_with_players,
)

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]


@pytest.fixture
def seven(db):
    """7 players, two finished sessions (a table of 4 and one of 3 each), a third in play.

    The results are test_ranking's: Ana 4 match points, Bo 3.75, Cy 3.5, Ed 3, Flo 3, Di 2.25,
    Gus 1.5. In session 3, table 1 is over but not confirmed, table 2 is still in play.
    """
    tournament = tournament_with_players(
        slug="seven", players=[(name, "Lyon" if name in "AnaBo" else "") for name in NAMES]
    )
    p = {player.name: player for player in players_of(tournament)}
    played_session(
        tournament=tournament,
        tables=[[p["Ana"], p["Bo"], p["Cy"], p["Di"]], [p["Ed"], p["Flo"], p["Gus"]]],
        totals=[[420, 300, 300, 100], [150, 405, 250]],
    )
    played_session(
        tournament=tournament,
        tables=[[p["Ana"], p["Ed"], p["Cy"], p["Gus"]], [p["Bo"], p["Di"], p["Flo"]]],
        totals=[[200, 410, 380, 90], [400, 400, 0]],
    )
    seated_session(
        tournament=tournament,
        tables=[[p["Gus"], p["Flo"], p["Di"], p["Ana"]], [p["Bo"], p["Cy"], p["Ed"]]],
        started=True,
    )
    # not confirmed: left out of the standings
    recorded_match(match=match_at(tournament=tournament, session=3), totals=[401, 0, 0, 0])
    recorded_match(match=match_at(tournament=tournament, session=3, table=2),
                   totals=[100, 200, 300], in_play=True)
    return tournament
