"""Every match record of a tournament as one ZIP (``/t/<slug>/records.zip``): its entries are
the per-match ``record.json`` downloads, the engine's checker replays them, the index lists
them; for the tournament's staff only."""

from __future__ import annotations

import csv
import io
import zipfile

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import scoring
from tests.factories import (
    ACCENTED_NAMES,
    accented_tournament,
    add,
    board_turn,
    confirmed_match,
    fresh,
    import_record,
    match_at,
    played_record,
    players_of,
    seated_session,
    tournament_with_players,
)
from tournament.archive import export
from tournament.core.tournaments import staff_role_grant
from tournament.demo import record_truncated
from tournament.matches import services as match_services
from tournament.matches.reading.replay import match_replay
from tournament.models import Installation, StaffRole

pytestmark = pytest.mark.django_db


def zip_url(tournament) -> str:
    return reverse("tournament:records_zip", kwargs={"slug": tournament.slug})


def staff(tournament, make_user, username: str, role: str) -> Client:
    user = make_user(username)
    staff_role_grant(tournament=tournament, user=user, role=role)
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def lyon(make_user):
    """The Open de Lyon (accented names) with a referee, and every kind of match: session 1,
    table 1 played to the end and confirmed, table 2 in play; session 2, table 1 with a turn
    entered then undone (a round, but no turn), table 2 not started."""
    tournament = accented_tournament()
    referee = make_user("lyon-referee")
    staff_role_grant(tournament=tournament, user=referee, role=StaffRole.Role.REFEREE)
    confirmed_match(match=match_at(tournament=tournament), user=referee, seed=3)
    in_play = match_at(tournament=tournament, table=2)
    import_record(in_play, referee, record_truncated(played_record(match=in_play, seed=5), turns=9))
    players = [seat.player for seat in match_at(tournament=tournament).table.seats.order_by("order")]
    players += [seat.player for seat in in_play.table.seats.order_by("order")]
    seated_session(tournament=tournament, tables=[players[::2], players[1::2]], started=True)
    undone = match_at(tournament=tournament, session=2, table=1)
    add(undone, referee, board_turn(played_record(match=undone, seed=7)["rounds"][0]["turns"][0]))
    undone = fresh(undone)
    match_services.match_turn_undo(match=undone, user=referee, seen_revision=undone.revision)
    return tournament


def open_archive(response) -> zipfile.ZipFile:
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    return zipfile.ZipFile(io.BytesIO(response.content))


def index_rows(archive_file: zipfile.ZipFile) -> list[list[str]]:
    return list(csv.reader(io.StringIO(archive_file.read("index.csv").decode("utf-8"))))


def test_one_entry_per_match_with_turns_each_the_record_json_download(lyon, make_user):
    client = staff(lyon, make_user, "lyon-organiser", StaffRole.Role.ORGANISER)
    response = client.get(zip_url(lyon))
    assert response["Content-Disposition"] == 'attachment; filename="open-de-lyon-records.zip"'
    archive_file = open_archive(response)
    assert archive_file.testzip() is None
    finished, in_play = match_at(tournament=lyon), match_at(tournament=lyon, table=2)
    assert archive_file.namelist() == [
        f"session-01/table-01-match-{finished.pk}.json",
        f"session-01/table-02-match-{in_play.pk}.json",
        "index.csv",
        "tournament.json",
    ]
    assert {info.compress_type for info in archive_file.infolist()} == {zipfile.ZIP_DEFLATED}
    for match in (finished, in_play):
        download = Client().get(reverse("tournament:match_record",
                                        kwargs={"slug": lyon.slug, "match_id": match.pk}))
        assert download.status_code == 200
        assert archive_file.read(export.entry_name(match)) == download.content


def test_each_entry_replays_in_the_checker_with_the_match_pages_totals(lyon, make_user):
    client = staff(lyon, make_user, "lyon-organiser", StaffRole.Role.ORGANISER)
    archive_file = open_archive(client.get(zip_url(lyon)))
    finished, in_play = match_at(tournament=lyon), match_at(tournament=lyon, table=2)
    reports = {match.pk: scoring.check_record(scoring.load_record(
        archive_file.read(export.entry_name(match)))) for match in (finished, in_play)}
    for match in (finished, in_play):
        page = match_replay(match=match)
        assert reports[match.pk].totals == page.totals
        assert any(page.totals)
    assert reports[finished.pk].finished and reports[finished.pk].valid
    assert reports[finished.pk].winners == match_replay(match=finished).winners
    assert not reports[in_play.pk].finished


