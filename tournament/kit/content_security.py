"""The Content-Security-Policy of every page (``settings.CONTENT_SECURITY_POLICY``).

The pages load their scripts and styles from the site's own static files only: no inline
script, no ``eval`` (htmx's ``hx-on`` and trigger filters are not used), no other origin. A
script injected into a page (a player's name that escaped its escaping, say) is refused by
the browser. Django 5.2 has no CSP of its own; this is the whole of it.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.deprecation import MiddlewareMixin

HEADER = "Content-Security-Policy"


class ContentSecurityPolicyMiddleware(MiddlewareMixin):
    """Adds the policy to each HTML page and to the service worker's script (the worker
    obeys the policy of its own script). Leaves alone an answer that already has one, and,
    with DEBUG on, Django's own error pages (their inline script and style)."""

    def process_response(self, request, response):
        policy = getattr(settings, "CONTENT_SECURITY_POLICY", "")
        kind = response.get("Content-Type", "")
        if not policy or HEADER in response:
            return response
        if not kind.startswith(("text/html", "text/javascript")):
            return response
        if kind.startswith("text/javascript") and not response.has_header("Service-Worker-Allowed"):
            return response
        if settings.DEBUG and response.status_code in (404, 500):
            return response
        response[HEADER] = policy
        return response
