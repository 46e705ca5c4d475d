"""A serving for one worker that keeps the matches' streams without paying an event loop's
hand-off on every page: ``gunicorn tournament.serving -k uvicorn_worker.UvicornWorker``.

Under Django's ASGI handler (``tournament/asgi.py``), every request of a page runs its
middleware and view on a thread made for that request, handed there from the event loop and
back by asgiref: measured in the room, a quarter of a worker's CPU went outside any view. Here
the worker's event loop keeps only the matches' streams (``tournament:match_stream``, which
wait in it at the cost of a coroutine, as under ``tournament/asgi.py``); every other request
is run whole by Django's WSGI handler on one of a fixed pool of ``TRIOMINOS_PAGE_THREADS``
threads (8), as a threaded WSGI server runs it: its body read first, its answer sent once made.
The database connections come from the worker's pool as under ``tournament/asgi.py``.
"""

from __future__ import annotations

import asyncio
import os
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
os.environ["TRIOMINOS_ASGI"] = "1"  # the database connections from the worker's pool

#: The requests that wait in the event loop: a match's stream.
STREAMS = re.compile(r"^/t/[^/]+/matches/[0-9]+/stream/$")
#: A request's body kept in memory up to this many bytes, in a file beyond.
BODY_IN_MEMORY = 2_621_440


def wsgi_environ(scope: dict[str, Any], body) -> dict[str, Any]:
    """The WSGI environ of an ASGI HTTP request (PEP 3333), its body in ``body``."""
    server = scope.get("server") or ("localhost", 80)
    client = scope.get("client") or ("", 0)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": scope.get("root_path", "").encode().decode("latin-1"),
        "PATH_INFO": scope["path"].encode().decode("latin-1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_NAME": str(server[0]),
        "SERVER_PORT": str(server[1] or 80),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "REMOTE_ADDR": str(client[0]),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": body,
        "wsgi.errors": open(os.devnull, "w"),  # noqa: SIM115 (closed with the process)
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin-1").upper().replace("-", "_")
        value = raw_value.decode("latin-1")
        key = name if name in ("CONTENT_TYPE", "CONTENT_LENGTH") else f"HTTP_{name}"
        if key in environ:
            value = environ[key] + ("; " if key == "HTTP_COOKIE" else ",") + value
        environ[key] = value
    return environ


class PagesOnThreads:
    """The worker's ASGI application: streams to Django's ASGI handler, in the event loop;
    every other request to Django's WSGI handler, on the pool's threads."""

    def __init__(self, threads: int) -> None:
        self.streams = get_asgi_application()
        self.pages = get_wsgi_application()
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="page")

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or STREAMS.match(scope["path"]):
            await self.streams(scope, receive, send)
            return
        with tempfile.SpooledTemporaryFile(max_size=BODY_IN_MEMORY) as body:
            more = True
            while more:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                body.write(message.get("body", b""))
                more = message.get("more_body", False)
            body.seek(0)
            environ = wsgi_environ(scope, body)
            loop = asyncio.get_running_loop()
            status, headers, content = await loop.run_in_executor(
                self.pool, self.answer, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    def answer(self, environ: dict[str, Any]) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """The request answered whole by the WSGI handler, on a thread of the pool."""
        started: dict[str, Any] = {}

        def start_response(status: str, headers: list[tuple[str, str]], exc_info=None):
            started["status"] = int(status.split(" ", 1)[0])
            started["headers"] = [(name.lower().encode("latin-1"), value.encode("latin-1"))
                                  for name, value in headers]
            return lambda data: None  # write(): Django never calls it

        result = self.pages(environ, start_response)
        try:
            content = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        return started["status"], started["headers"], content


application = PagesOnThreads(int(os.environ.get("TRIOMINOS_PAGE_THREADS") or 8))

# The streams' file descriptors, as under tournament/asgi.py.
from tournament.matches.stream.door import open_to_descriptors  # noqa: E402 (after setup)
from tournament.matches.views.live_parts import live_parts_ahead  # noqa: E402

open_to_descriptors()
live_parts_ahead.start()  # the streams find each write's live part made
