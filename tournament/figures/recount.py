"""A tournament's figures recounted from its confirmed matches (:mod:`.records`), written from
the rules the documentation states, not from the app's ranking code. Pure: no query.

- the standings (docs/guides/organiser.md, "Standings"): match points 3 × (n − place) / (n − 1) at a
  table of n, equal totals sharing their places' points; table wins (a shared win counts for
  each); total points; the average share of the table's points; the best match; opponents'
  strength (each opponent's match points over the ranking's matches, for every match played
  against them). Ranked: a confirmed match played and not withdrawn; the rank is one more than
  the ranked players strictly better on the tournament's criteria, in order;
- absences under the check-in rule (docs/guides/check-in.md): a seated session (the final aside) that
  a player plays in (not withdrawn, arrived by its number) without a seat; with ``forfeit``,
  each counts as a match played for nothing in the average share;
- the final's places (docs/guides/final.md), once every final match is confirmed: the finalists by
  the final's figures on the criteria, then their qualifying rank; everyone else from the
  place after the finalists, in qualifying order, sharing a place only when equal there;
- each category's ranks (docs/guides/categories.md): one more than its ranked players placed
  strictly above overall;
- the club teams: the sum of the N best figures on the team criterion among a club's ranked
  players, a player's figure being over every match the standings count (the qualifying
  sessions, and the final once decided); ties by the counted players' ranks, best first;
- the prize list: the places up to the setting, overall, in each category, among the clubs.

Exact arithmetic throughout (``Fraction``): no tie comes from a rounding.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from tournament.figures.records import Entrant, MatchState, PlayedMatch, TournamentRecords
from tournament.models import CheckInRule

CRITERIA = ("match_points", "table_wins", "total_points", "share", "best_match", "opponents")
#: The figures of a player's row that are compared, the criteria and the matches played.
FIGURES = (*CRITERIA, "matches")
STAGE_FINAL = "final"
STAGE_QUALIFYING = "qualifying"


def place_points(totals: Sequence[int]) -> list[Fraction]:
    """Each seat's match points: the mean of the places its total shares.

    >>> [str(p) for p in place_points([410, 250, 300, 120])]
    ['3', '1', '2', '0']
    >>> [str(p) for p in place_points([405, 405, 200])]
    ['9/4', '9/4', '0']
    """
    count = len(totals)
    if count < 2:
        return [Fraction(3)] * count
    points = []
    for total in totals:
        above = sum(1 for other in totals if other > total)
        equal = sum(1 for other in totals if other == total)
        places = range(above + 1, above + equal + 1)
        points.append(Fraction(sum(3 * (count - place) for place in places), (count - 1) * equal))
    return points


@dataclass
class Tally:
    """One player's figures over some matches."""

    match_points: Fraction = Fraction(0)
    table_wins: int = 0
    total_points: int = 0
    shares: Fraction = Fraction(0)
    best_match: int = 0
    opponents: Fraction = Fraction(0)
    matches: int = 0
    forfeits: int = 0

    @property
    def share(self) -> Fraction:
        counted = self.matches + self.forfeits
        return self.shares / counted if self.matches else Fraction(0)

    def value(self, code: str) -> Fraction | int:
        return self.share if code == "share" else getattr(self, code)


def tally(matches: Iterable[PlayedMatch], *, forfeits: dict[int, int] | None = None
          ) -> dict[int, Tally]:
    """Every seated player's figures over ``matches``."""
    matches = list(matches)
    tallies: dict[int, Tally] = {}
    for match in matches:
        points = place_points(match.totals)
        top = max(match.totals)
        table = sum(match.totals)
        for seat, player in enumerate(match.players):
            entry = tallies.setdefault(player, Tally())
            total = match.totals[seat]
            entry.match_points += points[seat]
            entry.table_wins += total == top
            entry.total_points += total
            entry.shares += Fraction(total, table) if table else Fraction(1, len(match.players))
            entry.best_match = max(entry.best_match, total) if entry.matches else total
            entry.matches += 1
    for match in matches:
        for player in match.players:
            tallies[player].opponents += sum(
                (tallies[other].match_points for other in match.players if other != player),
                Fraction(0))
    for player, count in (forfeits or {}).items():
        tallies.setdefault(player, Tally()).forfeits = count
    return tallies


