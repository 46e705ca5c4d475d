"""The test data that several packages build, made through the app's own services.

Every builder is keyword-only and goes the way a user's action goes: a tournament through
``tournament_create``, its players through ``player_add``, a session through the sessions'
and the seating's services, a match's results through the recording's one write path
(``match_record_import``, ``match_record_import_and_confirm``). Nothing here writes a
match's totals, a session's status or a timestamp around them, so what a test builds is
what the app could have written.

- ``tournament_with_players(slug=..., players=8, **settings)``: a tournament and its players
  (a count, or names, or ``(name, club[, licence])`` tuples), registered in that order.
- ``accented_tournament(slug="open-de-lyon", is_public=True)``: the "Open de Lyon" of
  ``ACCENTED_NAMES``, session 1 seated at two tables of four in that order.
- ``players_of(tournament)``: its registered players, in the order they were registered.
- ``seated_session(tournament=..., tables=None, seed=0, started=False)``: a new session seated
  with ``tables`` (lists of players, clockwise; by default the registered players in tables
  of four), started when asked.
- ``match_at(tournament=..., session=1, table=1, started=False)``: that match, its table,
  session and tournament loaded; its session started first when asked.
- ``played_record(match=..., totals=None, in_play=False, seed=None)``: a legal match record
  for the match's seated players under its tournament's rules and options (the engine's
  simulator); with ``totals``, its first round ends on those totals, by the referee keeping
  each player's last claim of the round (a "claim" decision, as ``match_turn_decide``
  records it). ``in_play``: a second round begun, the match still going on.
- ``recorded_match(match=..., user=None, totals=None, in_play=False, seed=None)``: the match
  filled from ``played_record`` (``match_record_import``), its rounds not confirmed.
- ``confirmed_match(match=..., user=None, totals=None, seed=None)``: the match filled and every
  round confirmed (``match_record_import_and_confirm``): what the standings and ratings count.
- ``rounds_confirmed(match=..., user=None)``: every round of a recorded match confirmed
  (``match_round_confirm``), as its referee would: over, the match is confirmed.
- ``played_session(tournament=..., tables=..., totals=None, closed=True)``: a session seated
  with ``tables``, started, every match confirmed (with ``totals[i]`` at table i + 1 when
  given) and closed.
- ``matches_confirmed(tournament=..., seed=0)``: every match of its seated or started sessions
  confirmed (a seated session is started first); returns how many.

The builders that play a match start its session when it is only seated (a seated session
refuses every write). A match whose totals all stay under the target can only end by its
number of rounds: ask for it with the tournament's ``match_rounds=1``; a table of 5 or 6 is
played under the family rules only (``rules="goliath-family"``).

The recording's steps that several packages take, as a referee's screen or upload would
(these take the match and the user positionally, as the tests call them):

- ``fresh(match)``: the match re-read (its revision moves with every save).
- ``seated_names(match)``: the players' names in seat order.
- ``board_turn(turn_json, **changes)``: a record's turn (board mode) as the services'
  ``TurnInput``.
- ``entry_form(turn_json, revision)``: a record's turn as the entry screen posts it.
- ``add(match, user, *turns, **options)``: ``match_turns_add`` from the match's current
  revision; returns what was saved.
- ``import_record(match, user, record, **options)``: ``match_record_import`` from the match's
  current revision; returns the replay.
- ``replay(match)``: the match replayed as its pages show it (``match_replay``).
- ``truncated(record, rounds=n, turns=None)``: the record's first rounds, then the next
  round's first turns.
- ``in_play(tournament, referee)``: a started match with two turns of its first round saved,
  and that round's turns (the next ones to add).
- ``entered_by_tables(tournament=..., **fields)``: the tournament's matches entered by the
  tables' scorer phones (``MatchEntry.TABLES``), with any other of its fields given.
- ``scorer_client(match, address="10.0.0.1")``: a phone (a test client at ``address``) that
  opened the match's scorer link and said so: bound as the table's scorer.
- ``blocked_round(match, user)``: seat A opens with 5-5-5, then the draws empty the pool: the
  table is blocked with hands of ``BLOCKED_HANDS`` tiles; ``blocked_racks()``: racks of those
  hands, every tile but 5-5-5.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.test import Client

from tournament import engine
from tournament.core.tournaments import tournament_create
from tournament.matches.reading.replay import match_replay
from tournament.matches.reading.replayed_match import ReplayedMatch
from tournament.matches.reading.rows import match_rows, match_with_tournament
from tournament.matches.scorers import scorer_path, table_scorer
from tournament.matches.services import (
    TurnInput,
    match_record_import,
    match_record_import_and_confirm,
    match_round_confirm,
    match_turns_add,
)
from tournament.models import Match, MatchEntry, Player, Round, Session, Tournament
from tournament.organiser.services import player_add
from tournament.seating.services import session_seat_players
from tournament.sessions.services import session_close, session_create, session_start

Json = dict[str, Any]
PlayerSpec = str | tuple[str, str] | tuple[str, str, str]

#: The reason given with every claim the referee keeps in ``played_record``.
KEPT_CLAIM_REASON = "agreed at the table"


def tournament_with_players(
    *,
    slug: str = "spring-open",
    name: str | None = None,
    players: int | Sequence[PlayerSpec] = 8,
    start_date: datetime.date = datetime.date(2025, 5, 17),
    venue: str = "Salle Pierre-Sémard",
    **settings: Any,
) -> Tournament:
    """A tournament (``tournament_create``; ``settings``: its other arguments) and its players
    (``player_add``), registered in order. ``players``: how many ("Player 01 <slug>"... in
    clubs "Club A", "Club B", "Club C" in turn), or their names, or ``(name, club)`` and
    ``(name, club, licence)`` tuples."""
    tournament = tournament_create(
        name=name or slug.replace("-", " ").title(), slug=slug, start_date=start_date,
        venue=venue, **settings,
    )
    if isinstance(players, int):
        players = [(f"Player {number:02d} {slug}", f"Club {'ABC'[number % 3]}")
                   for number in range(1, players + 1)]
    for spec in players:
        player_name, club, licence = (spec, "", "") if isinstance(spec, str) else (*spec, "")[:3]
        player_add(tournament=tournament, name=player_name, club=club, licence=licence)
    return tournament


#: Eight players, seated in this order at two tables of four by ``accented_tournament``.
ACCENTED_NAMES = [
    "Mads Sørensen", "Chloé Martin", "Łukasz Nowak", "Zoé Garnier",
    "Jürgen Weiß", "Élodie Faure", "Núria Puig", "Anaïs Morel",
]


def accented_tournament(*, slug: str = "open-de-lyon", is_public: bool = True) -> Tournament:
    """The "Open de Lyon" of ``ACCENTED_NAMES`` (club "Club"), session 1 seated at two tables
    of four in that order."""
    tournament = tournament_with_players(
        slug=slug, name="Open de Lyon", players=[(name, "Club") for name in ACCENTED_NAMES],
        is_public=is_public,
    )
    players = players_of(tournament)
    seated_session(tournament=tournament, tables=[players[:4], players[4:]])
    return tournament


def players_of(tournament: Tournament) -> list[Player]:
    """The tournament's registered players, in the order they were registered."""
    return [registration.player for registration in
            tournament.registrations.select_related("player").order_by("pk")]


