"""The Triominos rules engine: tiles, the board, rule sets, match records and their replay.

Pure Python, no Django: the web app imports it, never the other way round.

    >>> from scoring import Board, Placement, Cell
    >>> board = Board()
    >>> board.place(Placement(Cell(0, 0, "U"), (0, 0, 0))).total
    40
"""

from scoring.board import ORIGIN, Board, Bonus, Placement, Score, min_tiles_for_bonus
from scoring.errors import (
    IllegalPlacement,
    InvalidCell,
    MirrorTile,
    RecordError,
    ScoringError,
    UnknownTile,
)
from scoring.geometry import Cell, Point, cells_around
from scoring.record import FORMAT, MatchRecord, PlaceRecord, RoundRecord, TurnRecord
from scoring.record_reading import load_record, parse_record
from scoring.replay import MatchReplay, ReplayStateError, check_record, settle
from scoring.reports import MatchReport, Problem, RoundReport, TurnReport, Verdict, Where
from scoring.rules import DEFAULT_RULES, RULE_SETS, RuleSet, UnknownRuleSet, rule_set
from scoring.tiles import ALL_TILES, Tile

__all__ = [
    "ALL_TILES",
    "Board",
    "Bonus",
    "Cell",
    "DEFAULT_RULES",
    "FORMAT",
    "IllegalPlacement",
    "InvalidCell",
    "MatchRecord",
    "MatchReplay",
    "MatchReport",
    "MirrorTile",
    "ORIGIN",
    "PlaceRecord",
    "Placement",
    "Point",
    "Problem",
    "RULE_SETS",
    "RecordError",
    "ReplayStateError",
    "RoundRecord",
    "RoundReport",
    "RuleSet",
    "Score",
    "ScoringError",
    "Tile",
    "TurnRecord",
    "TurnReport",
    "UnknownRuleSet",
    "UnknownTile",
    "Verdict",
    "Where",
    "cells_around",
    "check_record",
    "load_record",
    "min_tiles_for_bonus",
    "parse_record",
    "rule_set",
    "settle",
]
