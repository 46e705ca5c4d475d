"""The second computation compared with what the app shows: :func:`figures_check` lists every
difference (the figure, who, the value expected, the value shown).

What it costs: every confirmed match of the tournaments it reads is replayed once through the
engine (the tournament's, its league's public tournaments' and, for the ratings, every rated
public tournament's: the rating history is rated again from its start), then the app's own
figures are read as its pages read them. About 0.6 s for the demo (16 confirmed matches in
two tournaments) on the development machine; it grows with the installation's history of
rated matches, not with the one tournament checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tournament.figures import records as figure_records
from tournament.figures.recount import FIGURES, STAGE_FINAL, Expected, page_versions, recount
from tournament.figures.rerate import league_points, rated_history
from tournament.figures.shown import (
    league_shown,
    ratings_shown,
    signing_shown,
    tournament_shown,
    versions_shown,
)
from tournament.models import CheckInRule, League, Tournament

#: Two figures closer than this are equal (the pages show three decimals at most).
TOLERANCE = 1e-6
#: The message when nothing differs.
NO_DIFFERENCE = "every figure checked: 0 differences"


@dataclass(frozen=True)
class Difference:
    """One figure the app shows otherwise than recounted. ``area`` and ``figure`` are codes:
    ``standings`` (``rank``, a criterion, ``matches``, ``absences``, ``forfeits``,
    ``placed-by``, ``row``, ``final-decided``), ``category`` (``rank``), ``clubs`` (``rank``,
    ``score``, ``team``), ``prizes`` (``overall``, ``category <name>``, ``clubs``), ``league``
    (``total``, ``rank``, ``points``), ``ratings`` (``rating``, ``mu``, ``sigma``,
    ``matches``, ``last-event-change``, ``row``), ``versions`` (``session``, ``player``: a
    page's version, ``state``: a match's state revision above its revision), ``signatures``
    (``round``: the round a table's seats are to sign, ``signed``: how many did, ``disputed``;
    the head referee's board's "signed k/n" and "disputed")."""

    tournament: str
    area: str
    figure: str
    who: str
    expected: str
    shown: str

    def __str__(self) -> str:
        return (f"{self.tournament or '-'} · {self.area} · {self.figure} · {self.who}: "
                f"expected {self.expected}, shown {self.shown}")


def _text(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        value = float(value)
    if isinstance(value, float):
        return f"{value:.6f}".rstrip("0").rstrip(".")
    if isinstance(value, (set, frozenset)):
        return "; ".join(" ".join(item) for item in sorted(value)) or "-"
    return str(value)


def _same(expected: Any, shown: Any) -> bool:
    numbers = (int, float, Fraction)
    if isinstance(expected, numbers) and isinstance(shown, numbers) and not isinstance(
            expected, bool) and not isinstance(shown, bool):
        return abs(float(expected) - float(shown)) <= TOLERANCE
    return expected == shown


class _Differences:
    def __init__(self) -> None:
        self.found: list[Difference] = []

    def compare(self, tournament: str, area: str, figure: str, who: str, expected: Any,
                shown: Any) -> None:
        if not _same(expected, shown):
            self.found.append(Difference(tournament, area, figure, who, _text(expected),
                                         _text(shown)))


def _tournament(found: _Differences, tournament: Tournament, expected: Expected) -> None:
    slug = tournament.slug
    shown = tournament_shown(tournament)
    found.compare(slug, "standings", "final-decided", "", expected.final_decided,
                  shown.final_decided)
    forfeit = tournament.check_in == CheckInRule.FORFEIT
    for player, row in expected.rows.items():
        line = shown.rows.get(player)
        if line is None:
            found.compare(slug, "standings", "row", row.name, "listed", "missing")
            continue
        found.compare(slug, "standings", "rank", row.name, row.rank_label, line["rank_label"])
        for code in FIGURES:
            found.compare(slug, "standings", code, row.name, row.figures.value(code),
                          line.get(code))
        if row.stage != STAGE_FINAL:
            found.compare(slug, "standings", "absences", row.name, row.absences,
                          tuple(line.get("absent_sessions", ())))
            found.compare(slug, "standings", "forfeits", row.name,
                          len(row.absences) if forfeit else 0, line.get("forfeits"))
        if expected.final_decided:
            found.compare(slug, "standings", "placed-by", row.name, row.stage, line.get("stage"))
    for player in shown.rows.keys() - expected.rows.keys():
        found.compare(slug, "standings", "row", shown.rows[player]["name"], "missing", "listed")

    names = {player: row.name for player, row in expected.rows.items()}
    for category, members in expected.categories.items():
        shown_members = shown.categories.get(category, {})
        for player, (label, overall) in members.items():
            got = shown_members.get(player, ("missing", "missing"))
            found.compare(slug, "category", "rank", f"{category}: {names[player]}",
                          (label, overall), got)

    if expected.teams is None or shown.teams is None:
        found.compare(slug, "clubs", "team", "", expected.teams is None, shown.teams is None)
    else:
        for key, team in expected.teams.items():
            label, score = shown.teams.get(key, ("missing", None))
            found.compare(slug, "clubs", "rank", key, team.rank_label, label)
            found.compare(slug, "clubs", "score", key, team.score, score)
        for key in shown.teams.keys() - expected.teams.keys():
            found.compare(slug, "clubs", "team", key, "missing", "listed")

    for section in expected.prizes.keys() | shown.prizes.keys():
        found.compare(slug, "prizes", section, "", expected.prizes.get(section, set()),
                      shown.prizes.get(section, set()))


def _versions(found: _Differences, tournament: Tournament) -> None:
    results_version, states = figure_records.match_states(tournament)
    for state in states:
        if state.state_revision > state.revision:
            found.compare(tournament.slug, "versions", "state", f"session {state.session}",
                          state.revision, state.state_revision)
    expected = page_versions(results_version, states)
    shown = versions_shown(tournament, sorted(expected))
    for (kind, who), version in expected.items():
        found.compare(tournament.slug, "versions", kind, str(who), version, shown[kind, who])


def _signing(found: _Differences, tournament: Tournament) -> None:
    expected = figure_records.signing_recount(tournament)
    shown = signing_shown(tournament)
    for session, table in sorted(expected.keys() | shown.keys()):
        who = f"session {session} table {table}"
        want, got = expected.get((session, table)), shown.get((session, table))
        if want is None or got is None:
            found.compare(tournament.slug, "signatures", "round", who,
                          "-" if want is None else want[0] + 1,
                          "-" if got is None else got[0] + 1)
            continue
        found.compare(tournament.slug, "signatures", "round", who, want[0] + 1, got[0] + 1)
        found.compare(tournament.slug, "signatures", "signed", who, want[1], got[1])
        found.compare(tournament.slug, "signatures", "disputed", who, want[2], got[2])


def _league(found: _Differences, league: League, matches: list[figure_records.PlayedMatch]
            ) -> None:
    finishes = []
    names: dict[int, str] = {}
    for tournament in figure_records.league_tournaments(league):
        records = figure_records.tournament_records(tournament, matches)
        records.entrants = [entrant for entrant in records.entrants if not entrant.merged]
        expected = recount(records)
        ranks = {player: row.rank for player, row in expected.rows.items() if row.ranked}
        names.update({player: row.name for player, row in expected.rows.items()})
        finishes.append((tournament.pk, ranks))
    lines = league_points(league, finishes, names)
    shown = league_shown(league)
    where = f"league {league.slug}"
    for player, line in lines.items():
        got = shown.get(player)
        if got is None:
            found.compare(where, "league", "row", line.name, "listed", "missing")
            continue
        found.compare(where, "league", "total", line.name, line.total, got["total"])
        found.compare(where, "league", "rank", line.name, line.rank_label, got["rank_label"])
        for tournament_id, points in line.points.items():
            found.compare(where, "league", "points", f"{line.name} ({tournament_id})", points,
                          got["points"].get(tournament_id))
    for player in shown.keys() - lines.keys():
        found.compare(where, "league", "row", shown[player]["name"], "missing", "listed")


def _ratings(found: _Differences, matches: list[figure_records.PlayedMatch],
             players: set[int] | None, rated: set[int], names: dict[int, str]) -> None:
    history = rated_history(match for match in matches if match.tournament_id in rated)
    shown = ratings_shown()
    for player in (history.keys() | shown.keys()):
        if players is not None and player not in players:
            continue
        rating, row = history.get(player), shown.get(player)
        who = names.get(player) or (row or {}).get("name") or str(player)
        if rating is None or row is None:
            found.compare("", "ratings", "row", who, "listed" if rating else "missing",
                          "listed" if row else "missing")
            continue
        found.compare("", "ratings", "rating", who, rating.shown, row["conservative"])
        found.compare("", "ratings", "mu", who, rating.skill.mu, row["mu"])
        found.compare("", "ratings", "sigma", who, rating.skill.sigma, row["sigma"])
        found.compare("", "ratings", "matches", who, rating.matches, row["matches"])
        found.compare("", "ratings", "last-event-change", who, rating.last_event_change,
                      row["last_event_change"])


def figures_check(*, tournament: Tournament | None = None) -> list[Difference]:
    """Every figure of ``tournament`` (of every tournament when None) recounted and compared
    with what the app shows: the differences, an empty list when there is none."""
    checked: list[Tournament] = (
        [tournament] if tournament is not None
        else list(Tournament.objects.filter(practice_of__isnull=True).order_by("start_date", "pk")))
    leagues = list(League.objects.filter(pk__in={t.league_id for t in checked if t.league_id}))
    rated = figure_records.rated_tournaments()
    read: dict[int, Tournament] = {t.pk: t for t in [*checked, *rated]}
    for league in leagues:
        read.update({t.pk: t for t in figure_records.league_tournaments(league)})
    matches = figure_records.confirmed_matches(read.values())

    found = _Differences()
    names: dict[int, str] = {}
    players: set[int] = set()
    for member in checked:
        records = figure_records.tournament_records(member, matches)
        names.update({entrant.id: entrant.name for entrant in records.entrants})
        players.update(entrant.id for entrant in records.entrants if not entrant.merged)
        _tournament(found, member, recount(records))
        _versions(found, member)
        _signing(found, member)
    for league in leagues:
        _league(found, league, matches)
    _ratings(found, matches, None if tournament is None else players,
             {t.pk for t in rated}, names)
    return found.found