def shared_ranks(keys: dict[int, tuple]) -> tuple[dict[int, int], dict[int, str]]:
    """Each player's rank (one more than those with a greater key) and its label ("3=" when
    another shares it)."""
    ranks = {player: 1 + sum(1 for other in keys.values() if other > key)
             for player, key in keys.items()}
    counts: dict[int, int] = {}
    for rank in ranks.values():
        counts[rank] = counts.get(rank, 0) + 1
    labels = {player: f"{rank}=" if counts[rank] > 1 else str(rank)
              for player, rank in ranks.items()}
    return ranks, labels


@dataclass
class Row:
    """A player's expected line of the standings."""

    player_id: int
    name: str
    club: str
    ranked: bool
    rank: int | None
    rank_label: str
    figures: Tally
    stage: str | None = None
    absences: tuple[int, ...] = ()


@dataclass
class Team:
    club: str
    rank: int | None
    rank_label: str
    score: Fraction


@dataclass
class Expected:
    """A tournament's figures recounted."""

    rows: dict[int, Row]
    final_decided: bool
    categories: dict[str, dict[int, tuple[str, str]]] = field(default_factory=dict)
    teams: dict[str, Team] | None = None
    prizes: dict[str, set[tuple[str, str]]] = field(default_factory=dict)
    #: Each player's figures over every match the standings count (the club teams read them).
    whole: dict[int, Tally] = field(default_factory=dict)


def club_key(club: str) -> str:
    return " ".join(club.split()).casefold()


def absences(records: TournamentRecords) -> dict[int, tuple[int, ...]]:
    """The sessions each player missed (docs/guides/check-in.md); none without check-in."""
    if records.tournament.check_in == CheckInRule.OFF:
        return {}
    missed: dict[int, list[int]] = {}
    for number, seated in sorted(records.seated.items()):
        for entrant in records.entrants:
            plays = not entrant.withdrawn and (
                entrant.first_session is None or entrant.first_session <= number)
            if plays and entrant.id not in seated:
                missed.setdefault(entrant.id, []).append(number)
    return {player: tuple(numbers) for player, numbers in missed.items()}


def _ranked_rows(entrants: Sequence[Entrant], figures: dict[int, Tally],
                 criteria: Sequence[str], *, absent: dict[int, tuple[int, ...]] | None = None
                 ) -> dict[int, Row]:
    keys = {}
    rows = {}
    for entrant in entrants:
        tally_ = figures.get(entrant.id, Tally())
        ranked = tally_.matches > 0 and not entrant.withdrawn
        if ranked:
            keys[entrant.id] = tuple(tally_.value(code) for code in criteria)
        rows[entrant.id] = Row(entrant.id, entrant.name, entrant.club, ranked, None, "", tally_,
                               absences=(absent or {}).get(entrant.id, ()))
    ranks, labels = shared_ranks(keys)
    for player, rank in ranks.items():
        rows[player].rank, rows[player].rank_label = rank, labels[player]
    return rows


def recount(records: TournamentRecords) -> Expected:
    """The tournament's figures (see the module's docstring)."""
    tournament = records.tournament
    criteria = list(tournament.ranking_criteria)
    absent = absences(records)
    forfeits = ({player: len(sessions) for player, sessions in absent.items()}
                if tournament.check_in == CheckInRule.FORFEIT else {})
    qualifying_matches = [match for match in records.matches if not match.is_final]
    final_matches = [match for match in records.matches if match.is_final]
    qualifying = _ranked_rows(records.entrants, tally(qualifying_matches, forfeits=forfeits),
                              criteria, absent=absent)
    decided = records.final_confirmed and bool(final_matches)
    whole = tally([*qualifying_matches, *(final_matches if decided else [])], forfeits=forfeits)
    if not decided:
        rows = qualifying
    else:
        rows = _final_places(records, qualifying, final_matches, criteria)
    expected = Expected(rows=rows, final_decided=decided, whole=whole)
    _categories(expected, records)
    _teams(expected, tournament.team_size, tournament.team_criterion)
    _prizes(expected, tournament.prize_count)
    return expected


