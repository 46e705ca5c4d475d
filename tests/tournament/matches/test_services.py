"""The recording services, one path at a time, on the real database and the real engine."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from scoring.simulate import simulate_match
from tests.factories import (
    add,
    board_turn,
    confirmed_match,
    fresh,
    import_record,
    match_at,
    played_record,
    replay,
    seated_names,
    truncated,
)
from tests.tournament.matches.helpers import find
from tournament import engine
from tournament.matches import selectors, services
from tournament.models import AuditEntry, Round, RoundEnd, Turn

pytestmark = pytest.mark.django_db

Cell = engine.Cell


@pytest.fixture(autouse=True)
def in_english():
    """The messages checked below are the English ones (test_translations.py has French)."""
    with translation.override("en"):
        yield


def opening(player: int = 0, tile: str = "5-5-5", **changes) -> services.TurnInput:
    corners = tuple(int(v) for v in tile.split("-"))
    return services.TurnInput(player=player, cell=Cell(0, 0, "U"), corners=corners, **changes)


def sheet(player: int | None, tile: str = "", **fields) -> services.TurnInput:
    return services.TurnInput(player=player, tile=tile, **fields)


def current_turns(match) -> list[Turn]:
    return list(Turn.objects.current().filter(round__match=match).order_by("round__index", "index"))


# -- board mode --------------------------------------------------------------------------------


def test_a_bridge_is_found_and_scored(tournament, referee):
    match = match_at(tournament=tournament)
    names = seated_names(match)
    _seed, record, r, t = find(
        lambda turn, _round, _t: turn.get("bonus") == "bridge" and not turn.get("draws"),
        names=names,
    )
    import_record(match, referee, truncated(record, rounds=r, turns=t))
    bridge = record["rounds"][r]["turns"][t]
    # the scorekeeper enters tile and cell, not the bonus: the engine finds it
    (turn,) = add(match, referee, board_turn(bridge, bonus_claimed="", player=None))
    assert turn.bonus == "bridge" and turn.bonus_points == 40
    assert turn.points == turn.tile_value + 40 == bridge["claimed"]
    assert turn.verdict == "ok" and turn.problems == []
    assert turn.points_claimed == bridge["claimed"] and turn.created_by == referee


def test_a_claim_that_differs_is_kept_with_both_figures_and_decided_either_way(
    tournament, referee
):
    match = match_at(tournament=tournament)
    add(match, referee, opening(points_claimed=25))
    (turn,) = add(
        match, referee,
        services.TurnInput(cell=Cell(0, 0, "D"), corners=(5, 5, 4), points_claimed=20),
    )
    assert turn.verdict == "mismatch" and turn.points == 14 and turn.points_claimed == 20
    assert turn.decision == "" and turn.problems[0]["code"] == "claim-mismatch"
    assert turn.player == 1  # the engine's next player
    view = replay(match)
    assert view.rounds[0].pending_decisions[0].row == turn
    assert view.totals == (25, 14, 0, 0)  # a pending claim counts the engine's figure

    with pytest.raises(ValidationError) as error:
        services.match_turn_decide(match=fresh(match), user=referee,
                                   seen_revision=fresh(match).revision, turn_id=turn.pk,
                                   decision="claim", reason="  ")
    assert "reason" in error.value.message_dict

    kept = services.match_turn_decide(
        match=fresh(match), user=referee, seen_revision=fresh(match).revision, turn_id=turn.pk,
        decision="claim", reason="The table agreed on 20 before the referee came.",
    ).saved
    assert kept.decision == "claim" and kept.verdict == "mismatch"
    assert fresh(match).totals == [25, 20, 0, 0]
    turn.refresh_from_db()
    assert turn.superseded_by == kept and turn.superseded_at is not None and turn.decision == ""

    engine_stands = services.match_turn_decide(
        match=fresh(match), user=referee, seen_revision=fresh(match).revision, turn_id=kept.pk,
        decision="engine",
    ).saved
    assert engine_stands.decision == "engine"
    assert fresh(match).totals == [25, 14, 0, 0]
    assert Turn.objects.filter(round__match=match, index=1).count() == 3  # every version kept
    decisions = AuditEntry.objects.filter(match=match, action="decision").order_by("id")
    assert [e.details["after"]["decision"] for e in decisions] == ["claim", "engine"]
    assert decisions[0].reason.startswith("The table agreed")


def test_an_illegal_placement_is_refused_with_the_engines_reason(tournament, referee):
    match = match_at(tournament=tournament)
    add(match, referee, opening(points_claimed=25))
    revision = fresh(match).revision
    with pytest.raises(services.TurnsRefused) as refused:
        add(match, referee, services.TurnInput(cell=Cell(0, 0, "D"), corners=(4, 5, 5),
                                               points_claimed=14))
    (refusal,) = refused.value.refusals
    assert refusal.line == 0 and [p.code for p in refusal.problems] == ["corner-mismatch"]
    assert (refusal.problems[0].round, refusal.problems[0].turn) == (0, 1)
    assert fresh(match).revision == revision  # nothing written, the revision did not move
    assert len(current_turns(match)) == 1
    # a tile already on the table, a cell already taken, a cell touching nothing
    for place in [(Cell(0, 0, "D"), (5, 5, 5)), (Cell(0, 0, "U"), (5, 5, 4)),
                  (Cell(5, 5, "U"), (5, 5, 4))]:
        with pytest.raises(services.TurnsRefused) as refused:
            add(match, referee, services.TurnInput(cell=place[0], corners=place[1]))
        assert refused.value.refusals[0].problems[0].code in (
            "tile-already-played", "occupied", "no-shared-side")
    assert len(current_turns(match)) == 1


def test_draws_until_the_pool_runs_out_then_the_table_is_blocked(tournament, referee):
    match = match_at(tournament=tournament)
    add(match, referee, opening(player=0, points_claimed=25))
    # nine turns drawing three without placing take 27 of the pool's 28 tiles
    for _ in range(9):
        add(match, referee, services.TurnInput(draws=3, points_claimed=-25))
    live = replay(match).live
    assert live.pool_size == 1 and live.pass_draws == 1 and live.next_player == 2
    # two draws from a pool of one are refused; so is passing without drawing
    for draws in (2, 0):
        with pytest.raises(services.TurnsRefused) as refused:
            add(match, referee, services.TurnInput(draws=draws))
        assert refused.value.refusals[0].problems[0].code in ("too-many-draws", "pass-with-pool")
    # the last tile drawn without placing costs 5 only, and the table is blocked
    (last,) = add(match, referee, services.TurnInput(draws=1, points_claimed=-5))
    assert last.points == -5 and last.penalty == 5 and last.verdict == "ok"
    view = replay(match)
    assert view.live.round_over and view.live.end_kind == "blocked" and view.live.pool_size == 0
    assert view.live.hand_counts == (12, 16, 14, 13)
    assert Round.objects.get(match=match).end_kind == "blocked"
    with pytest.raises(services.TurnsRefused) as refused:
        add(match, referee, services.TurnInput(draws=0))
    assert refused.value.refusals[0].problems[0].code == "turn-after-end"

    # blocked: the lowest rack (totals, the tiles were not noted) scores the others' minus its own
    services.match_round_end(match=fresh(match), user=referee, seen_revision=fresh(match).revision,
                             round_index=0, racks=[90, 120, 100, 90],
                             settlement_claimed=[220, 0, 0, 220])
    round_view = replay(match).rounds[0]
    assert round_view.closed and round_view.settlement == (220, 0, 0, 220)
    assert round_view.problems == []
    assert fresh(match).totals == [25 - 50 + 220, -75, -55, -50 + 220]


def test_going_out_settles_25_plus_the_other_racks(tournament, referee):
    match = match_at(tournament=tournament)
    names = seated_names(match)
    _seed, record, r, t = find(
        lambda turn, round_, t: t == len(round_["turns"]) - 1 and not turn.get("draws")
        and round_["racks"][turn["player"]] == [],
        names=names,
    )
    import_record(match, referee, truncated(record, rounds=r, turns=t))
    last = record["rounds"][r]["turns"][t]
    add(match, referee, board_turn(last, player=None))
    live = replay(match).live
    assert live.round_over and live.end_kind == "out" and live.out_player == last["player"]
    assert live.next_player is None
    racks = record["rounds"][r]["racks"]
    services.match_round_end(match=fresh(match), user=referee, seen_revision=fresh(match).revision,
                             round_index=r, racks=racks)
    round_view = replay(match).rounds[r]
    others = sum(engine.parse_tile(name).value for rack in racks for name in rack)
    assert round_view.settlement[last["player"]] == 25 + others
    assert sum(round_view.settlement) == 25 + others and round_view.problems == []
    assert round_view.can_confirm
    services.match_round_confirm(match=fresh(match), user=referee,
                                 seen_revision=fresh(match).revision, round_index=r)
    assert Round.objects.get(match=match, index=r).confirmed_by == referee


def test_a_round_a_correction_left_unfinished_cannot_be_confirmed(tournament, referee):
    """Its racks were entered, then the last turn (the going out) was struck out: nobody went
    out any more, so the round is not over and is refused with a message, nothing written."""
    match = match_at(tournament=tournament)
    _seed, record, r, t = find(
        lambda turn, round_, t: t == len(round_["turns"]) - 1 and not turn.get("draws")
        and round_["racks"][turn["player"]] == [],
        names=seated_names(match),
    )
    import_record(match, referee, truncated(record, rounds=r, turns=t + 1))
    services.match_round_end(match=fresh(match), user=referee, seen_revision=fresh(match).revision,
                             round_index=r, racks=record["rounds"][r]["racks"])
    going_out = current_turns(match)[-1]
    services.match_turn_correct(match=fresh(match), user=referee,
                                seen_revision=fresh(match).revision, turn_id=going_out.pk,
                                turn=None, reason="entered twice")
    assert replay(match).rounds[r].end_kind == "unfinished"
    revision = fresh(match).revision
    with pytest.raises(ValidationError, match="nobody went out and the table is not blocked"):
        services.match_round_confirm(match=fresh(match), user=referee, seen_revision=revision,
                                     round_index=r)
    assert fresh(match).revision == revision
    assert Round.objects.get(match=match, index=r).confirmed_at is None


def test_a_false_block_and_a_wrong_settlement_are_flagged(tournament, referee):
    match = match_at(tournament=tournament)
    add(match, referee, opening(player=0, points_claimed=25))
    for _ in range(9):
        add(match, referee, services.TurnInput(draws=3))
    add(match, referee, services.TurnInput(draws=1))
    hands = [12, 16, 14, 13]
    # seat A shows 5-5-4, which fits next to 5-5-5: the block was false
    free = [t for t in engine.ALL_TILES if str(t) not in ("5-5-5", "4-5-5")]
    racks = [["4-5-5"] + [str(t) for t in free[:11]]]
    start = 11
    for count in hands[1:]:
        racks.append([str(t) for t in free[start:start + count]])
        start += count
    services.match_round_end(match=fresh(match), user=referee, seen_revision=fresh(match).revision,
                             round_index=0, racks=racks, settlement_claimed=[0, 0, 0, 0])
    codes = [p.code for p in replay(match).rounds[0].problems]
    assert "false-block" in codes and "settlement-mismatch" in codes


def test_the_target_ends_the_match_shows_the_winners_and_refuses_a_new_round(tournament, referee):
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=3)
    rounds = record["rounds"]
    last_round = len(rounds) - 1
    import_record(match, referee, truncated(record, rounds=last_round,
                                            turns=len(rounds[-1]["turns"]) - 1))
    assert fresh(match).status == "playing"
    add(match, referee, board_turn(rounds[-1]["turns"][-1], player=None))
    assert fresh(match).status == "playing"  # over at the table, the racks still to enter
    services.match_round_end(match=fresh(match), user=referee, seen_revision=fresh(match).revision,
                             round_index=last_round, racks=rounds[-1]["racks"],
                             settlement_claimed=rounds[-1].get("settlement_claimed"))
    finished = fresh(match)
    view = replay(match)
    assert finished.status == "finished" and finished.finished_at is not None
    assert view.finished and view.live is None and max(view.totals) >= 400
    assert finished.winners == list(view.winners) and view.winner_names
    assert AuditEntry.objects.filter(match=match, action="match-closed").count() == 1
    with pytest.raises(ValidationError, match="match is over"):
        add(match, referee, opening(player=0))
    # once every round is confirmed, the match is confirmed
    for index in range(len(rounds)):
        services.match_round_confirm(match=fresh(match), user=referee,
                                     seen_revision=fresh(match).revision, round_index=index)
    assert fresh(match).status == "confirmed"


def test_turns_are_numbered_without_the_gap_a_struck_out_turn_leaves(tournament, referee):
    """The turn log, the refusals and the correction page count the round's current turns;
    the rows keep their indexes (a struck-out turn leaves a gap there)."""
    match = match_at(tournament=tournament)
    import_record(match, referee, truncated(played_record(match=match, seed=3), rounds=0, turns=6))
    second = current_turns(match)[1]
    services.match_turn_correct(match=fresh(match), user=referee,
                                seen_revision=fresh(match).revision, turn_id=second.pk,
                                turn=None, reason="entered by mistake")
    lines = replay(match).rounds[0].turns
    assert [line.index for line in lines] == [0, 2, 3, 4, 5]
    assert [line.number for line in lines] == [1, 2, 3, 4, 5]


def test_undo_the_last_turn_keeps_it_and_the_next_turn_takes_its_place(tournament, referee):
    match = match_at(tournament=tournament)
    add(match, referee, opening(points_claimed=25))
    (wrong,) = add(match, referee, services.TurnInput(cell=Cell(0, 0, "D"), corners=(5, 5, 4)))
    undone = services.match_turn_undo(match=fresh(match), user=referee,
                                      seen_revision=fresh(match).revision).saved
    assert undone == wrong
    wrong.refresh_from_db()
    assert wrong.superseded_at is not None and wrong.superseded_by is None
    assert replay(match).live.next_player == 1
    (right,) = add(match, referee, services.TurnInput(cell=Cell(-1, 0, "D"), corners=(5, 3, 5)))
    assert right.index == 1 and right.player == 1
    assert [t.pk for t in current_turns(match)][-1] == right.pk
    entry = AuditEntry.objects.get(match=match, action="turn-undone")
    assert entry.details["before"]["cell"] == "D(0,0)" and entry.user == referee


def test_a_correction_in_round_1_changes_the_final_totals_and_loses_nothing(tournament, referee):
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=3)
    import_record(match, referee, record)
    for index in range(len(record["rounds"])):
        services.match_round_confirm(match=fresh(match), user=referee,
                                     seen_revision=fresh(match).revision, round_index=index)
    assert fresh(match).status == "confirmed"
    before = list(fresh(match).totals)
    first_round = record["rounds"][0]
    out_player = next(i for i, rack in enumerate(first_round["racks"]) if rack == [])
    position = next(i for i, t in enumerate(first_round["turns"])
                    if t["player"] != out_player and "place" in t and not t.get("draws") and i > 0)
    corrected_player = first_round["turns"][position]["player"]
    old = current_turns(match)[position]

    new = services.match_turn_correct(
        match=fresh(match), user=referee, seen_revision=fresh(match).revision, turn_id=old.pk,
        turn=board_turn(first_round["turns"][position], draws=1),
        reason="The sheet shows a draw before the tile.",
    ).saved
    assert new.draws == 1 and new.penalty == 5 and new.change_reason.startswith("The sheet")
    after = fresh(match).totals
    expected = list(before)
    expected[corrected_player] -= 5
    # the claim stays the player's announcement: a mismatch now, the engine's figure counts
    assert new.verdict == "mismatch"
    assert after == expected
    old.refresh_from_db()
    assert old.superseded_by == new and old.draws == 0  # the old version is kept as it was
    assert Round.objects.get(match=match, index=0).confirmed_at is None
    assert fresh(match).status == "finished"  # to be confirmed again
    round_one = replay(match).rounds[0]
    assert any(p.code == "rack-mismatch" for p in round_one.problems)  # one tile more in hand
    entry = AuditEntry.objects.get(match=match, action="turn-corrected")
    assert entry.details["before"]["draws"] == 0 and entry.details["after"]["draws"] == 1
    assert entry.reason == "The sheet shows a draw before the tile." and entry.user == referee
    with pytest.raises(ValidationError, match="decide first"):
        services.match_round_confirm(match=fresh(match), user=referee,
                                     seen_revision=fresh(match).revision, round_index=0)


def test_a_correction_that_makes_later_turns_illegal_flags_them(tournament, referee):
    match = match_at(tournament=tournament)
    add(match, referee, opening(points_claimed=25))
    add(match, referee, services.TurnInput(cell=Cell(0, 0, "D"), corners=(5, 5, 4), points_claimed=14))
    (third,) = add(match, referee, services.TurnInput(cell=Cell(1, 0, "U"), corners=(4, 4, 5)))
    _first, second, _third = current_turns(match)
    # the second tile was in fact 3-5-5, to the left: the third no longer touches the table
    services.match_turn_correct(
        match=fresh(match), user=referee, seen_revision=fresh(match).revision, turn_id=second.pk,
        turn=services.TurnInput(cell=Cell(-1, 0, "D"), corners=(5, 3, 5), points_claimed=13),
        reason="wrong cell",
    )
    third_now = current_turns(match)[2]
    assert third_now.pk == third.pk and third_now.verdict == "illegal"
    assert third_now.problems[0]["code"] == "no-shared-side"
    # the corrected turn itself must be legal
    with pytest.raises(services.TurnsRefused):
        services.match_turn_correct(
            match=fresh(match), user=referee, seen_revision=fresh(match).revision,
            turn_id=current_turns(match)[1].pk,
            turn=services.TurnInput(cell=Cell(3, 3, "D"), corners=(5, 3, 5)), reason="x",
        )
    # a correction needs a reason
    with pytest.raises(ValidationError) as error:
        services.match_turn_correct(match=fresh(match), user=referee,
                                    seen_revision=fresh(match).revision, turn_id=third.pk,
                                    turn=None, reason="")
    assert "reason" in error.value.message_dict
    # struck out (not played), the illegal turn is gone from the match and kept in the rows
    services.match_turn_correct(match=fresh(match), user=referee,
                                seen_revision=fresh(match).revision, turn_id=third.pk,
                                turn=None, reason="never played")
    assert len(current_turns(match)) == 2 and Turn.objects.filter(round__match=match).count() == 4


def test_each_write_replays_the_match_no_more_than_it_needs(tournament, referee,
                                                           engine_replays):
    """Every write replays the match once, with its change (match_write): a save, a
    correction, a decision, an undo."""
    add(match := match_at(tournament=tournament), referee, opening(points_claimed=25))
    assert len(engine_replays) == 1
    (turn,) = add(match, referee, services.TurnInput(cell=Cell(0, 0, "D"), corners=(5, 5, 4),
                                                     points_claimed=20))
    engine_replays.clear()
    services.match_turn_decide(match=fresh(match), user=referee,
                               seen_revision=fresh(match).revision, turn_id=turn.pk,
                               decision="engine")
    assert len(engine_replays) == 1
    engine_replays.clear()
    services.match_turn_correct(match=fresh(match), user=referee,
                                seen_revision=fresh(match).revision,
                                turn_id=current_turns(match)[1].pk, turn=None, reason="not played")
    assert len(engine_replays) == 1
    engine_replays.clear()
    services.match_turn_undo(match=fresh(match), user=referee, seen_revision=fresh(match).revision)
    assert len(engine_replays) == 1
    assert current_turns(match) == []


# -- sheet mode --------------------------------------------------------------------------------


def test_sheet_lines_are_saved_all_or_nothing(tournament, referee):
    match = match_at(tournament=tournament)
    lines = [sheet(2, "4-4-4", bonus_claimed="opening", points_claimed=22),
             sheet(None, "3-4-4", points_claimed=11),
             sheet(None, "4-4-4", points_claimed=12)]  # played twice
    with pytest.raises(services.TurnsRefused) as refused:
        add(match, referee, *lines)
    assert [r.line for r in refused.value.refusals] == [2]
    assert refused.value.refusals[0].problems[0].code == "tile-already-played"
    assert current_turns(match) == [] and fresh(match).revision == 0

    lines[2] = sheet(None, "2-4-4", points_claimed=99)
    with pytest.raises(services.MismatchesNotSeen) as not_seen:
        add(match, referee, *lines, mismatches_seen=False)
    assert not_seen.value.lines == [2] and current_turns(match) == []
    saved = add(match, referee, *lines, mismatches_seen=True)
    assert [t.player for t in saved] == [2, 3, 0]
    assert [t.verdict for t in saved] == ["ok", "ok", "mismatch"]
    assert saved[2].points == 10 and saved[2].cell == ""
    assert replay(match).live.board is None  # the table is not known in sheet mode


def test_a_sheet_line_claiming_an_impossible_bonus_is_a_mismatch(tournament, referee):
    match = match_at(tournament=tournament)
    saved = add(match, referee, sheet(0, "5-5-5", points_claimed=25),
                sheet(None, "4-5-5", bonus_claimed="hexagon", points_claimed=64))
    assert saved[1].verdict == "mismatch"
    assert saved[1].problems[0]["template"] == "bonus-mismatch/impossible"


# -- two people at one table ---------------------------------------------------------------------


def test_a_save_based_on_a_stale_view_is_refused_and_changes_nothing(tournament, referee):
    match = match_at(tournament=tournament)
    seen = fresh(match).revision
    add(match, referee, opening(points_claimed=25))
    with pytest.raises(services.StaleMatch):
        services.match_turns_add(match=fresh(match), user=referee, seen_revision=seen,
                                 turns=[opening(player=1, tile="4-4-4")])
    with pytest.raises(services.StaleMatch):
        services.match_turn_undo(match=fresh(match), user=referee, seen_revision=seen)
    assert [t.tile for t in current_turns(match)] == ["5-5-5"]
    assert fresh(match).revision == seen + 1


# -- the match record ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"this is not JSON", None),
        (b"\xff\xfe", None),
        (b'{"format": "triominos-match/2", "players": [], "rounds": []}', "format"),
        ((b'{"format": "triominos-match/1", "players": ["A", "B", "C", "D"], '
         b'"rounds": [{"turns": [{"player": 7}]}]}'), "rounds[0].turns[0].player"),
        # damaged records that once crashed the reader: each refused by its field
        ((b'{"players": ["A", "B", "C", "D"], "rounds": [{"turns": [{"player": 0, '
          b'"place": {"cell": [0, 0, ["U"]], "corners": [5, 5, 5]}}]}]}'),
         "rounds[0].turns[0].place.cell"),
        ((b'{"players": ["A", "B", "C", "D"], "rounds": [{"turns": [{"player": 0, '
          b'"place": {"tile": "5-5-5"}, "bonus": {"a": 1}}]}]}'), "rounds[0].turns[0].bonus"),
        (b'{"players": ["A", "B", "C", "D"], "target": ' + b"9" * 5000 + b', "rounds": []}',
         "target"),
        ((b'{"players": ["A", "B", "C", "D"], "rounds": [{"turns": [], "racks": [1, 2, 3, '
          + b"9" * 5000 + b"]}]}"), "rounds[0].racks[3]"),
    ],
)
def test_an_unreadable_record_is_refused_and_nothing_is_saved(tournament, referee, content,
                                                              expected):
    match = match_at(tournament=tournament)
    with pytest.raises(ValidationError) as error:
        import_record(match, referee, content)
    (refusal,) = error.value.error_dict["record"]
    assert refusal.code == "unreadable"
    if expected is not None:  # the field at fault, named in the message
        assert expected in refusal.message
    assert fresh(match).revision == 0 and not Round.objects.filter(match=match).exists()
    assert not AuditEntry.objects.filter(match=match).exists()


def test_a_record_for_other_players_rules_or_a_match_already_begun_is_refused(tournament, referee):
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=3)
    three = engine.simulated_match_record(names=seated_names(match)[:3], seed=3)
    family = {**record, "rules": "goliath-family"}
    other_target = {**record, "target": 300}
    renamed = {**record, "players": ["Ana", "Bo", "Cy", "Di"]}
    reordered = {**record, "players": list(reversed(record["players"]))}
    for bad, code in [(three, "player_count"), (family, "other_rules"),
                      (other_target, "other_target"), (renamed, "names_differ"),
                      (reordered, "names_differ")]:
        with pytest.raises(ValidationError) as error:
            import_record(match, referee, bad)
        assert [e.code for e in error.value.error_dict["record"]] == [code]
    assert not Turn.objects.filter(round__match=match).exists() and fresh(match).revision == 0

    # names in another spelling pass when the referee says the record is in seat order
    view = import_record(match, referee, renamed, names_must_match=False)
    assert view.finished and [s.name for s in view.seats] == seated_names(match)
    with pytest.raises(ValidationError, match="already has turns"):
        import_record(match, referee, record)
    assert AuditEntry.objects.filter(match=match, action="record-imported").count() == 1


def test_names_match_whatever_their_accents_and_case(tournament, referee):
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=4)
    record["players"] = [name.upper() for name in record["players"]]
    assert import_record(match, referee, record).rounds


def test_an_imported_record_with_mistakes_keeps_and_flags_them(tournament, referee):
    match = match_at(tournament=tournament)
    record = simulate_match(players=4, names=seated_names(match), seed=9, mistakes=0.2)
    view = import_record(match, referee, record)
    mismatches = [t for r in view.rounds for t in r.turns if t.verdict == "mismatch"]
    assert mismatches and all(t.decision_pending for t in mismatches)
    assert RoundEnd.objects.filter(round__match=match).count() == len(record["rounds"])


# -- a forgotten turn inserted -----------------------------------------------------------------


def insert(match, user, before: Turn, turn: services.TurnInput, reason: str = "forgotten",
           **options):
    match = fresh(match)
    return services.match_turn_insert(
        match=match, user=user, seen_revision=options.pop("seen_revision", match.revision),
        before_turn_id=before.pk, turn=turn, reason=reason,
    ).saved


def without_turn(record, *, turns: int, missing: int):
    """Round 1's first ``turns`` turns but the one at ``missing``: a turn nobody entered."""
    kept = truncated(record, rounds=0, turns=turns)
    round_ = kept["rounds"][0]
    round_["turns"] = round_["turns"][:missing] + round_["turns"][missing + 1:]
    return kept


