"""The printed documents: what each template is given, built from the selectors.

A view parses the request and calls one of these; the benchmark command calls the same ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urljoin

from django.urls import reverse

from tournament.kit.qr import qr_png_data_uri
from tournament.kit.seats import seat_letter
from tournament.kit.table_codes import table_code, table_code_printed
from tournament.kit.tables import RANKING_TEXT_COLUMNS
from tournament.matches.scorers import scorer_path, table_scorer
from tournament.matches.signatures import seat_code, seat_path
from tournament.models import Match, Session, Table, Tournament
from tournament.names import split_name, surname_sort_key
from tournament.printing import selectors
from tournament.printing.score_sheet_layout import ScoreSheetLayout, SheetRules

#: The most sheets per table one may ask for (?rounds=).
MAX_ROUNDS = 12


@dataclass(frozen=True)
class ScoreSheet:
    """One page: a table's blank sheet for one round (``round_number`` None: left blank)."""

    table: Table
    names: list[str]
    round_number: int | None
    layout: ScoreSheetLayout
    #: The match's page, and its QR code as a ``data:`` PNG; when the table keeps its own
    #: score (``Session.entry_by_tables``), its private scorer link instead, printed too.
    address: str
    qr: str
    scorer_link: str = ""
    #: When the table keeps its own score: each seat's code, printed beside its name, and
    #: its own link, to sign the rounds (``tournament.matches.signatures``).
    seat_codes: tuple[str, ...] = ()
    seat_links: tuple[str, ...] = ()


def match_address(*, site_root: str, slug: str, match_id: int) -> str:
    """The match's page, absolute: what its QR code holds."""
    return urljoin(
        site_root, reverse("tournament:match", kwargs={"slug": slug, "match_id": match_id})
    )


def score_sheets(
    *, session: Session, site_root: str, rounds: int = 1, tables: frozenset[int] | None = None
) -> list[ScoreSheet]:
    """Blank score sheets: ``rounds`` sheets per table, tables in order (``tables``: those
    numbers only).

    With one sheet per table the round number is left blank (the sheet is copied as needed);
    with several, they are numbered round 1, 2, ...
    """
    tournament = session.tournament
    sheet_rules = SheetRules.of(tournament.rule_set)
    sheets = []
    for table in selectors.session_tables_with_players(session=session):
        if tables is not None and table.number not in tables:
            continue
        names = [seat.player.name for seat in table.seats.all()]
        layout = ScoreSheetLayout(players=len(names), rules=sheet_rules)
        match = getattr(table, "match", None)
        scorer_link = ""
        seat_codes: tuple[str, ...] = ()
        seat_links: tuple[str, ...] = ()
        if match is not None and session.entry_by_tables:
            # the table's private link: the sheet is the staff's, and its table's
            scorer = table_scorer(match=match)
            scorer_link = address = urljoin(site_root, scorer_path(scorer))
            seat_codes = tuple(seat_code(scorer, seat) for seat in range(len(names)))
            seat_links = tuple(urljoin(site_root, seat_path(scorer, seat))
                               for seat in range(len(names)))
        elif match is not None:
            address = match_address(site_root=site_root, slug=tournament.slug, match_id=match.pk)
        else:
            address = urljoin(site_root, session.get_absolute_url())
        qr = qr_png_data_uri(address)
        for round_number in range(1, rounds + 1):
            sheets.append(
                ScoreSheet(
                    table=table,
                    names=names,
                    round_number=round_number if rounds > 1 else None,
                    layout=layout,
                    address=address,
                    qr=qr,
                    scorer_link=scorer_link,
                    seat_codes=seat_codes,
                    seat_links=seat_links,
                )
            )
    return sheets


def score_sheets_context(
    *, session: Session, site_root: str, rounds: int = 1, tables: frozenset[int] | None = None
) -> dict:
    """The context of ``printing/score_sheets.html`` (see :func:`score_sheets`)."""
    sheets = score_sheets(session=session, site_root=site_root, rounds=rounds, tables=tables)
    return {
        "tournament": session.tournament,
        "session": session,
        "sheets": sheets,
        # Each layout once, in the page's stylesheet; the pages name it by a class.
        "layouts": list({sheet.layout.key: sheet.layout for sheet in sheets}.values()),
    }


@dataclass(frozen=True)
class TableCard:
    """One page: the card on a physical table, for the whole event."""

    number: int
    #: The table's address (its match in the session of the moment), and its QR code.
    address: str
    qr: str
    #: What a phone gives to call a referee to this table (tournament.kit.table_codes).
    code: str = ""


def table_address(*, site_root: str, slug: str, number: int) -> str:
    """The table's address, absolute: what its card's QR code holds.

    >>> table_address(site_root="http://192.168.1.10:8000/", slug="spring-open", number=5)
    'http://192.168.1.10:8000/t/spring-open/tables/5/'
    """
    return urljoin(
        site_root, reverse("tournament:table_now", kwargs={"slug": slug, "number": number})
    )


def table_cards_context(*, tournament: Tournament, site_root: str, tables: frozenset[int]) -> dict:
    """The context of ``printing/table_cards.html``: one card per table, by number."""
    cards = []
    for number in sorted(tables):
        address = table_address(site_root=site_root, slug=tournament.slug, number=number)
        cards.append(TableCard(number=number, address=address, qr=qr_png_data_uri(address),
                               code=table_code_printed(table_code(tournament.pk, number))))
    return {"tournament": tournament, "cards": cards}


@dataclass(frozen=True)
class SeatingLine:
    name: str
    given: str
    surname: str
    club: str
    table: int
    seat: str


