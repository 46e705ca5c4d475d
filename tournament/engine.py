"""The Django side's single door to the rules engine (``scoring/``, pure Python, no Django).

Everything the web app asks of the engine goes through here, so that the rest of
``tournament/`` depends on a handful of functions rather than on the engine's modules.

Recording a match (``tournament/matches/``) uses the engine's record and replay types,
re-exported here (``engine.TurnRecord``, ``engine.MatchReplay``...), and the functions at the
bottom: :func:`replay_record`, :func:`problem_message` (an engine problem in the user's
language), :func:`record_error_message` (why a record cannot be read, in the user's language),
:func:`parse_tile`, :func:`parse_cell`, :func:`legal_cells`, :func:`draw_board`.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.text import get_text_list
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from scoring import (
    ALL_TILES,
    Board,
    Bonus,
    Cell,
    InvalidCell,
    MatchRecord,
    MatchReplay,
    Placement,
    PlaceRecord,
    Problem,
    RecordError,
    RoundRecord,
    Score,
    Tile,
    TurnRecord,
    TurnReport,
    UnknownTile,
    Where,
    load_record,
    parse_record,
)
from scoring import rules as engine_rules
from scoring.geometry import cell_neighbours
from scoring.messages import MESSAGES, RECORD_ERRORS, Phrase
from scoring.simulate import simulate_match
from scoring.svg import board_svg, element_id

# Public names: the rule sets, the demo's simulator, and what recording a match uses (the
# engine's record and replay types, re-exported so that tournament/matches/ imports them here).
__all__ = [
    "ALL_TILES",
    "BONUS_LABELS",
    "DEFAULT_RULE_SET",
    "RULE_SET_LABELS",
    "Board",
    "Bonus",
    "Cell",
    "InvalidCell",
    "MatchRecord",
    "MatchReplay",
    "PlaceRecord",
    "Placement",
    "Problem",
    "RecordError",
    "RoundRecord",
    "Tile",
    "TurnRecord",
    "TurnReport",
    "UnknownTile",
    "Where",
    "bonus_label",
    "cell_neighbours",
    "element_id",
    "cell_words",
    "draw_board",
    "legal_cells",
    "load_record",
    "parse_cell",
    "parse_record",
    "parse_tile",
    "problem_json",
    "problem_message",
    "record_error_message",
    "replay_record",
    "options_label",
    "record_options",
    "record_options_mismatch",
    "round_after_end_message",
    "rule_set",
    "rule_set_choices",
    "rule_set_names",
    "score_explained",
    "simulated_match_record",
    "tile_from_corners",
]

DEFAULT_RULE_SET = "goliath-tournament"

# The rule sets' names on screen; an engine rule set missing here shows its code name.
RULE_SET_LABELS = {
    "goliath-tournament": _("Goliath tournament rules"),
    "goliath-family": _("Goliath family rules (2 to 6 players)"),
    "travel-tour": _("Travel Tour Edition"),
}


def rule_set_names() -> list[str]:
    """The names of the engine's rule sets, the default first."""
    return sorted(engine_rules.RULE_SETS, key=lambda name: (name != DEFAULT_RULE_SET, name))


def rule_set_choices() -> list[tuple[str, Any]]:
    """Choices for ``Tournament.rules`` (a callable, so a new engine rule set needs no migration)."""
    return [(name, RULE_SET_LABELS.get(name, name)) for name in rule_set_names()]


def rule_set(
    name: str,
    *,
    target: int | None = None,
    opening_bonus: bool = True,
    round_limit: int | None = None,
) -> engine_rules.RuleSet:
    """The engine's RuleSet called ``name``, with ``target`` overriding its target score and
    the match options applied (no opening bonus; a match over after ``round_limit`` rounds)."""
    return engine_rules.rule_set(
        name, target=target, opening_bonus=opening_bonus, round_limit=round_limit
    )


# -- the match options (docs/reference/rules.md, "Options a tournament may set") ------------------------


def record_options(*, tournament: Any, match: Any = None) -> dict[str, Any]:
    """A tournament's match options as the keyword arguments of ``MatchRecord``; with a
    ``match``, its own option too (``time_up``: the session clock, docs/guides/room.md)."""
    options = {"opening_bonus": tournament.opening_bonus, "round_limit": tournament.match_rounds}
    if match is not None and match.time_up_round is not None:
        options["time_up"] = match.time_up_round
    return options


