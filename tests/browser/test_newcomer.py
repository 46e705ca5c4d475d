"""What a newcomer meets first, in Chromium and in French: an empty installation, the first
tournament to create; the room's screens as players read them."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tournament.models import Tournament


@pytest.fixture(autouse=True)
def patient(page):
    """The machine is shared: a page may take longer than the suite's 10 seconds to load."""
    page.set_default_timeout(30_000)


def test_a_superuser_on_an_empty_installation_creates_the_first_tournament_from_home(
        page, log_in, make_user):
    make_user("head", is_superuser=True, is_staff=True)
    assert not Tournament.objects.exists()
    log_in("head")
    page.goto("/")
    page.locator("#tournament-create").click()
    page.wait_for_url("**/tournaments/new/")
    expect(page.locator("main form")).to_be_visible()


def test_the_first_tournament_link_is_not_offered_to_who_may_not_create_one(page, log_in, referee):
    log_in("remi-referee")
    page.goto("/")
    expect(page.locator("#tournament-create")).to_have_count(0)


SCREEN_SIZES = {"full-hd": {"width": 1920, "height": 1080}, "hd": {"width": 1280, "height": 720}}
GIVEN = ["Amélie", "Gaël", "Inès", "Jean", "Marie-Charlotte", "Luc", "Anne", "Yves"]
SURNAMES = ["Le Goff", "de La Fontaine", "d'Alembert", "Du Bellay", "de Villiers", "Gauthier",
            "de La Rochefoucauld-Montmorency", "Martin"]
#: 64 players: every given name with every surname, some long enough to wrap.
FRENCH_PLAYERS = [(f"{given} {surname}", "Cercle parisien") for surname in SURNAMES
                  for given in GIVEN]


@pytest.fixture
def french_open():
    from tests.factories import players_of, seated_session, tournament_with_players
    from tournament.room import services

    tournament = tournament_with_players(slug="open-de-paris", players=FRENCH_PLAYERS)
    services.room_settings_save(tournament=tournament, time_up_action="flag",
                                screen_seconds=300, screen_top=10)
    players = players_of(tournament)
    seated_session(tournament=tournament, tables=[players[i:i + 4] for i in range(0, 64, 4)])
    return tournament


@pytest.mark.parametrize("size", SCREEN_SIZES)
def test_the_projector_lists_players_by_surname_page_by_page(french_open, page, size):
    from tournament.models import Player
    from tournament.names import surname_sort_key

    page.set_viewport_size(SCREEN_SIZES[size])
    page.goto("/t/open-de-paris/screen/")
    views = page.locator('#screen .screen-view[data-view="seating"]')
    count = views.count()
    assert count == 3  # 64 names, 30 a view
    shown: list[int] = []
    for index in range(count):
        view = views.nth(index)
        marker = view.locator(".screen__page")
        assert (marker.get_attribute("data-page"), marker.get_attribute("data-pages")) == (
            str(index + 1), "3")
        shown += [int(item.get_attribute("data-player"))
                  for item in view.locator("li[data-player]").all()]
    names = dict(Player.objects.values_list("pk", "name"))
    order = [names[pk] for pk in shown]
    # French lists: "d'Alembert" under A, "Du Bellay" under D, "Gauthier", then "de La
    # Fontaine" and "de La Rochefoucauld" and "Le Goff" under L, "Martin", "de Villiers" under V.
    firsts = [next(i for i, name in enumerate(order) if name.endswith(surname))
              for surname in ["d'Alembert", "Du Bellay", "Gauthier", "de La Fontaine",
                              "La Rochefoucauld-Montmorency", "Le Goff", "Martin", "de Villiers"]]
    assert firsts == sorted(firsts) and firsts[0] == 0
    assert order == sorted(order, key=surname_sort_key)
    # "table 12" never breaks: each table's label is one line, at the end of its name's line.
    broken = page.evaluate("""() => {
        const views = [...document.querySelectorAll('#screen .screen-view')], broken = [];
        views.forEach((view, i) => {
            views.forEach((other, j) => { other.hidden = i !== j; });
            view.querySelectorAll('.screen__seating li').forEach(li => {
                const label = li.querySelector('.screen__table'), name = li.querySelector('.screen__name');
                const line = parseFloat(getComputedStyle(label).lineHeight);
                const box = label.getBoundingClientRect(), nameBox = name.getBoundingClientRect();
                if (label.getClientRects().length !== 1 || box.height > 1.5 * line
                        || box.bottom > nameBox.bottom + 1 || box.left < nameBox.right)
                    broken.push(li.textContent);
            });
        });
        return broken;
    }""")
    assert broken == []


