"""Helpers of the recording tests that only they use: turns to post, rounds to confirm, a
simulated turn to find.

The match to fill, its record and the recording's steps that other packages take too
(``fresh``, ``add``, ``board_turn``, ``import_record``, ``replay``, ``truncated``...) come
from ``tests/factories.py``.

- ``posted(turn_json, revision)``: the entry screen's POST of a record's turn with a placement.
- ``confirmed_through(match, user, record, rounds=n)``: the record's first rounds imported and
  confirmed, as a referee does.
- ``find(predicate, names=..., seeds=range(60))``: the first (seed, record, round, turn) of a
  simulated match whose turn satisfies ``predicate(turn_json, round_json, position)``.
- ``settled_with_claim(match, referee)``: round 1 blocked (``blocked_round``) and settled with
  a claim that differs from the engine's figure.
- ``app_queries(captured)``: the queries a page's cost is counted in, the shared cache's own
  upkeep left out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.test.utils import CaptureQueriesContext

from tests.factories import Json, blocked_racks, blocked_round, fresh, replay
from tournament import engine
from tournament.matches import services
from tournament.models import Match


def posted(turn: Json, revision: int) -> dict[str, str]:
    """The entry screen's POST of a record's turn with a placement, at ``revision``."""
    place = turn["place"]
    x, y, o = place["cell"]
    return {"revision": str(revision), "player": str(turn["player"]),
            "tile": "".join(map(str, sorted(place["corners"]))), "cell": f"{o}({x},{y})",
            "corners": "-".join(map(str, place["corners"])), "draws": str(turn.get("draws", 0)),
            "claimed": str(turn["claimed"])}


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


def settled_with_claim(match: Match, referee, *, off_by: int = 7) -> tuple[list[int], list[int]]:
    """Round 1 blocked and settled with a claim ``off_by`` above the engine's figure for the
    seat the settlement pays; returns the engine's settlement and the claim."""
    blocked_round(match, referee)
    services.match_round_end(match=fresh(match), user=referee,
                             seen_revision=fresh(match).revision, round_index=0,
                             racks=blocked_racks())
    figures = list(replay(match).rounds[0].settlement)
    seat = max(range(len(figures)), key=lambda i: figures[i])
    claim = list(figures)
    claim[seat] += off_by
    services.match_round_end(match=fresh(match), user=referee,
                             seen_revision=fresh(match).revision, round_index=0,
                             racks=blocked_racks(), settlement_claimed=claim,
                             reason="the settlement the table announced")
    return figures, claim


def app_queries(captured: CaptureQueriesContext) -> list[dict]:
    """The queries of ``captured`` but the database cache's (``tournament_cache``): a process
    counts that table, to cull it, once every so many writes (``tournament/kit/db_cache.py``),
    whichever request's write it is, so a count of a page's queries that takes them in
    depends on the tests run before it."""
    return [query for query in captured.captured_queries
            if "tournament_cache" not in query["sql"]]
