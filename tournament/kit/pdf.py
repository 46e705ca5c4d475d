"""Templates to PDF with WeasyPrint, static files read from disk and never over HTTP.

A printed page is an ordinary template (``templates/printing/...``) whose stylesheet is linked
with ``{% static %}``; the same template serves the HTML preview. WeasyPrint resolves every
address against the site's root, and :class:`StaticFilesFetcher` answers the ``/static/`` ones
from the static files finders (or ``STATIC_ROOT`` once collected) and refuses anything else:
a PDF never waits on the network, and never reaches a file outside the static files.
"""

from __future__ import annotations

import hashlib
import mimetypes
import posixpath
from functools import cached_property
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.http import http_date
from django.utils.translation import get_language
from django.views.generic import View
from weasyprint import HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from tournament.kit.cache import CachedCopy, cached_copy, conditional_answer, etag
from tournament.kit.formats import long_datetime

#: Where relative addresses point when no request gives the site's root (commands, tests).
DEFAULT_SITE_ROOT = "http://localhost:8000/"


class StaticFileNotFound(ValueError):
    """An address under STATIC_URL that names no static file."""


class RefusedAddress(ValueError):
    """An address outside the static files: printing never fetches it."""


def static_file_path(name: str) -> Path:
    """The file on disk behind the static file ``name`` (e.g. ``printing/print.css``).

    The finders first (the apps' ``static/`` folders, as in development), then the collected
    files in ``STATIC_ROOT`` (production, where ``{% static %}`` names hashed copies).
    """
    found = finders.find(name)
    if found:
        return Path(found)
    if staticfiles_storage.exists(name):
        return Path(staticfiles_storage.path(name))
    raise StaticFileNotFound(f"no static file {name!r}")


class StaticFilesFetcher(URLFetcher):
    """Serves ``<any host>/static/...`` from disk; refuses every other address.

    ``data:`` addresses (small inline images) are allowed: they fetch nothing.
    """

    def fetch(self, url, headers=None):
        parts = urlsplit(url)
        if parts.scheme == "data":
            return super().fetch(url, headers)
        static_prefix = "/" + settings.STATIC_URL.strip("/") + "/"
        path = unquote(parts.path)
        inside = posixpath.normpath(path) + ("/" if path.endswith("/") else "") == path
        if parts.scheme not in {"http", "https"} or not path.startswith(static_prefix) or not inside:
            raise RefusedAddress(f"printing reads static files only, not {url}")
        file_path = static_file_path(path.removeprefix(static_prefix))
        content_type = mimetypes.guess_type(file_path.name)[0] or "application/octet-stream"
        headers = {"Content-Type": content_type}
        if content_type.startswith("text/"):
            headers["Content-Type"] = f"{content_type}; charset=utf-8"
        return URLFetcherResponse(url, file_path.read_bytes(), headers)


def html_to_pdf(html: str, *, site_root: str = DEFAULT_SITE_ROOT) -> bytes:
    """The PDF of an HTML document; relative addresses resolve against ``site_root``."""
    fetcher = StaticFilesFetcher(fail_on_errors=True)
    document = HTML(string=html, base_url=site_root, url_fetcher=fetcher)
    return document.write_pdf(font_config=FontConfiguration())


def render_pdf(
    template_name: str, context: dict, *, request=None, site_root: str | None = None
) -> bytes:
    """Render ``template_name`` with ``context`` and return the PDF's bytes.

    ``site_root`` (e.g. ``http://192.168.1.10:8000/``) defaults to the request's, so that the
    links in the PDF work; without a request, :data:`DEFAULT_SITE_ROOT`.
    """
    if site_root is None:
        site_root = request.build_absolute_uri("/") if request is not None else DEFAULT_SITE_ROOT
    html = render_to_string(template_name, context, request=request)
    return html_to_pdf(html, site_root=site_root)


#: Stands for the time a kept document is printed at, in its HTML (``printed_at``): the
#: HTML without it says what the document shows, whenever it is printed.
PRINTED_AT_MARKER = "printed-at-time-marker"


#: How long a reader waits for the first copy of a document another worker is making.
PDF_WAIT_SECONDS = 60.0


