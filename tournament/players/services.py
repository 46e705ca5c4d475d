"""Writes about a person across tournaments: merging two records of the same person, and
giving one tournament a record of its own.

A person entered twice (a typo in the licence number, say) has two :class:`Player` records.
:func:`players_merge` makes them one: the merged record's registrations and seats move to the
kept record, and the merged record stays, pointing at the kept one (``merged_into``), so that
its old addresses lead to the kept record and nothing is lost; a :class:`PlayerMerge` entry
keeps what the merged record said and what moved. The kept record's name, club and licence
stay as they are: the organiser chooses which record is kept.

:func:`player_split` is the other way: one tournament's registration and seats move to a new
record, so that a change of name, club or licence made by that tournament's organiser stays
in that tournament, the record the other tournaments show being theirs to answer for.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from tournament.core.freshness import tournament_write
from tournament.models import Player, PlayerMerge, Registration, Seat, Tournament
from tournament.ratings.services import (
    HistoryPoint,
    rated_matches,
    ratings_refresh,
    ratings_turn,
    ratings_write,
)


def players_merge_check(*, kept: Player, merged: Player) -> None:
    """Refuse a merge that cannot be done (a ValidationError, with its code): the same
    record twice, a record already merged, or two records registered in the same tournament
    (they would hold two seats there, and no merge can choose between them)."""
    if kept.pk == merged.pk:
        raise ValidationError(_("Choose two different records."), code="same-record")
    for record in (kept, merged):
        if record.merged_into_id is not None:
            raise ValidationError(
                _("%(name)s (record %(id)s) was already merged into another record.")
                % {"name": record.name, "id": record.pk},
                code="already-merged",
            )
    shared = list(
        Tournament.objects.filter(registrations__player=kept)
        .filter(registrations__player=merged)
        .order_by("start_date", "pk")
        .values_list("name", flat=True)
    )
    if shared:
        raise ValidationError(
            _("Both records are registered in %(tournaments)s: one tournament cannot hold one "
              "person twice, so these are two players and their records stay apart.")
            % {"tournaments": ", ".join(shared)},
            code="shared-tournament",
        )


def players_merge(*, kept: Player, merged: Player, user, reason: str) -> PlayerMerge:
    """Merge ``merged`` into ``kept`` in one transaction (see the module); returns the audit
    entry. Refusals (:func:`players_merge_check`, a missing reason) write nothing.

    The ratings are written again from the merged record's first rated match: from there on,
    its matches count for the kept record.

    The locks are taken in the one order (docs/development/architecture.md, "The lock order"): the
    ratings' turn first, in a transaction of its own (``ratings_write``), before anything is
    read; then the two records by id, locked "for no key update" (a confirmation writing
    rating changes that point at them is not held up: their foreign keys need a key share
    only); then the tournaments by id (the end of its ``tournament_write``). A deadlock all
    the same runs the merge again."""
    return ratings_write(
        lambda: _players_merge(kept=kept, merged=merged, user=user, reason=reason))


def _players_merge(*, kept: Player, merged: Player, user, reason: str) -> PlayerMerge:
    with tournament_write() as write:
        ratings_turn()
        reason = reason.strip()
        if not reason:
            raise ValidationError(
                {"reason": ValidationError(_("Give the reason for the merge."),
                                           code="reason-missing")}
            )
        locked = {player.pk: player for player in Player.objects.select_for_update(no_key=True)
                  .filter(pk__in=[kept.pk, merged.pk]).order_by("pk")}
        kept, merged = locked[kept.pk], locked[merged.pk]
        players_merge_check(kept=kept, merged=merged)

        registrations = list(
            Registration.objects.filter(player=merged).order_by("pk")
            .values_list("pk", "tournament_id")
        )
        seats = list(Seat.objects.filter(player=merged).order_by("pk").values_list("pk", flat=True))
        first_rated = HistoryPoint.first_of(rated_matches().filter(table__seats__player=merged))
        Registration.objects.filter(pk__in=[pk for pk, _tournament in registrations]).update(
            player=kept
        )
        Seat.objects.filter(pk__in=seats).update(player=kept)
        merged.merged_into = kept
        merged.save(update_fields=["merged_into"])
        entry = PlayerMerge.objects.create(
            kept=kept,
            merged=merged,
            user=user if user is not None and user.is_authenticated else None,
            reason=reason,
            details={
                "merged": {"name": merged.name, "club": merged.club, "licence": merged.licence},
                "kept": {"name": kept.name, "club": kept.club, "licence": kept.licence},
                "registrations": [pk for pk, _tournament in registrations],
                "seats": seats,
                "tournaments": sorted({tournament for _pk, tournament in registrations}),
            },
        )
        # Both records' tournaments: the kept record's pages show the moved matches' opponents'
        # links and ratings; the merged record's show the kept record now.
        for tournament_id in (
            {tournament for _pk, tournament in registrations}
            | set(Registration.objects.filter(player=kept).values_list("tournament_id", flat=True))
        ):
            write.also(tournament_id)
        if first_rated is not None:
            ratings_refresh(since=first_rated)
        return entry


def player_split(*, registration: Registration, name: str, club: str = "",
                 licence: str = "") -> Player:
    """Give the registration's tournament a record of its own: a new :class:`Player` with this
    name, club and licence, to which the registration and the seats of that tournament move;
    the record they leave stays as it was for the other tournaments. The ratings are written
    again from the first rated match that moved. Returns the new record. Its locks are a
    merge's, in the same order (:func:`players_merge`)."""
    return ratings_write(lambda: _player_split(registration=registration, name=name, club=club,
                                               licence=licence))


def _player_split(*, registration: Registration, name: str, club: str,
                  licence: str) -> Player:
    with tournament_write(tournament_id=registration.tournament_id):
        ratings_turn()
        Player.objects.select_for_update(no_key=True).filter(pk=registration.player_id).get()
        registration = Registration.objects.select_for_update().get(pk=registration.pk)
        seats = Seat.objects.filter(player_id=registration.player_id,
                                    session__tournament_id=registration.tournament_id)
        first_rated = HistoryPoint.first_of(
            rated_matches().filter(table__seats__in=seats.values("pk")))
        record = Player(name=name, club=club, licence=licence)
        record.full_clean(validate_unique=False)
        record.save()
        seats.update(player=record)
        Registration.objects.filter(pk=registration.pk).update(player=record)
        if first_rated is not None:
            ratings_refresh(since=first_rated)
        return record