@pytest.fixture
def seated_cup(make_user, grant_organiser):
    from tests.factories import players_of, tournament_with_players
    from tournament.core.tournaments import staff_role_grant
    from tournament.models import CheckInRule, StaffRole
    from tournament.seating.services import session_seat
    from tournament.sessions.services import check_in_mark, session_create

    tournament = tournament_with_players(
        slug="cup", players=[("Amélie Dupont", "Cercle parisien"), ("Gaël Le Goff", "Brest"),
                             ("Inès Garnier", "Lyon"), ("Zoé Morel", "Lyon"),
                             ("Luc Martin", "Brest")],
        check_in=CheckInRule.FORFEIT)
    session = session_create(tournament=tournament)
    referee = make_user("remi-referee")
    staff_role_grant(tournament=tournament, user=referee, role=StaffRole.Role.REFEREE)
    grant_organiser(make_user("olga-organiser"), tournament)
    for player in players_of(tournament)[:4]:
        check_in_mark(session=session, player=player, present=True, user=referee)
    session_seat(session=session)
    return tournament


def test_a_player_checked_in_after_the_draw_is_told_and_seated_by_drawing_again(
        seated_cup, phone, page, log_in, staff_password):
    from tests.factories import players_of
    from tournament.models import Seat

    late = players_of(seated_cup)[4]
    phone.goto("/login/?next=/t/cup/sessions/1/check-in/")
    phone.locator("#id_username").fill("remi-referee")
    phone.locator("#id_password").fill(staff_password)
    phone.locator("main form button[type=submit]").click()
    expect(phone.locator('[data-code="seated"]')).to_be_visible()
    row = phone.locator(f"#check-in-{late.pk}")
    row.get_by_role("button").tap()
    expect(phone.locator(f"#check-in-{late.pk}")).to_have_attribute("data-present", "1")
    # the referee at the door sees at once that the late player is not seated
    expect(phone.locator(f'#check-in-{late.pk} [data-code="not-seated"]')).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    page.set_viewport_size({"width": 1280, "height": 800})
    log_in("olga-organiser", next_url="/t/cup/organise/sessions/1/")
    notice = page.locator("#checked-in-not-seated")
    expect(notice).to_be_visible()
    expect(notice.locator("li")).to_have_text([late.name])
    notice.get_by_role("link").click()
    page.locator("#draw button[type=submit]").click()
    page.wait_for_load_state()
    expect(page.locator("#checked-in-not-seated")).to_have_count(0)
    assert Seat.objects.filter(session__tournament=seated_cup, player=late).exists()
    phone.reload()
    expect(phone.locator(f'#check-in-{late.pk} [data-code="not-seated"]')).to_have_count(0)


def test_the_check_in_list_sets_the_club_apart_from_the_name(seated_cup, phone, staff_password):
    from tests.factories import players_of

    player = players_of(seated_cup)[0]
    phone.goto("/login/?next=/t/cup/sessions/1/check-in/")
    phone.locator("#id_username").fill("remi-referee")
    phone.locator("#id_password").fill(staff_password)
    phone.locator("main form button[type=submit]").click()
    cell = phone.locator(f"#check-in-{player.pk} td").first
    expect(cell).to_contain_text("Cercle parisien")
    looks = cell.evaluate("""cell => {
        const [name, club] = [...cell.children];
        if (!name || !club) return null;
        const n = getComputedStyle(name), c = getComputedStyle(club);
        return {smaller: parseFloat(c.fontSize) < parseFloat(n.fontSize),
                otherColour: c.color !== n.color,
                ownLine: club.getBoundingClientRect().top >= name.getBoundingClientRect().bottom - 1};
    }""")
    assert looks == {"smaller": True, "otherColour": True, "ownLine": True}