def test_the_index_lists_the_entries_with_the_players_in_seat_order(lyon, make_user):
    client = staff(lyon, make_user, "lyon-organiser", StaffRole.Role.ORGANISER)
    archive_file = open_archive(client.get(zip_url(lyon)))
    finished, in_play = match_at(tournament=lyon), match_at(tournament=lyon, table=2)
    rows = index_rows(archive_file)
    assert rows[0] == ["session", "table", "match", "status", "players", "totals", "winners"]
    assert len(rows) == 3
    page = match_replay(match=finished)
    assert rows[1] == [
        "1", "1", str(finished.pk), "confirmed",
        " / ".join(ACCENTED_NAMES[:4]),
        " / ".join(str(total) for total in page.totals),
        " / ".join(page.winner_names),
    ]
    assert page.winner_names and set(page.winner_names) <= set(ACCENTED_NAMES[:4])
    assert rows[2][:5] == ["1", "2", str(in_play.pk), "playing", " / ".join(ACCENTED_NAMES[4:])]
    assert rows[2][5] == " / ".join(str(total) for total in match_replay(match=in_play).totals)
    assert rows[2][6] == ""
    assert "Łukasz Nowak" in archive_file.read("index.csv").decode("utf-8")


def test_a_tournament_with_no_match_played_gives_the_index_alone(make_user):
    tournament = accented_tournament(slug="rien-joue")
    client = staff(tournament, make_user, "idle-referee", StaffRole.Role.REFEREE)
    archive_file = open_archive(client.get(zip_url(tournament)))
    assert archive_file.namelist() == ["index.csv", "tournament.json"]
    assert archive_file.read("index.csv") == b"session,table,match,status,players,totals,winners\r\n"


def test_the_queries_grow_by_one_match_read_per_match_played(lyon, make_user):
    Installation.identity()  # made once, by the first export of the installation
    with CaptureQueriesContext(connection) as two_matches:
        export.tournament_records_zip(tournament=lyon)
    referee = make_user("second-referee")
    last = match_at(tournament=lyon, session=2, table=2)
    import_record(last, referee, record_truncated(played_record(match=last, seed=9), turns=4))
    with CaptureQueriesContext(connection) as three_matches:
        export.tournament_records_zip(tournament=lyon)
    assert len(two_matches) == 1 + export.MANIFEST_QUERIES + 2 * 3
    assert len(three_matches) == 1 + export.MANIFEST_QUERIES + 3 * 3


@pytest.mark.parametrize("is_public", [True, False])
def test_staff_only_the_public_goes_to_the_login_and_an_outsider_is_refused(
    is_public, make_user, staff_password
):
    """A private tournament's archive is a 404 to whoever may not see the tournament."""
    tournament = accented_tournament(is_public=is_public)
    url = zip_url(tournament)
    response = Client().get(url)
    if is_public:
        assert response.status_code == 302
        assert response["Location"] == f"{reverse('login')}?next={url}"
    else:
        assert response.status_code == 404
    refused = 403 if is_public else 404
    outsider = Client()
    outsider.force_login(make_user("lyon-outsider"))
    assert outsider.get(url).status_code == refused
    other = accented_tournament(slug="open-de-nancy")
    assert staff(other, make_user, "nancy-organiser", StaffRole.Role.ORGANISER).get(
        url).status_code == refused
    assert staff(tournament, make_user, "lyon-referee", StaffRole.Role.REFEREE).get(
        url).status_code == 200
    assert staff(tournament, make_user, "lyon-organiser", StaffRole.Role.ORGANISER).get(
        url).status_code == 200


def test_the_tournament_page_and_the_sessions_page_link_to_it_for_organisers(make_user):
    tournament = accented_tournament()
    url = zip_url(tournament)
    link = f'href="{url}"'
    detail = reverse("tournament:detail", kwargs={"slug": tournament.slug})
    organise = reverse("tournament:organise", kwargs={"slug": tournament.slug})
    organiser = staff(tournament, make_user, "lyon-organiser", StaffRole.Role.ORGANISER)
    for page in (detail, organise):
        content = organiser.get(page).content.decode()
        assert link in content
    assert link not in Client().get(detail).content.decode()


FORMULA_NAMES = ["=1+2", "+3", "@SUM(1+1)", '=HYPERLINK("http://example.org","clic")']


def test_the_index_writes_formulas_as_text(make_user):
    """A spreadsheet opening index.csv runs no player's name: a cell beginning with =, +, -
    or @ starts with an apostrophe; numbers stay numbers."""
    tournament = tournament_with_players(slug="formules", name="Formules", players=FORMULA_NAMES)
    seated_session(tournament=tournament, tables=[players_of(tournament)], started=True)
    referee = make_user("formula-referee")
    staff_role_grant(tournament=tournament, user=referee, role=StaffRole.Role.REFEREE)
    match = match_at(tournament=tournament)
    import_record(match, referee, record_truncated(played_record(match=match, seed=5), turns=6))
    client = staff(tournament, make_user, "formula-organiser", StaffRole.Role.ORGANISER)
    rows = index_rows(open_archive(client.get(zip_url(tournament))))
    assert rows[1][:5] == ["1", "1", str(match.pk), "playing", "'" + " / ".join(FORMULA_NAMES)]
    assert rows[1][5] == " / ".join(str(total) for total in match_replay(match=match).totals)
