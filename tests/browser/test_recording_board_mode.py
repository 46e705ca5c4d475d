"""A referee records a whole round in board mode on a tablet, by tapping: tile, cell, points.

The round is a real one (the engine's simulator, two players, seed 383: 21 turns, a bridge, a
turn without a placement, draws before placing); the referee enters one claim wrong, sees it
flagged, decides it, settles the round and confirms it. Every action is counted: a tap, or a
group of keystrokes ended by Enter. An ordinary turn (no draw, the tile fits its cell one way)
takes three: the tile, the cell, the points typed then Enter; a turn without a placement,
which costs points, two: the button and its confirmation.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from playwright.sync_api import expect

from scoring import check_record, parse_record
from scoring.simulate import simulate_match
from tests.factories import match_at, seated_names
from tournament.core.tournaments import staff_role_grant
from tournament.models import Match, Round, Turn

SEED = 383


@pytest.fixture
def two_player_match(make_tournament, make_user):
    from tournament.models import StaffRole

    tournament = make_tournament(slug="duo", players=2, table_size=2, started=True)
    user = make_user("remi-referee")
    staff_role_grant(tournament=tournament, user=user, role=StaffRole.Role.REFEREE)
    return match_at(tournament=tournament)


class ActionCounter:
    def __init__(self):
        self.count = 0

    def tap(self, locator):
        locator.click()
        self.count += 1

    def type_and_enter(self, page, locator, text):
        locator.fill(text)
        page.keyboard.press("Enter")
        self.count += 1


def turns_in_log(page) -> int:
    return page.locator("#round-1 table.turn-log tbody tr[id^='turn-']").count()


def test_a_whole_round_in_board_mode_by_tapping(page, log_in, two_player_match):
    match = two_player_match
    names = seated_names(match)
    record = simulate_match(players=2, seed=SEED, names=names)
    round_ = record["rounds"][0]
    wrong_claim_turn = next(i for i, t in enumerate(round_["turns"])
                            if i >= 2 and "place" in t and not t.get("draws"))
    log_in("remi-referee", next_url=f"/t/duo/matches/{match.pk}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Session 1, table 1")

    actions_per_turn: list[tuple[str, int]] = []
    saw_bridge = saw_refusal = False
    for index, turn in enumerate(round_["turns"]):
        counter = ActionCounter()
        place = turn.get("place")
        if place is None:
            # the button names what the turn costs, as the engine counts it
            expect(page.locator(".pass-button small")).to_have_text(f"({turn['claimed']})".replace("-", "−"))
            counter.tap(page.locator(".pass-button"))
            counter.tap(page.locator("#pass-confirm button[type=submit]"))  # it costs points
            kind = "no placement"
        else:
            corners = place["corners"]
            tile = "-".join(map(str, sorted(corners)))
            cell = f"{place['cell'][2]}({place['cell'][0]},{place['cell'][1]})"
            kind = "ordinary"
            if index == 0:
                counter.tap(page.locator(".opener label").filter(has_text=names[turn["player"]]))
                kind = "opening"
            else:
                expect(page.locator(".to-play")).to_contain_text(names[turn["player"]])
            if turn.get("draws"):
                counter.tap(page.locator(".draws-field .segment").filter(has_text=str(turn["draws"])))
                kind = "draws then placement"
            counter.tap(page.locator(f'.tile-button[data-tile="{tile}"]'))
            if index == 5 and not saw_refusal:
                # a tap on a cell where the tile does not fit: the engine says why, nothing saved
                wrong = page.locator("#board polygon.open.nofit").first
                counter.tap(wrong)
                expect(page.locator(".preview-refused")).to_contain_text("la tuile retourne au joueur")
                saw_refusal = True
                kind = "with a wrong cell tapped first"
            if index > 0:
                counter.tap(page.locator(f'#board polygon.open[data-cell="{cell}"]'))
            expect(page.locator(".preview-head")).to_have_attribute("data-cell", cell)
            expect(page.locator(".preview-head .tile-name")).to_have_text(tile)
            expect(page.locator(".preview-score")).to_be_visible()
            radios = page.locator('#turn-preview input[type="radio"][name="corners"]')
            if radios.count() > 1:
                counter.tap(page.locator(f'#turn-preview input[value="{"-".join(map(str, corners))}"]'))
                kind = "two orientations"
            if turn.get("bonus") == "bridge":
                expect(page.locator("#turn-preview .bonus-found")).to_have_text("pont")
                saw_bridge = True
            expect(page.locator("#turn-preview .engine-points")).to_have_text(str(turn["claimed"]))
            claimed = turn["claimed"] + (7 if index == wrong_claim_turn else 0)
            counter.type_and_enter(page, page.locator("#id_claimed"), str(claimed))
        expect(page.locator("#round-1 table.turn-log tbody tr[id^='turn-']")).to_have_count(index + 1)
        actions_per_turn.append((kind, counter.count))
        if index == wrong_claim_turn:
            row = page.locator("#round-1 table.turn-log tbody tr").nth(index)
            expect(row).to_have_class(re.compile("verdict-mismatch"))
            expect(row).to_contain_text("annonce différente")
            expect(row.locator(".claimed")).to_have_text(str(claimed))
            expect(row.locator(".engine-points")).to_have_text(str(turn["claimed"]))

    assert saw_bridge and saw_refusal
    bridge_row = page.locator("#round-1 table.turn-log tbody tr").nth(
        next(i for i, t in enumerate(round_["turns"]) if t.get("bonus") == "bridge"))
    expect(bridge_row.locator(".bonus-found")).to_have_text("pont")

    # the round is over at the table: the racks are asked for
    expect(page.locator("#round-end-form")).to_be_visible()
    pending = page.locator("tr.decision-pending")
    expect(pending).to_have_count(1)
    pending.get_by_role("button", name=re.compile("Calcul")).click()
    expect(page.locator("tr.decision-pending")).to_have_count(0)
    for seat, rack in enumerate(round_["racks"]):
        page.locator(f"#id_rack_{seat}").fill(" ".join(rack))
    page.get_by_role("button", name="Faire le décompte").click()
    expect(page.locator("#confirm-round")).to_contain_text("Décompte (calcul)")
    page.get_by_role("button", name="Confirmer la manche 1").click()
    expect(page.locator("#round-1 summary")).to_contain_text("confirmée")
    expect(page.locator(".round-state")).to_contain_text("Manche 2")

    # what was saved is the round as played, the wrong claim kept and decided
    expected = check_record(parse_record({**record, "rounds": [round_]}))
    stored = Match.objects.get(pk=match.pk)
    assert stored.totals == list(expected.totals)
    assert Round.objects.get(match=match, index=0).confirmed_at is not None
    wrong = Turn.objects.current().get(round__match=match, index=wrong_claim_turn)
    assert wrong.verdict == "mismatch" and wrong.decision == "engine"

    counts = Counter(kind for kind, _n in actions_per_turn)
    ordinary = [n for kind, n in actions_per_turn if kind == "ordinary"]
    print("\nactions per turn:", actions_per_turn)
    print("turn kinds:", dict(counts))
    print(f"ordinary turns: {len(ordinary)}, actions each: {sorted(set(ordinary))}")
    assert ordinary and set(ordinary) == {3}
    assert all(n == 2 for kind, n in actions_per_turn if kind == "no placement")
