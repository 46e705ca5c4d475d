"""A tournament with categories and clubs, for the tests of docs/guides/categories.md.

``prized_tournament()``: nine players, two sessions of two tables of four, through the
services as an organiser would (the categories from a CSV file, one player withdrawn after
playing, one added late who never plays). Criteria: match points, then total points; club
teams of 2 on match points; the prize list's first 2 places.

Overall: Flo 1 (5 match points), Bo and Cy 2= (4.5 and 702 points each), Ana 4, Ed 5, Gus 6,
Di 7; Hal withdrawn and Ivy (no match) unranked. Women: Flo 1, Cy 2, Ana 3, Ivy unranked.
Juniors: Bo 1=, Cy 1=, Hal unranked. Clubs: Lyon 1 (Bo + Ana: 8.5), Paris 2 (Flo + Gus:
6.5); Nice (Cy alone: Hal withdrew) and Marseille (Di) have too few players.
"""

from __future__ import annotations

from tests.factories import played_session, players_of, tournament_with_players
from tests.tournament.tournaments import settings_of
from tournament.models import Registration, Tournament
from tournament.organiser.services import (
    player_add,
    players_import_csv,
    registration_withdraw,
    tournament_update,
)

PLAYERS_CSV = """nom;club;licence;catégories
Ana;Lyon;;Women
Bo;Lyon;;Juniors
Cy;Nice;;"Women, juniors"
Di;Marseille;;
Ed;Lyon;;
Flo;Paris;;women
Gus;Paris;;
Hal;Nice;;Juniors
"""


def prized_tournament(*, slug: str = "prized", is_public: bool = True) -> Tournament:
    tournament = tournament_with_players(slug=slug, players=[], is_public=is_public)
    tournament_update(**settings_of(tournament, ranking_criteria=["match_points",
                                                                  "total_points"],
                                    team_size=2, team_criterion="match_points",
                                    prize_count=2))
    players_import_csv(tournament=tournament, text=PLAYERS_CSV, same_people="new")
    p = {player.name: player for player in players_of(tournament)}
    played_session(tournament=tournament,
                   tables=[[p["Ana"], p["Bo"], p["Cy"], p["Di"]],
                           [p["Ed"], p["Flo"], p["Gus"], p["Hal"]]],
                   totals=[[420, 300, 300, 100], [150, 405, 250, 250]])
    played_session(tournament=tournament,
                   tables=[[p["Ana"], p["Ed"], p["Cy"], p["Gus"]],
                           [p["Bo"], p["Di"], p["Flo"], p["Hal"]]],
                   totals=[[200, 300, 402, 90], [402, 120, 300, 120]])
    registration_withdraw(registration=Registration.objects.get(tournament=tournament,
                                                                player=p["Hal"]))
    player_add(tournament=tournament, name="Ivy", club="Lyon", categories=["Women"])
    return Tournament.objects.get(pk=tournament.pk)