@pytest.fixture
def clock_session(tournament, organiser):
    """Session 1 of the spring open in play, no clock yet."""
    from tournament.models import Session
    from tournament.sessions.services import session_start

    return session_start(session=Session.objects.get(tournament=tournament, number=1))


def test_the_clock_answers_each_action_in_minutes_and_asks_before_removing(
        clock_session, page, log_in):
    from tournament.models import Session

    page.set_viewport_size({"width": 1280, "height": 800})
    log_in("olga-organiser", next_url="/t/spring-open/organise/sessions/1/clock/")
    page.locator("#id_minutes").fill("90")
    page.locator("#clock-set button[type=submit]").click()
    said = {}
    message = page.locator(".messages .message").first
    expect(message).to_have_attribute("data-code", "clock-set")
    said["set"] = message.inner_text()
    # 90 minutes read "1 h 30", never "5400 secondes"
    state = page.locator("#clock-state")
    assert "5400" not in state.inner_text() and "seconde" not in state.inner_text()
    assert "1\u00a0h\u00a030" in state.inner_text() and "1\u00a0h\u00a030" in said["set"]
    for action, button, code in (("start", "#clock-start", "clock-start"),
                                 ("pause", "#clock-pause", "clock-pause"),
                                 ("resume", "#clock-start", "clock-resume")):
        with page.expect_navigation():
            page.locator(button).click()
        expect(page.locator(".messages .message").first).to_have_attribute("data-code", code)
        said[action] = page.locator(".messages .message").first.inner_text()
        if action == "start":  # ten minutes run before the pause
            Session.objects.filter(pk=clock_session.pk).update(
                clock_started_at=timezone.now() - datetime.timedelta(minutes=10))
    page.locator("#id_extra_minutes").fill("5")
    page.locator("#clock-add button[type=submit]").click()
    expect(page.locator(".messages .message").first).to_have_attribute("data-code", "clock-add")
    said["add"] = page.locator(".messages .message").first.inner_text()
    assert "5\u00a0min" in said["add"]
    # removing a running clock: the first tap only asks
    page.locator("#clock-remove summary").click()
    expect(page.locator("#clock-remove-confirm")).to_be_visible()
    assert Session.objects.get(pk=clock_session.pk).clock_seconds == 95 * 60
    page.locator("#clock-remove-confirm").click()
    expect(page.locator(".messages .message").first).to_have_attribute("data-code", "clock-remove")
    said["remove"] = page.locator(".messages .message").first.inner_text()
    expect(state).to_have_attribute("data-state", "none")
    assert Session.objects.get(pk=clock_session.pk).clock_seconds is None
    assert len(set(said.values())) == len(said), said  # each action says what it did


@pytest.fixture
def time_up(tournament, organiser, referee):
    """Session 1 in play under "finish the round in play": table 1's match under way, table
    2's not started, the clock of 30 minutes started 31 minutes ago."""
    from tests.factories import match_at, recorded_match
    from tournament.models import Session, TimeUpAction
    from tournament.room import services

    session = Session.objects.get(tournament=tournament, number=1)
    recorded_match(match=match_at(tournament=tournament, table=1), in_play=True)
    services.room_settings_save(tournament=tournament, time_up_action=TimeUpAction.FINISH_ROUND,
                                screen_seconds=5, screen_top=5)
    services.clock_set(session=session, minutes=30, user=None)
    services.clock_start(session=session, user=None)
    Session.objects.filter(pk=session.pk).update(
        clock_started_at=timezone.now() - datetime.timedelta(minutes=31))
    return tournament


def test_at_times_end_the_board_shows_no_entry_nobody_made(time_up, page, log_in):
    from tournament.models import AuditEntry

    before = AuditEntry.objects.filter(match__table__number=1).latest("at").at
    page.set_viewport_size({"width": 1280, "height": 800})
    log_in("olga-organiser", next_url="/t/spring-open/room/")
    expect(page.locator("#board-table-1")).to_be_visible()
    # the board's reading noted the time's end on every match in play
    assert AuditEntry.objects.filter(action=AuditEntry.Action.TIME_UP).count() >= 1
    page.reload()
    expect(page.locator("#board-table-2 td[data-last-entry]")).to_have_attribute("data-last-entry", "")
    shown = page.locator("#board-table-1 td[data-last-entry]").get_attribute("data-last-entry")
    assert datetime.datetime.fromisoformat(shown) == before


