"""The one path every write to a match takes (:func:`match_write`).

Inside one transaction:

1. the revision is claimed: an atomic conditional UPDATE of ``Match.revision`` from the
   revision the client saw; when another save came first nothing matches and
   :class:`StaleMatch` is raised (nothing written). The UPDATE also holds the match's row
   lock until the transaction ends, so writes to one match are serial;
   A submission whose key (made by the tablet) was saved before raises
   :class:`AlreadySaved` instead, and writes nothing;
2. the session must be in play: a closed session's matches, and those of a session seated
   but not started, refuse every write (:class:`SessionNotOpen`);
3. the current rows are loaded once (:attr:`MatchWrite.rows`); the service changes them in
   memory, then asks for the replay once (:meth:`MatchWrite.replay`), checks it, and writes
   its new rows (an old version is superseded, never changed or deleted);
4. on leaving, the replay's figures are stored on every current row and on the match
   (:func:`match_results_cache`); when the write confirmed the match, or changed a confirmed
   one, the players' ratings are refreshed from it (``tournament.ratings.services``); the
   audit entries the service gave (:meth:`MatchWrite.audit`) are written, with the match's
   closing when it has just closed; last, the tournament's data version is raised, and its
   results version when the match was or is confirmed, its state revision when its state
   or its result as a match over changed: the transaction is
   the tournament's write (``tournament/core/freshness.py``, ``tournament_write``), whose
   end raises them; its row stays locked until the commit, and every table's writes raise it.

The replay made is the match as written: the service returns it (:class:`WriteResult`) and the
view renders it. Permissions are the views' business (``can_referee``); services trust their
caller.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from django.core.exceptions import ValidationError
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament import engine
from tournament.core.freshness import tournament_write
from tournament.kit.transactions import retried_whole
from tournament.matches.reading.replay import match_replay, match_replay_appended
from tournament.matches.reading.replayed_match import ReplayedMatch
from tournament.matches.reading.rows import MatchRows, match_rows, match_with_tournament
from tournament.matches.signatures import disputed_round
from tournament.models import AuditEntry, Match, MatchSubmission, Round, RoundEnd, Turn
from tournament.ratings import services as ratings
from tournament.sessions.services import session_write_refusal

T = TypeVar("T")
S = TypeVar("S", bound=Callable[..., Any])


class AlreadySaved(Exception):
    """This submission (the key its tablet made) was saved before: nothing is written again;
    the tablet is shown the match as it is."""

    def __init__(self, *, match_id: int, key: str) -> None:
        super().__init__(f"match {match_id}: submission {key} already saved")
        self.match_id = match_id
        self.key = key


def already_saved_message() -> str:
    """What a scorekeeper reads when their submission had been saved already."""
    return _("Already saved: this entry had reached the server. Here is the match as it is.")


class StaleMatch(Exception):
    """The match changed since the client saw it: another save came first."""

    def __init__(self, *, match_id: int, seen: int) -> None:
        super().__init__(f"match {match_id}: revision {seen} is no longer current")
        self.match_id = match_id
        self.seen = seen

    @property
    def message(self) -> str:
        return stale_match_message()


def stale_match_message() -> str:
    """What a scorekeeper reads when their save came after another one."""
    return _(
        "Someone else saved a change to this match while you were entering yours: nothing "
        "of yours was saved. Here is the match as it is now; enter your change again."
    )


@dataclass(frozen=True)
class WriteResult(Generic[T]):
    """What a write returns: what it saved (a turn, the turns, an end of round...), the
    match replayed as written, for the view to render, and the first round the write
    changed (the rounds before it are as they were: the view need not send them again)."""

    saved: T
    replay: ReplayedMatch
    round_index: int = 0

    @property
    def settled_changed(self) -> bool:
        """Whether the write changed the match's settled rounds, which the public's page shows
        beyond its live part: a round before the one in play (a round ended, confirmed, a
        closed round corrected), or the match is over."""
        live = self.replay.live
        return live is None or self.round_index < live.index


@dataclass
class MatchWrite:
    """One write in progress (see the module's docstring): ``match`` re-read after its
    revision was claimed, ``rows`` its current rows, which the service changes in memory."""

    match: Match
    user: Any
    rows: MatchRows
    #: The caller's replay of these rows before the change, when they were still current.
    before: ReplayedMatch | None = None
    _replay: ReplayedMatch | None = None
    _audit: list[dict[str, Any]] = field(default_factory=list)

    @property
    def author(self):
        """The user for ``created_by`` fields (None for an anonymous caller)."""
        user = self.user
        return user if user is not None and user.is_authenticated else None

    def replay(self, *, from_round: int = 0) -> ReplayedMatch:
        """The rows as they now stand, replayed by the engine: once per write. The write
        changed round ``from_round`` or later: the settled rounds before it are taken from
        their stored scores, not replayed (``match_replay``'s ``settled_before``)."""
        if self._replay is not None:
            raise RuntimeError("a write replays the match once, after its change")
        self._replay = match_replay(match=self.match, rows=self.rows,
                                    settled_before=from_round)
        return self._replay

    def replay_appended(self, round_: Round, added: list[Turn]) -> ReplayedMatch:
        """:meth:`replay` for turns appended to the round in play: with the caller's replay
        from before the change, the engine plays them on from there (the settled rounds are
        not replayed again); otherwise the whole match is replayed."""
        if self._replay is not None:
            raise RuntimeError("a write replays the match once, after its change")
        if self.before is not None:
            self._replay = match_replay_appended(before=self.before, round_=round_, added=added)
        if self._replay is None:
            self._replay = match_replay(match=self.match, rows=self.rows)
        return self._replay

    @property
    def replayed(self) -> ReplayedMatch:
        if self._replay is None:
            raise RuntimeError("the write has not replayed the match yet")
        return self._replay

    def audit(self, action: str, summary: str, details: dict[str, Any], reason: str = "") -> None:
        """An audit entry, written once the results are stored."""
        self._audit.append({"action": action, "summary": summary, "details": details,
                            "reason": reason})

    def supersede(self, old, new, *, now=None) -> None:
        """Mark the row ``old`` (a Turn or a RoundEnd) superseded by ``new`` (saved here), or by
        nothing (an undo), without losing it."""
        now = now or timezone.now()
        old.superseded_at = now
        old.save(update_fields=["superseded_at"])
        if new is not None:
            new.save()
            old.superseded_by = new
            old.save(update_fields=["superseded_by"])

    def decided(self, round_: Round, old, new, *, summary: str, details: dict[str, Any],
                reason: str) -> None:
        """The referee's decision on a claim (a turn's or a round's settlement), ``new`` the
        version of ``old`` that carries it: superseded, the round un-confirmed when it was
        confirmed (it is confirmed again), audited. One path for both decisions."""
        self.supersede(old, new)
        self.unconfirm(round_)
        self.audit(AuditEntry.Action.DECISION, summary, details, reason)

    def unconfirm(self, round_: Round) -> bool:
        """A change to a confirmed round un-confirms it (the referee confirms it again)."""
        if round_.confirmed_at is None:
            return False
        round_.confirmed_at = None
        round_.confirmed_by = None
        round_.save(update_fields=["confirmed_at", "confirmed_by"])
        return True


def checked_decision(decision: str, reason: str) -> str:
    """The reason of the referee's decision on a claim that differs from the engine (a turn's
    or a round's settlement), stripped: ``engine`` (the engine's figure stands) or ``claim``
    (the claim stands; a reason is required). ValidationError keyed ``decision`` or
    ``reason`` otherwise."""
    reason = reason.strip()
    if decision not in (Turn.Decision.ENGINE, Turn.Decision.CLAIM):
        raise ValidationError({"decision": ValidationError(
            _("Choose the engine's figure or the claim."), code="invalid_decision")})
    if decision == Turn.Decision.CLAIM and not reason:
        raise ValidationError({"reason": ValidationError(
            _("Say why the claim stands against the engine."), code="reason_required")})
    return reason


def submission_saved(*, match_id: int, key: str) -> bool:
    """Was this submission (the key its tablet made) saved before, to this match?"""
    return bool(key) and MatchSubmission.objects.filter(match_id=match_id, key=key).exists()


def _claim_revision(*, match: Match, seen_revision: int, submission_key: str = "") -> Match:
    """Move the match from ``seen_revision`` to the next, or raise StaleMatch (or the
    session's refusal, which comes first). A submission whose key was saved before raises
    AlreadySaved, even when its revision is stale (the same submission sent twice at once:
    the second waits for the first, then finds its key). The key is kept with the write.
    Returns the match after the update (its table, session and tournament loaded): ``match``
    itself when it was read at ``seen_revision`` with them (a copy, its session's state read
    again), else re-read."""
    if submission_saved(match_id=match.pk, key=submission_key):
        raise AlreadySaved(match_id=match.pk, key=submission_key)
    updated = Match.objects.filter(pk=match.pk, revision=seen_revision).update(
        revision=F("revision") + 1
    )
    if updated != 1 and submission_saved(match_id=match.pk, key=submission_key):
        raise AlreadySaved(match_id=match.pk, key=submission_key)
    if updated == 1 and match.revision == seen_revision and _loaded_with_tournament(match):
        # ``match`` was read at the revision claimed: its row is as read (every write to a
        # match raises its revision), its session's state is read again
        match = copy.copy(match)
        match.revision = seen_revision + 1
        match.table.session.refresh_from_db(fields=["status"])
    else:
        match = match_with_tournament(match.pk).get()
    refusal = session_write_refusal(match.table.session)
    if refusal is not None:
        raise refusal
    if updated != 1:
        raise StaleMatch(match_id=match.pk, seen=seen_revision)
    if submission_key:
        MatchSubmission.objects.create(match=match, key=submission_key)
    return match


def _loaded_with_tournament(match: Match) -> bool:
    """``match`` came with its table, session and tournament (``match_with_tournament``)."""
    if not Match.table.is_cached(match):
        return False
    table = match.table
    return (type(table).session.is_cached(table)
            and type(table.session).tournament.is_cached(table.session))


def whole(service: S) -> S:
    """A match service run whole (``tournament.kit.transactions.retried_whole``): in a
    transaction of its own, run again from its start when the database aborted it for a
    deadlock, or when it confirmed or corrected a confirmed match while another write held the
    ratings' turn (``ratings.match_written`` never waits for it with the match locked: the
    second run takes it first). The caller's replay (``before``) serves the first run only: the
    rows it carries were changed in memory by the run rolled back."""

    @functools.wraps(service)
    def run(**arguments: Any) -> Any:
        runs = 0

        def attempt() -> Any:
            nonlocal runs
            runs += 1
            if runs > 1 and "before" in arguments:
                arguments["before"] = None
            return service(**arguments)

        return retried_whole(attempt)

    return run  # type: ignore[return-value]


@contextmanager
def match_write(*, match: Match, user, seen_revision: int, submission_key: str = "",
                before: ReplayedMatch | None = None) -> Iterator[MatchWrite]:
    """The one path of a write to a match (the module's docstring): claim, load, let the
    caller change and replay, then store the results and the audit entries. A
    ``submission_key`` (made by the tablet) is kept with the write: sent again, it raises
    :class:`AlreadySaved` and writes nothing. ``before``: the caller's replay of the match
    (made before the transaction); its rows are used instead of loading them again when they
    were read at ``seen_revision``, which the claim proves still current (every write moves
    the revision in the transaction that changes the rows)."""
    with tournament_write() as versions:
        # a match's write changes its own rows alone, which its revision follows: the other
        # matches' replays stay as they are (the setup version)
        versions.setup = False
        match = _claim_revision(match=match, seen_revision=seen_revision,
                                submission_key=submission_key)
        versions.also(match.table.session.tournament_id)
        if before is not None and before.match.revision == seen_revision:
            rows = before.rows
            rows.match = match
        else:
            before, rows = None, match_rows(match=match)
        if getattr(user, "scorer_device", "") and getattr(user, "seat", None) is None:
            _refuse_disputed(rows)
        write = MatchWrite(match=match, user=user, rows=rows, before=before)
        status_before = match.status
        was_confirmed = status_before == Match.Status.CONFIRMED
        totals_before = list(match.totals)
        yield write
        replay = write.replayed
        closed = match_results_cache(replay=replay)
        ratings.match_written(replay.match, was_confirmed=was_confirmed,
                              totals_before=totals_before)
        for entry in write._audit:
            _audit_entry(match, user, **entry)
        if closed:
            _audit_entry(
                match, user, AuditEntry.Action.MATCH_CLOSED,
                "match over: winners " + ", ".join(replay.winner_names),
                {"totals": list(replay.totals), "winners": list(replay.winners)},
            )
        # A write that leaves a match in play in play (or one not started as it was) moves
        # no state and no result the public's pages show: only the match's own page follows
        # it. One that starts or ends the match, or changes a match over (a correction),
        # moves its state: its session's page and its players' pages. Only a write that
        # confirms the match, or changes a confirmed one, moves the standings (the results
        # version). The versions are raised last, as the tournament write ends: the
        # tournament's row stays locked from that UPDATE to the commit, and every table's
        # writes raise it, so the lock is held for the commit alone.
        if status_before in Match.OVER or replay.match.status != status_before:
            versions.match_state_moved(match.pk)
        versions.results = was_confirmed or replay.match.status == Match.Status.CONFIRMED


def _refuse_disputed(rows: MatchRows) -> None:
    """A round a seat disputes is frozen for the table's scorer: no write of theirs to the
    match until a referee decides (``tournament.matches.signatures``)."""
    disputed = disputed_round(rows)
    if disputed is not None:
        raise ValidationError(
            _("Round %(number)s is disputed: a referee is called, and decides before the "
              "table writes again.") % {"number": disputed.index + 1}, code="round-disputed")


def _audit_entry(match: Match, user, action: str, summary: str, details: dict[str, Any],
                 reason: str = "") -> AuditEntry:
    return AuditEntry.objects.create(
        match=match,
        user=user if user is not None and user.is_authenticated else None,
        # a table's scorer phone (``tournament.matches.scorers.ScorerActor``): its id
        device=getattr(user, "scorer_device", ""),
        action=action,
        summary=summary,
        details=details,
        reason=reason,
    )


_TURN_FIGURES = ("points", "tile_value", "bonus", "bonus_points", "penalty", "verdict", "problems")


def match_results_cache(*, replay: ReplayedMatch) -> bool:
    """Store a replay's results on the rows: every current turn's engine figures, verdict and
    problems; each round's end and scores, and whether its settlement claimed differs
    (``RoundEnd.settlement_differs``); the match's totals, winners, status and finished_at.
    Only changed rows are written; turn rows not in the database yet (a service's
    new rows) are inserted with their figures. Returns True when the match has just closed
    (it was not finished before and is now).
    """
    changed_turns: list[Turn] = []
    changed_rounds: list[Round] = []
    changed_ends: list[RoundEnd] = []
    for round_view in replay.rounds:
        for line in round_view.turns:
            row = line.row
            values = {
                "points": line.points,
                "tile_value": line.tile_value,
                "bonus": line.bonus,
                "bonus_points": line.bonus_points,
                "penalty": line.penalty,
                "verdict": line.verdict,
                "problems": [engine.problem_json(p) for p in line.report.problems],
            }
            if row.pk is None or any(getattr(row, name) != value for name, value in values.items()):
                for name, value in values.items():
                    setattr(row, name, value)
                changed_turns.append(row)
        row = round_view.row
        scores = list(round_view.scores)
        if row.end_kind != round_view.end_kind or row.scores != scores:
            row.end_kind = round_view.end_kind
            row.scores = scores
            changed_rounds.append(row)
        end = round_view.end_row
        if (end is not None and not round_view.stored
                and end.settlement_differs != round_view.settlement_differs):
            end.settlement_differs = round_view.settlement_differs
            changed_ends.append(end)
    new_turns = [row for row in changed_turns if row.pk is None]
    changed_turns = [row for row in changed_turns if row.pk is not None]
    if new_turns:
        Turn.objects.bulk_create(new_turns)
    if changed_turns:
        Turn.objects.bulk_update(changed_turns, _TURN_FIGURES)
    if len(changed_rounds) == 1:  # a turn's write: its round alone, without bulk's CASE
        (row,) = changed_rounds
        Round.objects.filter(pk=row.pk).update(end_kind=row.end_kind, scores=row.scores)
    elif changed_rounds:
        Round.objects.bulk_update(changed_rounds, ["end_kind", "scores"])
    if changed_ends:
        RoundEnd.objects.bulk_update(changed_ends, ["settlement_differs"])

    match = replay.match
    was_finished = match.status in Match.OVER
    if replay.finished:
        status = Match.Status.CONFIRMED if replay.all_rounds_confirmed else Match.Status.FINISHED
    elif replay.turn_count:
        status = Match.Status.PLAYING
    else:
        status = Match.Status.PENDING
    finished_at = match.finished_at if replay.finished else None
    if replay.finished and finished_at is None:
        finished_at = timezone.now()
    match.status = status
    match.totals = list(replay.totals)
    match.winners = list(replay.winners)
    match.finished_at = finished_at
    if status == Match.Status.CONFIRMED and match.confirmed_at is None:
        # Its place in the ratings' history: kept through later corrections.
        match.confirmed_at = timezone.now()
    match.save(update_fields=["status", "totals", "winners", "finished_at", "confirmed_at"])
    return replay.finished and not was_finished