def seated_session(
    *,
    tournament: Tournament,
    tables: Sequence[Sequence[Player]] | None = None,
    seed: int = 0,
    started: bool = False,
) -> Session:
    """A new session of ``tournament`` (``session_create``) seated with ``tables``
    (``session_seat_players``; by default its registered players in tables of four, a smaller
    last one), then started (``session_start``) when ``started``."""
    session = session_create(tournament=tournament, seed=seed)
    if tables is None:
        players = players_of(tournament)
        tables = [players[i:i + 4] for i in range(0, len(players), 4)]
    session_seat_players(session=session, tables=[list(table) for table in tables])
    if started:
        session = session_start(session=session)
    return session


def match_at(*, tournament: Tournament, session: int = 1, table: int = 1,
             started: bool = False) -> Match:
    """The match of table ``table`` in session ``session``, its table, session and tournament
    loaded; with ``started``, its session started first when it was only seated."""
    pk = Match.objects.get(table__session__tournament=tournament,
                           table__session__number=session, table__number=table).pk
    if started:
        return _started(Match(pk=pk))
    return match_with_tournament(pk).get()


def _place_seed(match: Match) -> int:
    # The match's place, not its id: on PostgreSQL the ids depend on the tests run before
    # (a rolled-back test does not give its ids back), and so would the record.
    table = Match.objects.select_related("table__session").get(pk=match.pk).table
    return 100 * table.session.number + table.number


