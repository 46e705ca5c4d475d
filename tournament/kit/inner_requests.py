"""A request the app makes of itself: a GET by no one logged in, answered by a view called
directly (no middleware), as a phone of the public would be answered at that address.

A match's stream carries its live part and its table's clock so made
(``tournament/matches/stream/live.py``), and a write to a match makes its live part ahead of
the streams (``tournament/matches/views/live_parts.py``, ``LivePartsAhead``).
"""

from __future__ import annotations

import logging

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.urls import resolve
from django.utils import translation
from django_htmx.middleware import HtmxDetails

logger = logging.getLogger(__name__)

#: The request headers of a phone's request that such a request is made with (where it is
#: addressed: the host, and the scheme behind a proxy).
HOST_HEADERS = ("HTTP_HOST", "SERVER_NAME", "SERVER_PORT", "HTTP_X_FORWARDED_PROTO")


def host_of(meta: dict) -> dict[str, str]:
    """The headers of ``meta`` (a request's) that say where it was addressed."""
    return {name: meta[name] for name in HOST_HEADERS if name in meta}


def anonymous_get(path: str, *, host: dict[str, str], language: str,
                  htmx: bool = False) -> HttpRequest:
    """A GET of ``path`` by no one logged in, addressed as ``host`` says, in ``language``;
    as htmx asks when ``htmx``."""
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = path
    request.META = {**host, "REQUEST_METHOD": "GET", "PATH_INFO": path,
                    "HTTP_ACCEPT_LANGUAGE": language}
    if htmx:
        request.META["HTTP_HX_REQUEST"] = "true"
    request.user = AnonymousUser()
    request.htmx = HtmxDetails(request)  # type: ignore[attr-defined]
    request.resolver_match = resolve(path)
    return request


def anonymous_answer(path: str, *, host: dict[str, str], language: str,
                     htmx: bool = False) -> bytes | None:
    """The body of the answer its view gives to :func:`anonymous_get` of ``path``, in
    ``language``; None when that answer is not a plain 200 (a private tournament's page, a
    page gone, a view that failed: logged, and whoever asked does without)."""
    try:
        with translation.override(language):
            request = anonymous_get(path, host=host, language=language, htmx=htmx)
            match = request.resolver_match
            response = match.func(request, *match.args, **match.kwargs)
    except Exception:
        logger.warning("The answer to %s could not be made", path, exc_info=True)
        return None
    if response.status_code != 200 or response.get("Content-Encoding"):
        return None
    return response.content
