"""A small finished tournament played through the real services, and the archive tools, for
the tests of a past tournament's import (the service, the command and the organiser's page).

- ``build_source(slug)``: "Open de Lyon", two closed sessions of ``PLAYERS`` (session 1 seated
  by rating, ``LATE`` arriving for session 2, ``PLAYERS[1]`` withdrawn after session 1).
- ``wipe(tournament)``: this installation forgets the tournament and its players.
- ``zip_with(data, **entries)``: an archive with entries replaced or left out.
- ``resealed(data)``: the archive with its manifest's digest of the matches made again from
  its records (as if it had been exported with them: a record changed by hand is otherwise
  refused before anything else).
- ``counts()``: the rows an import writes, counted (tournaments, players, matches, rating
  changes, registrations).
"""

from __future__ import annotations

import datetime
import io
import json
import zipfile

from tests.factories import confirmed_match
from tournament.archive import export
from tournament.core.tournaments import tournament_create
from tournament.models import (
    Match,
    Player,
    PlayerRating,
    RatingChange,
    Registration,
    SeatingMethod,
    Tournament,
)
from tournament.organiser.services import player_add, registration_withdraw
from tournament.seating.services import session_seat
from tournament.sessions.services import session_close, session_create, session_start

# (name, club, licence): one without a licence, one without a club.
PLAYERS = [
    ("Chloé Martin", "Lyon", "L-01"), ("Élodie Faure", "Lyon", "L-02"),
    ("Mads Sørensen", "Dansk", "L-03"), ("Søren Holm", "Dansk", "L-04"),
    ("Amélie Dupont", "Paris", "L-05"), ("Bruno Lefèvre", "Paris", ""),
    ("Inès Benali", "", "L-07"), ("Zoé Garnier", "Marseille", "L-08"),
]
LATE = ("Łukasz Nowak", "Strasbourg", "L-09")


def play_session(session, *, seed: int) -> None:
    session_start(session=session)
    for match in Match.objects.filter(table__session=session).order_by("table__number"):
        confirmed_match(match=match, seed=seed * 100 + match.table.number)
    session_close(session=session)


def build_source(slug: str = "open-de-lyon") -> Tournament:
    """Two closed sessions played through the services: session 1 seated by rating, a late
    arrival from session 2, a player withdrawn after session 1."""
    tournament = tournament_create(
        name="Open de Lyon", slug=slug, start_date=datetime.date(2025, 3, 8),
        end_date=datetime.date(2025, 3, 9), venue="Salle Rameau", match_rounds=2,
        keep_clubs_apart=True,
    )
    for name, club, licence in PLAYERS:
        player_add(tournament=tournament, name=name, club=club, licence=licence)
    one = session_create(tournament=tournament, seed=31)
    session_seat(session=one, method=SeatingMethod.RATING_SPREAD)
    player_add(tournament=tournament, name=LATE[0], club=LATE[1], licence=LATE[2])
    play_session(one, seed=1)
    registration_withdraw(registration=tournament.registrations.get(player__licence="L-02"))
    two = session_create(tournament=tournament, seed=32)
    session_seat(session=two)
    play_session(two, seed=2)
    return tournament


def wipe(tournament) -> None:
    """This installation forgets the tournament and its players."""
    players = list(tournament.registrations.values_list("player_id", flat=True))
    tournament.delete()
    Player.objects.filter(pk__in=players).delete()
    assert not RatingChange.objects.exists() and not PlayerRating.objects.exists()


def zip_with(data: bytes, **replaced: bytes | None) -> bytes:
    """The archive with entries replaced (None: left out)."""
    source = zipfile.ZipFile(io.BytesIO(data))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as target:
        for info in source.infolist():
            content = replaced.get(info.filename, source.read(info))
            if content is not None:
                target.writestr(info.filename, content)
    return buffer.getvalue()


def resealed(data: bytes) -> bytes:
    """The archive with ``archive.matches_digest`` made again from its records."""
    source = zipfile.ZipFile(io.BytesIO(data))
    manifest = json.loads(source.read(export.MANIFEST_NAME))
    entries = [table["match"]["entry"] for session in manifest["sessions"]
               for table in session["tables"] if table["match"] and table["match"]["entry"]]
    manifest["archive"]["matches_digest"] = export.matches_digest(
        {entry: source.read(entry) for entry in entries})
    return zip_with(data, **{export.MANIFEST_NAME: json.dumps(manifest).encode()})


def counts() -> tuple[int, ...]:
    return (Tournament.objects.count(), Player.objects.count(), Match.objects.count(),
            RatingChange.objects.count(), Registration.objects.count())