def test_a_forgotten_draw_inserted_mid_round_clears_out_of_turn_and_moves_the_turns_after(
    tournament, referee, organiser
):
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=3)
    played = record["rounds"][0]["turns"][:9]
    forgotten = played[4]
    assert forgotten == {"player": 2, "draws": 3, "claimed": -25}  # C drew three and passed
    import_record(match, referee, without_turn(record, turns=9, missing=4))
    turns = current_turns(match)
    assert [t.index for t in turns] == list(range(8))
    assert turns[4].verdict == "illegal" and turns[4].problems[0]["code"] == "out-of-turn"
    expected = [sum(t["claimed"] for t in played if t["player"] == seat) for seat in range(4)]
    assert fresh(match).totals != expected

    # the player left blank is the one due after the turn before: C
    inserted = insert(match, organiser, turns[4], services.TurnInput(draws=3, points_claimed=-25),
                      reason="C drew three and passed; the sheet skipped it")
    assert (inserted.player, inserted.index, inserted.points, inserted.verdict) == (2, 4, -25, "ok")
    assert inserted.created_by == organiser and inserted.change_reason.startswith("C drew")
    now = current_turns(match)
    assert [t.index for t in now] == list(range(9))
    assert [(t.player, t.draws, t.points_claimed) for t in now] == [
        (t["player"], t.get("draws", 0), t["claimed"]) for t in played]
    assert all(t.verdict == "ok" and t.problems == [] for t in now)
    assert fresh(match).totals == expected
    assert replay(match).live.next_player == 3  # after C's tile, the ninth turn

    # the four turns after it moved one place down: a new version each, the old one kept
    moved = now[5:]
    assert all(t.created_by == organiser and "inserted" in t.change_reason for t in moved)
    old_versions = Turn.objects.filter(round__match=match, superseded_at__isnull=False)
    assert old_versions.count() == 4
    assert sorted((t.index, t.superseded_by.index) for t in old_versions) == [
        (4, 5), (5, 6), (6, 7), (7, 8)]
    assert {t.pk for t in old_versions} == {t.pk for t in turns[4:]}
    assert Turn.objects.filter(round__match=match).count() == 8 + 1 + 4
    # a moved turn's versions are its own, not those of the turn that held its index before
    assert selectors.turn_versions(turn=now[5]) == [turns[4], now[5]]
    assert selectors.turn_versions(turn=now[4]) == [inserted]


