"""ASGI entry point: ``gunicorn tournament.asgi -k uvicorn_worker.UvicornWorker``. The README's
server is ``tournament.serving`` (``tournament/serving.py``), which runs the pages on a pool of
threads and this application's streams in the event loop.

Each request of a page runs on a thread of its own as under WSGI; a match's stream
(``tournament/matches/stream/views.py``) waits in the worker's event loop instead, at the cost
of a coroutine, so that hundreds of phones can follow their match without holding a thread
each. Threads made for one request each cannot keep a database connection between requests:
under ASGI the settings take PostgreSQL's connections from a pool (``TRIOMINOS_ASGI``, set
here before the settings are read). Each open stream holds a file descriptor: at start-up a
worker raises its soft limit toward the hard one and bounds its streams by what it may open
(``open_to_descriptors``, logged: docs/guides/operations.md, "Capacity").
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
os.environ["TRIOMINOS_ASGI"] = "1"

application = get_asgi_application()

# Each open stream holds a file descriptor: the worker raises its soft limit toward the hard
# one as far as its streams need, and keeps no more streams than its limit leaves room for
# beside the pool and the pages (the figures logged at start-up).
from tournament.matches.stream.door import open_to_descriptors  # noqa: E402 (after setup)
from tournament.matches.views.live_parts import live_parts_ahead  # noqa: E402

open_to_descriptors()
live_parts_ahead.start()  # the streams find each write's live part made
