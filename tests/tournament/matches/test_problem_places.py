"""A problem about a cell of the table names the cell in words on the pages, from the tiles
around it, as the rest of the page does: the engine's code of a cell (``D(0,0)``, a corner's
``(1,0)``) stays in ``python -m scoring check`` (docs/reference/record-format.md) and off the pages.
Asserted through the problems' codes and the engine's data of where they are, in both
languages."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import add, fresh, match_at
from tests.pages import by_id, select, text
from tournament import engine
from tournament.matches import services
from tournament.models import Turn

pytestmark = pytest.mark.django_db

#: A cell's code (``U(0,-1)``, ``D(0,0)``) or a corner point's (``(1,0)``).
CELL_CODE = re.compile(r"\(-?\d+,\s*-?\d+\)")
LANGUAGES = ["fr", "en"]


def url(match, name="match"):
    return reverse(f"tournament:{name}", kwargs={
        "slug": match.table.session.tournament.slug, "match_id": match.pk})


def opening() -> services.TurnInput:
    return services.TurnInput(player=0, cell=engine.Cell(0, 0, "U"), corners=(5, 5, 5),
                              points_claimed=25)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_claim_that_differs_names_where_the_tile_went(client, tournament, referee, language):
    match = match_at(tournament=tournament)
    add(match, referee, opening(), services.TurnInput(
        cell=engine.Cell(0, 0, "D"), corners=(5, 5, 4), points_claimed=99))
    response = client.get(url(match), HTTP_ACCEPT_LANGUAGE=language)
    (problem,) = response.context["replay"].rounds[0].turns[1].problems
    assert problem.code == "claim-mismatch"
    shown = [text(e) for e in select(response, '.problem-message[data-code="claim-mismatch"]')]
    assert shown == [problem.message]
    assert not CELL_CODE.search(problem.message)
    assert "5-5-5" in problem.message  # the tile it lies against, its one neighbour
    assert not CELL_CODE.search(text(select(response, "body")[0]))  # nor anywhere on the page


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refused_placement_names_the_tiles_it_does_not_match(referee_client, tournament,
                                                               referee, language):
    match = match_at(tournament=tournament)
    add(match, referee, opening())
    response = referee_client.post(url(match, "match_turn_add"), {
        "revision": 1, "tile": "4-5-5", "cell": "D(0,0)", "corners": "4-5-5", "draws": "0",
        "claimed": "14"}, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    (error,) = response.context["turn_form"].errors.as_data()["cell"]
    assert error.code == "corner-mismatch"
    shown = text(by_id(response, "id_cell_errors"))
    assert not CELL_CODE.search(shown) and "5-5-5" in shown
    assert Turn.objects.current().filter(round__match=match).count() == 1


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_false_block_names_where_the_tile_could_go(client, tournament, referee, language):
    match = match_at(tournament=tournament)
    add(match, referee, opening())
    for _ in range(9):
        add(match, referee, services.TurnInput(draws=3))
    add(match, referee, services.TurnInput(draws=1))
    # seat A shows 4-5-5, which still fits beside the 5-5-5: the block was false
    free = [str(t) for t in engine.ALL_TILES if str(t) not in ("5-5-5", "4-5-5")]
    racks, start = [["4-5-5", *free[:11]]], 11
    for count in (16, 14, 13):
        racks.append(free[start:start + count])
        start += count
    services.match_round_end(match=fresh(match), user=referee, seen_revision=fresh(match).revision,
                             round_index=0, racks=racks)
    response = client.get(url(match), HTTP_ACCEPT_LANGUAGE=language)
    (problem,) = [p for p in response.context["replay"].rounds[0].problems
                  if p.code == "false-block"]
    assert [text(e) for e in select(response, "li.problem--false-block")] == [problem.message]
    assert not CELL_CODE.search(problem.message) and problem.message.count("5-5-5") == 1
    assert not CELL_CODE.search(text(select(response, "body")[0]))
