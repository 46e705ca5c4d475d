"""The server's CPU time of each request, for the load benchmark (``bench/locustfile.py``).

``ServerTimingMiddleware`` adds ``Server-Timing: cpu;dur=<ms>`` to every answer: the CPU time
of the thread that served the request (``time.thread_time``: a gthread worker serves several
requests at once, each on its own thread), from the first middleware to the last, compression
included. The database server's own work is not in it (another process). The settings put it
first in ``MIDDLEWARE`` only when the benchmarks' app is installed (``TRIOMINOS_BENCH``: on
outside production, off in production unless asked): a real event's server says nothing of
its timings.
"""

from __future__ import annotations

import time


class ServerTimingMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        start = time.thread_time()
        response = self.get_response(request)
        spent = (time.thread_time() - start) * 1000
        response["Server-Timing"] = f"cpu;dur={spent:.2f}"
        return response