def test_a_turn_struck_out_leaves_its_index_to_an_inserted_turn_and_moves_stop_at_a_gap(
    tournament, referee
):
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=3)
    import_record(match, referee, truncated(record, rounds=0, turns=9))
    turns = current_turns(match)
    # turn 5 (C's pass) was in fact not played: struck out, index 4 is left free
    services.match_turn_correct(match=fresh(match), user=referee,
                                seen_revision=fresh(match).revision, turn_id=turns[4].pk,
                                turn=None, reason="not played")
    assert [t.index for t in current_turns(match)] == [0, 1, 2, 3, 5, 6, 7, 8]
    # it was: inserted before the next turn, it takes the free index and nothing moves
    inserted = insert(match, referee, turns[5], services.TurnInput(draws=3, points_claimed=-25))
    assert inserted.index == 4 and inserted.verdict == "ok"
    assert [t.pk for t in current_turns(match)] == [t.pk for t in turns[:4]] + [
        inserted.pk] + [t.pk for t in turns[5:]]
    assert Turn.objects.filter(round__match=match).count() == 10

    # with a free index further on, only the turns before it move
    services.match_turn_correct(match=fresh(match), user=referee,
                                seen_revision=fresh(match).revision, turn_id=turns[7].pk,
                                turn=None, reason="not played")
    insert(match, referee, turns[5], services.TurnInput(draws=3, points_claimed=-25))
    assert [t.index for t in current_turns(match)] == [0, 1, 2, 3, 4, 5, 6, 7, 8]
    moved = AuditEntry.objects.filter(match=match, action="turn-inserted").order_by("id")
    assert [e.details["moved"] for e in moved] == [[], [[5, 6], [6, 7]]]