def options_label(*, opening_bonus: bool, rounds: int | None) -> str:
    """The match options in words, as the match page and the printed sheets say them:
    ``5 manches · sans bonus d'ouverture``; '' when there are none."""
    parts = []
    if rounds is not None:
        # one message each (the catalogues hold no plural forms): "1 manche", "5 manches"
        parts.append(gettext("1 round") if rounds == 1
                     else gettext("%(count)s rounds") % {"count": rounds})
    if not opening_bonus:
        parts.append(gettext("no opening bonus"))
    return " · ".join(parts)


def record_options_mismatch(*, record: MatchRecord, tournament: Any) -> str | None:
    """Why a record cannot fill a match of ``tournament`` because of its options (in the
    user's language), or None when they are the tournament's."""
    # time_up is the match's own (the session clock): a record brings it with it
    given = {key: value for key, value in record.options.items() if key != "time_up"}
    if given == MatchRecord(players=(), **record_options(tournament=tournament)).options:
        return None
    none = gettext("no option")
    return gettext(
        "The record's match options (%(record)s) are not this tournament's (%(tournament)s)."
    ) % {
        "record": options_label(opening_bonus=record.opening_bonus, rounds=record.round_limit)
        or none,
        "tournament": tournament.match_options_label or none,
    }


def round_after_end_message(*, replay: MatchReplay, number: int) -> str:
    """The problem of round ``number`` begun after the match ended (by its target or by its
    number of rounds), in the user's language."""
    rules = replay.rules
    if replay.ended_by == "time":
        return problem_message(
            "round-after-match-end/time", {"number": number, "time_up": rules.time_up_round}
        )
    if replay.ended_by == "rounds":
        return problem_message(
            "round-after-match-end/rounds", {"number": number, "rounds": rules.round_limit}
        )
    return problem_message("round-after-match-end", {"number": number, "target": rules.target})


def simulated_match_record(
    *,
    names: list[str],
    seed: int,
    rules: str = DEFAULT_RULE_SET,
    target: int | None = None,
    opening_bonus: bool = True,
    rounds: int | None = None,
) -> dict[str, Any]:
    """A whole legal match between ``names`` (in seat order), from the engine's simulator,
    with the match options given.

    Every claim in it is right; the record follows docs/reference/record-format.md.
    """
    return simulate_match(
        players=len(names), names=names, seed=seed, rules=rules, target=target,
        opening_bonus=opening_bonus, rounds=rounds,
    )


# -- recording a match (tournament/matches/) ---------------------------------------------------
#: The bonus names on screen (the same msgids as the model's choices: pont, deux côtés...).
BONUS_LABELS = {
    "opening": _("opening"),
    "bridge": _("bridge"),
    "two-sides": _("two sides"),
    "hexagon": _("hexagon"),
    "double-hexagon": _("double hexagon"),
    "triple-hexagon": _("triple hexagon"),
}
_EXPLAIN_WORD = re.compile(r"\(([a-z-]+)\)")


def bonus_label(name: str | None) -> str:
    """A bonus's name in the user's language ('' for none)."""
    if not name:
        return ""
    return str(BONUS_LABELS.get(str(name), name))


def _translated_explain(text: str) -> str:
    """The engine's sum ``"10 + 40 (bridge) - 5 (draws) = 45"`` with its words translated."""

    def word(match: re.Match[str]) -> str:
        name = match.group(1)
        if name == "draws":
            return "(" + gettext("draws") + ")"
        return "(" + bonus_label(name) + ")"

    return _EXPLAIN_WORD.sub(word, text)


def score_explained(score: Score) -> str:
    """A turn's score as the engine sums it (``Score.explain``), in the user's language and
    with a typographic minus; '' when it is the tile's value alone:
    ``12 + 40 (pont) − 5 (pioches) = 47``."""
    if score.bonus is None and not score.penalty:
        return ""
    return _translated_explain(score.explain()).replace(" - ", " − ")


