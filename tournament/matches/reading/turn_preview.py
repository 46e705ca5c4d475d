"""The engine's word on a turn not saved yet: where a tile fits, what it would score or why it
does not go there (:func:`turn_preview`), what the browser needs to say it itself for a tile
that fits and to refuse a turn as the server would (:func:`browser_scoring`,
``TURN_REFUSALS``), and the table as it stood before a turn, for the correction and
insertion pages (:func:`board_before`)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.core.validators import MaxValueValidator, MinValueValidator
from django.forms import IntegerField
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament import engine
from tournament.matches.reading.replay import match_replay_before
from tournament.matches.reading.replayed_match import LiveRound, ReplayedMatch
from tournament.matches.reading.replayed_rounds import ReplayedRound, TurnLine, translated_problem
from tournament.models import Verdict


@dataclass
class BoardBefore:
    """The table as it stood before a turn, for the correction and insertion pages: its
    drawing (open cells clickable) and, for each tile not yet played then, the cells where it
    fits and the corners of each way it fits there (``{"3-4-5": {"D(1,0)": ["5-3-4"]}}``)."""

    svg: SafeString
    fits_json: str


def board_before(*, replay: ReplayedMatch, round_view: ReplayedRound,
                 line: TurnLine) -> BoardBefore | None:
    """The table before ``line`` was played; None where it is not known (sheet mode)."""
    live = match_replay_before(rows=replay.rows, round_=round_view.row, position=line.position).live
    if live is None or live.board is None:
        return None
    played = live.replay.tiles_played
    fits: dict[str, dict[str, list[str]]] = {}
    for placement in live.board.legal_placements(t for t in engine.ALL_TILES if t not in played):
        cells = fits.setdefault(str(placement.tile), {})
        cells.setdefault(str(placement.cell), []).append("-".join(map(str, placement.corners)))
    return BoardBefore(svg=live.board_svg(side=60, pickable=True), fits_json=json.dumps(fits, separators=(",", ":")))


def explain_report(report: engine.TurnReport) -> str:
    """The engine's sum in the user's language, '' when it is the tile's value alone:
    ``12 + 40 (pont) − 5 (pioches) = 47`` (``engine.score_explained``)."""
    return engine.score_explained(report.score)


def problem_messages(report: engine.TurnReport) -> list[str]:
    """A turn's problems in the user's language."""
    return [translated_problem(p).message for p in report.problems]


@dataclass
class TurnPreview:
    """What the board shows before a turn is saved: the orientations that fit the cell, the
    engine's figure and bonus, or why the tile does not go there."""

    tile: str = ""
    cell: engine.Cell | None = None
    #: The cell in words, from the tiles it touches (for screen readers).
    cell_words: str = ""
    #: The legal ways the tile fits the cell: ``{"corners": "5-3-4", "svg": ...}``.
    options: list[dict[str, Any]] = field(default_factory=list)
    corners: str = ""
    points: int | None = None
    bonus: str = ""
    explain: str = ""
    refusals: list[str] = field(default_factory=list)
    #: No orientation of the tile fits the cell: the tile goes back to the player.
    no_fit: bool = False
    error: str = ""


def turn_preview(
    *,
    replay: ReplayedMatch,
    tile: str,
    cell: engine.Cell | None,
    corners: tuple[int, int, int] | None = None,
    draws: int = 0,
    player: int | None = None,
) -> TurnPreview:
    """The engine's word on ``tile`` at ``cell`` in the round in play; nothing is saved."""
    live = replay.live
    preview = TurnPreview(tile=tile, cell=cell)
    if live is None or live.board is None or not tile or cell is None:
        return preview
    options = live.orientations(tile, cell)
    preview.cell_words = engine.cell_words(cell, engine.cell_neighbours(cell, live.board.placements))
    preview.options = [
        {"corners": "-".join(map(str, c)),
         "svg": engine.draw_board([engine.Placement(cell, c)], side=34, title="-".join(map(str, c)))}
        for c in options
    ]
    if corners not in options:
        corners = options[0] if len(options) == 1 else None
    preview.corners = "-".join(map(str, corners)) if corners else ""
    if live.next_player is not None:
        player = live.next_player
    probe = corners or (options[0] if options else engine.parse_tile(tile).rotations()[0])
    report = live.replay.preview(engine.TurnRecord(
        player=player or 0, draws=draws, place=engine.PlaceRecord(cell=cell, corners=probe)))
    if report.verdict == Verdict.ILLEGAL:
        preview.refusals = problem_messages(report)
        preview.no_fit = not options
    else:
        preview.points = report.points
        preview.bonus = engine.bonus_label(report.bonus.value if report.bonus else "")
        preview.explain = explain_report(report)
    return preview


