"""Every seat signs a round (``tournament.matches.signatures``; docs/guides/organiser.md,
"Every seat signs"): a seat's code checked (typed on the scorer phone) or its own link's
(from the seat's phone), then its word written through ``match_write``: agreed, or disputed
with a reason. A dispute freezes the round for the table's scorer and calls a referee (the
room's call, ``tournament.sessions.calls``); the last agreement of every seat confirms the
round through the one confirmation (``round_confirmed``), and the match with its last round.

Both codes are guessed from a phone: their wrong tries are limited per client address and
per match (``tournament.kit.attempts``), as the scorer's link and the room's call are.
"""

from __future__ import annotations

import math
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _

from tournament.kit.attempts import LockedOut, TryLimit, try_claim
from tournament.kit.seats import seat_letter
from tournament.matches.reading.replayed_match import ReplayedMatch
from tournament.matches.scorers import ScorerActor
from tournament.matches.services.rounds import round_confirmed
from tournament.matches.services.scorers import LinkRefused
from tournament.matches.services.write import WriteResult, match_write, whole
from tournament.matches.signatures import (
    code_matches,
    round_digest,
    round_signatures,
    token_seat,
)
from tournament.models import AuditEntry, Match, RefereeCall, RoundSignature, Table, TableScorer
from tournament.sessions.calls import table_call

#: Wrong seat codes allowed from one client's address, and for one match, in any quarter of
#: an hour. A code is one of 31**7 (about 2.8e10): at the match's limit, 80 tries an hour
#: for twelve hours find one of its seats' codes with a chance under 1 in 10 million.
CODE_ADDRESS_LIMIT = TryLimit(scope="seat-code-address", tries=10, seconds=15 * 60)
CODE_MATCH_LIMIT = TryLimit(scope="seat-code-match", tries=20, seconds=15 * 60)
#: Wrong seat links, likewise (132 random bits: the limits are for the server's sake).
LINK_ADDRESS_LIMIT = TryLimit(scope="seat-link-address", tries=10, seconds=15 * 60)
LINK_MATCH_LIMIT = TryLimit(scope="seat-link-match", tries=20, seconds=15 * 60)
#: A dispute's reason, at most.
REASON_MAX_LENGTH = 500


def _limits(address_limit: TryLimit, match_limit: TryLimit, *, match: Match,
            address: str | None):
    limits = [(match_limit, str(match.pk))]
    if address:
        limits.insert(0, (address_limit, address))
    return limits


def _locked_out(locked: LockedOut, *, field: str | None) -> ValidationError:
    retry_at = timezone.localtime(timezone.now() + timedelta(seconds=locked.seconds))
    error = ValidationError(
        _("Too many wrong codes: try again at %(time)s, in %(minutes)s min."),
        code="locked-out", params={"seconds": locked.seconds,
                                   "minutes": math.ceil(locked.seconds / 60),
                                   "time": time_format(retry_at, "H:i")})
    return ValidationError({field: error}) if field else error


def _table_scorer(match: Match) -> TableScorer | None:
    return TableScorer.objects.filter(match=match).first()


def seat_code_checked(*, match: Match, seat: int, code: str, address: str | None) -> None:
    """Is ``code`` seat ``seat``'s code on the table's sheet as it now is? Each try counts
    against the address and the match until found right (``CODE_ADDRESS_LIMIT``,
    ``CODE_MATCH_LIMIT``); past either limit the code is not even compared. ValidationError
    keyed ``code``: ``wrong-code`` or ``locked-out``."""
    try:
        claimed = try_claim(_limits(CODE_ADDRESS_LIMIT, CODE_MATCH_LIMIT, match=match,
                                    address=address))
    except LockedOut as locked:
        raise _locked_out(locked, field="code") from None
    scorer = _table_scorer(match)
    if scorer is None or not code_matches(scorer, seat, code):
        raise ValidationError({"code": ValidationError(
            _("This is not the code printed beside this seat's name."), code="wrong-code")})
    claimed.right()


def seat_link_checked(*, match: Match, token: str, address: str | None) -> int:
    """The seat whose own link ``token`` is, when the match's session is entered by the
    tables; :class:`LinkRefused` otherwise. Counted as the scorer's link is; past a limit,
    ValidationError ``locked-out``."""
    try:
        claimed = try_claim(_limits(LINK_ADDRESS_LIMIT, LINK_MATCH_LIMIT, match=match,
                                    address=address))
    except LockedOut as locked:
        raise _locked_out(locked, field=None) from None
    scorer = _table_scorer(match)
    seat = (token_seat(scorer, token, match.table.seats.count())
            if scorer is not None else None)
    if seat is None:
        raise LinkRefused
    claimed.right()
    if not match.table.session.entry_by_tables:
        raise LinkRefused
    return seat


