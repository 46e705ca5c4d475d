"""The public pages as the room's phones read them: kept once made, 304 when nothing changed.

Every phone of the room polls the standings, its table's match or its player page every few
seconds. For a reader who is not logged in (the public: the page is the same for all of them),
a page and its polled fragment are answered from a copy kept in the shared cache
(:func:`tournament.kit.cache.cached_copy`), made once per change of what the page shows (its
version, :meth:`CachedPageMixin.page_version`, from :mod:`tournament.core.freshness`),
whatever the number of phones; the answer carries an ETag named by that version, so that a poll with nothing new is answered 304 after
one or two indexed reads (the tournament's row, which the view loads anyway, and the
revisions of the matches the page shows).

The key names what the page is, never what a client chooses freely: the tournament, the view
and its arguments as the site writes them (a request for ``/players/007/`` or with any query
string is answered as before, made for it alone), the language (one of ``LANGUAGES``) and
whether it is the page or its live fragment. The CSRF token, the one part of a page that
differs from one reader to the next (the language switcher and htmx's headers carry it), is
kept as a marker and replaced by the reader's own token on the way out.

A copy without that token (the live fragments the phones poll: no form in them) is kept
compressed, as ``GZipMiddleware`` would send it (its random bytes against BREACH made once
per copy: such a page holds no secret to guess): every phone that takes it is sent those
bytes as they are, neither compressed again nor unpickled whole from the cache (the session's
tables of 512 players are 126 KB, 7 KB compressed).

Each process keeps the copies it last served in front of the shared cache (:data:`KEPT_HERE`,
bounded in entries and bytes): a copy is a page at a version, never changed once made, so
the one a process holds answers every reader whose version it is (or an older one) with no
read of the shared cache; a newer version reads the shared cache as before, and the copy it
finds or makes replaces the one kept here. The streams' live parts, the polls' 200s and the
pages opened take most of their copies from here.
"""

from __future__ import annotations

import gzip
import re

from django.contrib import messages
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import http_date
from django.utils.text import compress_string
from django.utils.translation import get_language

from tournament.kit.bounded import BoundedMap
from tournament.kit.cache import CachedCopy, cached_copy, conditional_answer, etag

#: Stands for the reader's CSRF token in a kept page (letters, digits and dashes: the
#: templates' escaping leaves it as it is).
CSRF_MARKER = "kept-page-csrf-token-marker"
#: How long a reader waits for the first copy of a page another worker is making.
PAGE_WAIT_SECONDS = 5.0
#: A copy shorter than this is kept as it is (``GZipMiddleware`` leaves it uncompressed too).
COMPRESS_FROM_BYTES = 200
#: The random bytes in a compressed copy's header, as ``GZipMiddleware`` puts them.
COMPRESS_RANDOM_BYTES = 100
#: The shape of a kept copy, in its key: a server of another shape (an upgrade during an event,
#: or its rollback) neither reads nor overwrites this one's copies. 2: (content, its encoding,
#: its type), the content compressed when it holds no token.
COPY_FORMAT = 2
#: A reader that takes gzip (``GZipMiddleware``'s test).
ACCEPTS_GZIP = re.compile(r"\bgzip\b")
#: The copies a process keeps in front of the shared cache: at most this many, and this many
#: bytes of content (a room of 256 tables serves some 1,500 public pages and parts, most of a
#: few kilobytes compressed).
KEPT_HERE_ENTRIES = 4096
KEPT_HERE_BYTES = 32 * 1024 * 1024
KEPT_HERE: BoundedMap[str, CachedCopy] = BoundedMap(
    entries=KEPT_HERE_ENTRIES, weight=KEPT_HERE_BYTES, weigh=lambda copy: len(copy.content[0]))


class NotCacheable(Exception):
    """The page answered something other than a plain 200 (a 404, a redirect): not kept."""

    def __init__(self, response) -> None:
        super().__init__()
        self.response = response


