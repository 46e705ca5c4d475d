"""A player at the venue, on a phone: finds their table and their rank, and sees the pages
follow the session without reloading them."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.factories import (
    confirmed_match,
    matches_confirmed,
    players_of,
    seated_session,
    tournament_with_players,
)
from tournament.kit.seats import seat_letter
from tournament.models import Match, Player, Seat
from tournament.seating.services import session_seat
from tournament.sessions.services import session_close, session_create, session_start
from tournament.standings.selectors import standings_rows


@pytest.fixture
def in_play(make_tournament):
    """13 players: session 1 closed with its results, session 2 seated and in play."""
    tournament = make_tournament(slug="cup", name="Coupe de printemps", players=13, sessions=0)
    one = session_create(tournament=tournament, seed=1)
    session_seat(session=one)
    matches_confirmed(tournament=tournament, seed=1)
    session_close(session=one)
    two = session_create(tournament=tournament, seed=2)
    session_seat(session=two)
    session_start(session=two)
    return tournament


def fits_the_screen(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_player_finds_their_table_and_rank_on_a_phone(phone, in_play):
    me = Player.objects.get(name="Player 07 cup")
    seat = Seat.objects.select_related("table").get(player=me, session__number=2)
    standing = next(row for row in standings_rows(tournament=in_play) if row["player_id"] == me.pk)

    phone.goto("/t/cup/")
    phone.locator(".tournament-nav").get_by_role("link", name="Classement").tap()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Classement")
    assert fits_the_screen(phone)
    my_row = phone.locator(f'#standings tr[data-player="{me.pk}"]')
    expect(my_row.locator("td.rank")).to_have_text(standing["rank_label"])
    my_row.get_by_role("link", name="Player 07 cup").tap()

    expect(phone.get_by_role("heading", level=1)).to_have_text("Player 07 cup")
    now = phone.locator("#now")
    expect(now).to_contain_text(f"Table {seat.table.number}, place {seat_letter(seat.order)}")
    expect(now).to_contain_text("Session 2 (en cours)")
    expect(phone.locator("#player-rank")).to_have_attribute("data-rank", standing["rank_label"])
    expect(phone.locator("#rank .big")).to_contain_text("/ 13")  # "3e ex æquo / 13" in French
    expect(phone.locator("#matches")).to_contain_text("confirmée")
    assert fits_the_screen(phone)

    now.get_by_role("link", name=f"Table {seat.table.number}").tap()
    expect(phone).to_have_url(re.compile(rf"/t/cup/sessions/2/#table-{seat.table.number}$"))
    expect(phone.locator(f"#table-{seat.table.number}")).to_contain_text("Player 07 cup")
    expect(phone.locator(f"#table-{seat.table.number}")).to_be_in_viewport()
    assert fits_the_screen(phone)


def test_find_your_table_on_the_session_page(phone, in_play):
    phone.goto("/t/cup/sessions/2/")
    expect(phone.get_by_role("heading", level=1)).to_contain_text("Session 2")
    row = phone.locator("#seats tbody tr", has_text="Player 11 cup")
    seat = Seat.objects.select_related("table").get(player__name="Player 11 cup",
                                                    session__number=2)
    expect(row.locator("td").nth(2)).to_have_text(str(seat.table.number))
    expect(row.locator("td").nth(3)).to_have_text(seat_letter(seat.order))
    row.get_by_role("link", name=str(seat.table.number), exact=True).tap()
    expect(phone.locator(f"#table-{seat.table.number}")).to_be_in_viewport()
    assert fits_the_screen(phone)


def test_find_your_table_filters_as_one_types(phone, in_play):
    phone.goto("/t/cup/sessions/2/")
    rows = phone.locator("#seats tbody tr")
    expect(rows.filter(visible=True)).to_have_count(13)
    names = rows.locator("td:first-child").all_inner_texts()
    assert names == sorted(names)
    search = phone.get_by_role("searchbox", name="Votre nom")
    search.press_sequentially("player 1")  # case and accents aside
    expect(rows.filter(visible=True)).to_have_count(4)  # Player 10 to 13
    expect(phone.locator("#find-player-count")).to_have_text("Joueurs trouvés : 4")
    search.press_sequentially("1")
    expect(rows.filter(visible=True)).to_have_count(1)
    expect(rows.filter(visible=True)).to_contain_text("Player 11 cup")
    search.fill("")
    search.dispatch_event("input")
    expect(rows.filter(visible=True)).to_have_count(13)


def test_the_pages_follow_the_session_without_reloading(phone, in_play, settings):
    settings.TRIOMINOS_POLL_SECONDS = 1
    match = Match.objects.get(table__session__number=2, table__number=1)
    names = list(match.table.seats.order_by("order").values_list("player__name", flat=True))

    phone.goto("/t/cup/sessions/2/")
    phone.evaluate("window.notReloaded = true")
    first_table = phone.locator("#table-1")
    expect(first_table).to_contain_text("pas commencée")
    confirmed_match(match=match, totals=[412, 230, 151, 88][: len(names)])
    expect(first_table).to_contain_text("confirmée", timeout=5_000)
    expect(first_table).to_contain_text("412")
    assert phone.evaluate("window.notReloaded") is True

    phone.goto("/t/cup/standings/")
    phone.evaluate("window.notReloaded = true")
    live = phone.locator(".notice--live")
    expect(live).to_contain_text("Tables encore en jeu")
    expect(live.get_by_role("link", name="1", exact=True)).to_have_count(0)  # confirmed above
    matches_confirmed(tournament=in_play)
    expect(live).to_have_count(0, timeout=5_000)
    expect(phone.locator("#standings-live")).to_contain_text(
        "Toutes les parties de la session en cours sont confirmées.")
    assert phone.evaluate("window.notReloaded") is True


def test_the_public_pages_refuse_a_post_from_a_phone(phone, in_play):
    me = Player.objects.get(name="Player 07 cup")
    for url in ("/t/cup/standings/", "/t/cup/sessions/2/", f"/t/cup/players/{me.pk}/"):
        assert phone.request.get(url).status == 200
        assert phone.request.post(url).status in (403, 405)


@pytest.mark.parametrize(("typed", "found"), [
    ("duboeuf", "Hélène Lefèvre-Dubœuf"), ("DUBŒUF", "Hélène Lefèvre-Dubœuf"),
    ("laetitia", "Lætitia Weiß"), ("weiss", "Lætitia Weiß"), ("lefevre", "Hélène Lefèvre-Dubœuf"),
])
def test_find_your_table_folds_the_letters_a_phone_keyboard_does_not_have(phone, typed, found):
    """A phone keyboard has no œ, æ nor ß: "duboeuf" finds Dubœuf, "weiss" finds Weiß."""
    tournament = tournament_with_players(
        slug="folds", players=["Hélène Lefèvre-Dubœuf", "Lætitia Weiß", "Zoé Garnier", "Amélie Roux"])
    seated_session(tournament=tournament, tables=[players_of(tournament)])
    phone.goto("/t/folds/sessions/1/")
    rows = phone.locator("#seats tbody tr")
    phone.get_by_role("searchbox").press_sequentially(typed)
    expect(rows.filter(visible=True)).to_have_count(1)
    expect(rows.filter(visible=True)).to_contain_text(found)