@pytest.mark.parametrize("who", ["referee", "player"])
def test_at_times_end_the_table_is_told_what_happens_next(time_up, page, phone, log_in, who):
    from django.utils import translation

    from tests.factories import match_at

    match = match_at(tournament=time_up, table=1)
    if who == "referee":
        screen = page
        log_in("remi-referee", next_url=f"/t/spring-open/matches/{match.pk}/")
    else:
        screen = phone
        screen.goto(f"/t/spring-open/matches/{match.pk}/")
    clock = screen.locator(".session-clock").first
    expect(clock).to_have_attribute("data-state", "time-up")
    with translation.override("fr"):
        wanted = translation.gettext("Time is up: finish the round in play; the match then ends.")
    expect(clock.locator("[data-clock-label]")).to_have_text(wanted)
    width = screen.viewport_size["width"]
    assert screen.evaluate("document.documentElement.scrollWidth") <= width


def test_locked_settings_look_fixed_and_show_the_value_in_force(clock_session, page, log_in):
    tournament = clock_session.tournament
    assert tournament.target is None and tournament.match_rounds is None
    page.set_viewport_size({"width": 1280, "height": 800})
    log_in("olga-organiser", next_url="/t/spring-open/organise/settings/")
    target, rounds, name = (page.locator(f"#id_{field}") for field in ("target", "match_rounds", "name"))
    expect(target).to_be_disabled()
    expect(rounds).to_be_disabled()
    assert target.get_attribute("placeholder") == str(tournament.effective_target)
    assert rounds.get_attribute("placeholder")
    # greyed, unlike a setting one may still change
    looks = page.evaluate("""() => ['target', 'match_rounds', 'name'].map(
        field => getComputedStyle(document.getElementById('id_' + field)).backgroundColor)""")
    assert looks[0] == looks[1] != looks[2]
    assert target.evaluate("el => getComputedStyle(el, '::placeholder').opacity") == "1"


def test_the_session_log_files_each_entry_in_its_part_in_the_readers_language(
        clock_session, page, log_in):
    """Entries written with English active (as the demo is built) read in French on the
    French page; the clock and the calls have parts of their own; a table calling again is a
    line of its own, with its own reason."""
    from django.utils import translation

    from tournament.kit.table_codes import table_code
    from tournament.models import RefereeCall
    from tournament.room import services

    session = clock_session
    table = session.tables.get(number=2)
    code = table_code(session.tournament_id, 2)
    with translation.override("en"):
        services.clock_set(session=session, minutes=90, user=None)
        services.clock_start(session=session, user=None)
        services.call_make(table=table, reason="tiles-missing", code=code)
        RefereeCall.objects.filter(table=table).update(
            last_called_at=timezone.now() - datetime.timedelta(minutes=10))
        services.call_make(table=table, reason="dispute", code=code)
    page.set_viewport_size({"width": 1280, "height": 800})
    log_in("olga-organiser", next_url="/t/spring-open/organise/sessions/1/")
    log = page.locator("#session-audit")
    expect(log.locator('ul[data-category="session"]')).to_have_count(0)
    clock = log.locator('ul[data-category="clock"] li')
    expect(clock).to_have_count(2)
    calls = log.locator('ul[data-category="calls"] li')
    expect(calls).to_have_count(2)
    with translation.override("fr"):
        started = translation.gettext("clock started")
        tiles = RefereeCall.Reason.TILES.label
        dispute = str(RefereeCall.Reason.DISPUTE.label)
        colon = translation.pgettext("before a detail", ": ")
        assert started != "clock started" and str(tiles) != "tiles missing"
        expect(clock.nth(1)).to_contain_text(started)
        expect(calls.nth(0)).to_contain_text(str(tiles))
        expect(calls.nth(1)).to_contain_text(dispute)
    assert "\u00a0:" in colon
    for line in clock.all_inner_texts() + calls.all_inner_texts():
        assert ":" in line and not any(line[i] == ":" and line[i - 1] != "\u00a0"
                                       for i in range(1, len(line))), line


