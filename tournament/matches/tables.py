"""The match's tables of data: the turn log of a round, and the audit log."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

import django_tables2 as tables2
from django.template.loader import get_template
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext, pgettext
from django.utils.translation import gettext_lazy as _

from tournament import engine
from tournament.kit.seats import SEAT_LETTERS
from tournament.kit.tables import PythonBodyTable
from tournament.matches.reading.replayed_rounds import ReplayedRound, TurnLine
from tournament.models import AuditEntry, RoundEnd, Turn, Verdict

#: The sign shown before each verdict's label in the turn log.
VERDICT_SIGNS = {Verdict.OK: "✓", Verdict.MISMATCH: "≠", Verdict.ILLEGAL: "✗",
                 Verdict.UNVERIFIED: "?"}


def placed_words(lines: Iterable[TurnLine]) -> dict[int, str]:
    """Where each line's tile went, in words (``below and right of 3-4-5``), from the tiles
    on the table before it; by turn row id. A turn with no tile on the table (none placed,
    refused, or entered from a sheet without its place) has no entry."""
    placements: list[engine.Placement] = []
    words = {}
    for line in lines:
        placement = line.report.placement
        if placement is None:
            continue
        words[line.row.pk] = engine.cell_words(
            placement.cell, engine.cell_neighbours(placement.cell, placements), placed=True)
        placements.append(placement)
    return words


def place_before(round_view: ReplayedRound, index: int, cell_text: str) -> str:
    """Where a tile put at ``cell_text`` (a cell's notation) as the turn at ``index`` of
    ``round_view`` went, in words, from the tiles on the table before that turn now ('' for
    a cell that cannot be read)."""
    try:
        cell = engine.parse_cell(cell_text)
    except engine.InvalidCell:
        return ""
    placements = [line.report.placement for line in round_view.turns
                  if line.index < index and line.report.placement is not None]
    return engine.cell_words(cell, engine.cell_neighbours(cell, placements), placed=True)


def snapshot_place(rounds: Sequence[ReplayedRound], details: dict[str, Any],
                   snapshot: dict[str, Any] | None) -> str:
    """Where an audit entry's turn went, in words, from the tiles that are on the table
    before that turn now ('' when its round or cell is not known any more)."""
    if not snapshot or not snapshot.get("cell"):
        return ""
    number, index = details.get("round"), details.get("index")
    found = [round_ for round_ in rounds if round_.index == number]
    if not found or not isinstance(index, int):
        return ""
    return place_before(found[0], index, snapshot["cell"])


class TurnLogTable(PythonBodyTable):
    """One round's turns: what was entered next to the engine's figure and verdict.

    The body is built in Python (``PythonBodyTable``: a template per cell is too slow for a
    whole match, about 0.3 s for 150 turns against a few milliseconds), escaped by
    ``format_html``. With ``can_write``, a claim that differs gets its two decision forms
    (rendered from ``_decision_forms.html``: few rows have them) and every turn a link
    to correct it and one to insert a forgotten turn before it; ``turn_url(name, turn_id)``
    gives their addresses (``match_turn_decide``, ``match_turn_correct``,
    ``match_turn_insert``), by ``reverse()`` for each turn. With ``kept_rows`` (turn row
    ids: rows the page shows as they are, every one it shows), the page keeps its body
    (``rows_kept``) and takes the other rows (``changed_rows_html``) in place of its rows of
    the same id, or after them. With ``last``, only the last turns are shown.
    """

    number = tables2.Column(verbose_name="#", accessor="number", orderable=False)
    player = tables2.Column(verbose_name=_("Player"), accessor="player_name", orderable=False)
    tile = tables2.Column(verbose_name=_("Tile"), accessor="tile", orderable=False,
                          empty_values=())
    draws = tables2.Column(verbose_name=_("Draws"), accessor="draws", orderable=False)
    claimed = tables2.Column(verbose_name=_("Announced"), accessor="claimed", orderable=False,
                             empty_values=())
    points = tables2.Column(verbose_name=_("Engine"), accessor="points", orderable=False)
    verdict = tables2.Column(verbose_name=_("Verdict"), accessor="verdict", orderable=False)
    decision = tables2.Column(verbose_name=_("Decision"), accessor="decision",
                              orderable=False, empty_values=())

    #: The decision forms of a pending claim, rendered per row that has one.
    decision_template = "tournament/matches/_decision_forms.html"

    class Meta(PythonBodyTable.Meta):
        attrs = {"class": "data-table turn-log"}
        empty_text = _("No turn yet.")

    def __init__(self, *args: Any, can_write: bool = False, revision: int = 0,
                 csrf_token: str = "", turn_url: Callable[[str, int], str] | None = None,
                 error_turn: int | None = None, error_messages: list[str] | None = None,
                 kept_rows: Collection[int] = (), body_id: str = "", last: int | None = None,
                 can_decide: bool | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.can_write = can_write
        #: The decision on a claim that differs is a referee's (not a table's scorer's).
        self.can_decide = can_write if can_decide is None else can_decide
        self.revision = revision
        self.csrf_token = csrf_token
        self.turn_url = turn_url
        self.error_turn = error_turn
        self.error_messages = error_messages or []
        self.kept_rows = kept_rows
        self.body_id = body_id
        self.last = last
        # the verdicts' labels are the model's (one label map), with their sign
        self.verdict_words = {
            verdict.value: f"{VERDICT_SIGNS[verdict]} {verdict.label}" for verdict in Verdict
        }
        self.places = placed_words(self.data)
        self.correct_word = pgettext("verb: correct a turn", "correct")
        self.insert_words = gettext("insert a turn before")

    def tbody_html(self) -> SafeString:
        """The body named ``body_id``; with ``rows_kept``, empty and kept by the page."""
        if self.rows_kept:
            return mark_safe(f'<tbody id="{escape(self.body_id)}" hx-preserve></tbody>')
        named = f' id="{escape(self.body_id)}"' if self.body_id else ""
        return mark_safe(f"<tbody{named}>{self.body_html()}</tbody>")  # id escaped, rows built

    def body_html(self) -> SafeString:
        # the last turns only, with ``last``: the places still named from every tile before
        return self.rows_html(list(self.data)[-self.last:] if self.last else self.data)

    @property
    def rows_kept(self) -> bool:
        """The page keeps its rows (``kept_rows``): the body is a placeholder it fills with
        its own, and ``changed_rows_html`` the rows it changes or adds."""
        return bool(self.kept_rows)

    def changed_rows_html(self) -> SafeString:
        return self.rows_html([record for record in self.data
                               if record.row.pk not in self.kept_rows])

    def body_row_attrs(self, record: TurnLine) -> str:
        pending = " decision-pending" if record.decision_pending else ""
        return format_html('class="verdict-{}{}" id="turn-{}" data-verdict="{}"',
                           record.verdict, pending, record.row.pk, record.verdict)

    def cell_number(self, record: TurnLine) -> str:
        return str(record.number)

    def cell_player(self, record: TurnLine) -> Any:
        value = record.player_name
        return format_html('<span class="seat-letter">{}</span> <span class="player-name">{}</span>',
                           SEAT_LETTERS[record.player] if record.player < len(SEAT_LETTERS) else "?",
                           value)

    def cell_tile(self, record: TurnLine) -> Any:
        if not record.tile:
            return format_html('<span class="muted">{}</span>', "—")
        if record.row.pk in self.places:
            return format_html('<span class="tile-name">{}</span> <small class="cell-name">{}</small>',
                               record.tile, self.places[record.row.pk])
        return format_html('<span class="tile-name">{}</span>', record.tile)

    def cell_draws(self, record: TurnLine) -> str:
        return str(record.draws) if record.draws else ""

    def cell_claimed(self, record: TurnLine) -> Any:
        claimed = (format_html('<span class="muted">{}</span>', "—") if record.claimed is None
                   else format_html('<span class="claimed">{}</span>', record.claimed))
        if record.bonus_claimed:
            return format_html('{} <small class="bonus-claimed">{}</small>', claimed,
                               record.bonus_claimed_label)
        return claimed

    def cell_points(self, record: TurnLine) -> Any:
        html = format_html('<strong class="engine-points">{}</strong>', record.points)
        if record.bonus:
            html = format_html('{} <span class="bonus-found">{}</span>', html, record.bonus_label)
        if record.decision == Turn.Decision.CLAIM:
            html = format_html('{} <small class="counted">({})</small>', html, record.points_counted)
        return html

    def cell_verdict(self, record: TurnLine) -> Any:
        return format_html(
            '<span class="verdict verdict--{}">{}</span>{}', record.verdict,
            self.verdict_words.get(record.verdict, record.verdict),
            format_html_join("", '<div class="problem-message" data-code="{}">{}</div>',
                             ((problem.code, problem.message) for problem in record.problems)),
        )

    def cell_decision(self, record: TurnLine) -> Any:
        parts = []
        if record.decision == Turn.Decision.CLAIM:
            parts.append(format_html('<span class="decision decision--claim">{}</span> <small>{}</small>',
                                     gettext("claim kept"), record.decision_reason))
        elif record.decision == Turn.Decision.ENGINE:
            parts.append(format_html('<span class="decision decision--engine">{}</span>',
                                     gettext("engine's figure")))
        elif record.decision_pending:
            if self.can_decide:
                parts.append(self._decision_forms(record))
            else:
                parts.append(format_html('<span class="decision decision--pending">{}</span>',
                                         gettext("to decide")))
        if self.can_write and self.turn_url is not None:
            parts.append(format_html('<a class="correct-link" href="{}">{}</a>',
                                     self.turn_url("match_turn_correct", record.row.pk),
                                     self.correct_word))
            parts.append(format_html('<a class="correct-link insert-link" href="{}">{}</a>',
                                     self.turn_url("match_turn_insert", record.row.pk),
                                     self.insert_words))
        return format_html('<div class="decision-cell">{}</div>',
                           format_html_join("", "{}", ((part,) for part in parts)))

    def _decision_forms(self, record: TurnLine) -> Any:
        """The two decision forms of a claim that differs (few per page: one template each)."""
        return get_template(self.decision_template).render({
            "engine_points": record.points,
            "claimed_points": record.claimed,
            "decide_url": self.turn_url("match_turn_decide", record.row.pk),
            "csrf_token": self.csrf_token,
            "revision": self.revision,
            "failed": self.error_turn == record.row.pk,
            "error_messages": self.error_messages,
        })


def describe_turn(snapshot: dict[str, Any] | None, names: list[str], place: str = "") -> str:
    """A turn as entered, in words: ``B · Bruno: 3-4-5 below 5-5-5, 1 draw, announced 12``;
    ``place``: where the tile went, in words (``snapshot_place``)."""
    if snapshot is None:
        return gettext("(none)")
    player = snapshot.get("player", 0)
    who = names[player] if 0 <= player < len(names) else str(player)
    parts = []
    if snapshot.get("tile"):
        if place:
            parts.append(f"{snapshot['tile']} {place}")
        else:
            parts.append(snapshot["tile"])
    else:
        parts.append(gettext("no tile"))
    if snapshot.get("draws"):
        parts.append(ngettext("%(count)s draw", "%(count)s draws", snapshot["draws"])
                     % {"count": snapshot["draws"]})
    if snapshot.get("bonus_claimed"):
        parts.append(gettext("bonus claimed: %(bonus)s")
                     % {"bonus": engine.bonus_label(snapshot["bonus_claimed"])})
    if snapshot.get("points_claimed") is not None:
        parts.append(gettext("announced %(points)s") % {"points": snapshot["points_claimed"]})
    if snapshot.get("decision") == Turn.Decision.CLAIM:
        parts.append(gettext("the claim stands"))
    elif snapshot.get("decision") == Turn.Decision.ENGINE:
        parts.append(gettext("the engine's figure stands"))
    return gettext("%(seat)s · %(name)s: %(turn)s") % {
        "seat": SEAT_LETTERS[player] if 0 <= player < len(SEAT_LETTERS) else "?", "name": who,
        "turn": ", ".join(parts)}


def describe_round_end(snapshot: dict[str, Any] | None, names: list[str]) -> str:
    if snapshot is None:
        return gettext("(none)")
    racks = snapshot.get("racks") or []
    shown = []
    for name, rack in zip(names, racks):
        if isinstance(rack, int):
            shown.append(gettext("%(name)s: total %(total)s") % {"name": name, "total": rack})
        else:
            shown.append(gettext("%(name)s: %(rack)s") % {"name": name,
                                                          "rack": " ".join(rack) or "—"})
    text = pgettext("between the racks of a round's end", "; ").join(shown) or gettext(
        "racks not shown")
    if snapshot.get("settlement_claimed") is not None:
        text += " · " + gettext("settlement claimed: %(values)s") % {
            "values": ", ".join(map(str, snapshot["settlement_claimed"]))}
    if snapshot.get("decision") == RoundEnd.Decision.CLAIM:
        text += " · " + gettext("the claim stands")
    elif snapshot.get("decision") == RoundEnd.Decision.ENGINE:
        text += " · " + gettext("the engine's figure stands")
    return text


class AuditTable(tables2.Table):
    """Every write to a match, oldest first."""

    at = tables2.DateTimeColumn(verbose_name=_("When"), format="d/m H:i:s")
    user = tables2.Column(verbose_name=_("Who"), empty_values=())
    action = tables2.Column(verbose_name=_("What"))
    details = tables2.Column(verbose_name=_("Before → after"), empty_values=())
    reason = tables2.Column(verbose_name=_("Why"), default="")

    class Meta:
        model = AuditEntry
        fields = ("at", "user", "action", "details", "reason")
        attrs = {"class": "data-table audit-log", "id": "audit"}
        empty_text = _("Nothing entered yet.")

    def __init__(self, *args: Any, names: list[str], rounds: Sequence[ReplayedRound] = (),
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.names = names
        self.rounds = rounds

    def _turn(self, details: dict[str, Any], key: str) -> str:
        snapshot = details.get(key)
        return describe_turn(snapshot, self.names, snapshot_place(self.rounds, details, snapshot))

    def render_user(self, record: AuditEntry) -> Any:
        """The user who wrote, or the table's scorer phone (its id: one phone, one id)."""
        if record.user_id is not None:
            return str(record.user)
        if record.device:
            return format_html('<span class="audit-device" data-device="{}">{}</span>',
                               record.device, gettext("the table's phone %(device)s")
                               % {"device": record.device[:6]})
        return "—"

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
                      AuditEntry.Action.TURN_UNDONE) or (
                action == AuditEntry.Action.DECISION and "index" in details):
            rows = []
            if action != AuditEntry.Action.TURN_ADDED:
                rows.append((gettext("before"), self._turn(details, "before")))
            rows.append((gettext("after"), self._turn(details, "after")))
            return format_html_join("", '<div class="audit-{}"><b>{}</b> {}</div>',
                                    ((label.replace(" ", "-"), label, text) for label, text in rows))
        if action == AuditEntry.Action.TURN_INSERTED:
            moved = details.get("moved") or []
            rows = [("after", format_html("<b>{}</b> {}", gettext("inserted"),
                                          self._turn(details, "after")))]
            if moved:
                rows.append(("moved", ngettext(
                    "%(count)s later turn moved one place down, as a new version",
                    "%(count)s later turns moved one place down, each as a new version",
                    len(moved)) % {"count": len(moved)}))
            return format_html_join("", '<div class="audit-{}">{}</div>', rows)
        settlement_decision = action == AuditEntry.Action.DECISION and "index" not in details
        if settlement_decision or action in (AuditEntry.Action.ROUND_ENDED,
                                             AuditEntry.Action.ROUND_END_CORRECTED):
            rows = []
            if action != AuditEntry.Action.ROUND_ENDED:
                rows.append((gettext("before"), describe_round_end(details.get("before"), names)))
            rows.append((gettext("after"), describe_round_end(details.get("after"), names)))
            return format_html_join("", '<div><b>{}</b> {}</div>', rows)
        if action == AuditEntry.Action.ROUND_CONFIRMED:
            return gettext("scores %(scores)s") % {"scores": ", ".join(map(str, details.get("scores", [])))}
        if action == AuditEntry.Action.RECORD_IMPORTED:
            counts = {k: details.get(k, 0) for k in ("rounds", "turns", "problems")}
            return ", ".join((
                ngettext("%(rounds)s round", "%(rounds)s rounds", counts["rounds"]) % counts,
                ngettext("%(turns)s turn", "%(turns)s turns", counts["turns"]) % counts,
                ngettext("%(problems)s problem flagged", "%(problems)s problems flagged",
                         counts["problems"]) % counts))
        if action == AuditEntry.Action.MATCH_CLOSED:
            winners = [names[i] for i in details.get("winners", []) if i < len(names)]
            return ngettext("winner: %(names)s; totals %(totals)s",
                            "winners: %(names)s; totals %(totals)s", len(winners)) % {
                "names": ", ".join(winners), "totals": ", ".join(map(str, details.get("totals", [])))}
        return record.summary
