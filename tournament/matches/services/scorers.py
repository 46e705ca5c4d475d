"""A table's scorer link, written: a phone bound by it, the sheet handed to another phone
(a new link, the old one refused), the table taken over by a referee (the link locked)
(``tournament.matches.scorers``; docs/guides/organiser.md, "Tables that keep their own
score").

Each is a ``tournament_write`` that leaves the results as they were, audited in the match's
log (``AuditEntry``: the scorer's device, or the referee). Opening a link is a code guessed
from a phone: its wrong tries are limited per client address and per match
(``tournament.kit.attempts``), as the room's call for a referee is.
"""

from __future__ import annotations

import math
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _

from tournament.core.freshness import tournament_write
from tournament.kit.attempts import LockedOut, TryLimit, try_claim
from tournament.matches.scorers import new_salt, table_scorer, token_matches
from tournament.models import AuditEntry, Match, Session, TableScorer

#: Wrong links allowed from one client's address (whatever the match), and for one match
#: (whatever the address), in any quarter of an hour; then that address, or that match, is
#: locked out until its oldest wrong try is a quarter of an hour old. A link is 132 random
#: bits: the limits are for the server's sake, no guess comes near.
LINK_ADDRESS_LIMIT = TryLimit(scope="scorer-address", tries=10, seconds=15 * 60)
LINK_MATCH_LIMIT = TryLimit(scope="scorer-match", tries=20, seconds=15 * 60)


class LinkRefused(Exception):
    """Not the link of a match whose table keeps its score: answered as no such page."""


def _locked_out(locked: LockedOut) -> ValidationError:
    retry_at = timezone.localtime(timezone.now() + timedelta(seconds=locked.seconds))
    return ValidationError(
        _("Too many wrong links: try again at %(time)s, in %(minutes)s min."),
        code="locked-out", params={"seconds": locked.seconds,
                                   "minutes": math.ceil(locked.seconds / 60),
                                   "time": time_format(retry_at, "H:i")})


def scorer_link_checked(*, match: Match, token: str, address: str | None) -> TableScorer:
    """The scorer link of ``match`` when ``token`` is it and the match's session is entered by
    the tables; :class:`LinkRefused` otherwise. Each try counts against the address and the
    match until it is found right (``LINK_ADDRESS_LIMIT``, ``LINK_MATCH_LIMIT``); past either
    limit the token is not even compared: ``ValidationError`` with the code ``locked-out``."""
    limits = [(LINK_MATCH_LIMIT, str(match.pk))]
    if address:
        limits.insert(0, (LINK_ADDRESS_LIMIT, address))
    try:
        claimed = try_claim(limits)
    except LockedOut as locked:
        raise _locked_out(locked) from None
    scorer = TableScorer.objects.filter(match=match).first()
    if scorer is None or not token_matches(scorer, token):
        raise LinkRefused
    claimed.right()
    if not match.table.session.entry_by_tables:
        raise LinkRefused
    return scorer


def scorer_refusal(scorer: TableScorer, session: Session, *, device: str) -> ValidationError | None:
    """Why the link's holder may not keep the score on ``device`` now, or None."""
    if session.status == Session.Status.FINISHED:
        return ValidationError(_("Session %(number)s is closed: its matches take no more "
                                 "entries.") % {"number": session.number}, code="session_closed")
    if scorer.locked:
        return ValidationError(_("A referee has taken over this table: ask them."),
                               code="scorer-locked")
    if scorer.device and scorer.device != device:
        return ValidationError(_("Another phone keeps this table's score. To move it to this "
                                 "phone, ask a referee to hand the sheet over."),
                               code="scorer-taken")
    return None


def scorer_bind(*, match: Match, token: str, device: str, address: str | None) -> TableScorer:
    """Make ``device`` the scorer of ``match`` by its link (checked, counted:
    :func:`scorer_link_checked`). Refused (``ValidationError``) when the session is closed,
    the link locked, or another device is bound; the same device bound again writes nothing."""
    scorer = scorer_link_checked(match=match, token=token, address=address)
    with tournament_write(tournament_id=match.table.session.tournament_id,
                          results=False) as write:
        scorer = TableScorer.objects.select_for_update().get(pk=scorer.pk)
        if not token_matches(scorer, token):  # handed over meanwhile
            raise LinkRefused
        session = Session.objects.get(pk=match.table.session_id)
        refusal = scorer_refusal(scorer, session, device=device)
        if refusal is not None:
            raise refusal
        if scorer.device == device:
            write.nothing_changed()
            return scorer
        scorer.device, scorer.bound_at = device, timezone.now()
        scorer.changed_at = scorer.bound_at
        scorer.save(update_fields=["device", "bound_at", "changed_at"])
        AuditEntry.objects.create(
            match=match, action=AuditEntry.Action.SCORER_BOUND, device=device,
            summary=f"scorer bound: device {device}", details={"device": device})
        return scorer


def _referee_change(*, match: Match, user, action: str, reason: str = "") -> TableScorer:
    with tournament_write(tournament_id=match.table.session.tournament_id, results=False):
        table_scorer(match=match)
        scorer = TableScorer.objects.select_for_update().get(match=match)
        before = scorer.device
        if action == AuditEntry.Action.SCORER_HANDED_OVER:
            scorer.salt, scorer.locked = new_salt(), False
            summary = f"score sheet handed over: new link, device {before or '-'} unbound"
        else:
            scorer.locked = True
            summary = f"table taken over: link locked, device {before or '-'} unbound"
        scorer.device, scorer.bound_at, scorer.changed_at = "", None, timezone.now()
        scorer.save(update_fields=["salt", "locked", "device", "bound_at", "changed_at"])
        AuditEntry.objects.create(
            match=match, user=user if user.is_authenticated else None, action=action,
            summary=summary, details={"unbound": before}, reason=reason)
        return scorer


def scorer_hand_over(*, match: Match, user) -> TableScorer:
    """A new link for the table (to open on another phone): the old link is refused, the
    device bound is no longer the scorer (told at its next request; what it queued stays
    on it, refused until it is bound again), the table unlocked."""
    return _referee_change(match=match, user=user, action=AuditEntry.Action.SCORER_HANDED_OVER)


def scorer_lock(*, match: Match, user) -> TableScorer:
    """A referee takes over the table: the device bound is no longer the scorer, the link
    is refused until the sheet is handed over (:func:`scorer_hand_over`)."""
    return _referee_change(match=match, user=user, action=AuditEntry.Action.SCORER_LOCKED)