def test_an_illegal_inserted_turn_is_refused_and_nothing_is_written(tournament, referee):
    match = match_at(tournament=tournament)
    add(match, referee, opening(points_claimed=25))
    add(match, referee, services.TurnInput(cell=Cell(0, 0, "D"), corners=(5, 5, 4), points_claimed=14))
    second = current_turns(match)[1]
    revision = fresh(match).revision
    rows = Turn.objects.filter(round__match=match).count()
    for turn in [services.TurnInput(cell=Cell(0, 0, "D"), corners=(4, 5, 5)),  # corners
                 services.TurnInput(cell=Cell(-1, 0, "D"), corners=(5, 5, 5)),  # played
                 services.TurnInput(player=3, draws=3)]:  # out of turn: B was due
        with pytest.raises(services.TurnsRefused) as refused:
            insert(match, referee, second, turn)
        assert refused.value.refusals[0].problems[0].code in (
            "corner-mismatch", "tile-already-played", "out-of-turn")
    assert [p.code for r in refused.value.refusals for p in r.problems] == ["out-of-turn"]
    assert fresh(match).revision == revision
    assert Turn.objects.filter(round__match=match).count() == rows
    assert [t.pk for t in current_turns(match)][1] == second.pk and second.index == 1
    assert not AuditEntry.objects.filter(match=match, action="turn-inserted").exists()