#: The problems about a cell of the table, as the pages say them: the engine's messages name
#: the cell by its code (``at D(0,-1)``, kept in ``python -m scoring check``); these put it in
#: words from the tiles around it (:class:`scoring.Where`), as the rest of the page does.
#: ``{cell}``: where the tile went or could go (``below and right of 3-4-5``); ``{corner}``:
#: the tiles at the corner that differs, or touched by a corner only.
_LOCATED_MESSAGES = {
    "claim-mismatch": gettext_noop("{player} claimed {claimed} for {tile} {cell}, the turn scores {sum}"),
    "bonus-mismatch": gettext_noop(
        "{player} claimed {claimed_bonus} for {tile} {cell}, the placement earns {found}"),
    "bonus-mismatch/none": gettext_noop(
        "{player} claimed {claimed_bonus} for {tile} {cell}, the placement earns no bonus"),
    "occupied": gettext_noop("{player} cannot place {tile} on {other}: that place is taken"),
    "no-shared-side": gettext_noop(
        "{player} cannot place {tile} away from the tiles on the table: it shares no side with them"),
    "no-shared-side/corner": gettext_noop(
        "{player} cannot place {tile} against a corner of {corner} only: it shares no side "
        "with the tiles on the table"),
    "corner-mismatch": gettext_noop(
        "{player} cannot place {tile} {cell}: its corner against {corner} shows {value}, "
        "the table shows {expected} there"),
    "false-block": gettext_noop(
        "the round ended blocked, but {player}'s {tile} could still go {cell}"),
}


def _located(template: str, params: Mapping[str, object], where: Where | None
             ) -> tuple[str | None, dict[str, object]]:
    """The page's template of a problem about a cell and its values with the cell in words;
    ``(None, params)`` for a problem that names no cell."""
    values = dict(params)
    if where is None or template not in _LOCATED_MESSAGES:
        return None, values
    if template == "no-shared-side" and where.corner:
        template = "no-shared-side/corner"
    values["cell"] = cell_words(Cell.parse(where.cell), where.neighbours, placed=True)
    values["corner"] = get_text_list(list(where.corner), gettext("and"))
    return _LOCATED_MESSAGES[template], values


def problem_message(template: str, params: Mapping[str, object],
                    where: Where | None = None) -> str:
    """An engine problem in the user's language: its English template (scoring/messages.py,
    collected into the catalogues) translated, then formatted with its parameters; a problem
    about a cell of the table (``where``) names it in words, from the tiles around it."""
    located, values = _located(template, params, where)
    english = located or MESSAGES.get(template)
    if english is None:  # an unknown template: the engine's own words are all there is
        return str(params.get("message", template))
    for key in ("claimed_bonus", "found"):
        if key in values:
            values[key] = bonus_label(str(values[key]))
    if "sum" in values:
        values["sum"] = _translated_explain(str(values["sum"]))
    return _translated(english, values)


def problem_template(template: str) -> str:
    """An engine problem's template in the user's language, its parameters left to fill
    (``{player}``, ``{tile}``...): the words :func:`problem_message` says, for a page's script
    that says them itself (a turn checked on a tablet before it is queued offline). A problem
    about a cell takes the template the pages use (``_LOCATED_MESSAGES``)."""
    return gettext(_LOCATED_MESSAGES.get(template) or MESSAGES[template])


def record_error_message(error: RecordError) -> str:
    """Why a match record cannot be read, in the user's language: the error's English template
    (scoring/messages.py, collected into the catalogues) translated, then formatted with its
    parameters, the words among them (a :class:`~scoring.messages.Phrase`) translated too."""
    return _translated_record_error(error.template, error.params)


def _translated_record_error(template: str, params: Mapping[str, object]) -> str:
    values = {
        key: _translated_record_error(value.template, value.params)
        if isinstance(value, Phrase) else value
        for key, value in params.items()
    }
    return _translated(RECORD_ERRORS[template], values)


def _translated(english: str, values: Mapping[str, object]) -> str:
    """The English template ``english`` translated, then formatted with ``values``."""
    try:
        return gettext(english).format_map(values)
    except (KeyError, IndexError, ValueError):  # a translation that lost a placeholder
        return english.format_map(values)


def problem_json(problem: Problem) -> dict[str, Any]:
    """A problem as stored on a row (Turn.problems): code, template, params, English message."""
    return {
        "code": problem.code,
        "template": problem.template,
        "params": dict(problem.params),
        "message": problem.message,
    }


def parse_tile(text: str) -> Tile:
    """A tile from what a scorekeeper types: ``345``, ``3-4-5``, ``5 4 3``; UnknownTile else."""
    return Tile.parse(text)


def parse_cell(text: str) -> Cell:
    """A cell from its notation ``U(0,0)``; InvalidCell else."""
    return Cell.parse(text)


