"""A table's scorer: the phone that keeps its match's score when the session's matches are
entered by the tables (``Session.entry_by_tables``; docs/guides/organiser.md, "Tables that
keep their own score").

The table's score sheet carries a private link (:func:`scorer_path`): a keyed hash of the
match and of its ``TableScorer.salt`` under the site's secret key, 22 characters of base64
(132 bits), which nothing stores. Opening it on a phone, and saying so, binds that phone (its
browser's session) to the match as its scorer (``tournament.matches.services.scorers``); the
phone then writes to that match, and to no other, through the same entry as a referee's
tablet (``MatchMixin``: "a referee of the table, or its bound scorer").

What a request says of itself is kept in its session (:data:`SESSION_KEY`): the device's id
and the matches it was bound to; the database says whether it still is
(:func:`bound_device`), so a referee's take-over or hand-over is seen at the phone's next
request.
"""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.http import HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac

from tournament.models import Match, TableScorer

SALT = "tournament.matches.scorers"
#: The link's token: 22 characters of base64 (132 bits of the keyed hash).
TOKEN_LENGTH = 22
#: Where a browser's session keeps its scorer's id and the matches it was bound to.
SESSION_KEY = "table_scorer"


def new_salt() -> str:
    """A new link's salt: 128 random bits."""
    return secrets.token_urlsafe(16)


def scorer_token(match_id: int, salt: str) -> str:
    """The token of a match's scorer link made with ``salt``."""
    digest = salted_hmac(SALT, f"{match_id}:{salt}", algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest).decode()[:TOKEN_LENGTH]


def token_matches(scorer: TableScorer, token: str) -> bool:
    """Is ``token`` the link of ``scorer`` as it now is (compared in constant time)?"""
    return (isinstance(token, str) and len(token) == TOKEN_LENGTH
            and constant_time_compare(token, scorer_token(scorer.match_id, scorer.salt)))


def table_scorer(*, match: Match) -> TableScorer:
    """The match's scorer link (made the first time it is asked for: its salt)."""
    scorer = TableScorer.objects.filter(match=match).first()
    if scorer is not None:
        return scorer
    try:
        with transaction.atomic():
            return TableScorer.objects.create(match=match, salt=new_salt())
    except IntegrityError:  # made meanwhile by another request
        return TableScorer.objects.get(match=match)


def scorer_path(scorer: TableScorer) -> str:
    """The scorer link's address (short: the match's id and the token)."""
    return reverse("tournament:scorer_link", kwargs={
        "match_id": scorer.match_id, "token": scorer_token(scorer.match_id, scorer.salt)})


@dataclass(frozen=True)
class ScorerActor:
    """Who writes when a table's scorer phone does: no user, a device. The write path reads
    ``scorer_device`` into the audit (``AuditEntry.device``). ``seat``: a seat signing a
    round (``tournament.matches.signatures``) on that device, rather than the scorer."""

    scorer_device: str
    seat: int | None = None
    is_authenticated: bool = False
    is_active: bool = False
    is_superuser: bool = False
    pk: None = None


def session_claims(request) -> dict:
    """What the browser's session says of its scorer: ``{"device": id, "matches": [ids]}``,
    or an empty dict (no scorer ever bound from this browser)."""
    claims = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
    return claims if isinstance(claims, dict) else {}


def claims_match(request, match_id: int) -> bool:
    """Does this browser say it keeps the score of match ``match_id``? (Not checked yet.)"""
    return match_id in session_claims(request).get("matches", [])


def device_of(request) -> str:
    """This browser's scorer id, made and kept in its session the first time it is asked."""
    claims = session_claims(request)
    device = claims.get("device")
    if not isinstance(device, str) or not device:
        device = secrets.token_urlsafe(12)
        request.session[SESSION_KEY] = {"device": device, "matches": []}
    return device


def remember_binding(request, match_id: int) -> None:
    """Keep in the browser's session that it is bound to ``match_id``."""
    device = device_of(request)
    matches = [m for m in session_claims(request).get("matches", []) if m != match_id]
    request.session[SESSION_KEY] = {"device": device, "matches": [*matches[-7:], match_id]}


def bound_device(request, match: Match) -> str | None:
    """The id of this browser when it is the bound scorer of ``match`` now (its session in
    the tables' hands, its link not locked, this device the one bound), else None. One
    query, and only for a browser whose session says it is."""
    if not claims_match(request, match.pk):
        return None
    device = session_claims(request).get("device")
    if not device or not match.table.session.entry_by_tables:
        return None
    bound = TableScorer.objects.filter(match=match, device=device, locked=False).exists()
    return device if bound else None


def scorer_unbound_response(request, match: Match) -> HttpResponse:
    """The answer to a phone that was this match's scorer and no longer is: to a script
    (htmx, the offline queue) a 401 whose ``X-Login-Url`` is the match's page, which says
    why (the queue keeps the writes it had not sent, as after a login that expired); to a
    browser, that page."""
    page = reverse("tournament:match", kwargs={
        "slug": match.table.session.tournament.slug, "match_id": match.pk})
    if request.headers.get("HX-Request") == "true":
        response = HttpResponse("no longer the table's scorer", status=401,
                                content_type="text/plain")
        response["X-Login-Url"] = page
        response[UNBOUND_HEADER] = "unbound"
        return response
    return HttpResponseRedirect(page)


#: The header of the answer to a scorer phone no longer bound.
UNBOUND_HEADER = "X-Scorer"