def _revision_now(match: Match) -> int:
    """The match's revision as it now is, its row locked to the end of the transaction: the
    write's claim of it that follows cannot find it stale (the claim's own lock, taken first)."""
    return Match.objects.select_for_update().values_list("revision", flat=True).get(pk=match.pk)


@whole
def round_sign(*, match: Match, user: ScorerActor, round_index: int, digest: str, agreed: bool,
               reason: str = "", own_phone: bool = False, submission_key: str = "",
               before: ReplayedMatch | None = None) -> WriteResult[RoundSignature]:
    """Seat ``user.seat`` (its code or link checked by the caller) says of round
    ``round_index`` as it stood when read (``digest``) that it agrees, or disputes it
    (``reason`` required). A seat signs the round's digest, not a revision of the match it
    was shown: its word is written against the match as it now is (another seat's word
    saved meanwhile does not refuse it), and the digest, made again from the rows as they
    now are, is the guard. Refused, writing nothing (``ValidationError`` with a code): the
    session not entered by the tables, the table taken over by a referee, the round not
    closed or already confirmed, the round changed since it was read (``round-changed``),
    the seat having said its word on it (``already-signed``). A dispute calls a referee;
    every seat's agreement confirms the round (refused as a referee's confirmation would be
    when the engine finds a problem in it: a referee decides)."""
    reason = " ".join(str(reason).split())[:REASON_MAX_LENGTH]
    if not agreed and not reason:
        raise ValidationError({"reason": ValidationError(
            _("Say what you disagree with: the referee reads it."), code="reason_required")})
    with match_write(match=match, user=user, seen_revision=_revision_now(match),
                     submission_key=submission_key, before=before) as write:
        rows, seat = write.rows, user.seat
        session = write.match.table.session
        scorer = _table_scorer(write.match)
        if not session.entry_by_tables or scorer is None:
            raise ValidationError(_("This session's matches are entered by the referees."),
                                  code="not-by-tables")
        if scorer.locked:
            raise ValidationError(_("A referee has taken over this table: ask them."),
                                  code="scorer-locked")
        if seat is None or not 0 <= seat < len(rows.seats):
            raise ValidationError(_("Choose your seat."), code="seat-invalid")
        round_ = next((r for r in rows.rounds if r.index == round_index), None)
        number = {"number": round_index + 1}
        if round_ is None or round_.pk not in rows.ends:
            raise ValidationError(
                _("Round %(number)s has no racks entered yet: there is nothing to sign.")
                % number, code="round_not_closed")
        if round_.confirmed_at is not None:
            raise ValidationError(_("Round %(number)s is already confirmed.") % number,
                                  code="already_confirmed")
        current = round_digest(rows, round_)
        if digest != current:
            raise ValidationError(
                _("Round %(number)s changed since you read it: read it again, then sign.")
                % number, code="round-changed")
        signatures = list(round_.signatures.all())
        if any(s.seat == seat and s.digest == current for s in signatures):
            raise ValidationError(
                _("This seat has already signed round %(number)s as it stands.") % number,
                code="already-signed")
        signature = RoundSignature.objects.create(
            round=round_, seat=seat, digest=current, agreed=agreed,
            reason="" if agreed else reason, device=user.scorer_device, own_phone=own_phone)
        signatures.append(signature)
        name = rows.names[seat]
        write.audit(
            AuditEntry.Action.ROUND_SIGNED if agreed else AuditEntry.Action.ROUND_DISPUTED,
            f"round {round_index + 1}: seat {seat_letter(seat)} ({name}) "
            f"{'agreed' if agreed else 'disputed'}"
            f" {'from its own phone' if own_phone else 'on the scorer phone'}",
            {"round": round_index, "seat": seat, "digest": current[:12], "agreed": agreed,
             "own_phone": own_phone},
            "" if agreed else reason)
        state = round_signatures(signatures, digest=current, seats=len(rows.seats))
        if not agreed:
            table = Table.objects.select_for_update().select_related("session").get(
                pk=write.match.table_id)
            table_call(table=table, reason=RefereeCall.Reason.DISPUTE)
        if state.complete:
            _round, replay = round_confirmed(write, round_index=round_index, by_seats=True)
        else:
            replay = write.replay(from_round=round_index)
    return WriteResult(saved=signature, replay=replay, round_index=round_index)