def test_an_insertion_needs_a_reason_and_the_current_revision(tournament, referee):
    match = match_at(tournament=tournament)
    add(match, referee, opening(points_claimed=25))
    (second,) = add(match, referee, services.TurnInput(draws=3))
    revision = fresh(match).revision
    with pytest.raises(ValidationError) as error:
        insert(match, referee, second, services.TurnInput(draws=3), reason="  ")
    assert [e.code for e in error.value.error_dict["reason"]] == ["reason_required"]
    with pytest.raises(services.StaleMatch):
        insert(match, referee, second, services.TurnInput(draws=3), seen_revision=revision - 1)
    assert fresh(match).revision == revision
    assert Turn.objects.filter(round__match=match).count() == 2


def test_a_turn_inserted_before_a_rounds_opening_needs_its_player(tournament, referee):
    match = match_at(tournament=tournament)
    add(match, referee, opening(player=1, points_claimed=25))
    first = current_turns(match)[0]
    with pytest.raises(ValidationError) as error:
        insert(match, referee, first, services.TurnInput(draws=3))
    assert [e.code for e in error.value.error_dict["player"]] == ["player_required"]
    # A drew three, could not open, and B opened
    inserted = insert(match, referee, first, services.TurnInput(player=0, draws=3,
                                                                points_claimed=-25))
    assert (inserted.index, inserted.player, inserted.verdict) == (0, 0, "ok")
    now = current_turns(match)
    assert [t.index for t in now] == [0, 1] and now[1].player == 1 and now[1].verdict == "ok"
    assert fresh(match).totals == [-25, 25, 0, 0]
    assert replay(match).live.next_player == 2


