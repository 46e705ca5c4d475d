"""The final table's session (docs/guides/final.md): opened once every qualifying session is closed,
and seated from the qualifying standings (``tournament.standings.final``) instead of drawn.

``final_open`` writes (inside ``transaction.atomic()``, keyword arguments only, a refusal a
``ValidationError`` with a code that writes nothing); ``final_plan`` reads the seating that
``tournament.seating.services.session_seat`` stores for a final session.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.models import FinalSize, Session, Tournament
from tournament.seating.algorithm import Seating
from tournament.sessions.services import new_seed, session_create
from tournament.standings.final import FINAL_TABLES, FinalCut, final_cut, final_tables
from tournament.standings.selectors import standings

#: The players a table of the final seats: a rule set must allow it.
FINAL_TABLE_SIZE = 4


def final_refusal(*, tournament: Tournament, size: int) -> ValidationError | None:
    """Why a final of ``size`` cannot be played under the tournament's rule set (None: it
    can); the settings' form shows it next to the setting."""
    if size and tournament.rule_set.max_players < FINAL_TABLE_SIZE:
        return ValidationError(
            _("The rule set seats at most %(count)s players at a table: a final table seats "
              "4.") % {"count": tournament.rule_set.max_players},
            code="final-table-too-large",
        )
    return None


def _ranked_finalists(*, tournament: Tournament, size: int) -> list[dict]:
    """The qualifying standings' rows, refused when fewer than ``size`` players are ranked."""
    result = standings(tournament=tournament)
    if result.ranked_count < size:
        raise ValidationError(
            _("A final of %(size)s needs %(size)s ranked players; %(count)s are ranked.")
            % {"size": size, "count": result.ranked_count},
            code="too-few-ranked",
        )
    return result.rows


@transaction.atomic
def final_open(*, tournament: Tournament) -> Session:
    """Open the final as the next session (a draft, with a fresh seed): the tournament must
    have a final (``Tournament.final_size``), none opened yet, every session closed, and at
    least as many ranked players as the final seats."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    size = tournament.final_size
    if size == FinalSize.NONE:
        raise ValidationError(
            _("This tournament has no final table: choose one in its settings first."),
            code="no-final",
        )
    if tournament.sessions.filter(is_final=True).exists():
        raise ValidationError(_("The final is already open."), code="final-exists")
    numbers = dict(tournament.sessions.values_list("number", "status"))
    if not numbers:
        raise ValidationError(
            _("The final follows the qualifying sessions: play and close at least one first."),
            code="no-qualifying",
        )
    unfinished = sorted(number for number, status in numbers.items()
                        if status != Session.Status.FINISHED)
    if unfinished:
        raise ValidationError(
            _("Session %(number)s is not closed yet: close it before opening the final."),
            code="previous-not-closed", params={"number": unfinished[0]},
        )
    refusal = final_refusal(tournament=tournament, size=size)
    if refusal is not None:
        raise refusal
    _ranked_finalists(tournament=tournament, size=size)
    session = session_create(tournament=tournament, seed=new_seed())
    session.is_final = True
    session.save(update_fields=["is_final"])
    return session


def final_plan(*, session: Session) -> tuple[Seating, FinalCut]:
    """The final's seating from the qualifying standings: the cut (a tie at the cut line
    drawn with the session's seed) and the tables (``tournament.standings.final``). The
    earlier sessions are closed (``session_seat`` checks it first)."""
    size = session.tournament.final_size
    if size not in FINAL_TABLES:
        raise ValidationError(
            _("This tournament has no final table: choose one in its settings first."),
            code="no-final",
        )
    rows = _ranked_finalists(tournament=session.tournament, size=size)
    cut = final_cut(rows, size=size, seed=session.seed)
    tables = final_tables(cut.finalists)
    return Seating(tables=tuple(tuple(table) for table in tables), seed=session.seed,
                   by_standing=True), cut
