"""Every pair of writes that move the ratings, at the same moment (PostgreSQL: connections
really write at once; SQLite has one writer at a time): a round's confirmation, a correction
of a confirmed match, a merge of two player records, a past tournament's import, a
tournament's rated or public setting changed. Two of each kind, started together with the two
of the other kind (``rated_history``): every write done, none failing (a deadlock was one: a confirmation waiting
for the ratings' turn while it held its tournament's row, which the merge holding the turn
waited for), and every kept rating row what ``ratings_rebuild`` writes (the rows it compares,
``kept_ratings``)."""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Callable

import pytest
from django.db import connection

from bench.hostile_archives import PLAYERS as ARCHIVE_PLAYERS
from bench.hostile_archives import well_formed
from tests.concurrency import run_at_once
from tests.factories import (
    confirmed_match,
    fresh,
    played_record,
    played_session,
    recorded_match,
)
from tests.tournament.ratings.helpers import correct, matches_of
from tests.tournament.tournaments import settings_of
from tournament.archive.imports import past_results_import
from tournament.core.tournaments import tournament_create
from tournament.management.commands.ratings_rebuild import kept_ratings
from tournament.matches.services import match_record_import_and_confirm, match_round_confirm
from tournament.models import Player, Registration, Tournament
from tournament.organiser.services import player_add, tournament_update
from tournament.players.services import players_merge
from tournament.ratings.services import ratings_rebuild

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="connections writing at once: run with DATABASE_URL=postgres://..."),
]

KINDS = ("confirm", "correct", "merge", "import", "setting")


def rated_history(make_tournament) -> dict[str, list[Callable[[], object]]]:
    """Three rated public tournaments and, for each kind of write, two writes ready to run.

    Autumn (October 2024) and Winter (January 2025) are played and closed; the archive's
    players (Ana, Bo, Cy, Di, without club) play in both, so that an import links its
    players to theirs. Spring (May 2025) is in play at four tables of two: table 1 over, its
    round not confirmed yet (the referee's confirmation); table 2 not played (its record
    imported and confirmed in one transaction, as the demo and an archive's import fill a
    match); tables 3 and 4 confirmed (each corrected). A merge joins table 1's first player
    with a second record of theirs rated in Winter; the other joins table 1's second player,
    whose one rated match is the one being confirmed, into a record rated in Winter. The
    settings: Spring no longer rated, Winter made private."""
    autumn = tournament_create(name="Autumn", slug="autumn", match_rounds=1,
                               start_date=datetime.date(2024, 10, 5))
    winter = tournament_create(name="Winter", slug="winter", match_rounds=1,
                               start_date=datetime.date(2025, 1, 11))
    regulars = {name: player_add(tournament=autumn, name=name).player
                for name in ARCHIVE_PLAYERS}
    Registration.objects.bulk_create(
        [Registration(tournament=winter, player=player) for player in regulars.values()])
    ana, bo, cy, di = regulars.values()
    twins = [player_add(tournament=winter, name=f"Twin {number}").player for number in (0, 1)]
    played_session(tournament=autumn, tables=[[ana, cy], [bo, di]])
    played_session(tournament=winter, tables=[[twins[0], ana], [twins[1], bo], [cy, di]])

    spring = make_tournament(slug="spring", players=8, sessions=1, table_size=2, started=True,
                             match_rounds=1)
    matches = matches_of(spring)
    to_confirm = recorded_match(match=matches[0])
    to_fill = fresh(matches[1])
    records = played_record(match=to_fill)
    to_correct = [confirmed_match(match=match) for match in matches[2:]]
    first, second = (Player.objects.get(pk=seat.player_id)
                     for seat in to_confirm.table.seats.order_by("order"))
    ratings_rebuild()

    return {
        "confirm": [
            lambda: match_round_confirm(match=fresh(to_confirm), user=None,
                                        seen_revision=fresh(to_confirm).revision,
                                        round_index=0),
            lambda: match_record_import_and_confirm(match=fresh(to_fill), user=None,
                                                    record=records),
        ],
        "correct": [lambda match=match: correct(match, None) for match in to_correct],
        "merge": [
            lambda: players_merge(kept=first, merged=twins[0], user=None, reason="same person"),
            lambda: players_merge(kept=twins[1], merged=second, user=None, reason="same person"),
        ],
        "import": [lambda matches=matches: past_results_import(data=well_formed(matches=matches))
                   for matches in (2, 3)],
        "setting": [
            lambda: tournament_update(**settings_of(spring, is_rated=False, match_rounds=1)),
            lambda: tournament_update(**settings_of(winter, is_public=False, match_rounds=1)),
        ],
    }


@pytest.mark.parametrize(("first", "second"),
                         list(itertools.combinations_with_replacement(KINDS, 2)))
def test_two_writes_moving_the_ratings_at_once_are_done_and_rate_as_a_rebuild(
    make_tournament, first, second
):
    ready = rated_history(make_tournament)
    writes = {f"{kind} {index}": write for kind in dict.fromkeys((first, second))
              for index, write in enumerate(ready[kind])}
    outcomes = run_at_once(writes)
    assert outcomes == dict.fromkeys(writes, "done"), outcomes

    assert Tournament.objects.filter(slug__startswith="hostile-open").count() == (
        2 if "import" in (first, second) else 0)
    kept = kept_ratings()
    ratings_rebuild()
    assert kept_ratings() == kept
