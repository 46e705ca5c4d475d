"""Whose login a page was made for, told to the tablet's service worker
(``templates/tournament/matches/offline-worker.js``), which keeps a page for offline only for
the login that opened it.

Every answer carries ``X-Kept-For``: ``-`` for a visitor who is not logged in, otherwise a
digest of the account and of its login session (an HMAC under the secret key: it names
neither). Logging out, or another account logging in on the same browser, changes it; the
worker then forgets every page it kept, and never serves a page kept under another value.
"""

from __future__ import annotations

from django.utils.crypto import salted_hmac
from django.utils.deprecation import MiddlewareMixin

HEADER = "X-Kept-For"
NOBODY = "-"


def kept_for(request) -> str:
    """The value of ``X-Kept-For`` for this request's login.

    >>> from types import SimpleNamespace
    >>> kept_for(SimpleNamespace(user=SimpleNamespace(is_authenticated=False)))
    '-'
    """
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return NOBODY
    session = getattr(request, "session", None)
    login = session.session_key if session is not None else ""
    return salted_hmac("tournament.kit.kept_for", f"{user.pk}:{login}").hexdigest()[:32]


class KeptForMiddleware(MiddlewareMixin):
    """Adds ``X-Kept-For`` to every answer, after the view (a login or a logout in the view
    counts). Sync and async, as Django's own: a match's stream stays in the event loop."""

    def process_response(self, request, response):
        response[HEADER] = kept_for(request)
        return response
