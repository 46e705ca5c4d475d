"""The venue's Wi-Fi drops while a referee enters turns: the turns are kept on the tablet, in the
queue of their match, shown waiting to send, and sent in order by one tab once the server
answers again; each is saved exactly once, or shown refused with the server's reason.

Each test acts as the venue does to a tablet: the network cut (``context.set_offline``), an
answer lost or a server restarting (``page.route`` answering 503 or dropping the request), a
second tab on the same match, a session closed meanwhile, a login that expired.
"""

from __future__ import annotations

import re

from django.contrib.sessions.models import Session as LoginSession
from playwright.sync_api import expect

from tests.browser.test_recording_conflict import enter_opening, open_match
from tests.factories import match_at
from tournament.models import Match, MatchSubmission, Session, Turn


def draw_three_and_pass(page) -> None:
    """The draw-and-pass button, then its confirmation (a turn that costs 25 is asked twice);
    then, as a referee waits to see it taken, until the confirmation has closed: the answer
    swapped the match in, or the queue took the turn (queue.js closes it then)."""
    confirm = page.locator("#pass-confirm")
    page.locator("#pass-confirm .pass-button").click()
    expect(confirm).to_have_attribute("open", "")
    confirm.locator("button[type=submit]").click()
    expect(confirm).not_to_have_attribute("open", "", timeout=30_000)


def queued(page, match) -> list[dict]:
    """The match's queue on the tablet (its localStorage)."""
    return page.evaluate(
        "(id) => JSON.parse(localStorage.getItem('triominos.queue.' + id) || '[]')", match.pk)


def stored(match) -> list[tuple]:
    """The match's turns as saved: (index, player, draws, tile), in order."""
    return [(t.index, t.player, t.draws, t.tile) for t in
            Turn.objects.current().filter(round__match=match).order_by("index")]


def opened(browser, live_server, staff_password, match, *, worker_first=False):
    """A referee's tablet on ``match`` with its opening (5-5-5 by the first seat) saved; with
    ``worker_first``, saved once the offline worker runs the page (a save before it does
    keeps nothing for a reload offline: the next save does)."""
    context, page = open_match(browser, live_server, staff_password,
                               f"/t/spring-open/matches/{match.pk}/")
    if worker_first:
        page.wait_for_function(
            "() => navigator.serviceWorker && navigator.serviceWorker.controller",
            timeout=30_000)
    names = [text.strip() for text in page.locator(".seat-name").all_inner_texts()]
    enter_opening(page, names[0], "5-5-5", "25")
    expect(page.locator("#done")).to_have_text("Tour enregistré.")
    return context, page, names


def test_two_turns_entered_offline_are_saved_once_each_in_order(browser, live_server, tournament,
                                                                referee, staff_password):
    match = match_at(tournament=tournament, started=True)
    context, page, names = opened(browser, live_server, staff_password, match)
    try:
        context.set_offline(True)
        draw_three_and_pass(page)
        expect(page.locator("#send-queue")).to_have_attribute("data-count", "1")
        expect(page.locator("#send-queue")).to_have_attribute("data-state", "offline")
        draw_three_and_pass(page)
        expect(page.locator("#send-queue")).to_have_attribute("data-count", "2")
        expect(page.locator("#send-queue")).to_contain_text("en attente d’envoi")
        expect(page.locator("#send-queue li")).to_have_count(2)
        expect(page.locator("#send-queue")).to_be_visible()
        expect(page.locator("#match")).not_to_contain_text("Rechargez")  # no advice to reload
        assert len(stored(match)) == 1  # nothing reached it
        keys = [item["key"] for item in queued(page, match)]
        assert len(set(keys)) == 2 and all(keys)

        # the tablet is closed while offline; opened again once the server answers, the page
        # finds the turns kept and sends them
        page.close()
        context.set_offline(False)
        page = context.new_page()
        page.goto(f"/t/spring-open/matches/{match.pk}/")
        expect(page.locator("#send-queue")).to_have_count(0, timeout=15_000)
        expect(page.locator(".to-play")).to_contain_text(names[3])
        assert stored(match) == [(0, 0, 0, "5-5-5"), (1, 1, 3, ""), (2, 2, 3, "")]
        assert Turn.objects.filter(round__match=match).count() == 3  # none saved twice
        assert set(MatchSubmission.objects.filter(match=match).values_list("key", flat=True)) \
            >= set(keys)
        assert queued(page, match) == []
    finally:
        context.close()