def test_check_in_and_withdrawal_each_have_their_word(seated_cup, page, log_in):
    """Pointage is said once on the session page; "forfait" is a withdrawal only, never what
    a missed session costs (docs/reference/glossary.md)."""
    import re

    page.set_viewport_size({"width": 1280, "height": 800})
    log_in("olga-organiser", next_url="/t/cup/organise/sessions/1/")
    panel = page.locator("#check-in")
    expect(panel.locator("[data-rule]")).to_have_attribute("data-rule", "forfeit")
    words = re.findall(r"\w+", panel.locator("p").first.inner_text().casefold())
    assert words.count("pointage") == 1, words
    assert not any(word.startswith("forfait") for word in words)
    page.goto("/t/cup/organise/settings/")
    options = page.locator("#id_check_in option").all_inner_texts()
    assert options and not any("forfait" in option.casefold() for option in options)
    page.goto("/t/cup/organise/players/")
    withdraw = page.locator("details.confirm-step summary").first
    assert "forfait" in withdraw.inner_text().casefold()
    assert re.search(r"\b(déclarer)\b", withdraw.inner_text().casefold())


@pytest.mark.parametrize("size", SCREEN_SIZES)
def test_the_projector_offline_says_how_old_its_data_is_in_words(clock_session, page, size,
                                                                  settings):
    from django.utils import translation

    settings.TRIOMINOS_POLL_SECONDS = 2
    page.set_viewport_size(SCREEN_SIZES[size])
    page.clock.install()
    page.goto("/t/spring-open/screen/")
    expect(page.locator("#screen .screen-view").first).to_be_attached()
    page.route("**/screen/", lambda route: route.abort())
    note = page.locator("#screen-stale")
    page.clock.run_for(12_000)
    expect(note).to_be_visible()
    with translation.override("fr"):
        recent = translation.gettext("Offline — data from less than a minute ago")
        older = translation.gettext("Offline — data from {minutes} min ago")
    assert recent.startswith("Hors connexion")
    expect(note).to_have_text(recent)  # 12 seconds: not "1 min"
    page.clock.run_for(60_000)
    expect(note).to_have_text(older.replace("{minutes}", "1"))


def test_on_a_phone_each_reason_sits_on_its_labels_line(clock_session, phone):
    """The call form at 390x844: each radio circle small, at the start of its own label's
    line, on the same line as the label's words; tapping the words chooses it."""
    phone.goto("/t/spring-open/tables/2/call/")
    radios = phone.locator("input[name=reason]")
    assert radios.count() == 4
    boxes = phone.evaluate("""() => [...document.querySelectorAll('input[name=reason]')].map(input => {
        const label = input.closest('label'), box = input.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(label);
        const words = [...range.getClientRects()].filter(r => r.left >= box.right - 1);
        const text = words.length ? words[0] : null;
        return {width: box.width, left: box.left - label.getBoundingClientRect().left,
                middle: (box.top + box.bottom) / 2, textTop: text && text.top,
                textBottom: text && text.bottom, labelWidth: label.getBoundingClientRect().width};
    })""")
    for box in boxes:
        assert box["width"] <= 32, box  # a circle, not a line-wide input
        assert box["left"] <= 4, box  # at the start of its label
        assert box["textTop"] is not None and box["textTop"] <= box["middle"] <= box["textBottom"], box
    radios.nth(1).locator("xpath=..").tap()
    expect(radios.nth(1)).to_be_checked()


def test_a_player_reads_the_record_link_in_words(time_up, phone):
    """The public match page on a phone: the match record's link says what it gives, in
    words ("relevé de partie", the glossary's), not a file format."""
    from tests.factories import match_at

    match = match_at(tournament=time_up, table=1)
    phone.goto(f"/t/spring-open/matches/{match.pk}/")
    link = phone.locator(f'a[href$="/matches/{match.pk}/record.json"]').first
    expect(link).to_be_visible()
    words = link.inner_text()
    assert "JSON" not in words and "relevé de partie" in words.casefold(), words


