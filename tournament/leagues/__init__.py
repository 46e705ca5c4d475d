"""Leagues (seasons): tournaments grouped into one ranking (docs/guides/leagues.md)."""