#: What the turn's form says of a turn it refuses, by its error's code, next to the field it
#: names (forms/entry.py, forms/parsing.py); the tablet says the same of a turn it refuses
#: before queuing it offline (``browser_scoring``'s ``refusals``, turn_check.js).
TURN_REFUSALS = {
    "player_required": _("Who opens the round? Choose the player."),
    "tile_missing": _("Pick the tile played (or use the draw and pass button)."),
    "cell_missing": _("Tap the cell where the tile went."),
    "corners_ambiguous": _("The tile fits this cell in several ways: choose how it is turned."),
    "claim_missing": _("Enter the points the player announced (or tap “as computed” if that is "
                       "what they said)."),
    "unknown-tile": _("“%(given)s” is not a tile: three values from 0 to 5, like 345 or 3-4-5."),
    "invalid-cell": _("“%(given)s” is not a cell: write it like U(0,0) or D(-1,2)."),
    "invalid-corners": _("“%(given)s”: give the three corner values clockwise from the apex, "
                         "like 5-3-4."),
}
#: A rack given as tiles and as a total (the round's end form).
TILES_OR_TOTAL = _("Give the tiles or the total, not both.")
#: The points a claim may announce (the form's ``claimed``).
CLAIM_LIMITS = (-1000, 1000)
#: The engine's refusals of a turn that the tablet finds itself (board.js's rules).
ENGINE_REFUSALS = ("too-many-draws", "tile-already-played", "occupied")


def refusal_words() -> dict[str, str]:
    """Every refusal of ``TURN_REFUSALS`` and ``ENGINE_REFUSALS`` in the user's language, its
    parameters as ``{name}``; the claim outside its limits in Django's words; and the preview's
    words for a tile that does not fit the cell (``no-fit``: the engine's own name the place
    in words from the tiles around it, which the tablet does not; the server's answer does)."""
    given = {"given": "{given}"}
    words = {code: str(text) % given if "%(given)s" in str(text) else str(text)
             for code, text in TURN_REFUSALS.items()}
    low, high = CLAIM_LIMITS
    words["invalid"] = str(IntegerField.default_error_messages["invalid"])
    words["min_value"] = str(MinValueValidator.message) % {"limit_value": low}
    words["max_value"] = str(MaxValueValidator.message) % {"limit_value": high}
    words.update({code: engine.problem_template(code) for code in ENGINE_REFUSALS})
    words["no-fit"] = gettext(
        "%(tile)s does not fit the cell chosen: the tile goes back to the player.") % {
        "tile": "{tile}"}
    return words


def browser_scoring(live: LiveRound | None) -> dict[str, Any] | None:
    """What ``board.js`` needs to preview a turn whose tile fits as :func:`turn_preview` does,
    without a request: the rule set's figures a placement's score reads and the preview's
    words in the user's language (the same all match long: the table's ``data-scoring``,
    which a save's answer leaves to the page; the tiles left to draw are the turn form's
    ``data-pool``). With them, what the tablet needs offline: the players' names and the
    refusals' words, to refuse a turn as the server would before queuing it (turn_check.js),
    and the racks' form's words, to end a round (round_end.js). None where the table is not
    known (sheet mode): the server previews every turn then.

    >>> browser_scoring(None) is None
    True
    """
    if live is None or live.board is None:
        return None
    return {
        "rules": rule_figures(live.replay.rules),
        "players": [str(name) for name in live.replay.players],
        "refusals": refusal_words(),
        "words": {
            "engine": gettext("Engine:"),
            "turned": gettext("How is it turned?"),
            "draws": gettext("draws"),
            "bonuses": {name: str(label) for name, label in engine.BONUS_LABELS.items()},
        },
        "round_end": round_end_words(),
    }


def round_end_words() -> dict[str, str]:
    """The racks' form as the tablet draws it when a round ends offline (round_end.js), in the
    words of the server's (_round_end_form.html), and the refusals it finds itself."""
    return {
        "title": gettext("Racks shown"),
        "help": gettext("Type each player's tiles (e.g. 012 345 5-5-3), or only their total when "
                        "the tiles were not noted. The settlement claimed is optional: type the "
                        "winner's, the others' blank count as 0."),
        "player": gettext("Player"),
        "tiles": gettext("Tiles left"),
        "total": gettext("or total"),
        "settlement": gettext("Settlement claimed"),
        "settle": gettext("Settle the round"),
        "pending": gettext("Settlement, pending until the racks are sent:"),
        "out": gettext("%(name)s went out") % {"name": "{name}"},
        "blocked": gettext("the table is blocked"),
        "unknown-tile": str(TURN_REFUSALS["unknown-tile"]) % {"given": "{given}"},
        "both": str(TILES_OR_TOTAL),
        "tile-already-played/rack": engine.problem_template("tile-already-played/rack"),
        "tile-already-played/same-rack": engine.problem_template("tile-already-played/same-rack"),
        "tile-already-played/two-racks": engine.problem_template("tile-already-played/two-racks"),
    }


def rule_figures(rules: Any) -> dict[str, Any]:
    """The figures of a rule set (the engine's ``RuleSet``) that a placement's score, a pass's
    penalty and a round's settlement read, by their names in ``scoring/rules.py``: what
    ``board.js`` scores with (it refuses a set
    with a figure it does not know, and the server previews then).

    >>> rule_figures(engine.rule_set("travel-tour"))["two_sides_bonus"] is None
    True
    """
    return {
        "opening_bonus": rules.opening_bonus,
        "zero_triple_opening_bonus": rules.zero_triple_opening_bonus,
        "two_sides_bonus": rules.two_sides_bonus,
        "bridge_bonus": rules.bridge_bonus,
        "hexagon_bonuses": list(rules.hexagon_bonuses),
        "draw_penalty": rules.draw_penalty,
        "max_draws": rules.max_draws,
        "failed_draws_penalty": rules.failed_draws_penalty,
        "going_out_bonus": rules.going_out_bonus,
        "blocked_others_lose_rack": rules.blocked_others_lose_rack,
    }
