"""``python manage.py ratings_rebuild``: every rating written again from the match history."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from tournament.models import PlayerRating
from tournament.ratings.services import ratings_rebuild


def _ratings() -> dict[int, tuple[float, float, int]]:
    return {
        player_id: (mu, sigma, matches)
        for player_id, mu, sigma, matches in PlayerRating.objects.values_list(
            "player_id", "mu", "sigma", "matches"
        )
    }


class Command(BaseCommand):
    help = (
        "Rate every confirmed match of the rated tournaments again, in the order they were "
        "confirmed, and say how many players' ratings this changed (none, when the ratings "
        "kept up to date match by match are right)."
    )

    def handle(self, *args, **options):
        before = _ratings()
        started = time.process_time()
        changes = ratings_rebuild()
        cpu = time.process_time() - started
        after = _ratings()
        differ = sorted(
            player_id for player_id in before.keys() | after.keys()
            if before.get(player_id) != after.get(player_id)
        )
        self.stdout.write(
            f"{changes} rating changes for {len(after)} players, in {cpu:.2f} s of CPU"
        )
        if differ:
            self.stdout.write(self.style.WARNING(
                f"{len(differ)} players' ratings differed from the kept ones: "
                + ", ".join(map(str, differ[:20])) + (" …" if len(differ) > 20 else "")
            ))
        else:
            self.stdout.write(self.style.SUCCESS("the kept ratings were right: nothing changed"))
