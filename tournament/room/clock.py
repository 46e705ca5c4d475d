"""The session clock as figures: the time left, counted from the server's time, and a table's
pace (pure: no query; docs/guides/room.md).

A session's clock is three fields (``Session.clock_seconds``, ``clock_started_at``,
``clock_elapsed``): the time set, extra minutes included; when it last started running (None
while it stands still); the seconds it ran before that start. Every reader computes the time
left here, from the server's own time, and sends it as seconds: a tablet counts down from
them, so its own clock, right or wrong, never enters into it.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Literal

State = Literal["none", "ready", "running", "paused", "time-up"]


@dataclass(frozen=True)
class Clock:
    """A session's clock at one moment."""

    state: State
    #: Seconds set, extra minutes included (0 without a clock).
    total: int
    #: Seconds the clock has run.
    elapsed: int
    #: Seconds left (0 once time is up).
    remaining: int

    @property
    def is_set(self) -> bool:
        return self.state != "none"

    @property
    def is_up(self) -> bool:
        return self.state == "time-up"

    def as_json(self) -> dict[str, object]:
        """What a page's clock script is sent (docs/guides/room.md, "The session clock")."""
        return {"state": self.state, "total": self.total, "remaining": self.remaining}


def clock_at(
    *,
    seconds: int | None,
    started_at: datetime.datetime | None,
    elapsed_before: int,
    now: datetime.datetime,
) -> Clock:
    """The clock of a session whose fields are these, at ``now`` (the server's time).

    >>> start = datetime.datetime(2026, 5, 1, 14, 0, tzinfo=datetime.timezone.utc)
    >>> clock_at(seconds=3600, started_at=start, elapsed_before=600,
    ...          now=start + datetime.timedelta(minutes=10))
    Clock(state='running', total=3600, elapsed=1200, remaining=2400)
    >>> clock_at(seconds=3600, started_at=None, elapsed_before=0, now=start).state
    'ready'
    >>> clock_at(seconds=60, started_at=start, elapsed_before=0,
    ...          now=start + datetime.timedelta(minutes=5)).remaining
    0
    """
    if seconds is None:
        return Clock("none", 0, 0, 0)
    elapsed = elapsed_before
    if started_at is not None:
        elapsed += max(0, int((now - started_at).total_seconds()))
    remaining = max(0, seconds - elapsed)
    if remaining == 0:
        state: State = "time-up"
    elif started_at is not None:
        state = "running"
    else:
        state = "paused" if elapsed_before else "ready"
    return Clock(state, seconds, elapsed, remaining)


def session_clock(session, *, now: datetime.datetime) -> Clock:
    """``clock_at`` for a ``Session`` row."""
    return clock_at(
        seconds=session.clock_seconds,
        started_at=session.clock_started_at,
        elapsed_before=session.clock_elapsed,
        now=now,
    )


def late(*, clock: Clock, progress: float) -> bool:
    """Whether a table that has done ``progress`` (0 to 1) of its match in the clock's
    ``elapsed`` seconds will not finish in the ``remaining`` ones at the same pace.

    A table that has not started yet once a quarter of the time has run is late too; a clock
    that is not running (or not set) flags nothing.

    >>> running = Clock("running", 3600, 1800, 1800)
    >>> late(clock=running, progress=0.6), late(clock=running, progress=0.4)
    (False, True)
    >>> late(clock=Clock("running", 3600, 600, 3000), progress=0.0)
    False
    >>> late(clock=Clock("running", 3600, 1000, 2600), progress=0.0)
    True
    """
    if clock.state not in ("running", "paused") or progress >= 1:
        return False
    if progress <= 0:
        return clock.elapsed * 4 > clock.total
    needed = clock.elapsed * (1 - progress) / progress
    return needed > clock.remaining


def match_progress(*, totals: list[int], target: int, rounds_ended: int,
                   round_limit: int | None) -> float:
    """How much of a match is done, from 0 to 1: the leader's share of the target, or the share
    of the match's rounds played, whichever is further.

    >>> match_progress(totals=[100, 300], target=400, rounds_ended=1, round_limit=None)
    0.75
    >>> match_progress(totals=[10, 30], target=400, rounds_ended=2, round_limit=4)
    0.5
    """
    progress = max(totals, default=0) / target if target else 0.0
    if round_limit:
        progress = max(progress, rounds_ended / round_limit)
    return min(1.0, max(0.0, progress))
