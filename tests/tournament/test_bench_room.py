"""The load benchmark's room (bench_room_setup): the turns it writes are the ones the entry
form saves, and the polls' benchmark runs."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from tournament.models import Turn

pytestmark = pytest.mark.django_db


def test_the_room_s_turns_are_saved_by_the_entry_form(tmp_path):
    out = tmp_path / "room.json"
    call_command("bench_room_setup", tables=2, sessions_before=1, out=str(out))
    room = json.loads(out.read_text())
    assert [table["number"] for table in room["tables"]] == [1, 2] and len(room["players"]) == 8
    table = room["tables"][0]
    client = Client()
    client.cookies[table["session_cookie"][0]] = table["session_cookie"][1]  # logged in
    for revision, turn in enumerate(table["turns"][:6]):
        answer = client.post(table["match"] + "turns/", {**turn, "revision": revision},
                             HTTP_HX_REQUEST="true")
        assert answer.status_code == 200, answer.content.decode()[:500]
    assert Turn.objects.filter(round__match__table__number=1).count() == 6
    with pytest.raises(CommandError):
        call_command("bench_room_setup", tables=2, sessions_before=1, out=str(out))


@pytest.mark.django_db(transaction=True)
def test_bench_polls_reports_every_page_and_its_304():
    """The polls' benchmark runs (small sizes; figures not checked, but every 304 is asserted
    by the command itself)."""
    out = io.StringIO()
    call_command("bench_polls", players=12, sessions=1, requests=2, stdout=out)
    lines = out.getvalue().splitlines()
    assert [line.split()[0] for line in lines[2:]] == ["standings", "session", "player", "match"]
    assert all(line.rstrip().endswith("x") for line in lines[2:])