def _replayed(record: Json, *, in_play: bool) -> engine.MatchReplay:
    return engine.replay_record(engine.parse_record(record), leave_last_round_open=in_play)


def _live_totals(replay: engine.MatchReplay) -> list[int]:
    """The totals a match stores: the ended rounds' and the round in play's so far."""
    in_play = replay.round_scores if replay.in_round else (0,) * len(replay.totals)
    return [total + points for total, points in zip(replay.totals, in_play)]


def played_record(
    *,
    match: Match,
    totals: Sequence[int] | None = None,
    in_play: bool = False,
    seed: int | None = None,
) -> Json:
    """A legal record for ``match``'s seated players under its tournament's rules and options
    (``engine.simulated_match_record``, every claim right), seeded by the match's place
    unless ``seed`` is given.

    With ``totals`` (one per seat), the record is its first round alone, ending on those
    totals: the referee kept each player's last claim of the round, off by what the totals
    ask (a "claim" decision with a reason), every other turn as the engine scores it. With
    ``in_play``, the first two turns of the next round follow: the match goes on. Raises
    ValueError when the totals cannot end the match (all under the target without a round
    limit) or cannot leave it going on."""
    match = match_with_tournament(match.pk).get()
    tournament = match.table.session.tournament
    names = list(match.table.seats.order_by("order").values_list("player__name", flat=True))
    record = engine.simulated_match_record(
        names=names, seed=_place_seed(match) if seed is None else seed, rules=tournament.rules,
        target=tournament.target, opening_bonus=tournament.opening_bonus,
        rounds=tournament.match_rounds,
    )
    if totals is None and not in_play:
        return record
    if in_play and len(record["rounds"]) < 2:
        raise ValueError("a match of one round cannot be left going on after its first round")
    first = {**record["rounds"][0], "turns": [dict(turn) for turn in record["rounds"][0]["turns"]]}
    rounds = [first, {"turns": record["rounds"][1]["turns"][:2]}] if in_play else [first]
    if totals is not None:
        if len(totals) != len(names):
            raise ValueError(f"totals: one per seat ({len(names)}) expected, got {len(totals)}")
        replay = _replayed({**record, "rounds": rounds}, in_play=in_play)
        scored = _live_totals(replay)
        report = replay.rounds[0]
        for player, (wanted, got) in enumerate(zip(totals, scored)):
            if wanted == got:
                continue
            last = max(t for t, turn in enumerate(first["turns"]) if turn["player"] == player)
            first["turns"][last].update(
                claimed=report.turns[last].points + wanted - got, decision="claim",
                reason=KEPT_CLAIM_REASON,
            )
    played = {**record, "rounds": rounds}
    replay = _replayed(played, in_play=in_play)
    if totals is not None and _live_totals(replay) != list(totals):
        raise ValueError(f"the record ends on {_live_totals(replay)}, not {list(totals)}")
    if replay.finished == in_play:
        raise ValueError(
            f"totals {_live_totals(replay)}: the match would be {'over' if in_play else 'going on'}"
            " after its first round (a match whose totals stay under the target ends by its "
            "number of rounds: match_rounds=1)")
    return played


