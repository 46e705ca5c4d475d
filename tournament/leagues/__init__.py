"""Leagues (seasons): tournaments grouped into one ranking (docs/leagues.md)."""
