"""axe-core (WCAG 2.1 AA and best practices) over every kind of page but the match entry,
correction and insertion pages: public, referee and organiser pages, at a desktop and a phone
size, in French. A serious or critical violation fails, and so does a tap target under 24 px
(WCAG 2.2's target size); so does a page asking for a file that is not there (a 404 for its
icon, a style sheet or a script).

The live pages are also checked after a refresh: focus stays where the user was and a change
is said in the status region.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import confirmed_match, match_at
from tests.tournament.tournaments import settings_of
from tournament.models import Category, League, Match, Player, Registration
from tournament.organiser.services import tournament_update
from tournament.organiser.services.categories import registrations_categorise

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa",
                                          "best-practice"]},
    "resultTypes": ["violations"],
}


@pytest.fixture
def in_play(tournament, organiser):
    """Session 1 in play, table 2's match confirmed and rated; the tournament in a league its
    organisers run."""
    confirmed_match(match=match_at(tournament=tournament, table=2), totals=[412, 230, 151, 88])
    league = League.objects.create(name="Spring season", slug="spring-season")
    league.organisers.add(organiser)
    tournament.league = league
    tournament.save(update_fields=["league"])
    # a category and the club teams (docs/guides/categories.md): their pages are checked too
    tournament_update(**settings_of(tournament, team_size=2))
    registrations_categorise(tournament=tournament, categories={
        registration.pk: ["Juniors"] for registration in tournament.registrations.all()[:3]})
    return tournament


def pages_of(role: str, tournament) -> list[str]:
    player = Player.objects.filter(registrations__tournament=tournament).first()
    registration = Registration.objects.filter(tournament=tournament).first()
    match = Match.objects.get(table__session__tournament=tournament, table__number=2)
    public = [
        "/", "/login/", "/t/spring-open/", "/t/spring-open/standings/",
        "/t/spring-open/sessions/1/", f"/t/spring-open/players/{player.pk}/",
        f"/t/spring-open/matches/{match.pk}/", "/t/no-such-tournament/",
        f"/players/{player.pk}/", "/ratings/", "/leagues/", "/leagues/spring-season/",
        "/leagues/spring-season/ratings/", "/t/spring-open/standings/clubs/",
        f"/t/spring-open/standings/categories/{Category.objects.get().pk}/",
    ]
    if role == "public":
        return public
    referee = ["/my-tables/", "/t/spring-open/sessions/1/", f"/t/spring-open/matches/{match.pk}/audit/",
               "/t/spring-open/sessions/1/check-in/", "/t/spring-open/practice/"]
    if role == "referee":
        return referee
    return [
        *referee, "/t/spring-open/organise/", "/t/spring-open/organise/settings/",
        "/t/spring-open/organise/players/", f"/t/spring-open/organise/players/{registration.pk}/",
        "/t/spring-open/organise/sessions/1/", "/t/spring-open/staff/", "/tournaments/new/",
        "/tournaments/import/", "/leagues/new/", "/leagues/spring-season/",
        "/leagues/spring-season/edit/", f"/players/{player.pk}/merge/",
    ]


def serious(results) -> list[str]:
    return [
        f"{violation['id']} ({violation['impact']}): "
        + "; ".join(", ".join(node["target"]) for node in violation["nodes"][:5])
        for violation in results.response["violations"]
        if violation["impact"] in ("serious", "critical") or violation["id"] == "target-size"
    ]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("role", ["public", "referee", "organiser"])
def test_no_serious_violation_on_any_page(axe, in_play, referee, organiser, log_in, page,
                                          role, size):
    if role != "public":
        log_in({"referee": "remi-referee", "organiser": "olga-organiser"}[role])
    page.set_viewport_size(SIZES[size])
    missing: list[str] = []
    page.on("response", lambda response: missing.append(response.url)
            if response.status == 404 and "/t/no-such-tournament/" not in response.url else None)
    found = {}
    for url in pages_of(role, in_play):
        page.goto(url)
        page.wait_for_load_state("networkidle")
        problems = serious(axe.run(page, options=AXE_OPTIONS))
        if problems:
            found[url] = problems
    assert found == {}
    assert missing == []


def test_the_checks_run_a_current_axe_core(axe, page):
    """axe-core 4.10 or later: the rules the older bundled one lacks run."""
    page.goto("/")
    axe.run(page, options=AXE_OPTIONS)
    version = page.evaluate("axe.version")
    assert tuple(int(part) for part in version.split(".")[:2]) >= (4, 10), version
    rules = page.evaluate("axe.getRules().map(rule => rule.ruleId)")
    assert {"label-content-name-mismatch", "scrollable-region-focusable"} <= set(rules)


def test_a_refresh_keeps_the_focus_and_says_what_changed(page, in_play, settings):
    settings.TRIOMINOS_POLL_SECONDS = 1
    page.goto("/t/spring-open/sessions/1/")
    link = page.locator("#session-live a.match-state").first
    link.focus()
    expect(link).to_be_focused()
    status = page.locator("#live-status")
    expect(status).to_have_text("")
    confirmed_match(match=match_at(tournament=in_play), totals=[400, 300, 200, 100])
    expect(page.locator("#table-1")).to_contain_text("confirmée", timeout=5_000)
    expect(status).to_contain_text("Mis à jour à")
    focused = page.evaluate("document.activeElement.closest('#session-live') !== null "
                            "&& document.activeElement.matches('a.match-state')")
    assert focused is True
    page.wait_for_timeout(1_500)  # another refresh, nothing changed: focus still there
    assert page.evaluate("document.activeElement.matches('a.match-state')") is True


def test_no_table_header_is_empty_on_the_match_career_and_players_pages(axe, in_play, organiser,
                                                                         log_in, page):
    """A header cell says what its column holds, to a screen reader at least (axe-core's
    empty-table-header, a minor violation the check above lets pass)."""
    player = Player.objects.filter(registrations__tournament=in_play).first()
    match = Match.objects.get(table__session__tournament=in_play, table__number=2)
    log_in("olga-organiser")
    found = {}
    for url in (f"/t/spring-open/matches/{match.pk}/", f"/players/{player.pk}/",
                "/t/spring-open/organise/players/", "/t/spring-open/staff/"):
        page.goto(url)
        results = axe.run(page, options={"runOnly": ["empty-table-header"],
                                         "resultTypes": ["violations"]})
        if results.response["violations"]:
            found[url] = [node["html"][:80] for v in results.response["violations"]
                          for node in v["nodes"]]
    assert found == {}
