"""Every match of a tournament as one ZIP archive, to keep after the event or to hand on.

:func:`tournament_records_zip` builds the archive's bytes: one entry per match that has at
least one turn, ``session-01/table-03-match-42.json``, holding the match's record exactly as
``record.json`` downloads it (the engine's ``MatchRecord.to_json()``, in UTF-8), and
``index.csv`` at the root, a line per entry: session, table, match, status, the players in
seat order, the match totals and the winners (UTF-8, a header line). The index is data, like
the records: its header and statuses are the same words whatever the reader's language. A cell
a spreadsheet would run as a formula (a player named ``=1+2``) starts with an apostrophe
(:func:`tournament.kit.spreadsheet.spreadsheet_cell`).

``tournament.json`` at the root (the manifest, :func:`tournament_manifest`) is what another
installation needs to rebuild the tournament from the archive (``tournament.archive.imports``,
``python manage.py import_results``): the tournament's settings, its players (name, club,
licence, registration, categories), its categories, club-team and check-in settings, its
sessions and tables with the players in seat order, each match's
status, totals, confirmation time and entry, and the archive's identity (``archive``: the
exporting installation, the tournament's id there, a digest of its matches,
:func:`matches_digest`), by which an installation knows an archive it already holds. Its
format is in docs/reference/record-format.md ("The tournament archive"); an archive without it (made
before it existed) is still read, with the fallbacks that page lists.

Each match is read as its page reads it (:func:`~tournament.matches.reading.rows.match_rows`,
three queries, then :func:`~tournament.matches.reading.replay.match_replay`): the queries grow with
the number of matches played; the manifest takes ``MANIFEST_QUERIES`` more, whatever the tournament's size.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
import zipfile
from collections.abc import Iterable
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet

from tournament import engine
from tournament.kit.spreadsheet import spreadsheet_cell
from tournament.matches.reading.replay import match_replay
from tournament.models import (
    ArchiveImport,
    Installation,
    Match,
    Registration,
    Seat,
    Tournament,
    Turn,
)

INDEX_NAME = "index.csv"
MANIFEST_NAME = "tournament.json"
MANIFEST_FORMAT = "triominos-tournament/1"
#: The queries the manifest takes (registrations, their categories, sessions, seats, the
#: archive's identity: the tournament's import here and this installation).
MANIFEST_QUERIES = 6
INDEX_HEADER = ("session", "table", "match", "status", "players", "totals", "winners")
#: Between the players (and the totals, and the winners) of one line of the index.
INDEX_JOIN = " / "


def entry_name(match: Match) -> str:
    """The match's file in the archive, zero-padded so that the entries sort:
    ``session-01/table-03-match-42.json``."""
    table = match.table
    return f"session-{table.session.number:02d}/table-{table.number:02d}-match-{match.pk}.json"


def matches_played(*, tournament: Tournament) -> QuerySet[Match]:
    """The tournament's matches with at least one current turn, by session and table, with
    their table, session and tournament loaded (one query)."""
    has_turn = Turn.objects.current().filter(round__match=OuterRef("pk"))
    return (
        Match.objects.filter(table__session__tournament=tournament)
        .filter(Exists(has_turn))
        .select_related("table__session__tournament")
        .order_by("table__session__number", "table__number")
    )


def matches_digest(records: dict[str, bytes]) -> str:
    """The digest of an archive's matches: SHA-256 of one line per match entry, in the order of
    their names, ``<entry> <SHA-256 of its bytes>`` and a line feed, in hexadecimal
    (docs/reference/record-format.md). The same records give the same digest, whatever the manifest
    says and whichever installation exported them."""
    lines = "".join(
        f"{entry} {hashlib.sha256(records[entry]).hexdigest()}\n" for entry in sorted(records)
    )
    return hashlib.sha256(lines.encode()).hexdigest()


def _record_content(data: bytes) -> str:
    """SHA-256 of what one record says, whatever its bytes: read by the engine, written again
    with its keys sorted and without spaces, the players' names left out (a player linked to
    another record here is exported under that record's name), the target given whether or
    not the record wrote the rule set's, each tile named as the engine names it (a board-mode
    name that agrees with its corners left out, as the app exports it) and each rack's tiles
    in order. A record the engine cannot read: its bytes (the import refuses it anyway)."""
    try:
        record = engine.load_record(data)
    except (engine.RecordError, TypeError, ValueError, OverflowError, RecursionError):
        return hashlib.sha256(data).hexdigest()
    content = record.to_dict()
    content["players"] = len(record.players)
    content["target"] = record.rules.target
    for round_ in content["rounds"]:
        for turn in round_["turns"]:
            place = turn.get("place")
            if not place or "tile" not in place:
                continue
            with contextlib.suppress(engine.UnknownTile):
                tile = engine.parse_tile(place["tile"])
                if "corners" in place and engine.tile_from_corners(place["corners"]) == tile:
                    del place["tile"]
                else:
                    place["tile"] = str(tile)
        if round_.get("racks"):
            round_["racks"] = [rack if isinstance(rack, int) else sorted(_tile_name(name)
                                                                         for name in rack)
                               for rack in round_["racks"]]
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _tile_name(name: str) -> str:
    try:
        return str(engine.parse_tile(name))
    except engine.UnknownTile:
        return name


def matches_content_digest(records: Iterable[bytes]) -> str:
    """The digest of what an archive's matches say, by which an installation knows a
    tournament it already holds whatever the archive's bytes, names or identity: SHA-256 of
    the sorted digests of its records' contents (:func:`_record_content`), one a line."""
    lines = "".join(f"{digest}\n" for digest in sorted(map(_record_content, records)))
    return hashlib.sha256(lines.encode()).hexdigest()


