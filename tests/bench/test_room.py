"""The load benchmark's room (``bench_room_setup``): the turns it writes are the ones the entry
form saves, its referees are logged in, and it refuses to build a room over an existing one."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from tournament.models import Match, Player, Turn

pytestmark = pytest.mark.django_db


def test_the_room_s_turns_are_saved_by_the_entry_form(tmp_path):
    out = tmp_path / "room.json"
    call_command("bench_room_setup", tables=2, sessions_before=1, out=str(out))
    room = json.loads(out.read_text())
    assert [table["number"] for table in room["tables"]] == [1, 2] and len(room["players"]) == 8
    table = room["tables"][0]
    client = Client()
    client.cookies[table["session_cookie"][0]] = table["session_cookie"][1]  # logged in
    assert table["revision"] == 0  # the first table starts its match: the others are further
    turns = [write["form"] for write in table["writes"] if write["kind"] == "turn"]
    for revision, turn in enumerate(turns[:6]):
        answer = client.post(table["match"] + "turns/", {**turn, "revision": revision},
                             HTTP_HX_REQUEST="true")
        assert answer.status_code == 200, answer.content.decode()[:500]
    assert Turn.objects.filter(round__match__table__number=1).count() == 6
    with pytest.raises(CommandError):
        call_command("bench_room_setup", tables=2, sessions_before=1, out=str(out))


def test_the_room_s_tables_are_spread_over_their_match_and_built_again_with_force(tmp_path):
    out = tmp_path / "room.json"
    call_command("bench_room_setup", tables=3, sessions_before=1, out=str(out))
    room = json.loads(out.read_text())
    # each table has a share of the turns of its rounds 1 to 3 recorded, the shares spread
    # over the span in the tables' order (0, 0.618, 0.236: ``spread``), so that any first
    # tables are spread too: the first nothing, the second past its round 1 (imported whole
    # and confirmed: its writes start in a later round), the third within its round 1
    revisions = [table["revision"] for table in room["tables"]]
    assert revisions[0] == 0 and revisions[1] > revisions[2] > revisions[0]
    first_confirms = [next(write["round"] for write in table["writes"]
                           if write["kind"] == "confirm") for table in room["tables"]]
    assert first_confirms[0] == 1 and first_confirms[1] >= 2 and first_confirms[2] == 1
    for table in room["tables"]:
        kinds = [write["kind"] for write in table["writes"]]
        assert kinds[-2:] == ["end", "confirm"] and kinds.count("end") == kinds.count("confirm")
        assert Match.objects.get(pk=int(table["match"].split("/")[-2])).revision \
            == table["revision"]
    # again, over it: the room's players go with it (their names would be taken for theirs)
    call_command("bench_room_setup", tables=3, sessions_before=1, out=str(out), force=True)
    assert Player.objects.count() == 12
