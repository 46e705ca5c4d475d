"""The match's views and a table's scorer phone (``tournament.matches.scorers``): the rule
"a referee of the table, or its bound scorer", written once for every view of a match
(``MatchMixin`` inherits it), and what the match's page shows of the scorer.

- A view says whether the scorer may use it (``scorer_may``): the entry's writes do; a
  referee's alone (a decision on a claim, a round's confirmation, a record uploaded) do not.
- The scorer writes as a device, not a user (``writer``): the audit names its id.
- A phone that is a scorer is refused what it may not do as if the address did not exist
  (404: another table, another session or tournament, a referee's write); one no longer
  bound to this match (a referee took over, or handed the sheet to another phone) is
  answered as a login that expired (401 to a script), so that its offline queue keeps the
  turns it had not sent (``scorer_refused``).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin

from django.http import Http404

from tournament.core.permissions import PermissionMixin, can_referee, can_view
from tournament.kit.addresses import public_site_root
from tournament.kit.qr import qr_png_data_uri
from tournament.matches.scorers import (
    ScorerActor,
    bound_device,
    claims_match,
    scorer_path,
    scorer_unbound_response,
    session_claims,
    table_scorer,
)
from tournament.models import AuditEntry, Match


class ScorerMixin:
    """A match's view and the table's scorer phone (the module's docstring)."""

    #: May a table's bound scorer phone use this view? (The match's page and the entry's
    #: writes say so.)
    scorer_may = False
    #: The id of the scorer phone asking, when it is this match's bound scorer (else None).
    scorer_device: str | None = None

    def login_expired(self, request):
        """A scorer phone has no login: whether it may write is the match's to say."""
        if session_claims(request):
            return None
        return super().login_expired(request)  # type: ignore[misc]

    def access_refusal(self, request):
        """After ``MatchMixin`` read whether the user may write: the match's bound scorer
        phone may too, where ``scorer_may``; it sees its own match, even in a private
        tournament (the tournament's access rule skipped for it alone)."""
        can_write = self.can_write  # type: ignore[attr-defined]
        match = self.match  # type: ignore[attr-defined]
        self.scorer_device = (bound_device(request, match)
                              if not can_write and self.scorer_may else None)
        if self.scorer_device is not None:
            self.can_write = True
            if not can_view(request.user, self.tournament):  # type: ignore[attr-defined]
                return PermissionMixin.access_refusal(self, request)  # type: ignore[arg-type]
        return super().access_refusal(request)  # type: ignore[misc]

    def scorer_refused(self, request, refusal):
        """A write's refusal as a scorer phone gets it (the module's docstring)."""
        if refusal is None or request.user.is_authenticated or not session_claims(request):
            return refusal
        if claims_match(request, self.match.pk) and self.scorer_may:  # type: ignore[attr-defined]
            return scorer_unbound_response(request, self.match)  # type: ignore[attr-defined]
        raise Http404

    def writer(self):
        """Who writes: the user, or the table's scorer phone (its device, in the audit)."""
        if self.scorer_device is not None:
            return ScorerActor(scorer_device=self.scorer_device)
        return self.request.user  # type: ignore[attr-defined]

    def scorer_context(self, request, match: Match, *, url) -> dict[str, Any]:
        """The table's scorer on the match's page: to everyone, whether the table entered the
        match (``entered_by_table``) and who confirmed it (``confirmed_by``: ``seats`` or
        ``referee``); to its phone, where the seats sign (``sign_url``), that it keeps the score (or no longer
        does); to the table's referee, when the tables keep the score, the link's
        state, the link itself and its QR code, the hand-over and the take-over."""
        context: dict[str, Any] = {"is_scorer": self.scorer_device is not None}
        # to everyone: who entered the match (its scorer phone wrote to it), who confirmed it
        context["entered_by_table"] = (
            match.table.session.entry_by_tables and AuditEntry.objects.filter(match=match)
            .exclude(device="").exclude(action=AuditEntry.Action.SCORER_BOUND).exists())
        # a match over confirmed: by every seat's signature (no round confirmed by a user),
        # or by a referee
        context["confirmed_by"] = None
        if context["entered_by_table"] and match.status == Match.Status.CONFIRMED:
            by_user = match.rounds.filter(confirmed_by__isnull=False).exists()
            context["confirmed_by"] = "referee" if by_user else "seats"
        if self.scorer_device is not None:
            context["sign_url"] = url("match_round_sign")
        if self.scorer_device is None and claims_match(request, match.pk):
            context["scorer_unbound"] = not can_referee(request.user, match.table)
        if (self.scorer_device is None and match.table.session.entry_by_tables
                and request.user.is_authenticated and can_referee(request.user, match.table)):
            scorer = table_scorer(match=match)
            link = urljoin(public_site_root(request), scorer_path(scorer))
            context["scorer_panel"] = {
                "scorer": scorer, "link": link, "qr": qr_png_data_uri(link),
                "hand_over_url": url("match_scorer_hand_over"),
                "lock_url": url("match_scorer_lock"),
            }
        return context
