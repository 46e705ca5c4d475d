"""Every write address outside the matches, with valid values, and the tournament they are
posted to: the fuzz test (``test_fuzz_writes.py``) posts generated values to them, and the
page versions' test (``test_page_versions.py``) valid ones, so that a new write address is
checked by both once it is listed here.

``world(...)``: the tournament of ``conftest.py`` (session 1 seated), a withdrawn player, a
referee's role, a league of the tournament and another tournament of the organiser's to add to
it, staff invitations both ways, a tournament using check-in, and the organiser's practice
table; returns the values the addresses' paths are formatted with.
"""

from __future__ import annotations

import functools
import io
import json
import zipfile

from django.contrib.messages import constants, get_messages

from tournament import engine
from tournament.archive.export import INDEX_HEADER, INDEX_NAME
from tournament.core.tournaments import staff_role_grant
from tournament.models import StaffInvitation, StaffRole
from tournament.organiser import services as organiser_services
from tournament.practice.services import practice_open
from tournament.sessions.services import session_create

SETTINGS = {
    "name": "Spring Open", "start_date": "2025-05-17", "end_date": "", "venue": "Salle",
    "rules": "goliath-tournament", "target": "", "keep_clubs_apart": "on", "is_public": "on",
    "final_size": "4", "prize_one_per_player": "on",
    "check_in": "forfeit",
    **{f"criterion_{number}": code for number, code in enumerate(
        ["match_points", "table_wins", "total_points", "share", "best_match", "opponents"],
        start=1)},
}
PLAYER = {"name": "Zoé Zed", "club": "Club Z", "licence": "L-1", "first_session": "2"}
LEAGUE = {"name": "Season", "description": "", "points_scale": "table",
          "points_table": "25, 18, 15", "best_results": "3", "is_public": "on"}


@functools.cache
def old_archive() -> bytes:
    """A records.zip as archives were before their manifest: one match of one round, three
    players (the import reads it without a name or a date of its own)."""
    names = ["Ana Old", "Bo Old", "Cy Old"]
    record = engine.simulated_match_record(names=names, seed=7, rounds=1)
    entry = "session-01/table-01-match-7.json"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as target:
        target.writestr(entry, json.dumps(record))
        target.writestr(INDEX_NAME, ",".join(INDEX_HEADER) + "\n1,1,7,confirmed,"
                        + " / ".join(names) + ",,\n")
    return buffer.getvalue()


class PostedArchive:
    """``old_archive()`` as the test client posts a file (it reads it without rewinding: a
    file object would be empty from its second post on)."""

    name = "old-open-records.zip"
    content_type = "application/zip"

    def read(self) -> bytes:
        return old_archive()


