"""``python manage.py import_results ARCHIVE``: a tournament's ``records.zip``, exported from
another installation, rebuilt here: its players, sessions, matches and the ratings
(``tournament.archive.imports``)."""

from __future__ import annotations

import datetime
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from tournament.archive.imports import past_results_import


def _date(text: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--start-date: expected a date (YYYY-MM-DD), got {text!r}") from None


class Command(BaseCommand):
    help = (
        "Import a tournament's past results from its records.zip (exported by another "
        "installation): the tournament, its players (found by licence, else by name and "
        "club, else created: among the players of the tournaments --organiser organises, or "
        "every player without it), its closed sessions and confirmed matches at their "
        "original confirmation times; then the ratings are refreshed. All or nothing. An "
        "archive whose tournament is already here is refused unless --copy."
    )

    def add_arguments(self, parser):
        parser.add_argument("archive", help="the records.zip file")
        parser.add_argument("--organiser", default="",
                            help="the username of an account that becomes the organiser")
        parser.add_argument("--name", default="",
                            help="the tournament's name (an archive without tournament.json "
                                 "has none: the file's name by default)")
        parser.add_argument("--copy", action="store_true",
                            help="import an archive whose tournament is already here, as a "
                                 "copy that counts for no rating")
        parser.add_argument("--start-date", default="",
                            help="YYYY-MM-DD, for an archive without tournament.json "
                                 "(today by default)")

    def handle(self, *args, **options):
        path = Path(options["archive"])
        try:
            data = path.read_bytes()
        except OSError as error:
            raise CommandError(f"{path}: {error.strerror or error}") from None
        organiser = None
        if options["organiser"]:
            organiser = get_user_model().objects.filter(username=options["organiser"]).first()
            if organiser is None:
                raise CommandError(f"--organiser: no account is called {options['organiser']!r}")
        start_date = _date(options["start_date"]) if options["start_date"] else None
        try:
            imported = past_results_import(
                data=data, organiser=organiser, name=options["name"],
                fallback_name=path.stem.removesuffix("-records"), start_date=start_date,
                as_copy=options["copy"],
            )
        except ValidationError as error:
            raise CommandError(f"{path}: " + " ".join(error.messages)) from None
        tournament = imported.tournament
        self.stdout.write(self.style.SUCCESS(
            f"{tournament.name} imported as /t/{tournament.slug}/: {imported.sessions} "
            f"session(s), {imported.matches} match(es), {imported.players_created} new "
            f"player(s), {imported.players_found} found here"
            + (": " + ", ".join(imported.players_linked) if imported.players_linked else "")
            + ("; a copy, counted for no rating" if imported.copy else "")
        ))