def test_two_tabs_on_one_match_lose_no_turn(browser, live_server, tournament, referee,
                                            staff_password):
    match = match_at(tournament=tournament, started=True)
    context, first, names = opened(browser, live_server, staff_password, match)
    try:
        second = context.new_page()
        second.goto(f"/t/spring-open/matches/{match.pk}/")
        expect(second.locator(".to-play")).to_contain_text(names[1])
        context.set_offline(True)
        draw_three_and_pass(first)
        expect(second.locator("#send-queue")).to_have_attribute("data-count", "1")
        draw_three_and_pass(second)  # entered on the other tab: it follows the first one
        draw_three_and_pass(first)
        expect(first.locator("#send-queue")).to_have_attribute("data-count", "3")
        expect(second.locator("#send-queue")).to_have_attribute("data-count", "3")

        context.set_offline(False)
        for page in (first, second):
            expect(page.locator("#send-queue")).to_have_count(0, timeout=20_000)
            expect(page.locator(".to-play")).to_contain_text(names[0])
        assert stored(match) == [(0, 0, 0, "5-5-5"), (1, 1, 3, ""), (2, 2, 3, ""),
                                 (3, 3, 3, "")]
        assert Turn.objects.filter(round__match=match).count() == 4
    finally:
        context.close()


def test_turns_queued_for_two_matches_each_go_to_their_own(browser, live_server, tournament,
                                                           referee, staff_password):
    first_match = match_at(tournament=tournament, started=True)
    second_match = match_at(tournament=tournament, table=2, started=True)
    context, page, names = opened(browser, live_server, staff_password, first_match)
    try:
        context.set_offline(True)
        draw_three_and_pass(page)
        draw_three_and_pass(page)
        expect(page.locator("#send-queue")).to_have_attribute("data-count", "2")
        # back online, but the queue does not get through before the referee opens the other
        # table's match
        page.route("**/turns/", lambda route: route.abort())
        context.set_offline(False)
        page.goto(f"/t/spring-open/matches/{second_match.pk}/")
        expect(page.locator("#send-queue")).to_have_count(0)  # not this match's queue
        assert len(queued(page, first_match)) == 2
        page.unroute("**/turns/")
        second_names = [text.strip() for text in page.locator(".seat-name").all_inner_texts()]
        enter_opening(page, second_names[0], "4-4-4", "22")
        expect(page.locator("#done")).to_have_text("Tour enregistré.")
        # the first match's queue went to the first match, and this page stayed this match's
        page.wait_for_function("(id) => !localStorage.getItem('triominos.queue.' + id)",
                               arg=first_match.pk, timeout=20_000)
        assert page.url.endswith(f"/matches/{second_match.pk}/")
        assert [t.strip() for t in page.locator(".seat-name").all_inner_texts()] == second_names
        assert stored(first_match) == [(0, 0, 0, "5-5-5"), (1, 1, 3, ""), (2, 2, 3, "")]
        assert stored(second_match) == [(0, 0, 0, "4-4-4")]
    finally:
        context.close()


def test_a_503_and_a_network_error_mid_queue_lose_and_repeat_nothing(
        browser, live_server, tournament, referee, staff_password):
    match = match_at(tournament=tournament, started=True)
    context, page, names = opened(browser, live_server, staff_password, match)
    answers = []

    def venue(route):
        answers.append(len(answers))
        if len(answers) == 1:  # the server saved it, but the answer came back a 503
            route.fetch()
            route.fulfill(status=503, body="Service Unavailable")
        elif len(answers) == 2:  # the next try never reaches the server
            route.abort("connectionreset")
        else:
            route.continue_()

    try:
        context.set_offline(True)
        for _turn in range(3):
            draw_three_and_pass(page)
        expect(page.locator("#send-queue")).to_have_attribute("data-count", "3")
        page.route("**/turns/", venue)
        context.set_offline(False)
        expect(page.locator("#send-queue")).to_have_count(0, timeout=30_000)
        assert len(answers) >= 5  # the 503 and the dropped one were sent again
        assert stored(match) == [(0, 0, 0, "5-5-5"), (1, 1, 3, ""), (2, 2, 3, ""),
                                 (3, 3, 3, "")]
        expect(page.locator(".to-play")).to_contain_text(names[0])
    finally:
        context.close()


