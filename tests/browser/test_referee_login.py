"""A referee at the venue logs in on a tablet, in the system's Chromium."""

from __future__ import annotations

import re

from playwright.sync_api import expect


def test_a_referee_logs_in_and_reaches_the_tournament(page, live_server, tournament, referee,
                                                      staff_password):
    page.goto("/t/spring-open/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.get_by_role("link", name="Se connecter").click()
    expect(page).to_have_url(re.compile(r"/login/\?next=/t/spring-open/$"))

    page.get_by_label("Nom d’utilisateur").fill("remi-referee")
    page.get_by_label("Mot de passe").fill("not the password")
    page.locator("main").get_by_role("button", name="Se connecter").click()
    expect(page.locator(".form-errors")).to_contain_text("Saisissez un nom d’utilisateur")

    page.get_by_label("Mot de passe").fill(staff_password)
    page.locator("main").get_by_role("button", name="Se connecter").click()
    expect(page).to_have_url(f"{live_server.url}/t/spring-open/")
    expect(page.locator(".current-user")).to_have_text("remi-referee")
    expect(page.get_by_role("heading", level=1)).to_have_text("Spring Open")
    # A referee does not organise: no Staff link, and the staff page is refused.
    expect(page.get_by_role("link", name="Équipe")).to_have_count(0)
    response = page.goto("/t/spring-open/staff/")
    assert response.status == 403
    expect(page.get_by_role("heading", level=1)).to_have_text("Accès refusé")


def test_the_language_switcher_in_the_browser(page, tournament):
    page.goto("/t/spring-open/")
    expect(page.get_by_role("heading", name="Joueurs")).to_be_visible()
    page.get_by_role("button", name="English").click()
    expect(page).to_have_url(re.compile(r"/t/spring-open/$"))
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("heading", name="Players")).to_be_visible()


def test_the_organiser_invites_a_referee_who_accepts_after_logging_in(page, log_in, organiser,
                                                                     tournament):
    log_in("olga-organiser", next_url="/t/spring-open/")
    page.get_by_role("link", name="Équipe").click()
    page.get_by_label("Nom d’utilisateur").fill("paula")
    page.get_by_label("Tables").fill("1-x")
    page.get_by_role("button", name="Enregistrer").click()
    expect(page.locator("#id_tables_error")).to_contain_text("«\u00a01-x\u00a0» n’est ni un numéro de table")

    page.get_by_label("Tables").fill("1")
    page.get_by_label("Mot de passe").fill("Paula-Pass-2025")
    page.get_by_role("button", name="Enregistrer").click()
    expect(page.locator("#id_tables_error")).to_have_count(0)
    expect(page.locator(".message--success")).to_contain_text(
        "paula est invité comme arbitre\u00a0: le rôle commence une fois que le compte l’accepte")
    expect(page.locator("#invitations")).to_contain_text("paula")
    expect(page.locator("#staff")).not_to_contain_text("paula")

    page.get_by_role("button", name="Se déconnecter").click()
    log_in("paula", "Paula-Pass-2025", next_url="/my-tables/")
    expect(page.locator("#invitations")).to_contain_text("Arbitre de Spring Open")
    page.get_by_role("button", name="Accepter").click()
    expect(page.locator(".message--success")).to_contain_text(
        "Vous êtes maintenant arbitre de Spring Open.")
    expect(page.locator("#invitations")).to_have_count(0)
