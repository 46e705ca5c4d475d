"""A save costs the round in play, not the match: the rows the page read are reused when still
current, the new turn is played on from the round in play (the settled rounds are not replayed),
and the tablet is sent only the rounds the save changed."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import board_turn, fresh, match_at, played_record
from tests.tournament.matches.helpers import confirmed_through
from tournament import engine
from tournament.matches import services
from tournament.matches.reading.replay import match_replay
from tournament.matches.reading.replayed_match import ReplayedMatch
from tournament.matches.reading.rows import match_record
from tournament.models import Turn

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _figures(view: ReplayedMatch) -> tuple:
    """What the pages show of a replay: every turn's figures and verdict, every round's end
    and scores, the totals, the round in play."""
    live = view.live
    return (
        [(r.index, r.end_kind, r.scores, r.totals_after, r.counted,
          [(t.row.pk, t.points, t.verdict, t.bonus, [p.code for p in t.problems]) for t in r.turns])
         for r in view.rounds],
        view.totals, view.finished,
        (live.index, live.next_player, live.hand_counts, live.pool_size, live.round_over)
        if live else None,
    )


def test_a_round_entered_on_from_the_pages_replay_is_the_whole_replay(tournament, referee,
                                                                     engine_replays):
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=3)
    confirmed_through(match, referee, record, rounds=2)
    for turn in record["rounds"][2]["turns"]:
        before = match_replay(match=fresh(match))  # as the entry screen reads it
        engine_replays.clear()
        written = services.match_turns_add(
            match=fresh(match), user=referee, seen_revision=before.match.revision,
            turns=[board_turn(turn)], before=before)
        assert engine_replays == []  # the settled rounds were not replayed
        assert _figures(written.replay) == _figures(match_replay(match=fresh(match)))
        assert written.replay.match.revision == fresh(match).revision
    stored = Turn.objects.current().filter(round__match=match, round__index=2).order_by("index")
    assert [t.points for t in stored] == [t.get("claimed") for t in record["rounds"][2]["turns"]]


def test_a_replay_from_an_older_revision_is_not_reused(tournament, referee):
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=3)
    confirmed_through(match, referee, record, rounds=1)
    turns = record["rounds"][1]["turns"]
    before = match_replay(match=fresh(match))
    services.match_turns_add(match=fresh(match), user=referee,
                             seen_revision=fresh(match).revision,
                             turns=[board_turn(turns[0])])
    # the client saw the new revision, the page's replay is older: the rows are read again
    written = services.match_turns_add(
        match=fresh(match), user=referee, seen_revision=fresh(match).revision,
        turns=[board_turn(turns[1])], before=before)
    assert [t.player for t in written.replay.rounds[-1].turns] == [turns[0]["player"],
                                                                   turns[1]["player"]]
    assert _figures(written.replay) == _figures(match_replay(match=fresh(match)))


def test_the_tablet_is_sent_only_the_rounds_the_save_changed(tournament, referee, referee_client):
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=3)
    confirmed_through(match, referee, record, rounds=2)
    turn = record["rounds"][2]["turns"][0]
    x, y, o = turn["place"]["cell"]
    url = reverse("tournament:match_turn_add", kwargs={
        "slug": tournament.slug, "match_id": match.pk})
    response = referee_client.post(url, {
        "revision": fresh(match).revision, "player": turn["player"],
        "tile": "".join(map(str, turn["place"]["corners"])), "cell": f"{o}({x},{y})",
        "corners": "-".join(map(str, turn["place"]["corners"])), "draws": "0",
        "claimed": turn["claimed"]}, **HTMX)
    assert response.status_code == 200
    log = response.context["log_rounds"]
    assert [item.get("preserved", False) for item in log] == [True, True, False]
    page = response.content.decode()
    assert page.count("hx-preserve") == 2 and 'id="round-1"' in page
    # the whole page (a GET) still has every round's log
    full = referee_client.get(reverse("tournament:match", kwargs={
        "slug": tournament.slug, "match_id": match.pk}))
    assert not any(item.get("preserved") for item in full.context["log_rounds"])
    assert "hx-preserve" not in full.content.decode()


def _stored_figures(view: ReplayedMatch, stored: list[bool]) -> tuple:
    """:func:`_figures` without the turn lines of the rounds ``stored`` says (not replayed)."""
    rounds, *rest = _figures(view)
    return ([r[:-1] if skip else r for r, skip in zip(rounds, stored, strict=True)], *rest)


def test_the_settled_rounds_are_taken_from_their_stored_scores(tournament, referee,
                                                               engine_replays):
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=3)
    confirmed_through(match, referee, record, rounds=2)
    for turn in record["rounds"][2]["turns"][:3]:
        services.match_turns_add(match=fresh(match), user=referee,
                                 seen_revision=fresh(match).revision, turns=[board_turn(turn)])
    full = match_replay(match=fresh(match))
    engine_replays.clear()
    partial = match_replay(match=fresh(match), settled_stored=True)
    assert [first for _rounds, first in engine_replays] == [2]  # rounds 1, 2 not replayed
    assert [r.stored for r in partial.rounds] == [True, True, False]
    assert partial.rows.unloaded == {r.row.pk: len(r.turns) for r in full.rounds[:2]}
    assert [r.turns for r in partial.rounds[:2]] == [[], []]
    stored = [r.stored for r in partial.rounds]
    assert _stored_figures(partial, stored) == _stored_figures(full, stored)
    assert partial.turn_count == full.turn_count
    assert partial.live.legal_cells == full.live.legal_cells
    with pytest.raises(ValueError):
        partial.record  # noqa: B018  (the settled rounds' turns were not loaded)
    assert full.record.to_dict()["rounds"][:2] == record["rounds"][:2]


def test_a_round_not_confirmed_is_replayed_with_every_round_after_it(tournament, referee):
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=3)
    head = {**record, "rounds": record["rounds"][:3]}
    services.match_record_import(match=fresh(match), user=referee,
                                 seen_revision=fresh(match).revision, record=head)
    for index in (0, 2):  # round 2 is left to confirm
        services.match_round_confirm(match=fresh(match), user=referee,
                                     seen_revision=fresh(match).revision, round_index=index)
    partial = match_replay(match=fresh(match), settled_stored=True)
    assert [r.stored for r in partial.rounds] == [True, False, False]
    stored = [r.stored for r in partial.rounds]
    assert _stored_figures(partial, stored) == _stored_figures(
        match_replay(match=fresh(match)), stored)


def test_a_match_over_is_replayed_whole(tournament, referee):
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=3)
    replay = services.match_record_import(match=fresh(match), user=referee,
                                          seen_revision=fresh(match).revision,
                                          record=record).replay
    assert replay.finished
    for round_view in replay.rounds:
        services.match_round_confirm(match=fresh(match), user=referee,
                                     seen_revision=fresh(match).revision,
                                     round_index=round_view.index)
    partial = match_replay(match=fresh(match), settled_stored=True)
    # the stored figures say the match is over: it is loaded and replayed from its first round
    assert not any(r.stored for r in partial.rounds)
    assert partial.rows.unloaded == {}
    assert _figures(partial) == _figures(match_replay(match=fresh(match)))
    assert partial.record == match_record(match=match)


def test_a_turn_posted_after_settled_rounds_stores_what_a_whole_replay_gives(
        tournament, referee, referee_client):
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=3)
    confirmed_through(match, referee, record, rounds=2)
    url = reverse("tournament:match_turn_add", kwargs={
        "slug": tournament.slug, "match_id": match.pk})
    for index, turn in enumerate(record["rounds"][2]["turns"][:4]):
        x, y, o = turn["place"]["cell"] if turn.get("place") else (None, None, None)
        data = {"revision": fresh(match).revision, "player": turn["player"],
                "draws": turn.get("draws", 0), "claimed": turn["claimed"]}
        if turn.get("place"):
            data.update(tile="".join(map(str, turn["place"]["corners"])), cell=f"{o}({x},{y})",
                        corners="-".join(map(str, turn["place"]["corners"])))
        else:
            data["pass"] = "1"
        response = referee_client.post(url, data, **HTMX)
        assert response.status_code == 200
        # the closed rounds before the last recorded one taken from their stored scores (the
        # last closed one is replayed by the round's first save; no replay is kept here: the
        # test's transaction is never committed)
        assert [r.stored for r in response.context["replay"].rounds] == [True, index > 0, False]
    full = match_replay(match=fresh(match))
    assert fresh(match).totals == list(full.totals)
    stored = Turn.objects.current().filter(round__match=match, round__index=2).order_by("index")
    assert [(t.points, t.verdict) for t in stored] == [
        (line.points, line.verdict) for line in full.rounds[2].turns]
    assert len(stored) == 4


def test_sheet_modes_check_after_settled_rounds_is_the_whole_replays(tournament, referee,
                                                                      engine_replays):
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=3)
    confirmed_through(match, referee, record, rounds=2)
    turns = [board_turn(turn) for turn in record["rounds"][2]["turns"][:5]]
    full = services.candidate_reports(replay=match_replay(match=fresh(match)),
                                      turns=turns)
    engine_replays.clear()
    partial = match_replay(match=fresh(match), settled_stored=True)
    assert services.candidate_reports(replay=partial, turns=turns) == full
    # the page's replay, then the check: from round 3
    assert [first for _rounds, first in engine_replays] == [2, 2]
    assert [report.verdict for report in full[0]] == ["ok"] * 5


def test_every_write_after_settled_rounds_gives_what_a_whole_replay_gives(tournament, referee):
    match = match_at(tournament=tournament)
    record = played_record(match=match, seed=3)
    confirmed_through(match, referee, record, rounds=2)
    third = record["rounds"][2]
    services.match_turns_add(match=fresh(match), user=referee,
                             seen_revision=fresh(match).revision,
                             turns=[board_turn(turn) for turn in third["turns"]])

    def check(written, stored: list[bool]):
        assert [r.stored for r in written.replay.rounds] == stored
        whole = match_replay(match=fresh(match))
        assert _stored_figures(written.replay, stored) == _stored_figures(whole, stored)
        assert written.replay.turn_count == whole.turn_count
        assert fresh(match).totals == list(whole.totals)

    check(services.match_turn_undo(match=fresh(match), user=referee,
                                   seen_revision=fresh(match).revision), [True, True, False])
    services.match_turns_add(match=fresh(match), user=referee, seen_revision=fresh(match).revision,
                             turns=[board_turn(third["turns"][-1])])
    racks = third["racks"]
    check(services.match_round_end(match=fresh(match), user=referee,
                                   seen_revision=fresh(match).revision, round_index=2,
                                   racks=racks), [True, True, False])
    check(services.match_round_confirm(match=fresh(match), user=referee,
                                       seen_revision=fresh(match).revision, round_index=2),
          [True, True, False])
    # a correction in the first round un-confirms it: the whole match is replayed
    row = Turn.objects.current().get(round__match=match, round__index=0, index=0)
    check(services.match_turn_correct(
        match=fresh(match), user=referee, seen_revision=fresh(match).revision, turn_id=row.pk,
        turn=services.TurnInput(player=row.player, tile=row.tile, cell=engine.Cell.parse(row.cell),
                                corners=tuple(int(v) for v in row.corners.split("-")),
                                points_claimed=row.points_claimed + 1),
        reason="mal lu"), [False, False, False])