def test_a_turn_refused_because_the_session_closed_is_kept_and_said(
        browser, live_server, tournament, referee, staff_password):
    match = match_at(tournament=tournament, started=True)
    context, page, _names = opened(browser, live_server, staff_password, match)
    try:
        context.set_offline(True)
        draw_three_and_pass(page)
        draw_three_and_pass(page)
        # meanwhile the organiser closed the session (its other tables were done)
        Session.objects.filter(pk=match.table.session_id).update(status=Session.Status.FINISHED)
        context.set_offline(False)
        panel = page.locator("#send-queue")
        expect(panel).to_have_attribute("data-state", "refused", timeout=20_000)
        refused = panel.locator('li[data-state="refused"]')
        expect(refused).to_have_count(1)
        expect(refused.locator(".send-queue__reason")).to_contain_text("clos")
        expect(panel.locator('li[data-state="blocked"]')).to_have_count(1)
        assert len(queued(page, match)) == 2  # nothing dropped
        assert len(stored(match)) == 1
        refused.locator("button[data-action=discard]").click()
        expect(panel).to_have_attribute("data-count", "1")
        assert len(stored(match)) == 1
    finally:
        context.close()


def test_an_expired_login_keeps_the_turns_and_sends_them_once_logged_in_again(
        browser, live_server, tournament, referee, staff_password):
    match = match_at(tournament=tournament, started=True)
    context, page, names = opened(browser, live_server, staff_password, match)
    try:
        LoginSession.objects.all().delete()  # the login expired on the server
        draw_three_and_pass(page)
        panel = page.locator("#send-queue")
        expect(panel).to_have_attribute("data-state", "login")
        draw_three_and_pass(page)
        expect(panel).to_have_attribute("data-count", "2")
        expect(page.locator("#match")).not_to_contain_text("Connexion")  # no login page swapped in
        link = panel.locator(".send-queue__login a")
        expect(link).to_have_attribute("href", re.compile(r"^/login/\?next="))
        assert len(stored(match)) == 1

        with context.expect_page() as opening:
            link.click()
        login = opening.value
        login.locator("#id_username").fill("remi-referee")
        login.locator("#id_password").fill(staff_password)
        login.locator("main form button[type=submit]").click()
        login.wait_for_load_state()
        login.close()
        page.bring_to_front()
        expect(panel).to_have_count(0, timeout=40_000)
        assert stored(match) == [(0, 0, 0, "5-5-5"), (1, 1, 3, ""), (2, 2, 3, "")]
        expect(page.locator(".to-play")).to_contain_text(names[3])
    finally:
        context.close()


def page_kept(page) -> bool:
    """The service worker runs and the match page, as last saved, is kept for offline."""
    return page.evaluate("""async () => {
        if (!navigator.serviceWorker || !navigator.serviceWorker.controller) { return false; }
        const kept = await caches.match(location.href);
        const revision = document.getElementById('match').dataset.revision;
        return !!kept && (await kept.text()).includes('data-revision="' + revision + '"');
    }""")


def test_a_reload_offline_shows_the_match_and_its_queue(browser, live_server, tournament,
                                                        referee, staff_password):
    match = match_at(tournament=tournament, started=True)
    context, page, names = opened(browser, live_server, staff_password, match,
                                  worker_first=True)
    try:
        worker = page.request.get("/offline-worker.js")
        assert worker.headers["service-worker-allowed"] == "/"
        assert worker.headers["content-type"].startswith("text/javascript")
        for _wait in range(120):  # 30 s at most
            if page_kept(page):
                break
            page.wait_for_timeout(250)
        assert page_kept(page)
        context.set_offline(True)
        draw_three_and_pass(page)
        expect(page.locator("#send-queue")).to_have_attribute("data-count", "1")
        page.reload()
        expect(page.locator("#turn-form")).to_be_visible()  # the page, not the browser's error
        expect(page.locator("#send-queue")).to_have_attribute("data-count", "1")
        expect(page.locator("#send-queue li")).to_contain_text("Pioche 3")
        # the match as last saved: the opening on the table
        expect(page.locator("#match")).to_have_attribute("data-revision",
                                                         str(Match.objects.get(pk=match.pk).revision))
        assert len(stored(match)) == 1

        context.set_offline(False)
        expect(page.locator("#send-queue")).to_have_count(0, timeout=40_000)
        assert stored(match) == [(0, 0, 0, "5-5-5"), (1, 1, 3, "")]
    finally:
        context.close()


