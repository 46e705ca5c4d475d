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
from django.db import IntegrityError, transaction

from tests.tournament.archive.helpers import (
    LATE,
    PLAYERS,
    build_source,
    counts,
    resealed,
    wipe,
    zip_with,
)
from tests.tournament.tournaments import settings_of
from tournament.archive import export
from tournament.archive.imports import past_results_import
from tournament.core.tournaments import staff_role_grant
from tournament.models import (
    Match,
    Player,
    PlayerRating,
    RatingChange,
    Registration,
    Session,
    StaffRole,
    Tournament,
)
from tournament.organiser.services import player_add, tournament_update
from tournament.ratings.services import ratings_rebuild

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


def test_an_importer_links_their_own_players_only(exported, make_user, make_tournament):
    """An organiser imports an archive naming a licence of their own tournament's player and
    licences of other organisers' players (a private tournament's among them): their own is
    linked, and the message says so; the others are new records, not borrowed, and nothing
    tells that their licences are known here."""
    data, _before = exported
    mine = make_user("importer")
    own = make_tournament(slug="own-club", players=0, sessions=0)
    staff_role_grant(tournament=own, user=mine, role=StaffRole.Role.ORGANISER)
    chloe = player_add(tournament=own, name="Chloé Martin", club="Lyon", licence="L-01").player
    closed = make_tournament(slug="closed", players=0, sessions=0, is_public=False)
    mads = player_add(tournament=closed, name="Mads Sørensen", club="Dansk",
                      licence="L-03").player
    public = make_tournament(slug="someone-elses", players=0, sessions=0)
    bruno = player_add(tournament=public, name="Bruno Lefèvre", club="Paris").player
    untouched = {player.pk: (player.name, player.club, player.licence)
                 for player in (mads, bruno)}
    imported = past_results_import(data=data, organiser=mine)
    registered = set(imported.tournament.registrations.values_list("player_id", flat=True))
    assert chloe.pk in registered and imported.players_linked == ("Chloé Martin",)
    assert not registered & {mads.pk, bruno.pk}
    assert imported.players_created == 8
    assert {player.pk: (player.name, player.club, player.licence) for player in
            Player.objects.filter(pk__in=untouched)} == untouched
    assert not RatingChange.objects.filter(player__in=[mads, bruno]).exists()


def test_a_taken_slug_gets_a_new_one(exported, make_tournament):
    data, _before = exported
    make_tournament(slug="open-de-lyon", players=0, sessions=0)
    assert past_results_import(data=data).tournament.slug == "open-de-lyon-2"


def test_a_second_import_of_one_archive_is_refused_naming_the_tournament(exported):
    """Imported twice, an archive's matches counted twice in every rating: the second import
    is refused with the tournament already here named, and the ratings stay those of a
    rebuild; asked for explicitly, a copy is made, which counts for no rating (nor can be
    made to)."""
    data, before = exported
    first = past_results_import(data=data).tournament
    kept = (current_ratings(), counts())
    with pytest.raises(ValidationError) as refused:
        past_results_import(data=data, name="Open de Lyon (copie)")
    assert refused_code(refused.value) == "archive-already-here"
    assert "/t/open-de-lyon/" in refused.value.error_dict["archive"][0].message
    assert (current_ratings(), counts()) == kept
    # Re-exported from here, the archive is the same tournament still.
    again = export.tournament_records_zip(tournament=first)
    with pytest.raises(ValidationError) as refused:
        past_results_import(data=again)
    assert refused_code(refused.value) == "archive-already-here"

    copy = past_results_import(data=data, name="Open de Lyon (copie)", as_copy=True)
    assert copy.copy and copy.tournament.archive_copy and not copy.tournament.is_rated
    assert copy.tournament.slug == "open-de-lyon-2"
    assert current_ratings() == kept[0] == before["ratings"]
    assert not RatingChange.objects.filter(tournament=copy.tournament).exists()
    ratings_rebuild()
    assert current_ratings() == before["ratings"]
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=copy.tournament.pk).update(is_rated=True)
    with pytest.raises(ValidationError) as refused:
        tournament_update(**settings_of(copy.tournament, is_rated=True, match_rounds=2))
    assert refused.value.error_dict["is_rated"][0].code == "copy-not-rated"


