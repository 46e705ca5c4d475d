"""The match's tables of data: the turn log of a round, and the audit log."""

from __future__ import annotations

from typing import Any

import django_tables2 as tables2
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament import engine
from tournament.matches.selectors import SEAT_LETTERS, TurnLine
from tournament.models import AuditEntry


class TurnLogTable(tables2.Table):
    """One round's turns: what was entered next to the engine's figure and verdict."""

    number = tables2.Column(verbose_name="#", accessor="number", orderable=False)
    player = tables2.Column(verbose_name=_("Player"), accessor="player_name", orderable=False)
    tile = tables2.TemplateColumn(
        verbose_name=_("Tile"), template_name="tournament/matches/columns/tile.html",
        accessor="tile", orderable=False)
    draws = tables2.Column(verbose_name=_("Draws"), accessor="draws", orderable=False)
    claimed = tables2.TemplateColumn(
        verbose_name=_("Announced"), template_name="tournament/matches/columns/claimed.html",
        accessor="claimed", orderable=False)
    points = tables2.TemplateColumn(
        verbose_name=_("Engine"), template_name="tournament/matches/columns/engine.html",
        accessor="points", orderable=False)
    verdict = tables2.TemplateColumn(
        verbose_name=_("Verdict"), template_name="tournament/matches/columns/verdict.html",
        accessor="verdict", orderable=False)
    decision = tables2.TemplateColumn(
        verbose_name=_("Decision"), template_name="tournament/matches/columns/decision.html",
        accessor="decision", orderable=False)

    class Meta:
        attrs = {"class": "data-table turn-log"}
        empty_text = _("No turn yet.")
        row_attrs = {
            "class": lambda record: f"verdict-{record.verdict}"
            + (" decision-pending" if record.decision_pending else ""),
            "id": lambda record: f"turn-{record.row.pk}",
            "data-verdict": lambda record: record.verdict,
        }

    def render_player(self, value: str, record: TurnLine) -> Any:
        return format_html('<span class="seat-letter">{}</span> {}', SEAT_LETTERS[record.player]
                           if record.player < len(SEAT_LETTERS) else "?", value)

    def render_draws(self, value: int) -> Any:
        return value or ""


def describe_turn(snapshot: dict[str, Any] | None, names: list[str]) -> str:
    """A turn as entered, in words: ``B · Bruno: 3-4-5 at D(1,0), 1 draw, announced 12``."""
    if snapshot is None:
        return gettext("(none)")
    player = snapshot.get("player", 0)
    who = names[player] if 0 <= player < len(names) else str(player)
    parts = []
    if snapshot.get("tile"):
        if snapshot.get("cell"):
            parts.append(gettext("%(tile)s at %(cell)s") % {"tile": snapshot["tile"],
                                                            "cell": snapshot["cell"]})
        else:
            parts.append(snapshot["tile"])
    else:
        parts.append(gettext("no tile"))
    if snapshot.get("draws"):
        parts.append(gettext("%(count)s draw(s)") % {"count": snapshot["draws"]})
    if snapshot.get("bonus_claimed"):
        parts.append(gettext("bonus claimed: %(bonus)s")
                     % {"bonus": engine.bonus_label(snapshot["bonus_claimed"])})
    if snapshot.get("points_claimed") is not None:
        parts.append(gettext("announced %(points)s") % {"points": snapshot["points_claimed"]})
    if snapshot.get("decision") == "claim":
        parts.append(gettext("the claim stands"))
    elif snapshot.get("decision") == "engine":
        parts.append(gettext("the engine's figure stands"))
    return f"{SEAT_LETTERS[player] if 0 <= player < len(SEAT_LETTERS) else '?'} · {who}: " + ", ".join(parts)


def describe_round_end(snapshot: dict[str, Any] | None, names: list[str]) -> str:
    if snapshot is None:
        return gettext("(none)")
    racks = snapshot.get("racks") or []
    shown = []
    for name, rack in zip(names, racks):
        if isinstance(rack, int):
            shown.append(gettext("%(name)s: total %(total)s") % {"name": name, "total": rack})
        else:
            shown.append(f"{name}: {' '.join(rack) or '—'}")
    text = "; ".join(shown) or gettext("racks not shown")
    if snapshot.get("settlement_claimed") is not None:
        text += " · " + gettext("settlement claimed: %(values)s") % {
            "values": ", ".join(map(str, snapshot["settlement_claimed"]))}
    return text


class AuditTable(tables2.Table):
    """Every write to a match, oldest first."""

    at = tables2.DateTimeColumn(verbose_name=_("When"), format="d/m H:i:s")
    user = tables2.Column(verbose_name=_("Who"), default="—")
    action = tables2.Column(verbose_name=_("What"))
    details = tables2.Column(verbose_name=_("Before → after"), empty_values=())
    reason = tables2.Column(verbose_name=_("Why"), default="")

    class Meta:
        model = AuditEntry
        fields = ("at", "user", "action", "details", "reason")
        attrs = {"class": "data-table audit-log", "id": "audit"}
        empty_text = _("Nothing entered yet.")

    def __init__(self, *args: Any, names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.names = names

    def render_action(self, record: AuditEntry) -> Any:
        details = record.details or {}
        where = ""
        if "round" in details:
            where = gettext("round %(number)s") % {"number": details["round"] + 1}
            if "index" in details:
                where += ", " + gettext("turn %(number)s") % {"number": details["index"] + 1}
        return format_html("{}<br><small>{}</small>", record.get_action_display(), where)

    def render_details(self, record: AuditEntry) -> Any:
        details = record.details or {}
        names = self.names
        action = record.action
        if action in (AuditEntry.Action.TURN_ADDED, AuditEntry.Action.TURN_CORRECTED,
                      AuditEntry.Action.TURN_UNDONE, AuditEntry.Action.DECISION):
            rows = []
            if action != AuditEntry.Action.TURN_ADDED:
                rows.append((gettext("before"), describe_turn(details.get("before"), names)))
            rows.append((gettext("after"), describe_turn(details.get("after"), names)))
            return format_html_join("", '<div class="audit-{}"><b>{}</b> {}</div>',
                                    ((label.replace(" ", "-"), label, text) for label, text in rows))
        if action in (AuditEntry.Action.ROUND_ENDED, AuditEntry.Action.ROUND_END_CORRECTED):
            rows = []
            if action == AuditEntry.Action.ROUND_END_CORRECTED:
                rows.append((gettext("before"), describe_round_end(details.get("before"), names)))
            rows.append((gettext("after"), describe_round_end(details.get("after"), names)))
            return format_html_join("", '<div><b>{}</b> {}</div>', rows)
        if action == AuditEntry.Action.ROUND_CONFIRMED:
            return gettext("scores %(scores)s") % {"scores": ", ".join(map(str, details.get("scores", [])))}
        if action == AuditEntry.Action.RECORD_IMPORTED:
            return gettext("%(rounds)s round(s), %(turns)s turn(s), %(problems)s problem(s) "
                           "flagged") % {k: details.get(k, 0) for k in ("rounds", "turns", "problems")}
        if action == AuditEntry.Action.MATCH_CLOSED:
            winners = ", ".join(names[i] for i in details.get("winners", []) if i < len(names))
            return gettext("winner(s): %(names)s; totals %(totals)s") % {
                "names": winners, "totals": ", ".join(map(str, details.get("totals", [])))}
        return record.summary