def _final_places(records: TournamentRecords, qualifying: dict[int, Row],
                  final_matches: list[PlayedMatch], criteria: Sequence[str]) -> dict[int, Row]:
    finalists = {player for match in final_matches for player in match.players}
    final_figures = tally(final_matches)
    unplaced = len(records.entrants) + 1
    rows: dict[int, Row] = {}
    keys = {}
    for entrant in records.entrants:
        if entrant.id not in finalists:
            continue
        tally_ = final_figures[entrant.id]
        ranked = not entrant.withdrawn
        rows[entrant.id] = Row(entrant.id, entrant.name, entrant.club, ranked, None, "",
                               tally_, stage=STAGE_FINAL)
        if ranked:
            qualifying_rank = qualifying[entrant.id].rank or unplaced
            keys[entrant.id] = (*(tally_.value(code) for code in criteria), -qualifying_rank)
    ranks, labels = shared_ranks(keys)
    for player, rank in ranks.items():
        rows[player].rank, rows[player].rank_label = rank, labels[player]
    first_after = len(rows) + 1
    rest_keys = {}
    for entrant in records.entrants:
        if entrant.id in finalists:
            continue
        row = qualifying[entrant.id]
        rows[entrant.id] = Row(row.player_id, row.name, row.club, row.ranked, None, "",
                               row.figures, stage=STAGE_QUALIFYING, absences=row.absences)
        if row.ranked:
            rest_keys[entrant.id] = tuple(row.figures.value(code) for code in criteria)
    ranks, labels = shared_ranks(rest_keys)
    for player, rank in ranks.items():
        rank += first_after - 1
        rows[player].rank = rank
        rows[player].rank_label = f"{rank}=" if labels[player].endswith("=") else str(rank)
    return rows


def _categories(expected: Expected, records: TournamentRecords) -> None:
    for name, members in records.categories.items():
        ranked = {player: expected.rows[player].rank for player in members
                  if player in expected.rows and expected.rows[player].ranked}
        keys = {player: (-rank,) for player, rank in ranked.items()}
        _ranks, labels = shared_ranks(keys)
        expected.categories[name] = {
            player: (labels.get(player, ""), expected.rows[player].rank_label)
            for player in members if player in expected.rows
        }


def _teams(expected: Expected, size: int, criterion: str) -> None:
    if not size:
        return
    clubs: dict[str, list[Row]] = {}
    for row in expected.rows.values():
        if row.ranked and row.club.strip():
            clubs.setdefault(club_key(row.club), []).append(row)
    teams: dict[str, Team] = {}
    keys = {}
    for key, members in clubs.items():
        def figure(row: Row) -> Fraction | int:
            return expected.whole.get(row.player_id, Tally()).value(criterion)
        counted = sorted(members, key=lambda row: (-figure(row), row.rank, row.player_id))[:size]
        score = sum((Fraction(figure(row)) for row in counted), Fraction(0))
        teams[key] = Team(key, None, "", score)
        if len(members) >= size:
            keys[key] = (score, tuple(-row.rank for row in sorted(counted, key=lambda r: r.rank)))
    index = {key: n for n, key in enumerate(keys)}
    ranks, labels = shared_ranks({index[key]: value for key, value in keys.items()})
    for key, n in index.items():
        teams[key].rank, teams[key].rank_label = ranks[n], labels[n]
    expected.teams = teams


def _prizes(expected: Expected, top: int) -> None:
    expected.prizes["overall"] = {
        (row.rank_label, row.name) for row in expected.rows.values()
        if row.ranked and row.rank is not None and row.rank <= top}
    for name, members in expected.categories.items():
        expected.prizes[f"category {name}"] = {
            (label, expected.rows[player].name) for player, (label, _overall) in members.items()
            if label and int(label.rstrip("=")) <= top}
    if expected.teams is not None:
        expected.prizes["clubs"] = {
            (team.rank_label, key) for key, team in expected.teams.items()
            if team.rank is not None and team.rank <= top}


#: A page's version holds the results version times this, plus its matches' state revisions.
RESULTS_VERSION_UNIT = 2 ** 32


def page_versions(results_version: int, states: Iterable[MatchState]
                  ) -> dict[tuple[str, int], int]:
    """The version each session's page and each player's page should answer with, from the
    rule docs/development/architecture.md states: the results version above the sum of the
    state revisions of the matches the page shows (a session's, a player's own)."""
    sums: dict[tuple[str, int], int] = {}
    for state in states:
        for page in (("session", state.session),
                     *(("player", player) for player in state.players)):
            sums[page] = sums.get(page, 0) + state.state_revision
    return {page: results_version * RESULTS_VERSION_UNIT + total for page, total in sums.items()}
