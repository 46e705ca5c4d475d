"""A referee's practice table (docs/guides/referee.md): a match to learn the entry screen on, before
the event, that counts nowhere.

It lives in a tournament of its own, made for one referee of one tournament
(``Tournament.practice_of`` and ``practice_for``): private, unrated and in no league (a
constraint of the database holds it), with one session always in play, one table and four
practice players. Every count of the app is by tournament, so none of the real
tournament's standings, audit, exports, archive or data version sees it; what counts across
tournaments leaves it out by the same flags (the ratings: unrated and private; the leagues:
in none) or by name (the home page's lists, "my tables"). The referee enters it through the
ordinary entry screen, as its referee (a ``StaffRole``), and starts it again in one tap.

Every service runs inside ``transaction.atomic()`` and takes keyword arguments only.
"""

from __future__ import annotations

import datetime
import secrets

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from tournament.core.freshness import tournament_write
from tournament.core.tournaments import staff_role_grant
from tournament.kit.addresses import slug_claim
from tournament.models import (
    AuditEntry,
    Match,
    MatchSubmission,
    Player,
    Registration,
    Round,
    Session,
    StaffRole,
    Tournament,
)
from tournament.seating.services import session_seat_players
from tournament.sessions.services import session_create, session_start

#: How many practice players sit at the table (fewer when the rule set allows fewer).
PLAYERS = 4


def practice_match(*, tournament: Tournament, user) -> Match | None:
    """The match of ``user``'s practice table for ``tournament``, or None before it is
    opened (one query)."""
    return (
        Match.objects.filter(table__session__tournament__practice_of=tournament,
                             table__session__tournament__practice_for=user)
        .select_related("table__session__tournament")
        .first()
    )


@transaction.atomic
def practice_open(*, tournament: Tournament, user) -> Match:
    """``user``'s practice table for ``tournament`` (a referee or organiser of it: the view
    checks), opened the first time: a private, unrated tournament under the same rules,
    four practice players at one table, its session in play. Refused for a practice
    tournament itself (``practice-of-practice``)."""
    if tournament.is_practice:
        raise ValidationError(_("A practice table has no practice table of its own."),
                              code="practice-of-practice")
    Tournament.objects.select_for_update().get(pk=tournament.pk)  # two taps, one table
    match = practice_match(tournament=tournament, user=user)
    if match is not None:
        return match
    practice = Tournament(
        name=_("Practice table · %(tournament)s") % {"tournament": tournament.name},
        slug=f"practice-{secrets.token_hex(6)}",
        start_date=datetime.date.today(),
        rules=tournament.rules,
        target=tournament.target,
        match_rounds=tournament.match_rounds,
        opening_bonus=tournament.opening_bonus,
        is_public=False,
        is_rated=False,
        practice_of=tournament,
        practice_for=user,
    )
    practice.full_clean(validate_unique=False)
    slug_claim(practice)
    staff_role_grant(tournament=practice, user=user, role=StaffRole.Role.REFEREE)
    count = min(PLAYERS, practice.rule_set.max_players)
    players = [
        Player.objects.create(name=_("Practice player %(letter)s") % {"letter": "ABCDEF"[index]})
        for index in range(count)
    ]
    Registration.objects.bulk_create(
        Registration(tournament=practice, player=player) for player in players)
    session = session_create(tournament=practice)
    table = session_seat_players(session=session, tables=[players])[0]
    session_start(session=session)
    return Match.objects.select_related("table__session__tournament").get(table=table)


def practice_reset(*, match: Match, user) -> Match:
    """Start the practice match again: every round, turn, end of round, audit entry and
    submission of it deleted, its state back to "not started". Its revision goes up, so a
    tablet still holding the old match is answered "stale" rather than writing into the new
    one. Refused for a match that is not ``user``'s practice table (``not-practice``)."""
    with tournament_write() as write:
        match = (
            Match.objects.select_for_update().select_related("table__session__tournament")
            .get(pk=match.pk)
        )
        tournament = match.table.session.tournament
        write.also(tournament.pk)
        if not tournament.is_practice or tournament.practice_for_id != user.pk:
            raise ValidationError(_("Only a practice table is started again, by its referee."),
                                  code="not-practice")
        Round.objects.filter(match=match).delete()  # their turns and ends of rounds with them
        AuditEntry.objects.filter(match=match).delete()  # the practice's log counts nowhere
        MatchSubmission.objects.filter(match=match).delete()
        Match.objects.filter(pk=match.pk).update(
            status=Match.Status.PENDING, revision=F("revision") + 1, totals=[], winners=[],
            finished_at=None, confirmed_at=None, time_up_round=None,
        )
        Session.objects.filter(pk=match.table.session_id).update(status=Session.Status.PLAYING)
        match.refresh_from_db()
        return match
