"""The English text of every problem the referee can see.

One template per problem code (a few codes have variants, keyed ``code/variant``), marked
with the no-op :func:`N_` so that ``django-admin makemessages --keyword=N_`` collects them.
A :class:`~scoring.replay.Problem` keeps its template key and its parameters, so the web app
can format the translated template again::

    >>> render("rack-mismatch", {"player": "Chloé", "shown": 2, "expected": 3})
    "Chloé's rack shows 2 tile(s), 3 expected"
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

__all__ = ["N_", "MESSAGES", "render"]


def N_(message: str) -> str:
    """Mark a string for translation without translating it."""
    return message


MESSAGES: Final[Mapping[str, str]] = {
    "claim-mismatch": N_("{player} claimed {claimed} for {tile} at {cell}, the turn scores {sum}"),
    "claim-mismatch/sheet": N_("{player} claimed {claimed} for {tile}, the turn scores {sum}"),
    "claim-mismatch/no-tile": N_(
        "{player} claimed {claimed} for a turn without a placement, the turn scores {sum}"
    ),
    "bonus-mismatch": N_(
        "{player} claimed {claimed_bonus} for {tile} at {cell}, the placement earns {found}"
    ),
    "bonus-mismatch/none": N_(
        "{player} claimed {claimed_bonus} for {tile} at {cell}, the placement earns no bonus"
    ),
    "bonus-mismatch/impossible": N_(
        "{player} claimed {claimed_bonus} for {tile}, impossible with {count} tiles on the "
        "table ({needed} needed)"
    ),
    "bonus-mismatch/not-first": N_(
        "{player} claimed opening for {tile}, but the round was already opened"
    ),
    "bonus-mismatch/not-triple": N_(
        "{player} claimed opening for {tile}: only a triple earns the opening bonus"
    ),
    "bonus-mismatch/no-opening-bonus": N_(
        "{player} claimed opening for {tile}: these rules give no opening bonus"
    ),
    "bonus-mismatch/opening": N_(
        "{player} claimed {claimed_bonus} for {tile}, the first tile of the round earns opening"
    ),
    "occupied": N_("{player} cannot place {tile} at {cell}: the cell already holds {other}"),
    "no-shared-side": N_(
        "{player} cannot place {tile} at {cell}: it shares no side with the tiles on the table"
    ),
    "corner-mismatch": N_(
        "{player} cannot place {tile} at {cell}: its corner at {point} shows {value}, "
        "the table shows {expected} there"
    ),
    "mirror-tile": N_(
        "{player} cannot place corners {corners}: they show the mirror image of {tile}, "
        "which does not exist"
    ),
    "unknown-tile": N_("{player} played {given}, which is not a tile (three values 0 to 5)"),
    "unknown-tile/disagree": N_(
        "{player} played {given}, but the corners {corners} show {tile}"
    ),
    "unknown-tile/rack": N_("{player}'s rack shows {given}, which is not a tile"),
    "tile-already-played": N_("{player} played {tile}, which is already on the table"),
    "tile-already-played/rack": N_(
        "{player}'s rack shows {tile}, which was played in this round"
    ),
    "tile-already-played/two-racks": N_("{tile} is shown in the racks of {other} and {player}"),
    "out-of-turn": N_("{player} played out of turn: {expected} was next"),
    "too-many-draws": N_(
        "{player} drew {draws} tiles, at most {allowed} could be drawn (the pool held {pool})"
    ),
    "pass-with-pool": N_(
        "{player} did not place after {draws} draw(s) while the pool still held {pool} tiles: "
        "a player draws up to {max_draws} tiles before passing"
    ),
    "turn-after-end": N_("{player} played a turn after {out_player} went out"),
    "turn-after-end/blocked": N_("{player} played a turn after the round was blocked"),
    "rack-mismatch": N_("{player}'s rack shows {shown} tile(s), {expected} expected"),
    "settlement-mismatch": N_(
        "{player} claimed {claimed} at the settlement, the settlement gives {computed}"
    ),
    "settlement-mismatch/several": N_(
        "the settlement claimed ({claimed}) differs from the computed one ({computed}) "
        "for {players}"
    ),
    "settlement-mismatch/unfinished": N_(
        "a settlement ({claimed}) was claimed, but the round is not over"
    ),
    "round-after-match-end": N_(
        "round {number} was recorded after the match had ended (target {target} reached)"
    ),
    "false-block": N_(
        "the round ended blocked, but {player}'s {tile} could still go at {cell}"
    ),
}


def render(template: str, params: Mapping[str, object]) -> str:
    """Format the English template ``template`` (a code or ``code/variant``) with ``params``."""
    return MESSAGES[template].format_map(params)
