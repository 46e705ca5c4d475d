"""Templates to PDF with WeasyPrint, static files read from disk and never over HTTP.

A printed page is an ordinary template (``templates/printing/...``) whose stylesheet is linked
with ``{% static %}``; the same template serves the HTML preview. WeasyPrint resolves every
address against the site's root, and :class:`StaticFilesFetcher` answers the ``/static/`` ones
from the static files finders (or ``STATIC_ROOT`` once collected) and refuses anything else:
a PDF never waits on the network, and never reaches a file outside the static files.
"""

from __future__ import annotations

import mimetypes
import posixpath
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.template.loader import render_to_string
from weasyprint import HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

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
