"""``python manage.py demo``: bring the database up to date and (re)create the demo tournament."""

from __future__ import annotations

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from tournament.demo import (
    DEMO_PASSWORD,
    MatchFiller,
    MatchRecordSource,
    demo_build,
    demo_fill_match,
    demo_match_record,
)
from tournament.models import Match


def demo_match_sources() -> tuple[MatchFiller | None, MatchRecordSource | None, str]:
    """The two functions that fill the demo's matches, and why they are missing, if they are.

    The filler stores a simulated record through the recording's import service
    (tournament.matches.services.match_record_import) and confirms the rounds of a finished
    match; demo_build() finishes sessions 1 and 2 with it and starts session 3.
    """
    return demo_fill_match, demo_match_record, ""


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
        fill_match, match_record, missing_reason = demo_match_sources()
        with translation.override("en"):
            report = demo_build(
                fill_match=fill_match, match_record=match_record, missing_reason=missing_reason
            )
            out = self.stdout
            tournament = report.tournament
            out.write(self.style.SUCCESS(f"Demo tournament ready: {tournament.name} (/t/{tournament.slug}/)"))
            out.write(f"  {report.players} players from {report.clubs} clubs")
            for number, status, tables in report.sessions:
                out.write(f"  session {number}: {status}, {tables} tables")
            for username, role in report.users:
                out.write(f"  {role}: {username} / {DEMO_PASSWORD}")
            if report.matches_missing_reason:
                out.write(
                    self.style.WARNING(
                        "  Matches: none filled, so every session is only seated (sessions 1 and "
                        "2 are not finished, session 3 is not in play): "
                        f"{report.matches_missing_reason}."
                    )
                )
            else:
                matches = Match.objects.filter(table__session__tournament=tournament)
                confirmed = matches.filter(status=Match.Status.CONFIRMED).count()
                playing = matches.filter(status=Match.Status.PLAYING).count()
                out.write(
                    f"  matches filled: {report.matches_filled} ({confirmed} finished and "
                    f"confirmed, {playing} in play), through the record import"
                )
        out.write("Serve it with: python manage.py runserver, then open http://127.0.0.1:8000/")
