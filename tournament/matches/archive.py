"""Every match of a tournament as one ZIP archive, to keep after the event or to hand on.

:func:`tournament_records_zip` builds the archive's bytes: one entry per match that has at
least one turn, ``session-01/table-03-match-42.json``, holding the match's record exactly as
``record.json`` downloads it (the engine's ``MatchRecord.to_json()``, in UTF-8), and
``index.csv`` at the root, a line per entry: session, table, match, status, the players in
seat order, the match totals and the winners (UTF-8, a header line). The index is data, like
the records: its header and statuses are the same words whatever the reader's language. A cell
a spreadsheet would run as a formula (a player named ``=1+2``) starts with an apostrophe
(:func:`tournament.spreadsheet.spreadsheet_cell`).

Each match is read as its page reads it (:func:`~tournament.matches.selectors.match_rows`,
four queries, then :func:`~tournament.matches.selectors.match_replay`): the queries grow with
the number of matches played.
"""

from __future__ import annotations

import csv
import io
import zipfile

from django.db.models import Exists, OuterRef, QuerySet

from tournament.matches import selectors
from tournament.models import Match, Tournament, Turn
from tournament.spreadsheet import spreadsheet_cell

INDEX_NAME = "index.csv"
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


def tournament_records_zip(*, tournament: Tournament) -> bytes:
    """The archive of every match of ``tournament`` that has a turn (see the module)."""
    buffer = io.BytesIO()
    index = io.StringIO()
    lines = csv.writer(index)
    lines.writerow(INDEX_HEADER)
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for match in matches_played(tournament=tournament):
            view = selectors.match_replay(match=match)
            archive.writestr(entry_name(match), view.record.to_json())
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
    return buffer.getvalue()
