"""Helpers of the recording tests: turns to enter, records to import, what was written.

The match to fill and its record come from ``tests/factories.py`` (``match_at``,
``played_record``).

- ``seated_names(match)``: the players' names in seat order.
- ``fresh(match)``: the match re-read (its revision moves with every save).
- ``add(match, user, *turns, **options)``: ``match_turns_add`` from the match's current revision.
- ``board_turn(turn_json)``: a record turn (board mode) as the services' TurnInput.
- ``confirmed_through(match, user, record, rounds=n)``: the record's first rounds imported and
  confirmed, as a referee does.
- ``in_play(tournament, referee)``: a started match with two turns of its first round saved,
  and that round's turns (the next ones to add).
- ``find(predicate, seeds=range(40), players=4)``: the first (seed, record, round, turn) of a
  simulated match whose turn satisfies ``predicate(turn_json, round_json, position)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from tests.factories import match_at, played_record
from tournament import engine
from tournament.matches import services
from tournament.matches.reading.replay import match_replay
from tournament.matches.reading.replayed_match import ReplayedMatch
from tournament.matches.reading.rows import match_rows, match_with_tournament
from tournament.models import Match

Json = dict[str, Any]


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


def board_turn(turn: Json, **changes: Any) -> services.TurnInput:
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
    return services.TurnInput(**data)


def posted(turn: Json, revision: int) -> dict[str, str]:
    """The entry screen's POST of a record's turn with a placement, at ``revision``."""
    place = turn["place"]
    x, y, o = place["cell"]
    return {"revision": str(revision), "player": str(turn["player"]),
            "tile": "".join(map(str, sorted(place["corners"]))), "cell": f"{o}({x},{y})",
            "corners": "-".join(map(str, place["corners"])), "draws": str(turn.get("draws", 0)),
            "claimed": str(turn["claimed"])}


def add(match: Match, user, *turns: services.TurnInput, **options: Any):
    match = fresh(match)
    return services.match_turns_add(
        match=match, user=user, seen_revision=match.revision, turns=list(turns), **options
    ).saved


def import_record(match: Match, user, record: Json, **options: Any):
    match = fresh(match)
    return services.match_record_import(
        match=match, user=user, seen_revision=match.revision, record=record, **options
    ).replay


def replay(match: Match) -> ReplayedMatch:
    return match_replay(match=fresh(match))


def confirmed_through(match: Match, user, record: Json, *, rounds: int) -> None:
    """The record's first ``rounds`` rounds imported, each confirmed as a referee does."""
    head = {**record, "rounds": record["rounds"][:rounds]}
    replay = services.match_record_import(match=fresh(match), user=user,
                                          seen_revision=fresh(match).revision,
                                          record=head).replay
    for round_view in replay.rounds:
        services.match_round_confirm(match=fresh(match), user=user,
                                     seen_revision=fresh(match).revision,
                                     round_index=round_view.index)


def truncated(record: Json, *, rounds: int, turns: int | None = None) -> Json:
    """The record's first ``rounds`` rounds whole, then the next round's first ``turns`` turns
    (without its racks)."""
    kept = [dict(r) for r in record["rounds"][:rounds]]
    if turns is not None:
        kept.append({"turns": record["rounds"][rounds]["turns"][:turns]})
    return {**record, "rounds": kept}


def find(
    predicate: Callable[[Json, Json, int], bool],
    *,
    names: list[str],
    seeds: Iterable[int] = range(60),
) -> tuple[int, Json, int, int]:
    for seed in seeds:
        record = engine.simulated_match_record(names=names, seed=seed)
        for r, round_ in enumerate(record["rounds"]):
            for t, turn in enumerate(round_["turns"]):
                if predicate(turn, round_, t):
                    return seed, record, r, t
    raise LookupError("no simulated match has such a turn")


#: The hands left at a table blocked by :func:`blocked_round`.
BLOCKED_HANDS = [12, 16, 14, 13]


def blocked_round(match: Match, user) -> None:
    """Seat A opens with 5-5-5, then every draw empties the pool: the table is blocked with
    hands of ``BLOCKED_HANDS`` tiles and nothing left to draw."""
    add(match, user, services.TurnInput(player=0, cell=engine.Cell(0, 0, "U"),
                                        corners=(5, 5, 5), points_claimed=25))
    for _ in range(9):
        add(match, user, services.TurnInput(draws=3))
    add(match, user, services.TurnInput(draws=1))
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
