"""The entry screen without the network: the service worker that keeps the match pages a
referee opened, and their scripts and styles, so that a reload or opening the match again
offline shows the match as last seen and its queue of writes waiting to send (queue.js)."""

from __future__ import annotations

from django.template.response import TemplateResponse
from django.views import View


class OfflineWorkerView(View):
    """``/offline-worker.js``: served from the site's root, so that its scope covers every
    match page (a worker's scope is at most its own folder, unless the server allows more
    with ``Service-Worker-Allowed``). Never kept by the browser's HTTP cache: a new version is
    found at the next visit."""

    http_method_names = ("get",)

    def get(self, request, *args, **kwargs):
        response = TemplateResponse(request, "tournament/matches/offline-worker.js", {},
                                    content_type="text/javascript; charset=utf-8")
        response["Service-Worker-Allowed"] = "/"
        response["Cache-Control"] = "no-cache"
        return response
