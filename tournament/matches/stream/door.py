"""Who may open a match's stream in this worker: a bound by client address, by match and in all.

Each open stream holds a socket (a file descriptor) and an idle thread of its worker until it
ends (``views.py``). One client opening streams by the thousand from one address once took
every stream of a worker (2,048 in 39 s), and every phone after it polled for good. The door
lets in at most:

- ``MAX_STREAMS_PER_ADDRESS`` streams from one client address (an IPv6 address counts with
  its /64, what one subscriber is given): far below a worker's share, so that one address
  takes no more than a sixteenth of it; the phones behind one address beyond it (a carrier's
  or a venue's router may put many behind one) poll their match as without a stream, and ask
  again later (``pages.js``);
- ``MAX_STREAMS_PER_MATCH`` on one match: a match watched by the whole room (a final) keeps
  three quarters of the worker for the others;
- ``MAX_STREAMS`` in all, which ``tournament/asgi.py`` sets at start-up from the file
  descriptors the process may open (:func:`open_to_descriptors`): each stream holds one,
  and a process out of descriptors fails every other request (no connection to the
  database, no template, no new client), where a stream refused leaves its page polling.

Beyond a bound of the client's (its address, its match) the answer is 429 Too Many Requests,
beyond the worker's 503 Service Unavailable, each with ``Retry-After``: the seconds until the
oldest stream in the way ends at the latest (a stream lasts ``STREAM_SECONDS`` at most).

The counts by match and in all are the worker's, kept in its event loop's thread: they
guard the worker's own descriptors and threads. The bound by address is a client's budget,
which it must not get once per worker and per app server by reaching several: it is counted
twice, in the worker first (no query, for the client flooding one worker) and then in the
shared cache (:func:`address_claim`: ``tournament.kit.attempts``'s slots, one per stream,
which every worker and app server of the site share), whose slot a stream holds until it
ends; a slot whose worker died frees itself when its stream would have ended.
"""

from __future__ import annotations

import ipaddress
import itertools
import logging
import math
import resource
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from django.db import connection

from tournament.kit.attempts import ClaimedTry, LockedOut, TryLimit, try_claim

logger = logging.getLogger("tournament.startup")

#: Streams a worker keeps open at most in all, ``STREAMS_CEILING`` or fewer: at start-up
#: ``tournament/asgi.py`` sets it from the file descriptors the process may open
#: (:func:`open_to_descriptors`).
MAX_STREAMS = STREAMS_CEILING = 1024
#: File descriptors a worker keeps for all but its streams and the connections kept alive: its
#: pool's connections (16), the pages' connections while they are answered, the files a page
#: opens (templates, static files, the PDFs' fonts), its listening socket, its event loop,
#: its logs and libraries (about 40 at rest). What remains is shared half and half between
#: the streams and the connections kept open between a device's requests (gunicorn's
#: ``--keep-alive 30`` in the README's command: a tablet saving a turn every 8 to 30 s, a
#: phone polling every 15 s, keep theirs, and with it the worker that keeps their match's
#: replay and pages).
KEPT_DESCRIPTORS = 256
#: The soft limit a worker raises its own to, when its hard limit allows (2,304).
DESCRIPTORS_WANTED = KEPT_DESCRIPTORS + 2 * STREAMS_CEILING
#: Streams one client address (an IPv6 /64) keeps open in a worker at most.
MAX_STREAMS_PER_ADDRESS = 64
#: Streams one match keeps open in a worker at most.
MAX_STREAMS_PER_MATCH = 256


