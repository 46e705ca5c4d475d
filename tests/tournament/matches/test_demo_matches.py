"""The demo fills its matches through the record import: finished and confirmed in sessions
1-2, under way at two tables of session 3; twice in a row too."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from tournament.matches.reading.replay import match_replay
from tournament.models import AuditEntry, Match, Round

# slow: the demo built
pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_the_demo_fills_sessions_1_and_2_and_starts_session_3(settings):
    settings.DEBUG = True
    for _run in range(2):
        out = StringIO()
        call_command("demo", stdout=out)
    output = out.getvalue()
    assert "matches filled: 10 (8 finished and confirmed, 2 in play), through the record import" in output
    matches = Match.objects.filter(table__session__tournament__slug="demo").select_related(
        "table__session__tournament")
    for match in matches.filter(table__session__number__in=[1, 2]):
        assert match.status == "confirmed" and match.winners and max(match.totals) >= 400
        assert not Round.objects.filter(match=match, confirmed_at__isnull=True).exists()
        assert AuditEntry.objects.filter(match=match, action="record-imported").count() == 1
    in_play = matches.filter(table__session__number=3, status="playing")
    assert sorted(m.table.number for m in in_play) == [1, 2]
    view = match_replay(match=in_play.get(table__number=1))
    assert view.live is not None and view.live.board is not None and not view.finished
    assert matches.filter(table__session__number=3, status="pending").count() == 2
