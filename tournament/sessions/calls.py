"""A table's call for a referee, opened or added to (``RefereeCall``): one open call a table,
a call made again adding to it. The room's call from a table card
(``tournament.room.services.call_make``) and a seat's dispute of a round
(``tournament.matches.services.signatures``) both call through here, inside their write."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from tournament.models import RefereeCall, SessionAuditEntry, Table

#: A table's call repeated within this time of its last one is that call: answered as
#: called, with nothing written (no version raised, no log line).
CALL_REPEAT = timedelta(minutes=1)


def table_call(*, table: Table, reason: str) -> RefereeCall | None:
    """Open a call from ``table`` (its row locked by the caller's write), or add to its open
    one (``times``, the latest reason); None when the table called within ``CALL_REPEAT``
    (nothing written). Each call is a line of the session's log."""
    now = timezone.now()
    call = RefereeCall.objects.filter(table=table, answered_at__isnull=True).first()
    if call is not None and now - call.last_called_at < CALL_REPEAT:
        return None
    if call is not None:
        call.times += 1
        call.reason = reason
        call.last_called_at = now
        call.save(update_fields=["times", "reason", "last_called_at"])
    else:
        call = RefereeCall.objects.create(session=table.session, table=table, reason=reason,
                                          called_at=now, last_called_at=now)
    # each call a line of the log, a repeated one with its own reason and its count
    SessionAuditEntry.objects.create(
        session=table.session, user=None, action=SessionAuditEntry.Action.CALLED,
        reason=SessionAuditEntry.code("call", table.number, call.reason, call.times))
    return call
