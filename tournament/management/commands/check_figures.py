"""``python manage.py check_figures [slug]``: every figure recounted from the confirmed match
records, apart from the code that makes it, and compared with what the app shows
(``tournament.figures``): the tournament's, or every tournament's without a slug.

Exit 0 and "every figure checked: 0 differences" when all agree; otherwise the differences,
one a line (the tournament, the figure, who, expected, shown), and exit 1. An unknown slug is
an error on stderr (exit 1 too)."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand, CommandError

from tournament.figures.check import NO_DIFFERENCE, figures_check
from tournament.models import Tournament


class Command(BaseCommand):
    help = "Recount every figure from the confirmed match records and list the differences."

    def add_arguments(self, parser):
        parser.add_argument("slug", nargs="?", help="the tournament (all of them without it)")

    def handle(self, *args, slug: str | None = None, **options):
        tournament = None
        if slug:
            tournament = Tournament.objects.filter(slug=slug).first()
            if tournament is None:
                raise CommandError(f"no tournament at /t/{slug}/")
        differences = figures_check(tournament=tournament)
        if not differences:
            self.stdout.write(NO_DIFFERENCE)
            return
        for difference in differences:
            self.stdout.write(str(difference))
        self.stdout.flush()
        sys.exit(1)
