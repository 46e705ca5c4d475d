"""The tournament's settings as the settings page posts them, for tests that change one."""

from __future__ import annotations

from typing import Any

from tournament.models import Tournament


def settings_of(tournament: Tournament, **changes: Any) -> dict[str, Any]:
    """Every argument of ``tournament_update`` with the tournament's current values, but for
    ``changes``."""
    tournament = Tournament.objects.get(pk=tournament.pk)
    values = {
        "tournament": tournament, "name": tournament.name, "start_date": tournament.start_date,
        "end_date": tournament.end_date, "venue": tournament.venue, "rules": tournament.rules,
        "target": tournament.target, "ranking_criteria": tournament.ranking_criteria,
        "keep_clubs_apart": tournament.keep_clubs_apart, "is_public": tournament.is_public,
    }
    return {**values, **changes}
