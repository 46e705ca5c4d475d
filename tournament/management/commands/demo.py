"""``python manage.py demo``: bring the database up to date and (re)create the demo tournament."""

from __future__ import annotations

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from tournament.demo import DEMO_PASSWORD, demo_build
from tournament.models import Match


class Command(BaseCommand):
    help = (
        "Apply the migrations, then create (or recreate) the demo tournament, slug 'demo', "
        "with an organiser and a referee (password 'demo')."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--force",
            action="store_true",
            help="Run even with DEBUG off (the demo accounts have the password 'demo').",
        )

    def handle(self, *args, force: bool = False, **options):
        if not settings.DEBUG and not force:
            raise CommandError(
                "DEBUG is off: this looks like a real event's database. The demo creates the "
                "accounts 'organiser' and 'referee' with the password 'demo'. Use --force if "
                "you mean it."
            )
        call_command("migrate", interactive=False, verbosity=0)
        with translation.override("en"):
            report = demo_build()
            out = self.stdout
            tournament = report.tournament
            out.write(self.style.SUCCESS(f"Demo tournament ready: {tournament.name} (/t/{tournament.slug}/)"))
            out.write(f"  {report.players} players from {report.clubs} clubs")
            for number, status, tables in report.sessions:
                out.write(f"  session {number}: {status}, {tables} tables")
            for username, role in report.users:
                out.write(f"  {role}: {username} / {DEMO_PASSWORD}")
            matches = Match.objects.filter(table__session__tournament=tournament)
            confirmed = matches.filter(status=Match.Status.CONFIRMED).count()
            playing = matches.filter(status=Match.Status.PLAYING).count()
            out.write(
                f"  matches filled: {report.matches_filled} ({confirmed} finished and "
                f"confirmed, {playing} in play), through the record import"
            )
            out.write(
                f"  the room: /t/{tournament.slug}/screen/ (projector), /t/{tournament.slug}/room/ "
                f"(head referee's board: a call from table 3), session clock running"
            )
            if report.league is not None:
                out.write(
                    f"  league: {report.league.name} (/leagues/{report.league.slug}/), with "
                    f"{report.earlier.name} (/t/{report.earlier.slug}/), a month before"
                )
        out.write("Serve it with: python manage.py runserver, then open http://127.0.0.1:8000/")