def test_an_insertion_in_a_confirmed_round_unconfirms_it_and_flags_its_end(tournament, referee):
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=3)
    confirmed_match(match=match, user=referee, seed=3)
    assert fresh(match).status == "confirmed"
    before = list(fresh(match).totals)
    turns = current_turns(match)
    # a pass inserted before A's tile in round 1: A was due, so the pass is A's
    inserted = insert(match, referee, turns[6], services.TurnInput(draws=3, points_claimed=-25),
                      reason="the sheet shows a pass")
    assert (inserted.player, inserted.points, inserted.verdict) == (0, -25, "ok")
    assert Round.objects.get(match=match, index=0).confirmed_at is None
    # as after a correction, what no longer holds is flagged, not refused: A's tile is now
    # out of turn, and the racks shown at the end of the round are three tiles short
    round_one = replay(match).rounds[0]
    assert [t.problems[0].code for t in round_one.illegal_turns] == ["out-of-turn"]
    assert round_one.illegal_turns[0].row.index == 7
    assert "rack-mismatch" in [p.code for p in round_one.problems]
    assert fresh(match).status == "finished" and fresh(match).totals != before
    entry = AuditEntry.objects.get(match=match, action="turn-inserted")
    assert entry.user == referee and entry.reason == "the sheet shows a pass"
    assert entry.summary == "round 1, turn 7 inserted"
    assert entry.details["round"] == 0 and entry.details["position"] == 6
    assert entry.details["index"] == 6 and entry.details["after"]["draws"] == 3
    assert entry.details["after"]["player"] == 0 and entry.details["engine"]["points"] == -25
    assert len(entry.details["moved"]) == len(turns) - 6 - sum(
        len(r["turns"]) for r in record["rounds"][1:])