def readers_key(tournament_ids) -> str:
    """A short name for the set of tournaments a reader may see, for the key of a document
    across tournaments: the readers who see the same ones share its kept copies."""
    ids = ",".join(str(pk) for pk in sorted(set(tournament_ids)))
    return hashlib.sha256(ids.encode()).hexdigest()[:16]


class PdfView(View):
    """Renders ``template_name`` with :meth:`document_context` as a PDF; ``?html`` shows the
    HTML instead (a preview in the browser, with the same stylesheet).

    A document asked for again and again (a confirmed match's sheet, the seating as a session
    starts, the standings as it ends: every phone of the room) names itself in
    :meth:`cache_name` and is kept once made (:func:`tournament.kit.cache.cached_copy`, shared by every
    worker): until the tournament's next write, the kept PDF is sent as it is; after a write,
    the document's HTML is made again (milliseconds) and, when it says the same, the kept PDF
    stays; when it differs, one worker makes the new PDF (seconds) while the others send the
    one before, which prints the time it was made (``printed_at``; ``Last-Modified`` too).
    Nothing in the key or the document comes from the request but the language: the kept
    documents print no address (their stylesheet is read from disk whatever the site's root).
    """

    http_method_names = ("get", "head")
    template_name = ""

    def document_context(self) -> dict | HttpResponse:
        """The template's context, or a response that refuses (a bad option, say)."""
        raise NotImplementedError

    @cached_property
    def context(self) -> dict | HttpResponse:
        """:meth:`document_context`, made once a request."""
        return self.document_context()

    def cache_name(self) -> str | None:
        """What this document is (e.g. ``standings:<tournament>``), to keep it under; None:
        made at each request. The language is added to it."""
        return None

    def data_version(self) -> int | None:
        """The data version the kept copy follows: the tournament's. None for a document
        across tournaments (the ratings, a league, a career), which no one version follows:
        its kept copy is compared by what it shows, the digest of its HTML, at each request
        (milliseconds), and made again when that differs."""
        return self.tournament.data_version

    def filename(self) -> str:
        raise NotImplementedError

    def get(self, request, *args, **kwargs):
        if "html" not in request.GET and (name := self.cache_name()) is not None:
            return self.cached_response(request, f"printing:{name}:{get_language()}")
        context = self.context
        if isinstance(context, HttpResponse):
            return context
        context = {**context, "printed_at": self.printed_at()}
        if "html" in request.GET:
            return TemplateResponse(request, self.template_name, context)
        return self.pdf_response(render_pdf(self.template_name, context, request=request))

    def cached_response(self, request, key: str) -> HttpResponse:
        version = self.data_version()
        html: list[str] = []

        def shown() -> str:
            if not html:
                html.append(render_to_string(
                    self.template_name, {**self.context, "printed_at": PRINTED_AT_MARKER},
                    request=request,
                ))
            return hashlib.sha256(html[0].encode()).hexdigest()

        if version is None:  # compared by what it shows: the HTML first
            if isinstance(self.context, HttpResponse):
                return self.context
            copy_etag = etag(key, shown())
        else:
            copy_etag = etag(key, version)
        not_modified = conditional_answer(request, copy_etag)
        if not_modified is not None:
            not_modified["ETag"] = copy_etag
            return not_modified

        def make() -> bytes:
            shown()
            printed = html[0].replace(PRINTED_AT_MARKER, self.printed_at())
            return html_to_pdf(printed, site_root=DEFAULT_SITE_ROOT)

        made: CachedCopy = cached_copy(
            key=key, version=version, make=make, digest=shown, wait_seconds=PDF_WAIT_SECONDS
        )
        response = self.pdf_response(made.content)
        response["Last-Modified"] = http_date(made.made_at.timestamp())
        if version is None:
            response["ETag"] = etag(key, made.digest)
        elif made.version >= version:
            response["ETag"] = copy_etag
        return response

    @staticmethod
    def printed_at() -> str:
        """Now, as the documents print it (the venue's time zone, ``long_datetime``)."""
        return long_datetime(timezone.now())

    def pdf_response(self, pdf: bytes) -> HttpResponse:
        response = HttpResponse(pdf, content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{self.filename()}"'
        return response