# Each address: (role, path with {slug} {registration} {number} {role_id} {league} {player},
# its valid values).
# The buttons (withdraw, seat, start...) take no field: they are sent stray ones.
BUTTON = {"extra": ""}
ADDRESSES = {
    "new tournament": ("organiser", "/tournaments/new/", {**SETTINGS, "slug": "autumn-open"}),
    "import a past tournament": ("organiser", "/tournaments/import/", {
        "file": PostedArchive(), "name": "Old Open", "start_date": "2025-03-08"}),
    "settings": ("organiser", "/t/{slug}/organise/settings/", SETTINGS),
    "add a player": ("organiser", "/t/{slug}/organise/players/", PLAYER),
    "import players": ("organiser", "/t/{slug}/organise/players/import/", {"file": "Ana;X\n"}),
    "edit a registration": ("organiser", "/t/{slug}/organise/players/{registration}/", PLAYER),
    "withdraw": ("organiser", "/t/{slug}/organise/players/{registration}/withdraw/", BUTTON),
    "reinstate": ("organiser", "/t/{slug}/organise/players/{registration}/reinstate/", BUTTON),
    "open a session": ("organiser", "/t/{slug}/organise/sessions/open/", BUTTON),
    "open the final": ("organiser", "/t/{slug}/organise/final/open/", BUTTON),
    "seat": ("organiser", "/t/{slug}/organise/sessions/{number}/seat/", BUTTON),
    "swap": ("organiser", "/t/{slug}/organise/sessions/{number}/swap/",
             {"player_a": "1", "player_b": "2"}),
    "start": ("organiser", "/t/{slug}/organise/sessions/{number}/start/", BUTTON),
    "close": ("organiser", "/t/{slug}/organise/sessions/{number}/close/", BUTTON),
    "reopen": ("organiser", "/t/{slug}/organise/sessions/{number}/reopen/",
               {"reason": "Table 2 swapped its scores"}),
    "staff": ("organiser", "/t/{slug}/staff/", {
        "username": "nina", "password": "Tiles-And-Hexagons-7", "role": "referee",
        "tables": "1-2"}),
    "revoke": ("organiser", "/t/{slug}/staff/{role_id}/revoke/", BUTTON),
    "unlock": ("organiser", "/t/{slug}/staff/unlock/", {"username": "remi-referee",
                                                        "address": "10.0.0.5"}),
    "take an invitation back": ("organiser", "/t/{slug}/staff/invitations/{invitation}/cancel/",
                                BUTTON),
    "accept an invitation": ("organiser", "/invitations/{own_invitation}/accept/", BUTTON),
    "decline an invitation": ("organiser", "/invitations/{own_invitation}/decline/", BUTTON),
    "new league": ("organiser", "/leagues/new/", {**LEAGUE, "slug": "season-2027"}),
    "league settings": ("organiser", "/leagues/{league}/edit/", LEAGUE),
    "add to a league": ("organiser", "/leagues/{league}/tournaments/add/",
                        {"tournament": "winter-cup"}),
    "take out of a league": ("organiser", "/leagues/{league}/tournaments/remove/",
                             {"tournament": "spring-open"}),
    "merge players": ("organiser", "/players/{player}/merge/", {
        "other_id": "2", "other_licence": "", "keep": "this", "reason": "Licence typo",
        "confirm": "1"}),
    "set the session clock": ("organiser", "/t/{slug}/organise/sessions/{number}/clock/",
                              {"action": "set", "minutes": "60"}),
    "extra minutes": ("organiser", "/t/{slug}/organise/sessions/{number}/clock/",
                      {"action": "add", "extra_minutes": "5"}),
    "room settings": ("organiser", "/t/{slug}/room/settings/", {
        "action": "settings", "time_up_action": "finish-round", "screen_seconds": "20",
        "screen_top": "12", "match_entry": "tables"}),
    "who enters a session's matches": ("organiser", "/t/{slug}/organise/sessions/{number}/entry/",
                                       {"match_entry": "tables"}),
    "announce": ("organiser", "/t/{slug}/room/settings/", {"action": "announce",
                                                           "text": "Lunch at noon"}),
    "show an announcement": ("organiser", "/t/{slug}/room/settings/",
                             {"action": "show", "announcement": "1"}),
    "call a referee": ("anonymous", "/t/{slug}/tables/{number}/call/",
                       {"reason": "dispute", "code": "1234"}),
    "answer a call": ("organiser", "/t/{slug}/room/calls/{number}/answer/", BUTTON),
    "check in": ("organiser", "/t/{check_in_slug}/sessions/{number}/check-in/",
                 {"player": "1", "present": "1", "q": "zoé"}),
    "open the practice table": ("organiser", "/t/{slug}/practice/", BUTTON),
    "start the practice again": ("organiser", "/t/{practice_slug}/practice/reset/", BUTTON),
    "login": ("anonymous", "/login/", {
        "username": "olga-organiser", "password": "tiles-and-hexagons-9", "next": "/"}),
}


def refused(response) -> bool:
    """A form's refusal (4xx) or a button's (a redirect with an error message)."""
    if response.status_code >= 400:
        return True
    return any(
        message.level == constants.ERROR for message in get_messages(response.wsgi_request)
    )


def world(*, tournament, organiser, referee, make_tournament) -> dict:
    """The tournament (session 1 seated), a withdrawn player, a referee's role; a league of
    the tournament, and another tournament of the organiser's to add to it."""
    from tournament.leagues.services import league_create, league_tournament_add

    registration = tournament.registrations.order_by("pk").first()
    organiser_services.registration_withdraw(registration=registration)
    role = StaffRole.objects.get(user=referee, tournament=tournament)
    league = league_create(user=organiser, name="Season", slug="season")
    league_tournament_add(league=league, tournament=tournament, user=organiser)
    winter = make_tournament(slug="winter-cup", players=0, sessions=0)
    staff_role_grant(tournament=winter, user=organiser, role=StaffRole.Role.ORGANISER)
    invited = StaffInvitation.objects.create(tournament=tournament, username="nina",
                                             role=StaffRole.Role.REFEREE)
    offered = StaffInvitation.objects.create(
        tournament=make_tournament(slug="summer-cup", players=0, sessions=0),
        username=organiser.username, role=StaffRole.Role.REFEREE)
    check_in_cup = make_tournament(slug="check-in-cup", players=4, sessions=0,
                                   check_in="forfeit")
    session_create(tournament=check_in_cup)
    staff_role_grant(tournament=check_in_cup, user=organiser, role=StaffRole.Role.ORGANISER)
    practice = practice_open(tournament=tournament, user=organiser)
    return {
        "slug": tournament.slug,
        "check_in_slug": check_in_cup.slug,
        "practice_slug": practice.table.session.tournament.slug,
        "registration": registration.pk,
        "number": 1,
        "role_id": role.pk,
        "league": league.slug,
        "player": registration.player_id,
        "invitation": invited.pk,
        "own_invitation": offered.pk,
    }


