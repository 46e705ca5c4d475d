"""``python manage.py ratings_rebuild``: every rating written again from the match history, and
every kept field compared with what the rebuild writes."""

from __future__ import annotations

import time
from collections import Counter

from django.core.management.base import BaseCommand

from tournament.models import PlayerRating, RatingChange
from tournament.ratings.services import ratings_rebuild

#: What each match did to each player (the per-match change: before and after, the rank, the
#: place in the history).
CHANGE_FIELDS = ("tournament_id", "played_on", "session", "at", "rank", "mu_before", "sigma_before", "mu", "sigma",
                 "shown_before", "shown")
#: Each player's current rating: the mean, the uncertainty, the rating shown, the matches, the
#: last event and the change there.
RATING_FIELDS = ("mu", "sigma", "conservative", "matches", "last_tournament_id",
                 "last_event_change")


def kept_ratings() -> tuple[dict, dict]:
    """Every kept rating row, every field the command compares: each match's change by
    (match, player), each player's rating by player."""
    changes = {
        (row[0], row[1]): row[2:]
        for row in RatingChange.objects.order_by().values_list("match_id", "player_id",
                                                               *CHANGE_FIELDS)
    }
    ratings = {
        row[0]: row[1:]
        for row in PlayerRating.objects.order_by().values_list("player_id", *RATING_FIELDS)
    }
    return changes, ratings


def _differences(before: dict, after: dict, fields: tuple[str, ...]) -> tuple[set, Counter]:
    """The keys whose rows differ, and how many rows differ on each field (a row missing on
    one side counts for every field)."""
    keys: set = set()
    by_field: Counter = Counter()
    for key in before.keys() | after.keys():
        old, new = before.get(key), after.get(key)
        if old == new:
            continue
        keys.add(key)
        for index, field in enumerate(fields):
            if old is None or new is None or old[index] != new[index]:
                by_field[field] += 1
    return keys, by_field


class Command(BaseCommand):
    help = (
        "Rate every confirmed match of the rated tournaments again, in the order of the "
        "history, and compare every kept field (each match's change, each player's mean, "
        "uncertainty, rating, matches, last event and change there) with the rebuild's."
    )

    def handle(self, *args, **options):
        changes_before, ratings_before = kept_ratings()
        started = time.process_time()
        written = ratings_rebuild()
        cpu = time.process_time() - started
        changes_after, ratings_after = kept_ratings()
        change_keys, change_fields = _differences(changes_before, changes_after, CHANGE_FIELDS)
        players, rating_fields = _differences(ratings_before, ratings_after, RATING_FIELDS)
        players |= {player_id for _match_id, player_id in change_keys}
        self.stdout.write(
            f"{written} rating changes for {len(ratings_after)} players, in {cpu:.2f} s of CPU"
        )
        if players:
            fields = ", ".join(
                f"{field} ({count})"
                for field, count in [*change_fields.most_common(), *rating_fields.most_common()]
            )
            listed = sorted(players)
            self.stdout.write(self.style.WARNING(
                f"{len(players)} players' ratings differed from the kept ones: "
                + ", ".join(map(str, listed[:20])) + (" …" if len(listed) > 20 else "")
                + f"; {len(change_keys)} match changes differed; fields: {fields}"
            ))
        else:
            self.stdout.write(self.style.SUCCESS("the kept ratings were right: nothing changed"))