class CachedPageMixin:
    """For a view of a tournament (``TournamentMixin`` first) whose :meth:`page` renders a
    ``TemplateResponse``: the public's copies kept, and 304 to a poll with nothing new."""

    http_method_names = ["get", "head"]

    def page(self, request, *args, **kwargs):
        raise NotImplementedError

    def page_version(self) -> int:
        """The version of what the page shows, read before the page's data
        (:mod:`tournament.core.freshness`): by default the tournament's data version, which
        every write raises; a page that shows less keys on less and stays a 304 longer."""
        return self.tournament.data_version

    def page_key(self, request) -> str | None:
        """The copy's key for this request, or None when it is made for this reader alone
        (``for_public``)."""
        if not self.for_public(request):
            return None
        return self.public_key(request, tournament_id=self.tournament.pk)

    def for_public(self, request) -> bool:
        """Whether this reader is sent the public's copy: not when logged in, with a query
        string, at an address not written as the site writes it, or with messages waiting to
        be shown."""
        match = request.resolver_match
        return not (
            request.user.is_authenticated
            or request.GET
            or match is None
            or request.path != reverse(f"{match.namespace}:{match.url_name}", kwargs=match.kwargs)
            or len(messages.get_messages(request))
        )

    @staticmethod
    def public_key(request, *, tournament_id: int) -> str:
        """The key of the public's copy of this address, in the tournament ``tournament_id``."""
        part = "fragment" if request.htmx else "page"
        return f"page:{COPY_FORMAT}:{tournament_id}:{request.path}:{get_language()}:{part}"

    #: The page's version read from its address alone, before its tournament is loaded
    #: (``tournament.core.freshness.VersionRead``, called with the address's arguments), for
    #: a public poll answered 304 after that one read; None: ``page_version`` of the tournament
    #: loaded.
    version_read = None
    #: What ``version_read`` read for this request (``unchanged_answer``).
    read_version = None

    def unchanged_answer(self, request):
        """With a ``version_read``, for a poll (``If-None-Match``) of a reader sent the
        public's copy (``for_public``): the version read, before anything else of the request
        (kept in ``read_version``: the version the answer is made at), and a 304 at once when
        the tournament is public and the poll names that version. None otherwise: the view
        answers whole, privacy and all (a request without an ETag, the stream's live part
        among them, reads its version with the tournament: ``page_version``)."""
        if (self.version_read is None or "HTTP_IF_NONE_MATCH" not in request.META
                or not self.for_public(request)):
            return None  # not a poll of the public's copy: the view reads its version
        self.read_version = read = self.version_read(**self.kwargs)
        if read is None or not read.is_public:
            return None
        key = self.public_key(request, tournament_id=read.tournament_id)
        not_modified = conditional_answer(request, etag(key, read.version))
        if not_modified is None:
            return None
        return self.with_cache_headers(not_modified, key=key, version=read.version)

    def get(self, request, *args, **kwargs):
        key = self.page_key(request)
        if key is None:
            response = self.page(request, *args, **kwargs)
            patch_vary_headers(response, ("HX-Request",))
            return response
        version = self.read_version.version if self.read_version is not None \
            else self.page_version()
        not_modified = conditional_answer(request, etag(key, version))
        if not_modified is not None:
            return self.with_cache_headers(not_modified, key=key, version=version)

        def make() -> tuple[bytes, str]:
            response = self.page(request, *args, **kwargs)
            if not isinstance(response, TemplateResponse) or response.status_code != 200:
                raise NotCacheable(response)
            response.context_data["csrf_token"] = CSRF_MARKER
            response.render()
            return kept_content(response.content) + (response["Content-Type"],)

        try:
            made = kept_page(key=key, version=version, make=make)
        except NotCacheable as refused:
            return refused.response
        content, encoding, content_type = made.content
        if encoding == "gzip" and ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")):
            response = HttpResponse(content, content_type=content_type)
            response["Last-Modified"] = http_date(made.made_at.timestamp())
            response = self.with_cache_headers(response, key=key, version=made.version)
            # what GZipMiddleware would have done, which leaves an encoded answer alone
            patch_vary_headers(response, ("Accept-Encoding",))
            response["Content-Length"] = str(len(content))
            response["ETag"] = f"W/{response['ETag']}"
            response["Content-Encoding"] = "gzip"
            return response
        if encoding == "gzip":
            content = gzip.decompress(content)
        marker = CSRF_MARKER.encode()
        if marker in content:
            content = content.replace(marker, get_token(request).encode())
        response = HttpResponse(content, content_type=content_type)
        response["Last-Modified"] = http_date(made.made_at.timestamp())
        return self.with_cache_headers(response, key=key, version=made.version)

    @staticmethod
    def with_cache_headers(response, *, key: str, version: int):
        response["ETag"] = etag(key, version)
        patch_cache_control(response, no_cache=True)
        patch_vary_headers(response, ("HX-Request",))
        return response


def kept_page(*, key: str, version: int, make) -> CachedCopy:
    """The copy of the page under ``key`` for ``version``: this process's (``KEPT_HERE``)
    when it is at that version or a newer one, else the shared cache's (``cached_copy``),
    kept here once it is current."""
    here = KEPT_HERE.get(key)
    if here is not None and here.version >= version:
        return here
    made = cached_copy(key=key, version=version, make=make, wait_seconds=PAGE_WAIT_SECONDS)
    if made.version >= version:  # not the copy before, served while another worker makes it
        KEPT_HERE.put(key, made, unless=lambda current: current.version > made.version)
    return made


def forget_kept_pages() -> None:
    """Drop every copy this process keeps (the tests: a test's database may reuse ids)."""
    KEPT_HERE.clear()


def kept_content(content: bytes) -> tuple[bytes, str]:
    """A page's content as kept, and its encoding: compressed ("gzip") when it holds no CSRF
    token and compressing makes it shorter, as it is ("") otherwise."""
    if CSRF_MARKER.encode() in content or len(content) < COMPRESS_FROM_BYTES:
        return content, ""
    compressed = compress_string(content, max_random_bytes=COMPRESS_RANDOM_BYTES)
    if len(compressed) >= len(content):
        return content, ""
    return compressed, "gzip"
