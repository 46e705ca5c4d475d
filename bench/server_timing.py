"""The server's time of each request, for the load benchmark (``bench/locustfile.py``).

``ServerTimingMiddleware`` adds ``Server-Timing: cpu;dur=<ms>, db;dur=<ms>, app;dur=<ms>`` to
every answer, each measured from the first middleware to the last, compression included:

- ``cpu``: the CPU time of the thread that served the request (``time.thread_time``: a
  gthread worker serves several requests at once, each on its own thread);
- ``db``: the wall time its queries took, from sending each to reading its rows (the database
  server's work and the round trip: another process, so not in ``cpu``);
- ``app``: the request's wall time inside the worker. What ``app`` holds beyond ``cpu`` and
  ``db`` is time spent waiting for the processor (the other threads, the other processes);
  what the client measures beyond ``app`` is time spent queued before a thread took it.

So the room's figures say whether a request waits on the database (an asynchronous worker
could then serve others meanwhile) or on the processor (only less work helps). The settings
put it first in ``MIDDLEWARE`` only when the benchmarks' app is installed (``TRIOMINOS_BENCH``:
on outside production, off in production unless asked): a real event's server says nothing
of its timings.
"""

from __future__ import annotations

import time

from django.db import connection


class _QueryClock:
    """Adds up the wall time of the queries run through it (``connection.execute_wrapper``)."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def __call__(self, execute, sql, params, many, context):
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.seconds += time.perf_counter() - start


class ServerTimingMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        clock = _QueryClock()
        start, cpu_start = time.perf_counter(), time.thread_time()
        with connection.execute_wrapper(clock):
            response = self.get_response(request)
        cpu = (time.thread_time() - cpu_start) * 1000
        app = (time.perf_counter() - start) * 1000
        response["Server-Timing"] = (
            f"cpu;dur={cpu:.2f}, db;dur={clock.seconds * 1000:.2f}, app;dur={app:.2f}")
        return response
