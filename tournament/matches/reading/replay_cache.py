"""The round in play's replay, kept by this process between a tablet's requests.

A tablet's save replays the match as its page shows it (to check the turn), then the match as
written; its next preview and save start from the same state. :func:`live_replay` gives
``match_replay_from_play(match=...)`` (the closed rounds before the last recorded one taken
from their stored scores: a write to the round in play costs that round, whatever the match's
length), taken from this process's copy when there is one made at the same state;
:func:`keep_replay` keeps a replay for the next request.

A copy is kept under what makes it: the match's revision (every write to the match raises
it, in the write's transaction), the tournament's setup version (raised by what else a
replay shows: a player's name, the rules, the seating; not by another match's write, so that
a match confirmed at another table leaves every table's copy in use:
``tournament.core.freshness``) and the language (the problems are in the user's). Both
numbers are read with the request's match (one query); a copy made at another revision is
never served, so a write by another process (another worker) or another thread makes the
copy of this one useless, never wrong. A copy is kept only once the write
that made it is committed (``transaction.on_commit``): a write rolled back leaves none.

A copy is lent to one request at a time: :func:`live_replay` takes it out, and a request that
used it up (a save plays its turn on it) keeps the new replay instead; one that did not (a
preview, a phone's poll of the match's live part: :func:`borrowed_replay`) gives it back. Two requests of one match at once: the second replays from the
database, as without the copy.
"""

from __future__ import annotations

from typing import NamedTuple

from django.db import transaction
from django.template.response import TemplateResponse
from django.utils import translation

from tournament.kit.bounded import BoundedMap
from tournament.matches.reading.replay import match_replay_from_play
from tournament.matches.reading.replayed_match import ReplayedMatch
from tournament.matches.reading.rows import settled_rounds
from tournament.models import Match

#: How many matches' replays a process keeps (a room of 128 tables, with room to spare).
KEPT_MATCHES = 256


class _Key(NamedTuple):
    revision: int
    setup_version: int
    language: str | None


_kept: BoundedMap[int, tuple[_Key, ReplayedMatch]] = BoundedMap(entries=KEPT_MATCHES)


def _key(match: Match, *, setup_version: int | None = None) -> _Key:
    if setup_version is None:
        setup_version = match.table.session.tournament.setup_version
    return _Key(match.revision, setup_version, translation.get_language())


def live_replay(*, match: Match) -> ReplayedMatch:
    """``match_replay_from_play(match=match)``: the copy kept at ``match``'s state (its
    revision and its tournament's setup version, as read with it), taken out (the caller
    may use it up: :func:`keep_replay` gives it back), else replayed from the database. The
    replay's ``match`` is ``match``."""
    replay = borrowed_replay(match=match)
    return replay if replay is not None else match_replay_from_play(match=match)


def borrowed_replay(*, match: Match) -> ReplayedMatch | None:
    """The copy kept at ``match``'s state, taken out as :func:`live_replay` takes it, or None
    when there is none (nothing is replayed)."""
    key = _key(match)
    entry = _kept.pop(match.pk)
    if entry is None or entry[0] != key:
        return None
    replay = entry[1]
    replay.match = replay.rows.match = match
    return replay


def keep_replay(replay: ReplayedMatch, *, setup_version: int) -> None:
    """Keep ``replay`` for the next request of its match, once the transaction in progress
    (if any) is committed, under its match's revision and ``setup_version`` (the version
    read with the rows, or before them). Only a replay as :func:`live_replay` makes it: its
    leading closed rounds taken from their stored scores (all of them, or those before the
    round a write replayed from), their turns not loaded; any other is not kept."""
    rows = replay.rows
    stored = [round_view.row.pk for round_view in replay.rounds if round_view.stored]
    settled = [round_.pk for round_ in settled_rounds(rows)]
    if ((stored != settled[:len(stored)] if rows.closed_stored else stored != settled)
            or set(rows.unloaded) != set(stored) or rows.turns.keys() & set(stored)):
        return
    match = replay.match
    key = _key(match, setup_version=setup_version)

    def kept() -> None:
        # unless a newer one is kept already
        _kept.put(match.pk, (key, replay), unless=lambda current: current[0].revision > key.revision)

    transaction.on_commit(kept)


def kept_after(response, replay: ReplayedMatch, *, setup_version: int):
    """``response``, ``replay`` kept (:func:`keep_replay`) once the response is rendered (at
    once when it is not a template's): a view's answer reads the replay until then."""
    def keep(_response=None) -> None:
        keep_replay(replay, setup_version=setup_version)

    if isinstance(response, TemplateResponse) and not response.is_rendered:
        response.add_post_render_callback(keep)
    else:
        keep()
    return response


def forget_replays() -> None:
    """Drop every replay kept (the tests)."""
    _kept.clear()