@dataclass(frozen=True)
class SeatingGroup:
    """The players whose surnames start with ``letter`` (accents aside)."""

    letter: str
    lines: list[SeatingLine]


def seating_context(*, session: Session) -> dict:
    """The context of ``printing/seating.html``: every player by surname, with their table."""
    groups: list[SeatingGroup] = []
    for seat in selectors.session_seats_by_surname(session=session):
        folded = surname_sort_key(seat.player.name)[0]
        letter = folded[:1].upper() if folded[:1].isalpha() else "#"
        given, surname = split_name(seat.player.name)
        if not groups or groups[-1].letter != letter:
            groups.append(SeatingGroup(letter=letter, lines=[]))
        groups[-1].lines.append(
            SeatingLine(
                name=seat.player.name,
                given=given,
                surname=surname,
                club=seat.player.club,
                table=seat.table.number,
                seat=seat_letter(seat.order),
            )
        )
    return {
        "tournament": session.tournament,
        "session": session,
        "groups": groups,
        "player_count": sum(len(group.lines) for group in groups),
    }


@dataclass(frozen=True)
class RoundPlayerLine:
    """One player at the end of a round: hand left, settlement, round score, match total."""

    letter: str
    name: str
    rack: str
    settlement: int | None
    #: The settlement claimed at the table (None when no claim was entered).
    settlement_claimed: int | None
    score: int
    total: int
    went_out: bool


def rack_text(rack) -> str:
    """A rack shown at the end of a round: its tiles, ``—`` when empty, ``Σ 23`` for a total.

    >>> rack_text(["0-0-1", "2-4-5"]), rack_text([]), rack_text(23)
    ('0-0-1 2-4-5', '—', 'Σ 23')
    """
    if isinstance(rack, int):
        return f"Σ {rack}"
    return " ".join(rack) or "—"


@dataclass(frozen=True)
class ResultLine:
    letter: str
    name: str
    total: int
    rank: int
    winner: bool


def match_report_context(*, match: Match) -> dict:
    """The context of ``printing/match_report.html``: the match as the recording replays it.

    Every figure comes from ``tournament.matches.reading.replay.match_replay`` (the one replay of
    a match); this only arranges it for the page.
    """
    from tournament.matches.reading.replay import match_replay

    replay = match_replay(match=match)
    seats = replay.seats
    rounds = []
    for round_view in replay.rounds:
        racks = [rack_text(rack) for rack in round_view.racks] if round_view.racks else [""] * len(seats)
        settlement = round_view.settlement or (None,) * len(seats)
        claimed = round_view.settlement_claimed or (None,) * len(seats)
        rounds.append(
            {
                "view": round_view,
                "players": [
                    RoundPlayerLine(
                        letter=seat.letter,
                        name=seat.name,
                        rack=racks[i],
                        settlement=settlement[i],
                        settlement_claimed=claimed[i],
                        score=round_view.scores[i],
                        total=round_view.totals_after[i],
                        went_out=round_view.out_player == i,
                    )
                    for i, seat in enumerate(seats)
                ],
                "turns": [
                    (seats[turn.player].letter if turn.player < len(seats) else "?", turn)
                    for turn in round_view.turns
                ],
                "board": round_view.board_svg(side=40.0) if round_view.placements else "",
            }
        )
    ranking = sorted(range(len(seats)), key=lambda i: -replay.totals[i])
    results = [
        ResultLine(
            letter=seats[i].letter,
            name=seats[i].name,
            total=replay.totals[i],
            rank=1 + sum(1 for other in replay.totals if other > replay.totals[i]),
            winner=i in replay.winners,
        )
        for i in ranking
    ]
    table = match.table
    return {
        "tournament": table.session.tournament,
        "session": table.session,
        "table": table,
        "match": match,
        "replay": replay,
        "rounds": rounds,
        "results": results,
    }


def standings_context(*, tournament) -> dict:
    """The context of ``printing/standings.html``: the standings page's table, printable.

    The rows come from ``tournament.standings.selectors.standings`` (the one standings
    computation); the columns, their short headers, the legend and the page's orientation
    from ``tournament.standings.tables.print_layout``, and each score is shown as the page
    shows it (``criterion_display``); with check-in, the sessions each player missed and the
    rule that counts them (docs/guides/check-in.md), as on the page.
    """
    from tournament.standings.selectors import standings
    from tournament.standings.tables import (
        LEADING_COLUMNS,
        criterion_display,
        export_value,
        print_layout,
    )

    result = standings(tournament=tournament)
    layout = print_layout(result.criteria, check_in=tournament.uses_check_in)
    columns = layout.columns
    leading = set(LEADING_COLUMNS)

    def printed(rows, *, podium: bool) -> list[dict]:
        return [
            {
                "podium": podium and row["ranked"] and row["rank"] <= 3,
                "withdrawn": row["withdrawn"],
                "cells": [
                    (
                        name,
                        row["rank_label"] if name == "rank"
                        else row[name] if name in leading
                        else export_value(name, row) if name == "absent"
                        else criterion_display(name, row),
                    )
                    for name, _header in columns
                ],
            }
            for row in rows
        ]

    # A final decided (docs/guides/final.md): its places first, under a heading of their own.
    final_rows = printed(result.final_rows, podium=True)
    rows = printed(result.qualifying_rows, podium=not final_rows)
    return {
        "final_rows": final_rows,
        "tournament": tournament,
        "standings": result,
        "columns": columns,
        "text_columns": RANKING_TEXT_COLUMNS,
        "legend": layout.legend,
        "wide": layout.wide,
        "rows": rows,
        "player_count": result.ranked_count,
    }
