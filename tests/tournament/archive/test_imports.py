"""A tournament's records.zip imported into another installation: the tournament, its
players, sessions and matches rebuilt, and the ratings as if the matches had been confirmed
here; a damaged archive refused with nothing written."""

from __future__ import annotations

import datetime
import io
import json
import zipfile
from collections import defaultdict

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from tests.tournament.archive.helpers import LATE, PLAYERS, build_source, counts, wipe, zip_with
from tournament.archive import export
from tournament.archive.imports import past_results_import
from tournament.models import (
    Match,
    Player,
    PlayerRating,
    RatingChange,
    Registration,
    Session,
    Tournament,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def player_key(player: Player) -> tuple[str, str, str]:
    return (player.name, player.club, player.licence)


def matches_of(tournament) -> dict[tuple[int, int], dict]:
    """Each match by (session, table): its players in seat order, totals, winners, times."""
    matches = {}
    for match in Match.objects.filter(table__session__tournament=tournament).select_related(
            "table__session"):
        matches[(match.table.session.number, match.table.number)] = {
            "players": [player_key(seat.player) for seat in
                        match.table.seats.order_by("order").select_related("player")],
            "totals": match.totals, "winners": match.winners, "status": match.status,
            "confirmed_at": match.confirmed_at,
        }
    return matches


def rating_history() -> dict[tuple[str, str, str], list[tuple]]:
    """Each player's rating changes in history order: the match's (session, table), rank,
    and the skills before and after."""
    history = defaultdict(list)
    for change in RatingChange.objects.select_related(
            "player", "match__table__session").order_by("at", "match_id"):
        table = change.match.table
        history[player_key(change.player)].append((
            table.session.number, table.number, change.rank, change.mu_before,
            change.sigma_before, change.mu, change.sigma))
    return dict(history)


def current_ratings() -> dict[tuple[str, str, str], tuple]:
    return {player_key(rating.player): (rating.mu, rating.sigma, rating.conservative,
                                        rating.matches)
            for rating in PlayerRating.objects.select_related("player")}


def registrations_of(tournament) -> dict[tuple[str, str, str], tuple]:
    return {player_key(registration.player): (registration.status, registration.first_session)
            for registration in tournament.registrations.select_related("player")}


@pytest.fixture
def exported():
    """The source tournament, what it was, and its archive; then wiped from the database."""
    tournament = build_source()
    before = {
        "matches": matches_of(tournament), "history": rating_history(),
        "ratings": current_ratings(), "registrations": registrations_of(tournament),
        "sessions": list(tournament.sessions.values_list("number", "status", "seed", "seating")),
    }
    data = export.tournament_records_zip(tournament=tournament)
    wipe(tournament)
    return data, before


def refused_code(error: ValidationError) -> str:
    return error.error_dict["archive"][0].code


# --- the round trip ---------------------------------------------------------------------------


def test_the_archive_rebuilds_the_tournament_and_the_same_ratings(exported):
    data, before = exported
    assert before["history"] and len(before["matches"]) == 4
    imported = past_results_import(data=data)
    tournament = imported.tournament
    assert (tournament.name, tournament.slug, tournament.venue) == (
        "Open de Lyon", "open-de-lyon", "Salle Rameau")
    assert (tournament.start_date, tournament.end_date) == (
        datetime.date(2025, 3, 8), datetime.date(2025, 3, 9))
    assert (tournament.match_rounds, tournament.keep_clubs_apart, tournament.is_rated) == (
        2, True, True)
    assert (imported.players_created, imported.players_found) == (9, 0)
    assert (imported.sessions, imported.matches) == (2, 4)
    assert list(tournament.sessions.values_list("number", "status", "seed", "seating")) == \
        before["sessions"]
    assert registrations_of(tournament) == before["registrations"]
    assert registrations_of(tournament)[PLAYERS[1]] == (Registration.Status.WITHDRAWN, None)
    assert registrations_of(tournament)[LATE] == (Registration.Status.LATE, 2)
    assert matches_of(tournament) == before["matches"]  # players, totals, winners, times
    assert rating_history() == before["history"]
    assert current_ratings() == before["ratings"]
    assert Session.objects.filter(tournament=tournament).exclude(status="finished").count() == 0


def test_known_players_are_found_by_licence_merged_records_and_name_with_club(exported):
    data, _before = exported
    kept = Player.objects.create(name="Chloé Martin-Roux", club="Lyon")
    Player.objects.create(name="Chloé M.", licence="L-01", merged_into=kept)  # merged duplicate
    by_licence = Player.objects.create(name="Mads Sorensen", club="", licence="L-03")
    by_name = Player.objects.create(name="Bruno Lefèvre", club="Paris")
    Player.objects.create(name="Zoé Garnier", club="Marseille", licence="OTHER")  # not her
    imported = past_results_import(data=data)
    registered = set(imported.tournament.registrations.values_list("player_id", flat=True))
    assert {kept.pk, by_licence.pk, by_name.pk} <= registered
    assert (imported.players_created, imported.players_found) == (6, 3)
    assert Player.objects.filter(name="Zoé Garnier", licence="L-08").exists()
    # A player found keeps their own name here; the matches are theirs all the same.
    assert Match.objects.filter(table__seats__player=kept).count() == 2


def test_a_taken_slug_gets_a_new_one_and_a_second_import_is_a_second_tournament(exported):
    data, _before = exported
    first = past_results_import(data=data).tournament
    second = past_results_import(data=data, name="Open de Lyon (copie)").tournament
    assert (first.slug, second.slug) == ("open-de-lyon", "open-de-lyon-2")
    assert second.name == "Open de Lyon (copie)"
    # The same players (found by licence, or by name and club the second time).
    assert Player.objects.count() == 9


def test_an_old_archive_without_its_manifest_falls_back_on_the_records(exported):
    data, before = exported
    old = zip_with(data, **{export.MANIFEST_NAME: None})
    imported = past_results_import(data=old, fallback_name="Lyon 2025",
                                   start_date=datetime.date(2025, 3, 8))
    tournament = imported.tournament
    assert (tournament.name, tournament.slug, tournament.match_rounds) == (
        "Lyon 2025", "lyon-2025", 2)
    matches = matches_of(tournament)
    assert {key: (match["totals"], match["winners"]) for key, match in matches.items()} == {
        key: (match["totals"], match["winners"]) for key, match in before["matches"].items()}
    # Names only (no club, no licence); confirmed in session and table order from 9:00.
    assert {player[0] for match in matches.values() for player in match["players"]} == {
        player[0] for match in before["matches"].values() for player in match["players"]}
    times = [matches[key]["confirmed_at"] for key in sorted(matches)]
    assert times == sorted(times) and len(set(times)) == 4
    assert times[0].astimezone().date() == datetime.date(2025, 3, 8)
    assert RatingChange.objects.count() == sum(len(m["players"]) for m in matches.values())


# --- refusals: nothing written ----------------------------------------------------------------


def test_a_damaged_zip_is_refused(exported):
    data, _before = exported
    before = counts()
    for damaged in (data[: len(data) // 2], b"not a zip at all", b""):
        with pytest.raises(ValidationError) as refused:
            past_results_import(data=damaged)
        assert refused_code(refused.value) == "archive-unreadable"
    assert counts() == before


def test_a_damaged_record_is_refused_with_nothing_written(exported):
    data, _before = exported
    manifest = json.loads(zipfile.ZipFile(io.BytesIO(data)).read(export.MANIFEST_NAME))
    last = manifest["sessions"][1]["tables"][1]["match"]["entry"]  # the last match imported
    before = counts()
    with pytest.raises(ValidationError) as refused:
        past_results_import(data=zip_with(data, **{last: b'{"players": ["A"], "rounds": 3}'}))
    assert refused_code(refused.value) == "record-refused"
    assert last in refused.value.error_dict["archive"][0].message
    assert counts() == before


def test_a_record_that_replays_otherwise_than_archived_is_refused(exported):
    data, _before = exported
    manifest = json.loads(zipfile.ZipFile(io.BytesIO(data)).read(export.MANIFEST_NAME))
    manifest["sessions"][0]["tables"][0]["match"]["totals"][0] += 1
    before = counts()
    with pytest.raises(ValidationError) as refused:
        past_results_import(data=zip_with(data, **{
            export.MANIFEST_NAME: json.dumps(manifest).encode()}))
    assert refused_code(refused.value) == "record-differs"
    assert counts() == before


@pytest.mark.parametrize(("change", "code"), [
    (lambda manifest: manifest["tournament"].update(start_date="8 mars"), "manifest-field"),
    (lambda manifest: manifest["players"][0].update(name=7), "manifest-field"),
    (lambda manifest: manifest["sessions"][0]["tables"][0].update(players=[999]),
     "manifest-field"),
    (lambda manifest: manifest.update(format="triominos-tournament/9"), "manifest-format"),
    (lambda manifest: manifest["sessions"][1].update(status="playing"), "session-not-closed"),
])
def test_a_bad_manifest_is_refused_naming_the_field(exported, change, code):
    data, _before = exported
    manifest = json.loads(zipfile.ZipFile(io.BytesIO(data)).read(export.MANIFEST_NAME))
    change(manifest)
    before = counts()
    with pytest.raises(ValidationError) as refused:
        past_results_import(data=zip_with(data, **{
            export.MANIFEST_NAME: json.dumps(manifest).encode()}))
    assert refused_code(refused.value) == code
    assert counts() == before


def test_an_unfinished_tournament_is_refused(make_tournament):
    tournament = make_tournament(slug="half-way", players=8, sessions=1, started=True)
    data = export.tournament_records_zip(tournament=tournament)
    with pytest.raises(ValidationError) as refused:
        past_results_import(data=data)
    assert refused_code(refused.value) == "session-not-closed"


# --- the command ------------------------------------------------------------------------------


def test_the_command_imports_and_says_what_it_did(exported, tmp_path, make_user):
    data, before = exported
    path = tmp_path / "open-de-lyon-records.zip"
    path.write_bytes(data)
    organiser = make_user("lyon-organiser")
    out = io.StringIO()
    call_command("import_results", str(path), "--organiser", "lyon-organiser", stdout=out)
    tournament = Tournament.objects.get(slug="open-de-lyon")
    assert tournament.staff_roles.get().user == organiser
    assert "/t/open-de-lyon/" in out.getvalue()
    assert current_ratings() == before["ratings"]


def test_the_command_refuses_a_damaged_archive(tmp_path, db):
    path = tmp_path / "broken.zip"
    path.write_bytes(b"PK\x03\x04 broken")
    with pytest.raises(CommandError, match="broken.zip"):
        call_command("import_results", str(path))
    with pytest.raises(CommandError, match="missing.zip"):
        call_command("import_results", str(tmp_path / "missing.zip"))
    assert not Tournament.objects.exists()
