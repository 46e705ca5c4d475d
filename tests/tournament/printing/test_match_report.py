"""The sheet of a match as played: every turn's figure, the totals, the winner, the boards.

A whole match's sheet takes seconds to make: the tests that read it share one, made once for
the module (``sheet``) from a match built in a transaction rolled back at once.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client

from tests.factories import accented_tournament, confirmed_match, match_at, recorded_match
from tests.tournament.printing.helpers import assert_pdf
from tournament.core.tournaments import staff_role_grant
from tournament.matches.reading.replay import match_replay

pytestmark = pytest.mark.django_db


def sheet_url(match) -> str:
    return f"/t/{match.table.session.tournament.slug}/matches/{match.pk}/sheet.pdf"


@pytest.fixture
def lyon_referee(make_user):
    """A referee of the Open de Lyon (``accented_tournament``)."""

    tournament = accented_tournament()
    user = make_user("lyon-referee")
    staff_role_grant(tournament=tournament, user=user, role="referee")
    return user


@pytest.fixture
def confirmed(lyon_referee):
    """A whole match at table 1 of the Open de Lyon, every round confirmed."""
    tournament = lyon_referee.staff_roles.get().tournament
    return confirmed_match(match=match_at(tournament=tournament), user=lyon_referee, seed=3)


@pytest.fixture(scope="module")
def sheet(django_db_setup, django_db_blocker):
    """The sheet of a confirmed whole match, asked for by the public (in English): the
    response, its pages' text, and the match as replayed."""

    with django_db_blocker.unblock(), transaction.atomic():
        tournament = accented_tournament()
        referee = get_user_model().objects.create_user("lyon-referee-sheet", password="x")
        staff_role_grant(tournament=tournament, user=referee, role="referee")
        match = confirmed_match(match=match_at(tournament=tournament), user=referee, seed=3)
        replay = match_replay(match=match)
        response = Client().get(sheet_url(match), HTTP_ACCEPT_LANGUAGE="en")
        status = match.status
        transaction.set_rollback(True)  # the PDF kept in the database cache goes too
    return SimpleNamespace(response=response, pages=assert_pdf(response), replay=replay,
                           status=status)


def test_every_turn_with_its_figures_then_the_totals(sheet):
    replay = sheet.replay
    text = "\n".join(sheet.pages)
    lines = text.splitlines()
    for round_view in replay.rounds:
        start = lines.index(next(line for line in lines
                                 if line.startswith(f"Round {round_view.number} ")))
        rows = iter(lines[start:])
        for turn in round_view.turns:
            # Each turn is a line of its own, in order: number, player, tile, figures.
            line = next(row for row in rows if re.match(rf"{turn.number} [A-D] ", row))
            assert turn.player_name in line
            assert (turn.tile or "—") in line
            figures = [int(value) for value in re.findall(r"(?<![\w(,-])-?\d+(?![\w)-])", line)]
            assert turn.points in figures and turn.points_counted in figures, line
    result = text[text.index("Result"):]
    for seat, total in zip(replay.seats, replay.totals):
        assert re.search(rf"{re.escape(seat.name)} {total}\b", result), (seat.name, total)
    assert "winner" in result.lower()
    assert len(replay.rounds) >= 2


def test_the_board_of_each_round_is_drawn(client, confirmed):
    replay = match_replay(match=confirmed)
    html = client.get(sheet_url(confirmed) + "?html").content.decode()
    assert html.count('<figure class="board">') == len(replay.rounds)
    assert html.count('class="tile') == sum(len(r.placements) for r in replay.rounds)


def test_accented_names_come_out_right(sheet):
    text = "\n".join(sheet.pages)
    for name in ("Mads Sørensen", "Chloé Martin", "Łukasz Nowak", "Zoé Garnier"):
        assert name in text


# Permissions: public once confirmed, staff before.


@pytest.fixture
def finished_not_confirmed(referee):
    """A whole match at table 1 of the Spring Open, its rounds not confirmed."""
    tournament = referee.staff_roles.get().tournament
    return recorded_match(match=match_at(tournament=tournament), user=referee, seed=3)


def test_not_public_before_it_is_confirmed(client, finished_not_confirmed):
    assert finished_not_confirmed.status == "finished"
    response = client.get(sheet_url(finished_not_confirmed))
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_not_for_an_account_without_a_role_before_it_is_confirmed(
    client, outsider, finished_not_confirmed
):
    client.force_login(outsider)
    assert client.get(sheet_url(finished_not_confirmed)).status_code == 403


def test_the_staff_print_it_before_it_is_confirmed(referee_client, finished_not_confirmed):
    """The document's HTML (``?html``): the same access as its PDF, without the seconds."""
    response = referee_client.get(sheet_url(finished_not_confirmed) + "?html")
    assert response.status_code == 200
    assert response.context["match"] == finished_not_confirmed


def test_public_once_confirmed(sheet):
    assert sheet.status == "confirmed"
    # Asked for without logging in (``sheet`` read its pages with assert_pdf).
    assert sheet.response.status_code == 200 and sheet.pages


def test_a_match_of_another_tournament_is_a_404(client, confirmed, make_tournament):
    make_tournament(slug="other-open")
    url = f"/t/other-open/matches/{confirmed.pk}/sheet.pdf"
    assert client.get(url).status_code == 404


@pytest.mark.slow  # a match report made four times over
def test_a_correction_shows_at_once_though_the_sheet_is_kept(client, confirmed, lyon_referee):
    """The PDF is cached under the match's revision: a write makes the next one anew."""
    from tournament import engine
    from tournament.matches import services as match_services

    client.force_login(lyon_referee)
    url = sheet_url(confirmed)
    before = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content
    assert client.get(url, HTTP_ACCEPT_LANGUAGE="en").content == before
    turn = match_replay(match=confirmed).rounds[0].turns[1].row
    corrected = match_services.TurnInput(
        player=turn.player, draws=turn.draws, tile=turn.tile,
        cell=engine.Cell(turn.cell_x, turn.cell_y, turn.cell_orientation) if turn.tile else None,
        corners=tuple(int(v) for v in turn.corners.split("-")) if turn.corners else None,
        bonus_claimed=turn.bonus_claimed, points_claimed=(turn.points_claimed or 0) + 13,
    )
    confirmed.refresh_from_db()
    match_services.match_turn_correct(
        match=confirmed, user=lyon_referee, seen_revision=confirmed.revision, turn_id=turn.pk,
        turn=corrected, reason="the score sheet says so",
    )
    after = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    text = "\n".join(assert_pdf(after))
    round_one = text[text.index("Round 1 "):]
    lines = round_one.splitlines()
    index = next(index for index, line in enumerate(lines) if re.match(r"2 [A-D] ", line))
    line = " ".join(lines[index:index + 2])  # the verdict may wrap
    assert str((turn.points_claimed or 0) + 13) in line and "claim differs" in line
