"""Players' ratings across tournaments (docs/guides/ratings.md).

- :mod:`.model`: the rating model itself, free of Django: a player's skill, the ranks at a
  table, and one match's update (openskill's Plackett–Luce).
- :mod:`.services`: the rating history kept in the database, written again from the first
  match a change touches.
"""
