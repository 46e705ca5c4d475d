"""Merges racing confirmations (PostgreSQL: connections really write at once). A merge locks
the two records, moves their seats, raises the data version of their tournaments and rates
again; a confirmation raises its tournament's version and rates again, writing rating changes
that point at the players. Eight of each at once: every one done, none answering an error
(a deadlock was one, for 8 of 16), and the ratings those of a rebuild."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection

from tests.concurrency import run_at_once
from tests.factories import fresh, played_record, played_session
from tournament.core.tournaments import tournament_create
from tournament.matches.services import match_record_import_and_confirm
from tournament.models import Match, Player, PlayerRating, RatingChange
from tournament.organiser.services import player_add
from tournament.players.services import players_merge
from tournament.ratings.services import ratings_rebuild

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="connections writing at once: run with DATABASE_URL=postgres://..."),
]

PAIRS = 8


def ratings_now():
    return (sorted(RatingChange.objects.values_list("player_id", "match_id", "mu", "sigma")),
            sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma", "matches")))


def test_merges_racing_confirmations_all_answer_and_rate_as_a_rebuild(make_tournament):
    """Each merge joins a player of the tournament in play (seated at the match being
    confirmed) with a second record of them, rated in an earlier tournament."""
    spring = make_tournament(slug="spring", players=2 * PAIRS, sessions=1, table_size=2,
                             started=True)
    earlier = tournament_create(name="Winter", slug="winter", match_rounds=1,
                                start_date=datetime.date(2025, 1, 11))
    twins = [player_add(tournament=earlier, name=f"Twin {number}").player
             for number in range(PAIRS)]
    others = [player_add(tournament=earlier, name=f"Other {number}").player
              for number in range(PAIRS)]
    played_session(tournament=earlier,
                   tables=[[twin, other] for twin, other in zip(twins, others, strict=True)],
                   totals=[[200, 100]] * PAIRS)
    ratings_rebuild()
    matches = list(Match.objects.filter(table__session__tournament=spring)
                   .order_by("table__number"))
    kept = [Player.objects.get(pk=match.table.seats.order_by("order").first().player_id)
            for match in matches]
    records = {match.pk: played_record(match=match, seed=index)
               for index, match in enumerate(matches)}

    writes = {}
    for index, (match, player, twin) in enumerate(zip(matches, kept, twins, strict=True)):
        writes[f"merge {index}"] = lambda player=player, twin=twin: players_merge(
            kept=player, merged=twin, user=None, reason="same person")
        writes[f"confirm {index}"] = lambda match=match: match_record_import_and_confirm(
            match=fresh(match), user=None, record=records[match.pk])
    outcomes = run_at_once(writes)
    assert outcomes == dict.fromkeys(outcomes, "done") and len(outcomes) == 2 * PAIRS, {
        name: outcome for name, outcome in outcomes.items() if outcome != "done"}
    assert all(fresh(match).status == Match.Status.CONFIRMED for match in matches)
    assert Player.objects.filter(pk__in=[twin.pk for twin in twins],
                                 merged_into__isnull=False).count() == PAIRS
    kept_now = ratings_now()
    ratings_rebuild()
    assert ratings_now() == kept_now
