"""The match page's turn logs: a round's log table, and the closed rounds' log kept.

A page of a long match replays its round in play alone (``match_replay_from_play``): the
closed rounds before it come from their stored scores, and their log, every turn of every
closed round, from a copy kept in the shared cache (:func:`kept_log`), made from the whole
match's replay once per digest of what it shows, so that such a page costs its round in play,
as the public's live part does, and the kept log's bytes.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django_tables2 import RequestConfig

from tournament import engine
from tournament.kit.cache import cached_copy
from tournament.kit.cached_pages import CSRF_MARKER
from tournament.kit.release import release_digest
from tournament.matches.reading.replay import match_replay
from tournament.matches.reading.replayed_match import ReplayedMatch, settled_log_key
from tournament.matches.reading.replayed_rounds import ReplayedRound
from tournament.matches.tables import TurnLogTable

#: The template of the closed rounds' kept log.
KEPT_LOG_TEMPLATE = "tournament/matches/_kept_log.html"
#: The hole the kept log's forms leave for the match's revision, filled in at each answer:
#: markup that no escaped text can spell (their CSRF token's is the kept pages' ``CSRF_MARKER``).
REVISION_HOLE = SafeString("<kept-log:revision>")


def log_table(request, round_view: ReplayedRound, prefix: str, **options: Any) -> TurnLogTable:
    """The log of one round's turns (``TurnLogTable``), unpaginated."""
    table = TurnLogTable(round_view.turns, prefix=prefix, orderable=False, **options)
    RequestConfig(request, paginate=False).configure(table)
    return table


def kept_log(request, replay: ReplayedMatch, context: dict[str, Any],
             log_options: dict[str, Any], *, latest_open: bool) -> SafeString:
    """The log of the closed rounds ``replay`` took from their stored scores (every round
    before its last one), latest first (the latest open with ``latest_open``), for the page
    of ``context`` (its reader's rights, ``log_options`` its log tables' options).

    Made from the whole match's replay once per digest of what it shows: ``settled_log_key``
    (each closed round's scores and state, its turns' count and greatest id: a correction
    or a decision adds a turn row), the rounds' ends, the seats' players and names, the
    rules; kept apart for each way of showing it (forms and links or none, a table's scorer,
    the language). Its forms' revision and CSRF token are holes (``REVISION_HOLE``,
    ``CSRF_MARKER``) filled in at each answer: a turn saved in the round in play leaves it
    as it is."""
    match = replay.match
    tournament = match.table.session.tournament
    stored = [round_view for round_view in replay.rounds if round_view.stored]
    language = get_language() or ""
    audience = (log_options["can_write"], log_options["can_decide"],
                bool(context.get("is_scorer")), latest_open)
    shown = (release_digest(), settled_log_key(replay), audience, language,
             [round_view.end_row.pk if round_view.end_row is not None else None
              for round_view in stored],
             [(seat.player_id, seat.name) for seat in replay.seats],
             tournament.rules, tournament.target,
             sorted(engine.record_options(tournament=tournament, match=match).items()))
    digest = hashlib.sha256(repr(shown).encode()).hexdigest()

    def make() -> str:
        whole = match_replay(match=match)
        rounds = whole.rounds[:len(stored)]
        options = {**log_options, "revision": REVISION_HOLE, "csrf_token": CSRF_MARKER}
        items = [{"round": round_view,
                  "table": log_table(request, round_view, f"r{round_view.number}-", **options,
                                     body_id=f"turns-r{round_view.number}"),
                  "open": latest_open and round_view is rounds[-1]}
                 for round_view in rounds]
        return render_to_string(KEPT_LOG_TEMPLATE, {
            **context, "replay": whole, "kept_rounds": items,
            "revision": REVISION_HOLE, "csrf_token": SafeString(CSRF_MARKER)})

    flags = "".join("1" if flag else "0" for flag in audience)
    kept = cached_copy(key=f"match-log:{match.pk}:{flags}:{language}", version=None,
                       make=make, digest=lambda: digest).content
    return mark_safe(  # noqa: S308 -- made from the templates; the holes take a number and a token
        kept.replace(REVISION_HOLE, str(match.revision))
        .replace(CSRF_MARKER, log_options["csrf_token"]))
