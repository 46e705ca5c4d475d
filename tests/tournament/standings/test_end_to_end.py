"""A whole small tournament through the services, its matches played by the engine's simulator
and stored by the recording's import service: the standings add up."""

from __future__ import annotations

from collections import Counter

import pytest
from django.core.exceptions import ValidationError

from tests.factories import confirmed_match
from tournament.models import Match
from tournament.organiser import services
from tournament.seating.selectors import session_repeat_pairs
from tournament.seating.services import session_seat
from tournament.sessions.services import session_close, session_open, session_start
from tournament.standings.ranking import match_points
from tournament.standings.selectors import standings

pytestmark = pytest.mark.django_db

PLAYERS = "\n".join(f"Joueur {number:02d};Club {'ABC'[number % 3]};E2E-{number:02d}"
                    for number in range(1, 11))


def play(session, referee, *, seed: int) -> None:
    """Every match of the session simulated, imported and its rounds confirmed by the referee."""
    for match in Match.objects.filter(table__session=session).order_by("table__number"):
        match = confirmed_match(match=match, user=referee, seed=seed * 100 + match.table.number)
        assert match.finished_at is not None


def test_three_sessions_from_import_to_final_standings(make_tournament, referee):
    tournament = make_tournament(slug="e2e", players=0, sessions=0)
    assert len(services.players_import_csv(tournament=tournament, text=PLAYERS)) == 10
    for number in (1, 2, 3):
        session = session_open(tournament=tournament)
        seating = session_seat(session=session)
        assert sorted(len(table) for table in seating.tables) == [3, 3, 4]
        session_start(session=session)
        with pytest.raises(ValidationError):
            session_close(session=session)  # nothing confirmed yet
        play(session, referee, seed=number)
        assert standings(tournament=tournament).tables_in_play == []
        session_close(session=session)
        if number == 2:
            # 10 players at 4 + 3 + 3: the table of 4 must hold two players who met (session 1
            # had three tables); no more repeats than that.
            assert len(session_repeat_pairs(session=session)) <= 2

    result = standings(tournament=tournament)
    rows = result.rows
    assert result.confirmed_matches == 9 and len(rows) == 10
    assert all(row["matches"] == 3 for row in rows)
    # The totals and match points add up to the matches' own.
    matches = list(Match.objects.filter(table__session__tournament=tournament))
    assert all(match.status == "confirmed" for match in matches)
    assert sum(row["total_points"] for row in rows) == sum(sum(m.totals) for m in matches)
    assert sum(row["match_points"] for row in rows) == pytest.approx(1.5 * 30)
    expected = Counter()
    best = Counter()
    for match in matches:
        seated = list(match.table.seats.order_by("order").values_list("player_id", flat=True))
        for player_id, points in zip(seated, match_points(match.totals), strict=True):
            expected[player_id] += points
        for player_id, total in zip(seated, match.totals, strict=True):
            best[player_id] = max(best[player_id], total)
    assert {row["player_id"]: row["match_points"] for row in rows} == {
        player_id: float(points) for player_id, points in expected.items()}
    # A player's best match is their highest total in one match. (Not always 400 or more: under
    # the tournament rules a player who touches the target and falls back below it before the
    # round ends still ends the match.)
    assert {row["player_id"]: row["best_match"] for row in rows} == dict(best)
    # Best first, by match points, then total points, then share.
    keys = [(row["match_points"], row["total_points"], row["share"]) for row in rows]
    assert keys == sorted(keys, reverse=True)
    assert rows[0]["rank"] == 1
