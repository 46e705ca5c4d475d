"""A seat has one name everywhere: the session page, the player page, the match page and the
printed seating name the same seat with the same letter."""

from __future__ import annotations

import pytest

from tournament.models import Seat
from tournament.printing.documents import seating_context

pytestmark = pytest.mark.django_db


def test_every_page_names_a_players_seat_alike(client, tournament):
    seat = Seat.objects.select_related("table__match", "player").get(
        table__session__tournament=tournament, table__number=1, order=2
    )
    player, match = seat.player, seat.table.match

    session_page = client.get("/t/spring-open/sessions/1/")
    find = {row.record["name"]: row.record["seat"] for row in session_page.context["seats_table"].rows}
    player_page = client.get(f"/t/spring-open/players/{player.pk}/")
    match_page = client.get(f"/t/spring-open/matches/{match.pk}/")
    on_match_page = {s.name: s.letter for s in match_page.context["replay"].seats}
    printed = {line.name: line.seat for group in seating_context(session=seat.table.session)["groups"]
               for line in group.lines}

    assert find[player.name] == player_page.context["now"]["seat"] == "C"
    assert on_match_page[player.name] == printed[player.name] == "C"
    tables = session_page.context["seating_table"].rows
    assert [p["seat"] for p in tables[0].record["players"]] == ["A", "B", "C", "D"]
