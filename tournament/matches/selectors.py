"""Reads of a match's history: the audit log of its writes, and every version of a turn.

The match itself is read through :mod:`tournament.matches.reading.rows` (its current rows and its
record) and :mod:`tournament.matches.reading.replay` (its replay by the engine)."""

from __future__ import annotations

from django.db.models import QuerySet

from tournament.models import AuditEntry, Match, Turn


def match_audit_entries(*, match: Match) -> QuerySet[AuditEntry]:
    """Every write to the match, oldest first, with who made it."""
    return AuditEntry.objects.filter(match=match).select_related("user").order_by("at", "id")


def turn_versions(*, turn: Turn) -> list[Turn]:
    """Every version of ``turn``, oldest first: the versions it superseded, one by another
    back to the first entered (a version moved down by an inserted turn has another index
    than the one before it; a turn struck out or undone is no one's earlier version)."""
    rows = {
        row.pk: row
        for row in Turn.objects.filter(round_id=turn.round_id).select_related("created_by")
    }
    superseded = {row.superseded_by_id: row for row in rows.values() if row.superseded_by_id}
    versions = [rows.get(turn.pk, turn)]
    while versions[-1].pk in superseded:
        versions.append(superseded[versions[-1].pk])
    return versions[::-1]
