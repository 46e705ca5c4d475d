"""Writes started at the same moment, each in its own thread and so its own database
connection (PostgreSQL: they really write at once)."""

from __future__ import annotations

import threading
from collections.abc import Callable


def run_at_once(writes: dict[str, Callable[[], object]]) -> dict[str, str]:
    """Each write in its own thread, all released together by a barrier: its outcome is what
    it returned when that is a string, "done" otherwise, or the error it raised."""
    from django.db import connections

    start = threading.Barrier(len(writes))
    outcomes: dict[str, str] = {}

    def run(name: str, write: Callable[[], object]) -> None:
        try:
            start.wait()
            outcome = write()
            outcomes[name] = outcome if isinstance(outcome, str) else "done"
        except Exception as error:  # noqa: BLE001 - reported by the test
            outcomes[name] = repr(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=item) for item in writes.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return outcomes