def test_an_archive_made_before_identities_is_known_by_its_matches(exported):
    """An archive without ``archive`` in its manifest (made before it existed): imported once,
    a second import of it is refused all the same, by the digest of its matches."""
    data, _before = exported
    manifest = json.loads(zipfile.ZipFile(io.BytesIO(data)).read(export.MANIFEST_NAME))
    del manifest["archive"]
    older = zip_with(data, **{export.MANIFEST_NAME: json.dumps(manifest).encode()})
    past_results_import(data=older)
    with pytest.raises(ValidationError) as refused:
        past_results_import(data=older)
    assert refused_code(refused.value) == "archive-already-here"


def test_an_archive_of_a_tournament_still_here_is_refused(make_tournament, in_english):
    tournament = build_source(slug="still-here")
    data = export.tournament_records_zip(tournament=tournament)
    before = counts()
    with pytest.raises(ValidationError) as refused:
        past_results_import(data=data)
    assert refused_code(refused.value) == "archive-already-here"
    assert "/t/still-here/" in refused.value.error_dict["archive"][0].message
    assert counts() == before


def test_a_record_changed_after_the_export_is_refused(exported):
    data, _before = exported
    manifest = json.loads(zipfile.ZipFile(io.BytesIO(data)).read(export.MANIFEST_NAME))
    first = manifest["sessions"][0]["tables"][0]["match"]["entry"]
    record = json.loads(zipfile.ZipFile(io.BytesIO(data)).read(first))
    record["players"][0] += " (edited)"
    with pytest.raises(ValidationError) as refused:
        past_results_import(data=zip_with(data, **{first: json.dumps(record).encode()}))
    assert refused_code(refused.value) == "archive-digest"


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
        past_results_import(data=resealed(zip_with(
            data, **{last: b'{"players": ["A"], "rounds": 3}'})))
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
    # What answered 500 (nothing written) before: a NUL in a name, a venue or a licence (the
    # database cannot store it), a first session of 0, negative or past the column's range, a
    # confirmation that a time zone takes out of the calendar.
    (lambda manifest: manifest["tournament"].update(name="Open\x00"), "manifest-field"),
    (lambda manifest: manifest["tournament"].update(venue="\x00"), "manifest-field"),
    (lambda manifest: manifest["players"][0].update(name="Chloé\x00"), "manifest-field"),
    (lambda manifest: manifest["players"][0].update(licence="L-\x00"), "manifest-field"),
    (lambda manifest: manifest["players"][0].update(name="\udfff"), "manifest-field"),
    (lambda manifest: manifest["players"][0].update(first_session=0), "manifest-field"),
    (lambda manifest: manifest["players"][0].update(first_session=-3), "manifest-field"),
    (lambda manifest: manifest["players"][0].update(first_session=10**9), "manifest-field"),
    (lambda manifest: manifest["sessions"][0]["tables"][0]["match"].update(
        confirmed_at="0001-01-01T00:30:00+01:00"), "manifest-field"),
    (lambda manifest: manifest["sessions"][0]["tables"][0]["match"].update(
        confirmed_at="9999-12-31T23:59:59-05:00"), "manifest-field"),
    (lambda manifest: manifest["sessions"][0].update(seed=2**40), "manifest-field"),
])
def test_a_bad_manifest_is_refused_naming_the_field(exported, change, code):
    data, _before = exported
    manifest = json.loads(zipfile.ZipFile(io.BytesIO(data)).read(export.MANIFEST_NAME))
    change(manifest)
    before = counts()
    with pytest.raises(ValidationError) as refused:
        past_results_import(data=zip_with(data, **{
            export.MANIFEST_NAME: json.dumps(manifest).encode("utf-8", "surrogatepass")}))
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


def test_an_old_archive_dated_at_the_end_of_the_calendar_is_refused_not_a_500():
    """An archive without a manifest is timed from the date given, an hour a session: a
    date the sessions would take past the calendar is refused with the reason."""
    from tournament.archive.imports import _fallback_time

    assert _fallback_time(datetime.date(9999, 12, 31), 1, 1).year == 9999
    with pytest.raises(ValidationError) as refused:
        _fallback_time(datetime.date(9999, 12, 31), 16, 1)
    assert refused_code(refused.value) == "start-date-range"


def test_an_unfinished_tournament_is_refused_in_words(make_tournament):
    """The refusal says what the session is ("still in play"), never the stored "playing"."""
    from django.utils import translation
    tournament = make_tournament(slug="in-words", players=8, sessions=1, started=True)
    data = export.tournament_records_zip(tournament=tournament)
    for language, words in (("fr", "encore en cours"), ("en", "still in play")):
        with translation.override(language), pytest.raises(ValidationError) as refused:
            past_results_import(data=data)
        message = refused.value.error_dict["archive"][0].message
        assert words in message and "playing" not in message and "(" not in message