def test_the_page_kept_after_a_save_is_the_tablets_not_asked_again(browser, live_server,
                                                                   tournament, referee,
                                                                   staff_password):
    """After a save, the page kept for a reload offline is the page as the tablet shows it
    (the save's answer swapped in): the server is not asked for the whole page again, and
    the page kept shows the revision saved."""
    from django.core.signals import request_started

    match = match_at(tournament=tournament, started=True)
    asked: list[str] = []

    def seen(sender, environ, **kwargs):
        asked.append(f"{environ['REQUEST_METHOD']} {environ['PATH_INFO']}")

    request_started.connect(seen)
    try:
        context, page, _names = opened(browser, live_server, staff_password, match,
                                       worker_first=True)
        try:
            for _wait in range(120):  # 30 s at most
                if page_kept(page):
                    break
                page.wait_for_timeout(250)
            assert page_kept(page)
            page_address = f"GET /t/spring-open/matches/{match.pk}/"
            before = asked.count(page_address)
            draw_three_and_pass(page)
            revision = str(Match.objects.get(pk=match.pk).revision)
            expect(page.locator("#match")).to_have_attribute("data-revision", revision)
            for _wait in range(120):  # 30 s at most
                if page_kept(page):
                    break
                page.wait_for_timeout(250)
            assert page_kept(page)
            page.wait_for_timeout(2_000)  # past the keeping's 1.5 s
            assert asked.count(page_address) == before, asked
        finally:
            context.close()
    finally:
        request_started.disconnect(seen)


def test_a_whole_round_entered_offline_is_drawn_pending_then_saved_in_order(
        browser, live_server, staff_password, make_tournament, make_user):
    """The opening saved, then the network gone for the rest of the round: each tile is
    placed next to the pending ones (the places that fit follow them), drawn pending with its
    points beside its player; back online, every turn is saved once, in order."""
    from scoring.simulate import simulate_match
    from tests.browser.test_recording_board_mode import SEED
    from tests.factories import seated_names
    from tournament.core.tournaments import staff_role_grant
    from tournament.models import StaffRole

    tournament = make_tournament(slug="duo", players=2, table_size=2, started=True)
    staff_role_grant(tournament=tournament, user=make_user("remi-referee"),
                     role=StaffRole.Role.REFEREE)
    match = match_at(tournament=tournament)
    names = seated_names(match)
    turns = simulate_match(players=2, seed=SEED, names=names)["rounds"][0]["turns"]
    # its own browser context, closed in the test: no queued write may reach the server after
    # the test's end, while its database is emptied for the next one
    context, page = open_match(browser, live_server, staff_password,
                               f"/t/duo/matches/{match.pk}/")
    try:
        whole_round_offline(page, match, names, turns)
    finally:
        context.close()


