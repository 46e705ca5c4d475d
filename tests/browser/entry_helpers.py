"""Helpers of the entry screen's browser tests: a match with some turns, a turn entered by taps.

- ``simulated_round(match, seed)``: the first round of a simulated match (every claim right).
- ``enter_turns(match, user, turns, wrong=())``: turns saved through the services, the claims
  at the positions in ``wrong`` announced 7 points too high.
- ``tile_and_cell(turn)``: a record turn's tile name and cell name (``D(1,0)``).
- ``in_view(page, selector)``: the element lies wholly inside the viewport.
"""

from __future__ import annotations

from tests.factories import add, board_turn, played_record


def simulated_round(match, seed: int = 5) -> list[dict]:
    return played_record(match=match, seed=seed)["rounds"][0]["turns"]


def enter_turns(match, user, turns, *, wrong=()) -> None:
    for index, turn in enumerate(turns):
        changes = {"points_claimed": turn["claimed"] + 7} if index in wrong else {}
        add(match, user, board_turn(turn, **changes))


def tile_and_cell(turn: dict) -> tuple[str, str]:
    place = turn["place"]
    tile = "-".join(map(str, sorted(place["corners"])))
    x, y, o = place["cell"]
    return tile, f"{o}({x},{y})"


def claim_and_save(page, turn: dict) -> None:
    """With the turn's preview shown: its way of turning chosen where the preview asks, its
    points claimed, the save sent (Enter)."""
    corners = "-".join(map(str, turn["place"]["corners"]))
    choice = page.locator(f'#turn-preview input[type="radio"][name="corners"][value="{corners}"]')
    if choice.count():
        choice.check()
    page.locator("#id_claimed").fill(str(turn["claimed"]))
    page.keyboard.press("Enter")


def in_view(page, selector: str) -> bool:
    return page.evaluate("""(selector) => {
        const element = document.querySelector(selector);
        if (!element) { return false; }
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && box.top >= 0 && box.left >= 0
            && box.bottom <= window.innerHeight && box.right <= window.innerWidth;
    }""", selector)