def _started(match: Match) -> Match:
    """The match re-read, its session started first when it was only seated."""
    session = Session.objects.get(tables__match__pk=match.pk)
    if session.status == Session.Status.SEATED:
        session_start(session=session)
    return match_with_tournament(match.pk).get()


def recorded_match(
    *,
    match: Match,
    user=None,
    totals: Sequence[int] | None = None,
    in_play: bool = False,
    seed: int | None = None,
) -> Match:
    """``match`` filled from ``played_record`` (``match_record_import``), as a referee uploads
    it: over but not confirmed, or going on with ``in_play``. Returns it re-read."""
    match = _started(match)
    record = played_record(match=match, totals=totals, in_play=in_play, seed=seed)
    match_record_import(match=match, user=user, seen_revision=match.revision, record=record)
    return match_with_tournament(match.pk).get()


def confirmed_match(
    *,
    match: Match,
    user=None,
    totals: Sequence[int] | None = None,
    seed: int | None = None,
) -> Match:
    """``match`` filled from ``played_record`` and every round confirmed
    (``match_record_import_and_confirm``): the match is confirmed. Returns it re-read."""
    match = _started(match)
    record = played_record(match=match, totals=totals, seed=seed)
    match_record_import_and_confirm(match=match, user=user, record=record)
    match = match_with_tournament(match.pk).get()
    assert match.status == Match.Status.CONFIRMED, match.status
    return match


def rounds_confirmed(*, match: Match, user=None) -> Match:
    """Every unconfirmed round of ``match`` confirmed (``match_round_confirm``), in order.
    Returns the match re-read."""
    for round_ in Round.objects.filter(match=match, confirmed_at__isnull=True).order_by("index"):
        match = match_with_tournament(match.pk).get()
        match_round_confirm(match=match, user=user, seen_revision=match.revision,
                            round_index=round_.index)
    return match_with_tournament(match.pk).get()


def played_session(
    *,
    tournament: Tournament,
    tables: Sequence[Sequence[Player]],
    totals: Sequence[Sequence[int] | None] | None = None,
    seed: int = 0,
    closed: bool = True,
    user=None,
) -> Session:
    """A session seated with ``tables`` and started, the match of table i + 1 confirmed with
    ``totals[i]`` (simulated totals when not given), then closed (``session_close``) unless
    ``closed`` is False."""
    session = seated_session(tournament=tournament, tables=tables, seed=seed, started=True)
    for number in range(1, len(tables) + 1):
        confirmed_match(
            match=match_at(tournament=tournament, session=session.number, table=number),
            user=user, totals=totals[number - 1] if totals is not None else None,
        )
    if closed:
        session = session_close(session=session, user=user)
    return session


def matches_confirmed(*, tournament: Tournament, user=None, seed: int = 0) -> int:
    """Every match of the tournament's seated and started sessions confirmed from a simulated
    record (seeded by ``seed`` and the match's place), a seated session started first.
    Returns how many were confirmed."""
    matches = list(
        Match.objects.filter(
            table__session__tournament=tournament,
            table__session__status__in=[Session.Status.SEATED, Session.Status.PLAYING],
        ).exclude(status=Match.Status.CONFIRMED)
        .order_by("table__session__number", "table__number")
    )
    for match in matches:
        confirmed_match(match=match, user=user, seed=1000 * seed + _place_seed(match))
    return len(matches)


def fresh(match: Match) -> Match:
    return match_with_tournament(match.pk).get()


def seated_names(match: Match) -> list[str]:
    return match_rows(match=match).names


def in_play(tournament, referee) -> tuple[Match, list[Json]]:
    match = match_at(tournament=tournament, started=True)
    turns = played_record(match=match, seed=3)["rounds"][0]["turns"]
    for turn in turns[:2]:
        add(match, referee, board_turn(turn))
    return fresh(match), turns


