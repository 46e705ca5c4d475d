"""Recording a match: board mode, sheet mode, the engine's verdict on every claim, settlement,
corrections that lose nothing (issue 4).

What other parts of the tool use:

- ``reading.replay.match_replay(match=...)`` -> ``ReplayedMatch``: the match replayed by the
  engine from its current rows: ``seats`` (letter, name), ``rounds`` (each a ``ReplayedRound``:
  ``turns`` as ``TurnLine`` with what was entered — ``player_name``, ``tile``, ``cell``,
  ``draws``, ``claimed``, ``bonus_claimed`` — next to the engine's ``points``, ``bonus``,
  ``bonus_points``, ``penalty``, ``verdict``, ``problems`` (translated), the referee's
  ``decision`` and ``decision_reason`` and the ``points_counted``; the round's ``end_kind``,
  ``racks``, ``settlement``, ``settlement_claimed`` and the referee's ``settlement_decision``
  on it (``settlement_decision_pending`` until taken), ``scores``, ``totals_after``,
  round-level ``problems``, ``confirmed``, and ``board_svg(side=...)``), ``totals``,
  ``finished``, ``winners`` / ``winner_names``, and ``live`` (the round in play).
- ``reading.rows.match_record(match=...)`` -> the engine's ``MatchRecord`` of the match
  (``.to_dict()`` / ``.to_json()``: docs/reference/record-format.md plus the referee's decisions), built
  by ``reading.rows.record_from_rows``, the one function that makes a record from rows.
- ``services.match_record_import(...)``: fills an empty match from a record (the demo uses it).
"""
