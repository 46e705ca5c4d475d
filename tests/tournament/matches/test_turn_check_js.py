"""The tablet refuses a turn before queuing it offline as the server refuses it when it
arrives (turn_check.js): on a real match, each mistake a referee makes (no cell touched, no
tile, a tile already played, a cell taken, a tile that does not fit, no points, points out of
range or not a number, no one to open, a tile turned several ways) is posted to the server
and checked in Node from what the match page gives the tablet (its table, its pool, its
words); both find the same refusals, next to the same fields, in the same words. The server
names a tile that does not fit by the place in words (``corner-mismatch``,
``no-shared-side``), the tablet with the preview's words (``no-fit``). Without Node.js this
fails, it never skips."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.factories import add, fresh, match_at
from tests.node import ROOT, node, run
from tests.pages import attribute, by_id, select
from tests.tournament.matches.test_views import HTMX, opening, url
from tournament.models import Turn

pytestmark = pytest.mark.django_db

TURN_CHECK = ROOT / "tournament" / "static" / "tournament" / "matches" / "turn_check.js"
CHECK = """
const check = require(process.argv[1]);
const rules = require(require("path").join(require("path").dirname(process.argv[1]), "board.js"));
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map(({placements, turn, context, words}) =>
  check.refusals(new rules.Board(placements), turn, context)
    .map((found) => ({field: found.field, code: found.code, text: check.say(found, words)})))));
"""
#: The engine's names for a tile that does not fit, the tablet's one.
NO_FIT = {"corner-mismatch", "no-shared-side"}


def tablet_context(client: Client, match) -> dict:
    """What the match page gives the tablet's check: the table, the pool, the seat to play,
    the rule set's figures, the players and the refusals' words (``data-scoring``)."""
    page = client.get(url(match))
    board, form = by_id(page, "board"), by_id(page, "turn-form")
    scoring = json.loads(attribute(board, "data-scoring"))
    seats = select(page, "#match .seats > .seat")
    return {
        "placements": json.loads(attribute(board, "data-placements")),
        "words": scoring["refusals"],
        "context": {
            "opening": bool(select(page, "#turn-form fieldset.opener")),
            "next": next((i for i, seat in enumerate(seats)
                          if "seat--next" in (attribute(seat, "class") or "")), -1),
            "players": scoring["players"], "pool": int(attribute(form, "data-pool")),
            "rules": scoring["rules"],
        },
    }


def server_refusals(client: Client, match, turn: dict) -> list[dict]:
    response = client.post(url(match, "match_turn_add"),
                           {"revision": fresh(match).revision, **turn}, **HTMX)
    if response.status_code != 400:
        assert response.status_code == 200, response.status_code
        return []
    errors = response.context["turn_form"].errors.as_data()
    return [{"field": field, "code": "no-fit" if error.code in NO_FIT else error.code,
             "text": message}
            for field, found in errors.items() for error in found
            for message in error.messages]


def tablet_refusals(cases: list[dict]) -> list[list[dict]]:
    result = run([node(), "-e", CHECK, str(TURN_CHECK)], input=json.dumps(cases), check=True)
    return json.loads(result.stdout)


def compared(client: Client, match, turns: list[dict]):
    shown = tablet_context(client, match)
    tablet = tablet_refusals([{**shown, "turn": {"draws": "0", **turn}} for turn in turns])
    for turn, found in zip(turns, tablet, strict=True):
        server = server_refusals(client, match, {"draws": "0", **turn})
        assert [(f["field"], f["code"]) for f in found] == [
            (f["field"], f["code"]) for f in server], turn
        for mine, theirs in zip(found, server, strict=True):
            if mine["code"] != "no-fit":  # the place in words: the server's alone
                assert mine["text"] == theirs["text"], turn
    return tablet


def test_the_tablet_refuses_a_turn_as_the_server_does(referee, referee_client, tournament):
    match = match_at(tournament=tournament)
    add(match, referee, opening())  # 5-5-5 at U(0,0)
    found = compared(referee_client, match, [
        {"tile": "3-4-5", "cell": "", "claimed": "12"},         # tile typed, then Enter
        {"tile": "", "cell": "D(0,0)", "claimed": "12"},
        {"tile": "349", "cell": "D(0,0)", "claimed": "12"},
        {"tile": "4-5-5", "cell": "Z", "claimed": "14"},
        {"tile": "5-5-5", "cell": "D(0,0)", "claimed": "15"},   # already on the table
        {"tile": "4-5-5", "cell": "U(0,0)", "claimed": "14"},   # the centre, taken
        {"tile": "0-1-2", "cell": "D(0,0)", "claimed": "3"},    # no 5 against the 5s
        {"tile": "4-5-5", "cell": "D(0,0)", "corners": "4-5-5", "claimed": "14"},
        {"tile": "4-5-5", "cell": "U(3,3)", "claimed": "14"},   # away from the table
        {"tile": "4-5-5", "cell": "D(0,0)", "claimed": ""},
        {"tile": "4-5-5", "cell": "D(0,0)", "claimed": "1001"},
        {"tile": "4-5-5", "cell": "D(0,0)", "claimed": "-1001"},
        {"tile": "4-5-5", "cell": "D(0,0)", "claimed": "douze"},
        {"tile": "4-5-5", "cell": "D(0,0)", "claimed": "14"},   # taken by both: last
    ])
    assert all(found[:-1]) and found[-1] == []
    assert Turn.objects.current().filter(round__match=match).count() == 2


def test_the_opening_is_refused_as_the_server_refuses_it(referee_client, tournament):
    match = match_at(tournament=tournament)
    found = compared(referee_client, match, [
        {"tile": "5-5-5", "cell": "U(0,0)", "claimed": "25"},                  # who opens?
        {"player": "1", "tile": "3-4-5", "cell": "U(0,0)", "claimed": "12"},   # which way?
        {"player": "1", "tile": "3-4-5", "cell": "", "claimed": "12"},
        {"player": "1", "tile": "3-4-5", "cell": "U(0,0)", "corners": "3-4-5", "claimed": "12"},
    ])
    assert all(found[:-1]) and found[-1] == []