def whole_round_offline(page, match, names, turns) -> None:
    first = turns[0]
    page.locator(".opener label").filter(has_text=names[first["player"]]).click()
    page.locator(f'.tile-button[data-tile="{"-".join(map(str, sorted(first["place"]["corners"])))}"]').click()
    expect(page.locator(".preview-head")).to_be_visible()
    choice = page.locator(f'#turn-preview input[value="{"-".join(map(str, first["place"]["corners"]))}"]')
    if choice.count():
        choice.check()
    page.locator("#id_claimed").fill(str(first["claimed"]))
    page.keyboard.press("Enter")
    expect(page.locator("#done")).to_be_attached()

    page.context.set_offline(True)
    entered = 0
    for index, turn in enumerate(turns[1:], start=1):
        place = turn.get("place")
        if place is None:
            draw_three_and_pass(page) if turn.get("draws") == 3 else None
            if turn.get("draws") != 3:
                break  # a short pool: the pass button is the server's to size
        else:
            if turn.get("draws"):
                page.locator(".draws-field .segment").filter(has_text=str(turn["draws"])).click()
            tile = "-".join(map(str, sorted(place["corners"])))
            x, y, o = place["cell"]
            cell = f"{o}({x},{y})"
            page.locator(f'.tile-button[data-tile="{tile}"]').click()
            # the place fits after the pending tiles: board.js says so, not the server
            target = page.locator(f'#board polygon.open[data-cell="{cell}"]')
            expect(target).to_have_class(re.compile(r"\bfits\b"))
            target.click()
            expect(page.locator("#turn-preview .preview-head")).to_have_attribute("data-cell", cell)
            corners = "-".join(map(str, place["corners"]))
            choice = page.locator(f'#turn-preview input[type="radio"][value="{corners}"]')
            if choice.count():
                choice.check()
            page.locator("#id_claimed").fill(str(turn["claimed"]))
            page.keyboard.press("Enter")
        entered = index
        expect(page.locator("#send-queue")).to_have_attribute("data-count", str(index))
        placed = sum(1 for t in turns[1:index + 1] if t.get("place"))
        expect(page.locator("#board .tile--pending")).to_have_count(placed)
    assert entered >= 8
    assert len(stored(match)) == 1
    expect(page.locator(".seat-pending").first).to_be_visible()

    page.context.set_offline(False)
    expect(page.locator("#send-queue")).to_have_count(0, timeout=120_000)
    saved = stored(match)
    expected = [(i, t["player"], t.get("draws", 0),
                 "-".join(map(str, sorted(t["place"]["corners"]))) if t.get("place") else "")
                for i, t in enumerate(turns[:entered + 1])]
    assert saved == expected
    expect(page.locator("#board .tile--pending")).to_have_count(0)


def test_a_500_with_debug_on_keeps_the_page_and_the_turn(browser, live_server, tournament,
                                                         referee, staff_password, settings):
    settings.DEBUG = True  # the README's set-up: django-htmx's debug script shows errors
    match = match_at(tournament=tournament, started=True)
    context, page, names = opened(browser, live_server, staff_password, match)
    answers = []

    def restarting(route):
        answers.append(route.request.method)
        if len(answers) == 1:
            route.fulfill(status=500, body="<html><body><h1>Server Error</h1></body></html>",
                          content_type="text/html")
        else:
            route.continue_()

    try:
        expect(page.locator('script[data-debug="True"]')).to_have_count(1)
        page.route("**/turns/", restarting)
        draw_three_and_pass(page)
        expect(page.locator("#turn-form")).to_be_visible()  # not replaced by the error page
        expect(page.locator("#send-queue")).to_have_count(0, timeout=20_000)
        assert len(answers) >= 2
        assert stored(match) == [(0, 0, 0, "5-5-5"), (1, 1, 3, "")]
        expect(page.locator(".to-play")).to_contain_text(names[2])
    finally:
        context.close()


def test_undo_is_asked_on_the_page_not_by_a_browser_dialog(browser, live_server, tournament,
                                                           referee, staff_password):
    match = match_at(tournament=tournament, started=True)
    context, page, _names = opened(browser, live_server, staff_password, match)
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    try:
        page.locator("#undo-confirm > summary").click()
        question = page.locator("#undo-confirm .undo-question")
        expect(question).to_be_visible()
        assert len(stored(match)) == 1  # asked, not done
        page.locator("#undo-confirm button[type=submit]").click()
        expect(page.locator("#undo-confirm")).to_have_count(0)  # nothing left to undo
        assert stored(match) == []
        assert dialogs == []
    finally:
        context.close()


def test_a_claim_that_differs_looks_pending_not_saved(browser, live_server, tournament,
                                                      referee, staff_password):
    match = match_at(tournament=tournament, started=True)
    context, page = open_match(browser, live_server, staff_password,
                               f"/t/spring-open/matches/{match.pk}/")
    try:
        names = [text.strip() for text in page.locator(".seat-name").all_inner_texts()]
        enter_opening(page, names[0], "5-5-5", "31")  # the engine counts 25
        toast = page.locator("#entry-toast")
        expect(toast).to_have_attribute("data-kind", "pending")
        expect(toast).to_have_class(re.compile(r"entry-toast--pending"))
        expect(toast).not_to_have_class(re.compile(r"entry-toast--error"))
        page.wait_for_timeout(6500)  # a saved turn's toast fades; a pending one stays
        expect(toast).to_have_class(re.compile(r"entry-toast--shown"))
    finally:
        context.close()
