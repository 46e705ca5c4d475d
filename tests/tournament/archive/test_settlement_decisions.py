"""A referee's decision on a settlement claimed travels with the archive: exported in the
match's record, imported with it, and the match's totals come back as they were."""

from __future__ import annotations

import pytest

from scoring import check_record, parse_record
from tests.factories import match_at, played_record
from tests.tournament.archive.helpers import wipe
from tournament.archive import export
from tournament.archive.imports import past_results_import
from tournament.matches.services import match_record_import_and_confirm
from tournament.models import Match, RoundEnd
from tournament.sessions.services import session_close

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def test_a_settlement_claim_kept_goes_through_records_zip_and_back(make_tournament):
    tournament = make_tournament(slug="claims-kept", players=4, started=True, match_rounds=1)
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=11)
    (round0,) = record["rounds"]
    engine_claim = list(round0["settlement_claimed"])
    seat = max(range(len(engine_claim)), key=lambda i: engine_claim[i])
    round0["settlement_claimed"] = [v + 9 if i == seat else v for i, v in enumerate(engine_claim)]
    round0["settlement_decision"] = "claim"
    round0["settlement_reason"] = "announced and agreed before the count"
    replay = match_record_import_and_confirm(match=match, user=None, record=record)
    assert replay.match.status == Match.Status.CONFIRMED
    totals = list(replay.totals)
    plain = played_record(match=match, seed=11)
    assert totals[seat] == _engine_total(plain, seat) + 9
    session_close(session=match.table.session)

    data = export.tournament_records_zip(tournament=tournament)
    wipe(tournament)
    imported = past_results_import(data=data).tournament
    (copy,) = Match.objects.filter(table__session__tournament=imported)
    assert copy.totals == totals and copy.status == Match.Status.CONFIRMED
    end = RoundEnd.objects.current().get(round__match=copy)
    assert (end.settlement_claimed, end.decision, end.decision_reason) == (
        round0["settlement_claimed"], "claim", "announced and agreed before the count")


def _engine_total(record, seat: int) -> int:
    return check_record(parse_record(record)).totals[seat]