def board_turn(turn: Json, **changes: Any) -> TurnInput:
    place = turn.get("place") or {}
    cell = place.get("cell")
    data = {
        "player": turn["player"],
        "draws": turn.get("draws", 0),
        "tile": place.get("tile", ""),
        "cell": engine.Cell(cell[0], cell[1], cell[2]) if cell else None,
        "corners": tuple(place["corners"]) if "corners" in place else None,
        "bonus_claimed": turn.get("bonus", "") or "",
        "points_claimed": turn.get("claimed"),
    }
    data.update(changes)
    return TurnInput(**data)


def entry_form(turn: Json, revision: int) -> dict[str, str]:
    """A record's turn as the entry screen posts it at ``revision`` (the tile, cell and way it
    is turned where it places one)."""
    place = turn.get("place") or {}
    data = {"revision": str(revision), "draws": str(turn.get("draws", 0)),
            "claimed": str(turn.get("claimed", 0))}
    if place:
        x, y, o = place["cell"]
        data.update(tile="".join(map(str, place["corners"])), cell=f"{o}({x},{y})",
                    corners="-".join(map(str, place["corners"])))
    return data


def add(match: Match, user, *turns: TurnInput, **options: Any):
    match = fresh(match)
    return match_turns_add(
        match=match, user=user, seen_revision=match.revision, turns=list(turns), **options
    ).saved


def import_record(match: Match, user, record: Json, **options: Any):
    match = fresh(match)
    return match_record_import(
        match=match, user=user, seen_revision=match.revision, record=record, **options
    ).replay


def replay(match: Match) -> ReplayedMatch:
    return match_replay(match=fresh(match))


def truncated(record: Json, *, rounds: int, turns: int | None = None) -> Json:
    """The record's first ``rounds`` rounds whole, then the next round's first ``turns`` turns
    (without its racks)."""
    kept = [dict(r) for r in record["rounds"][:rounds]]
    if turns is not None:
        kept.append({"turns": record["rounds"][rounds]["turns"][:turns]})
    return {**record, "rounds": kept}


#: The hands left at a table blocked by :func:`blocked_round`.
BLOCKED_HANDS = [12, 16, 14, 13]


def blocked_round(match: Match, user) -> None:
    """Seat A opens with 5-5-5, then every draw empties the pool: the table is blocked with
    hands of ``BLOCKED_HANDS`` tiles and nothing left to draw."""
    add(match, user, TurnInput(player=0, cell=engine.Cell(0, 0, "U"),
                               corners=(5, 5, 5), points_claimed=25))
    for _ in range(9):
        add(match, user, TurnInput(draws=3))
    add(match, user, TurnInput(draws=1))
    assert replay(match).live.end_kind == "blocked"


def blocked_racks() -> list[list[str]]:
    """Racks of ``BLOCKED_HANDS`` tiles for :func:`blocked_round`: every tile but 5-5-5 (the
    pool is empty). One of them fits next to 5-5-5: a false block, shown to the referee,
    which does not stop the round."""
    free = [str(t) for t in engine.ALL_TILES if str(t) != "5-5-5"]
    racks, start = [], 0
    for count in BLOCKED_HANDS:
        racks.append(free[start:start + count])
        start += count
    return racks


def entered_by_tables(*, tournament: Tournament, **fields: Any) -> Tournament:
    """``tournament``'s matches entered by the tables (its scorer phones), with ``fields``."""
    tournament.match_entry = MatchEntry.TABLES
    for name, value in fields.items():
        setattr(tournament, name, value)
    tournament.save(update_fields=["match_entry", *fields])
    return tournament


def scorer_client(match: Match, address: str = "10.0.0.1") -> Client:
    """A phone at ``address`` that opened ``match``'s scorer link and said so."""
    client = Client(REMOTE_ADDR=address)
    link = scorer_path(table_scorer(match=match))
    assert client.get(link).status_code == 200
    response = client.post(link)
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url(), \
        response
    return client