def tile_from_corners(corners: Sequence[int]) -> Tile | None:
    """The tile these clockwise corner values show, or None (a mirror image, bad values)."""
    try:
        return Tile.from_corners(tuple(corners))
    except (UnknownTile, ValueError):
        return None


def replay_record(record: MatchRecord, *, leave_last_round_open: bool,
                  replay: MatchReplay | None = None, first_round: int = 0) -> MatchReplay:
    """Replay ``record`` through the engine's MatchReplay, round by round.

    With ``leave_last_round_open`` the last round is played but not ended: the replay's
    round in play is then that round (its board, pool, hands and next player can be read,
    and a candidate turn previewed). Otherwise every round is ended with its racks.

    ``replay`` and ``first_round``: a replay resumed after the record's first
    ``first_round`` rounds, settled (``MatchReplay.resume``), which replays the rounds from
    ``first_round`` on only.
    """
    if replay is None:
        replay = MatchReplay(record.players, rules=record.rules)
    last = len(record.rounds) - 1
    for index in range(first_round, len(record.rounds)):
        round_ = record.rounds[index]
        replay.begin_round()
        for turn in round_.turns:
            replay.play(turn)
        if index == last and leave_last_round_open:
            break
        replay.end_round(round_.racks, round_.settlement_claimed, round_.settlement_decision)
    return replay


def legal_cells(board: Board, tiles: Iterable[Tile]) -> dict[str, list[str]]:
    """For each tile, the open cells of ``board`` where it has a legal placement."""
    cells: dict[str, list[str]] = {}
    for placement in board.legal_placements(tiles):
        names = cells.setdefault(str(placement.tile), [])
        cell = str(placement.cell)
        if cell not in names:
            names.append(cell)
    return cells


_NEXT_TO = {
    "above": _("Free place above %(tile)s"),
    "below": _("Free place below %(tile)s"),
    "upper left": _("Free place above and left of %(tile)s"),
    "upper right": _("Free place above and right of %(tile)s"),
    "lower left": _("Free place below and left of %(tile)s"),
    "lower right": _("Free place below and right of %(tile)s"),
}


_PLACED_NEXT_TO = {
    "above": _("above %(tile)s"),
    "below": _("below %(tile)s"),
    "upper left": _("above and left of %(tile)s"),
    "upper right": _("above and right of %(tile)s"),
    "lower left": _("below and left of %(tile)s"),
    "lower right": _("below and right of %(tile)s"),
}


def cell_words(cell: Cell, neighbours: tuple[tuple[str, str], ...], *, placed: bool = False) -> str:
    """An open cell in words, from the tiles it touches: where a referee sees it.

    ``placed``: the words for where a tile went (``below and right of 3-4-5``, to follow a
    tile's name), from the tiles that were on the table before it."""
    if not neighbours:
        return gettext("in the middle of the table") if placed else gettext("The middle of the table")
    if len(neighbours) == 1:
        tile, direction = neighbours[0]
        return str((_PLACED_NEXT_TO if placed else _NEXT_TO)[direction]) % {"tile": tile}
    tiles = [tile for tile, _direction in neighbours]
    template = (gettext("between %(tiles)s and %(last)s") if placed
                else gettext("Free place between %(tiles)s and %(last)s"))
    return template % {"tiles": ", ".join(tiles[:-1]), "last": tiles[-1]}


def draw_board(
    placements: Iterable[Placement],
    *,
    highlight: Cell | None = None,
    open_cells: Iterable[Cell] = (),
    side: float = 56.0,
    title: str | None = None,
    pickable: bool = False,
    ids: bool = False,
    kept: Collection[Cell] = (),
) -> SafeString:
    """The table as inline SVG (the engine's drawing, safe to put in a template), named in
    the user's language, its open cells too (their titles: no cell's code shows);
    ``pickable``: the open cells are buttons; ``ids``, ``kept``: its elements' ids, and the
    cells left out (what changed: ``scoring.svg``)."""
    placements = list(placements)
    if title is None:
        title = gettext("The table, tiles placed: %(count)d") % {"count": len(placements)}
    return mark_safe(  # the engine escapes the words and writes numbers only
        board_svg(placements, highlight=highlight, open_cells=open_cells, side=side,
                  title=title, cell_label=cell_words, operable=pickable, ids=ids,
                  kept=kept)
    )