def client_key(address: str) -> str:
    """What the bound by address counts by: an IPv4 address, an IPv6 address's /64 (one
    subscriber's network: its 2⁶⁴ addresses count as one), the text itself otherwise.

    >>> client_key("203.0.113.7"), client_key("2001:db8:1:2:aa::1"), client_key("::ffff:10.0.0.1")
    ('203.0.113.7', '2001:db8:1:2::/64', '10.0.0.1')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class Admission:
    """A stream let in, counted until it is released: when the stream ends, or when its
    response is let go without ever being sent (collected: nothing leaks)."""

    __slots__ = ("door", "number", "address", "match_id", "released", "shared")

    def __init__(self, door: Door, number: int, address: str, match_id: int) -> None:
        self.door, self.number, self.released = door, number, False
        self.address, self.match_id = address, match_id
        #: The address's slot in the shared cache (:func:`address_claim`), once claimed.
        self.shared: ClaimedTry | None = None

    def release(self) -> None:
        if not self.released:
            self.released = True
            self.door._leave(self)

    def __del__(self) -> None:
        self.release()


@dataclass(frozen=True)
class Refusal:
    """A stream not let in: ``status`` 429 (the client's bound) or 503 (the worker's), and
    the seconds after which to ask again."""

    status: int
    retry_after: int


class Door:
    """The streams open in a worker, in all, by address and by match: each stream's number
    and the time it ends at the latest, in the order they opened (the first ends first). The
    door keeps the numbers, not the admissions: an admission let go is collected."""

    def __init__(self) -> None:
        self.numbers = itertools.count()
        self.streams: dict[int, float] = {}
        self.by_address: dict[str, dict[int, float]] = defaultdict(dict)
        self.by_match: dict[int, dict[int, float]] = defaultdict(dict)
        #: Shared slots of streams ended, being given back on the door's thread.
        self.giving_back = 0
        self._giving_lock = threading.Lock()

    @property
    def open(self) -> int:
        """The streams counted: open in the worker, or ended and their shared slot not yet
        given back."""
        return len(self.streams) + self.giving_back

    def admit(self, *, address: str, match_id: int, lasts: float) -> Admission | Refusal:
        """A stream from ``address`` on ``match_id``, lasting ``lasts`` seconds at most, let
        in, or refused with when to ask again."""
        key = client_key(address)
        now = time.monotonic()
        for status, streams, bound in (
                (503, self.streams, MAX_STREAMS),
                (429, self.by_address.get(key, {}), MAX_STREAMS_PER_ADDRESS),
                (429, self.by_match.get(match_id, {}), MAX_STREAMS_PER_MATCH)):
            if len(streams) >= bound:
                first_end = next(iter(streams.values()), now + lasts)
                return Refusal(status, max(1, math.ceil(first_end - now)))
        admission = Admission(self, next(self.numbers), key, match_id)
        ends = now + lasts
        self.streams[admission.number] = ends
        self.by_address[key][admission.number] = ends
        self.by_match[match_id][admission.number] = ends
        return admission

    def _leave(self, admission: Admission) -> None:
        if admission.shared is not None:
            shared, admission.shared = admission.shared, None
            with self._giving_lock:
                self.giving_back += 1
            try:
                _giving_back.submit(self._give_back, shared)
            except RuntimeError:  # the interpreter ending: the slot frees itself in time
                with self._giving_lock:
                    self.giving_back -= 1
        self.streams.pop(admission.number, None)
        counts: dict
        for counts, key in ((self.by_address, admission.address),
                            (self.by_match, admission.match_id)):
            streams = counts.get(key)
            if streams is not None:
                streams.pop(admission.number, None)
                if not streams:
                    del counts[key]

    def _give_back(self, shared: ClaimedTry) -> None:
        try:
            shared.right()
        finally:
            connection.close()  # the database cache's connection back (to the pool)
            with self._giving_lock:
                self.giving_back -= 1


#: The thread giving back the shared slots: a stream ends in the event loop (or its
#: response is collected anywhere), where the cache's client may not wait.
_giving_back = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stream-slots")


def address_claim(admission: Admission, *, lasts: float) -> Refusal | None:
    """The admission's address counted in the shared cache (run on a thread: one read and
    one atomic add), under ``MAX_STREAMS_PER_ADDRESS`` across the site's workers and app
    servers: None once its slot is claimed (given back when the stream ends), or the 429 to
    answer (the admission then released). The connection goes back at once (the stream's
    request holds none)."""
    limit = TryLimit(scope="streams", tries=MAX_STREAMS_PER_ADDRESS, seconds=math.ceil(lasts))
    try:
        admission.shared = try_claim([(limit, admission.address)])
        return None
    except LockedOut as locked:
        admission.release()
        return Refusal(429, locked.seconds)
    finally:
        connection.close()


#: The worker's door (one event loop a worker).
door = Door()


@dataclass(frozen=True)
class DescriptorBudget:
    """A worker's file descriptors: its soft limit before and after start-up, its hard limit
    (None: unlimited), and the streams it keeps open at most."""

    soft_before: int
    soft: int
    hard: int | None
    streams: int


def descriptor_budget(soft: int, hard: int) -> DescriptorBudget:
    """The soft limit a worker raises its own to (toward ``hard``: enough for
    ``STREAMS_CEILING`` streams, as many connections kept alive and ``KEPT_DESCRIPTORS``), and
    the streams it then keeps: half of what remains after ``KEPT_DESCRIPTORS``
    (``resource.RLIM_INFINITY`` for a limit without bound).

    >>> descriptor_budget(1024, 1024)  # ulimit -n 1024, hard as soft
    DescriptorBudget(soft_before=1024, soft=1024, hard=1024, streams=384)
    >>> descriptor_budget(1024, 524288)  # raised as far as needed
    DescriptorBudget(soft_before=1024, soft=2304, hard=524288, streams=1024)
    >>> descriptor_budget(256, 256).streams  # nothing to spare: every page polls
    0
    """
    wanted = DESCRIPTORS_WANTED
    unlimited = resource.RLIM_INFINITY
    raised = soft
    if soft != unlimited and soft < wanted:
        raised = wanted if hard == unlimited else max(soft, min(hard, wanted))
    available = wanted if raised == unlimited else raised
    return DescriptorBudget(soft_before=soft, soft=raised,
                            hard=None if hard == unlimited else hard,
                            streams=max(0, min(STREAMS_CEILING,
                                               (available - KEPT_DESCRIPTORS) // 2)))


def open_to_descriptors() -> DescriptorBudget:
    """At a worker's start (``tournament/asgi.py``): its soft limit of file descriptors
    raised toward the hard one as far as the streams need, ``MAX_STREAMS`` set from what it
    may open, the figures logged (``tournament.startup``)."""
    global MAX_STREAMS
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    budget = descriptor_budget(soft, hard)
    if budget.soft != soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (budget.soft, hard))
        except (ValueError, OSError):
            budget = descriptor_budget(soft, soft)
    MAX_STREAMS = budget.streams
    log = logger.warning if budget.streams < STREAMS_CEILING else logger.info
    log("File descriptors: soft limit %s (was %s), hard limit %s; %s kept for the pool and "
        "the pages, the rest shared by the streams and the connections kept alive; streams at "
        "most %s a worker (%s with ulimit -n %s or more)",
        budget.soft, budget.soft_before, "unlimited" if budget.hard is None else budget.hard,
        KEPT_DESCRIPTORS, budget.streams, STREAMS_CEILING, DESCRIPTORS_WANTED)
    return budget
