"""Reading a match: its rows, its record, its replay by the engine, as the pages show it.

The writes (``tournament.matches.services``) read a match here too, before and after they
write. Each module holds one step, and imports only the steps above it in this list (no
module circle: ``pyproject.toml``'s contracts hold it):

- ``row_conversion``: a Turn row and the engine's record turn, one into the other (the one
  mapping between them);
- ``rows``: a match's current rows loaded (``match_rows``), and its record made from them
  (``record_from_rows``, ``match_record``);
- ``replayed_rounds``: the rounds a replay gives (``ReplayedRound``, with its turn lines,
  ``TurnLine``, its end and its board);
- ``replayed_match``: the match they make (``ReplayedMatch``: its rounds, totals, winners,
  and the round in play as the entry screen needs it, ``LiveRound``);
- ``replay``: the rows replayed through the engine into that value (``match_replay``);
- ``replay_cache``: the round in play's replay, kept by this process between a tablet's
  requests (``live_replay``, ``keep_replay``);
- ``turn_preview``: the engine's word on a turn not saved yet, and the table before a turn.

The history of a match (its audit log, a turn's versions) is read in
``tournament.matches.selectors``.
"""
