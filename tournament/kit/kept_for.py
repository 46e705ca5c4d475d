"""Whose login a page was made for, told to the tablet's service worker
(``templates/tournament/matches/offline-worker.js``), which keeps a page for offline only for
the login that opened it.

Every answer carries ``X-Kept-For``: a digest of the account and of its login session (an
HMAC under the secret key: it names neither); for a browser without a login, of its session
when it has one (a table's scorer phone: its binding lives in its session), else ``-``.
Logging out, or another account logging in on the same browser, changes it; the worker then
forgets every page it kept, and never serves a page kept under another value. A page kept
under ``-`` is kept as the server has it, asked for again: with a name of its own, a scorer
phone's page is kept from what it shows after each write, as a referee's tablet's is.
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
    session = getattr(request, "session", None)
    login = (session.session_key if session is not None else None) or ""
    if user is None or not user.is_authenticated:
        if not login:
            return NOBODY
        account = "-"  # a browser's session without a login (a table's scorer phone)
    else:
        account = str(user.pk)
    return salted_hmac("tournament.kit.kept_for", f"{account}:{login}").hexdigest()[:32]


class KeptForMiddleware(MiddlewareMixin):
    """Adds ``X-Kept-For`` to every answer, after the view (a login or a logout in the view
    counts). Sync and async, as Django's own: a match's stream stays in the event loop."""

    def process_response(self, request, response):
        response[HEADER] = kept_for(request)
        return response