def tournament_records(*, tournament: Tournament) -> list[bytes]:
    """The record of every match of ``tournament`` that has a turn, as its archive holds it."""
    return [match_replay(match=match).record.to_json().encode("utf-8")
            for match in matches_played(tournament=tournament)]


def archive_identity(*, tournament: Tournament) -> tuple[str, int]:
    """(installation, tournament id) the archive of ``tournament`` carries: this installation
    and the tournament's id here; for a tournament made here from an archive that carried
    them, that archive's own (the tournament is the same wherever it is exported from)."""
    origin = ArchiveImport.objects.filter(tournament=tournament).first()
    if origin is not None and origin.installation and origin.source_tournament is not None:
        return origin.installation, origin.source_tournament
    return Installation.identity(), tournament.pk


def tournament_manifest(*, tournament: Tournament, entries: dict[int, str],
                        digest: str = "") -> dict[str, Any]:
    """The archive's ``tournament.json`` (docs/reference/record-format.md): ``entries`` are the archive's
    match entries by match id (a match without turns has none), ``digest`` their
    :func:`matches_digest`. Six queries (``MANIFEST_QUERIES``)."""
    players: dict[int, dict[str, Any]] = {}
    for registration in (
        Registration.objects.filter(tournament=tournament)
        .select_related("player")
        .prefetch_related("categories")
        .order_by("player_id")
    ):
        player = registration.player
        players[player.pk] = {
            "id": player.pk, "name": player.name, "club": player.club,
            "licence": player.licence, "status": registration.status,
            "first_session": registration.first_session,
            "categories": sorted(category.name for category in registration.categories.all()),
        }
    # A category lives while a player carries it (docs/guides/categories.md): the players' own.
    categories = sorted({name for player in players.values() for name in player["categories"]})
    sessions = {
        number: {"number": number, "status": status, "seed": seed, "seating": seating,
                 "is_final": is_final, "tables": []}
        for number, status, seed, seating, is_final in tournament.sessions.order_by(
            "number").values_list("number", "status", "seed", "seating", "is_final")
    }
    seats = (
        Seat.objects.filter(session__tournament=tournament)
        .order_by("session__number", "table__number", "order")
        .values_list(
            "session__number", "table__number", "player_id", "player__name", "player__club",
            "player__licence", "table__match__id", "table__match__status",
            "table__match__confirmed_at", "table__match__totals", "table__match__winners",
        )
    )
    for (number, table_number, player_id, name, club, licence, match_id, status, confirmed_at,
         totals, winners) in seats:
        if player_id not in players:  # seated, but registered no more (a merged record)
            players[player_id] = {"id": player_id, "name": name, "club": club,
                                  "licence": licence, "status": None, "first_session": None,
                                  "categories": []}
        tables = sessions[number]["tables"]
        if not tables or tables[-1]["number"] != table_number:
            tables.append({
                "number": table_number,
                "players": [],
                "match": None if match_id is None else {
                    "status": status,
                    "confirmed_at": confirmed_at.isoformat() if confirmed_at else None,
                    "totals": totals or [],
                    "winners": winners or [],
                    "entry": entries.get(match_id),
                },
            })
        tables[-1]["players"].append(player_id)
    installation, exported_id = archive_identity(tournament=tournament)
    return {
        "format": MANIFEST_FORMAT,
        "archive": {
            "installation": installation,
            "tournament_id": exported_id,
            "matches_digest": digest,
        },
        "tournament": {
            "name": tournament.name,
            "slug": tournament.slug,
            "start_date": tournament.start_date.isoformat(),
            "end_date": tournament.end_date.isoformat() if tournament.end_date else None,
            "venue": tournament.venue,
            "rules": tournament.rules,
            "target": tournament.target,
            "opening_bonus": tournament.opening_bonus,
            "match_rounds": tournament.match_rounds,
            "ranking_criteria": list(tournament.ranking_criteria),
            "keep_clubs_apart": tournament.keep_clubs_apart,
            "is_rated": tournament.is_rated,
            "final_size": tournament.final_size,
            "check_in": tournament.check_in,
            "team_size": tournament.team_size,
            "team_criterion": tournament.team_criterion,
            "prize_count": tournament.prize_count,
            "prize_one_per_player": tournament.prize_one_per_player,
            "categories": categories,
        },
        "players": sorted(players.values(), key=lambda player: player["id"]),
        "sessions": list(sessions.values()),
    }


def tournament_records_zip(*, tournament: Tournament) -> bytes:
    """The archive of every match of ``tournament`` that has a turn, with its index and its
    manifest (see the module)."""
    buffer = io.BytesIO()
    index = io.StringIO()
    lines = csv.writer(index)
    lines.writerow(INDEX_HEADER)
    entries: dict[int, str] = {}
    records: dict[str, bytes] = {}
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for match in matches_played(tournament=tournament):
            view = match_replay(match=match)
            entries[match.pk] = entry_name(match)
            records[entry_name(match)] = view.record.to_json().encode("utf-8")
            archive.writestr(entry_name(match), records[entry_name(match)])
            names = [seat.name for seat in view.seats]
            lines.writerow([spreadsheet_cell(cell) for cell in (
                match.table.session.number,
                match.table.number,
                match.pk,
                match.status,
                INDEX_JOIN.join(names),
                INDEX_JOIN.join(str(total) for total in view.totals),
                INDEX_JOIN.join(view.winner_names),
            )])
        archive.writestr(INDEX_NAME, index.getvalue().encode())
        manifest = tournament_manifest(tournament=tournament, entries=entries,
                                       digest=matches_digest(records))
        archive.writestr(MANIFEST_NAME, json.dumps(manifest, ensure_ascii=False, indent=1).encode())
    return buffer.getvalue()
