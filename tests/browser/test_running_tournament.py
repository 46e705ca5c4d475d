"""An organiser runs a whole tournament in the browser: from the CSV import to the final
standings, through two sessions seated, swapped, started and closed. The referees' part (the
matches' results) is set in the database between the sessions, as the recording would."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.factories import matches_confirmed
from tournament.models import Registration, Seat, Tournament

BAD_CSV = "nom;club;licence\nAna Lopez;Lyon;L-1\n;Paris;\nAna Lopez;Lyon;\n"
GOOD_CSV = "\n".join(f"Joueuse {number:02d};Club {'ABC'[number % 3]};RUN-{number:02d}"
                     for number in range(1, 11)) + "\n"


def upload(page, text: str) -> None:
    page.locator("#id_file").set_input_files(
        {"name": "joueurs.csv", "mimeType": "text/csv", "buffer": text.encode()}
    )
    page.get_by_role("button", name="Importer").click()


def message(page):
    return page.locator(".messages")


def test_an_organiser_runs_a_tournament_from_import_to_final_standings(page, log_in, organiser):
    log_in("olga-organiser", next_url="/t/spring-open/organise/")
    page.get_by_role("link", name="Nouveau tournoi").click()
    page.locator("#id_name").fill("Open de Lyon")
    page.locator("#id_slug").fill("open-lyon")
    page.locator("#id_start_date").fill("2025-11-08")
    page.get_by_role("button", name="Créer le tournoi").click()
    expect(page).to_have_url(re.compile(r"/t/open-lyon/organise/players/$"))
    tournament = Tournament.objects.get(slug="open-lyon")
    assert tournament.ranking_criteria == ["match_points", "total_points", "share"]

    # A file with bad lines imports nothing and says which lines, and why.
    upload(page, BAD_CSV)
    errors = page.locator("#id_file_error")
    expect(errors).to_contain_text("Ligne 3\u00a0: le nom manque.")
    expect(errors).to_contain_text("Ligne 4\u00a0: Ana Lopez est déjà à la ligne 2.")
    assert not tournament.registrations.exists()
    upload(page, GOOD_CSV)
    expect(message(page)).to_contain_text("Joueurs importés\u00a0: 10.")
    expect(page.locator("#organiser-players tbody tr")).to_have_count(10)

    # One player withdraws before the start.
    page.get_by_label("Déclarer le forfait de Joueuse 10").click()  # asked twice: it costs a seat
    page.get_by_role("button", name="Oui, déclarer le forfait de Joueuse 10").click()
    expect(message(page)).to_contain_text("Forfait enregistré pour Joueuse 10")

    # Session 1: open, seat (9 players: three tables of 3), swap two players, start.
    page.locator(".sub-nav").get_by_role("link", name="Sessions").click()
    page.get_by_role("button", name="Ouvrir la session 1").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Session 1")
    expect(page.locator("#draw")).to_contain_text("Joueurs à placer dans cette session\u00a0: 9.")
    page.get_by_role("button", name="Placer les joueurs").click()
    expect(message(page)).to_contain_text("Placement tiré (tables\u00a0: 3")
    expect(page.locator("#repeats")).to_contain_text("Aucune paire ne se rencontre à nouveau.")
    session_one = tournament.sessions.get(number=1)
    first = Seat.objects.get(session=session_one, table__number=1, order=0).player
    last = Seat.objects.get(session=session_one, table__number=3, order=0).player
    page.locator("#id_player_a").select_option(str(first.pk))
    page.locator("#id_player_b").select_option(str(last.pk))
    page.get_by_role("button", name="Échanger", exact=True).click()
    expect(message(page)).to_contain_text("ont échangé leurs places")
    assert Seat.objects.get(session=session_one, table__number=3, order=0).player == first
    page.locator("#start summary").click()  # it cannot be undone: asked twice
    page.get_by_role("button", name="Oui, commencer la session").click()
    expect(message(page)).to_contain_text("La session 1 a commencé")

    # A late arrival, while session 1 is played: seated from session 2.
    page.locator(".sub-nav").get_by_role("link", name="Joueurs").click()
    page.locator("#id_name").fill("Lou Tardif")
    page.locator("#id_club").fill("Club D")
    page.get_by_role("button", name="Ajouter", exact=True).click()
    expect(message(page)).to_contain_text("Inscription enregistrée\u00a0: Lou Tardif.")
    late = Registration.objects.get(player__name="Lou Tardif")
    assert late.status == "late" and late.first_session == 2

    # Closing is refused until the referees have confirmed every match.
    page.locator(".sub-nav").get_by_role("link", name="Sessions").click()
    page.get_by_role("link", name="Continuer la session 1").click()
    # Closing makes the results final: asked twice, like starting (one tap closes nothing).
    page.locator("#close summary").click()
    assert tournament.sessions.get(number=1).status == "playing"
    page.locator("#close-confirm").click()
    expect(page.locator(".message--error")).to_contain_text("les parties des tables 1, 2, 3 ne sont pas encore confirmées")
    matches_confirmed(tournament=tournament, seed=1)
    page.locator("#close summary").click()
    page.locator("#close-confirm").click()
    expect(message(page)).to_contain_text("La session 1 est clôturée")

    # Session 2: ten players (the late arrival in, the withdrawn player out).
    page.get_by_role("link", name="Retour aux sessions").click()
    page.get_by_role("button", name="Ouvrir la session 2").click()
    page.get_by_role("button", name="Placer les joueurs").click()
    expect(message(page)).to_contain_text("Placement tiré (tables\u00a0: 3")
    # 4 + 3 + 3 after three tables of 3: the late arrival completes the table of 4, so no
    # pair needs to meet again.
    expect(page.locator("#repeats")).to_contain_text("Aucune paire ne se rencontre à nouveau.")
    seated = set(Seat.objects.filter(session__number=2, session__tournament=tournament)
                 .values_list("player__name", flat=True))
    assert "Lou Tardif" in seated and "Joueuse 10" not in seated and len(seated) == 10
    page.locator("#start summary").click()  # it cannot be undone: asked twice
    page.get_by_role("button", name="Oui, commencer la session").click()
    matches_confirmed(tournament=tournament, seed=2)
    page.locator("#close summary").click()
    page.locator("#close-confirm").click()
    expect(message(page)).to_contain_text("La session 2 est clôturée")

    # The final standings, public.
    page.locator(".tournament-nav").get_by_role("link", name="Classement").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Classement")
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(11)
    expect(rows.first.locator("td.rank")).to_have_text("1")
    expect(page.locator("#standings")).to_contain_text("forfait")
    expect(page.locator(".notice--live")).to_have_count(0)
    with page.expect_download() as download:
        page.locator("#download-csv-semicolon").click()  # French: semicolons, decimal commas
    assert download.value.suggested_filename == "open-lyon-standings.csv"