def test_the_import_page_says_its_rule_once(clock_session, page, log_in):
    """The archive's help named another rule than the page's ("only closed sessions are
    imported" against "an archive with a session in play is refused whole"): said once."""
    import re

    page.set_viewport_size({"width": 1280, "height": 800})
    log_in("olga-organiser", next_url="/tournaments/import/")
    text = page.locator("main").inner_text().casefold()
    assert len(re.findall(r"clôtur", text)) == 1, text
    assert "rien n’est importé" in text or "rien n'est importé" in text


def test_the_room_settings_help_shows_no_file_path(clock_session, page, log_in):
    import re

    page.set_viewport_size({"width": 1280, "height": 800})
    log_in("olga-organiser", next_url="/t/spring-open/room/settings/")
    help_text = page.locator("#id_time_up_action_helptext")
    expect(help_text).to_be_visible()
    assert not re.search(r"\w+/\w+\.md|docs/", page.locator("main").inner_text())


def test_a_superuser_is_told_the_same_name_is_in_a_tournament_of_the_site(
        clock_session, page, log_in, make_user):
    """The superuser runs none of the tournaments: the likely same person is elsewhere on
    the site, not "already in your tournaments"."""
    from django.utils import translation

    from tests.factories import tournament_with_players

    tournament_with_players(slug="autumn", players=[("Théo Girard", "Club A")])
    make_user("head", is_superuser=True, is_staff=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    log_in("head", next_url="/t/spring-open/organise/players/")
    page.locator("#add-player #id_name").fill("THÉO GIRARD")
    page.locator("#add-player #id_club").fill("club a")
    page.locator("#add-player button[type=submit]").click()
    error = page.locator("#id_name_error")
    expect(error).to_be_visible()
    with translation.override("fr"):
        yours = translation.gettext("%(name)s may be the player of record %(id)s, already in "
                                    "your tournaments (same name and club, no licence number).")
    said = error.inner_text()
    assert yours.split("%(id)s")[1].split("(")[0].strip() not in said, said
    assert "ce site" in said


def _playing(players: list[tuple[str, str]], slug: str):
    from tests.factories import (
        match_at,
        players_of,
        recorded_match,
        seated_session,
        tournament_with_players,
    )
    from tournament.room import services

    tournament = tournament_with_players(slug=slug, players=players)
    services.room_settings_save(tournament=tournament, time_up_action="flag",
                                screen_seconds=300, screen_top=10)
    registered = players_of(tournament)
    seated_session(tournament=tournament, started=True,
                   tables=[registered[i:i + 4] for i in range(0, len(registered), 4)])
    recorded_match(match=match_at(tournament=tournament, table=1), in_play=True)
    return tournament


@pytest.mark.parametrize("size", SCREEN_SIZES)
@pytest.mark.parametrize("tables", [4, 8])
def test_the_tables_in_play_fill_the_screen_names_whole(page, size, tables):
    """Before a match is confirmed the projector shows the tables in play, not a page of
    zeros without ranks; 4 tables fill the screen as 8 do; a player's name and total stay
    on one line; nothing overflows."""
    _playing(FRENCH_PLAYERS[:tables * 4], f"open-{tables}")
    page.set_viewport_size(SCREEN_SIZES[size])
    page.goto(f"/t/open-{tables}/screen/")
    views = page.locator("#screen .screen-view")
    assert {views.nth(i).get_attribute("data-view") for i in range(views.count())} == {"tables"}
    measured = page.evaluate("""() => {
        const list = document.querySelector('.screen__tables');
        const players = [...list.querySelectorAll('.screen__player')];
        return {bottom: list.getBoundingClientRect().bottom, height: window.innerHeight,
                split: players.filter(p => new Set([...p.getClientRects()].map(r => Math.round(r.bottom))).size !== 1)
                    .map(p => p.textContent),
                over: list.getBoundingClientRect().bottom > window.innerHeight
                      || list.scrollWidth > list.clientWidth + 1};
    }""")
    assert measured["split"] == [] and not measured["over"], measured
    assert measured["bottom"] > 0.6 * measured["height"], measured
