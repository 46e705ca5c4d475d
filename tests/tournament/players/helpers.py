"""Helpers of the players' tests: careers across tournaments, played through the services
(``tests/factories.py``), each match ending on the totals given.

- ``two_tournaments()``: Ana (licence "L-100") in "spring" (two sessions) and "autumn" (one
  session), with Bo, Cy, Di in both and Ed, Flo in spring only; every match confirmed (one
  round a match), in that order. Returns a dict: ``ana``, ``players`` (by name), ``spring``,
  ``autumn``.
- ``long_career(tournament, player, opponents, count)``: ``count`` sessions of ``tournament``
  (one round a match), each one table of ``player`` and ``opponents``, its match confirmed.
"""

from __future__ import annotations

import datetime

from tests.factories import played_session, tournament_with_players
from tournament.models import Registration
from tournament.organiser.services import player_add


def two_tournaments() -> dict:
    spring = tournament_with_players(slug="spring", players=0, match_rounds=1)
    autumn = tournament_with_players(
        slug="autumn", name="Autumn Cup", players=0, start_date=datetime.date(2025, 10, 4),
        venue="Lyon", match_rounds=1,
    )
    names = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]
    players = {
        name: player_add(tournament=spring, name=name, club="Lyon",
                         licence="L-100" if name == "Ana" else "").player
        for name in names
    }
    p = players
    # Ana comes back by her licence: the same record, not a second one.
    again = player_add(tournament=autumn, name="Ana", club="Lyon", licence="L-100").player
    assert again.pk == p["Ana"].pk
    for name in ("Bo", "Cy", "Di"):
        Registration.objects.create(tournament=autumn, player=p[name])

    played_session(tournament=spring,
                   tables=[[p["Ana"], p["Bo"], p["Cy"]], [p["Di"], p["Ed"], p["Flo"]]],
                   totals=[[400, 250, 100], [300, 200, 100]])
    played_session(tournament=spring,
                   tables=[[p["Ed"], p["Ana"], p["Di"]], [p["Bo"], p["Cy"], p["Flo"]]],
                   totals=[[410, 90, 200], [150, 150, 300]])
    played_session(tournament=autumn, tables=[[p["Cy"], p["Ana"]], [p["Bo"], p["Di"]]],
                   totals=[[120, 380], [200, 210]])
    return {"ana": p["Ana"], "players": players, "spring": spring, "autumn": autumn}


def long_career(tournament, player, opponents, count: int) -> None:
    """``count`` sessions of ``tournament`` (which plays one round a match), each one table of
    ``player`` and ``opponents`` whose match is confirmed, the session then closed."""
    for other in [player, *opponents]:
        Registration.objects.get_or_create(tournament=tournament, player=other)
    for _ in range(count):
        played_session(tournament=tournament, tables=[[player, *opponents]])
