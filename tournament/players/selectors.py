"""Reads about a person across tournaments: their career (every tournament, every match, the
ratings), and the records that stand for them.

A person is one :class:`~tournament.models.Player` row shared by the tournaments they entered.
A second record of the same person, merged into the first (``Player.merged_into``), is kept so
that nothing is lost; every read here leads from it to the record kept (:func:`player_kept`).

``player_career`` reads in a fixed number of queries (eight; nine for a logged-in reader,
whose roles it reads), whatever the number of tournaments and matches: the final rank in
each tournament comes from the standings' own selector
(:func:`tournament.standings.selectors.cached_standings_of`), which ranks all the player's
tournaments at once.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db.models import Count
from django.http import Http404
from django.urls import reverse
from django.utils import timezone

from tournament.core.permissions import access, organised_tournaments
from tournament.kit.addresses import career_url
from tournament.models import (
    Match,
    Player,
    PlayerMerge,
    PlayerRating,
    RatingChange,
    Registration,
    Seat,
    Session,
    Tournament,
)
from tournament.names import person_key
from tournament.ratings.model import is_provisional, ranks_of
from tournament.standings.final import STAGE_FINAL, whole_tournament
from tournament.standings.ranking import ranked_count
from tournament.standings.selectors import cached_standings_of

#: How many merges deep a record is followed to the one kept (a chain A → B → C is two).
MAX_MERGE_DEPTH = 20


def player_kept(player: Player) -> Player:
    """The record that stands for this person: ``player`` itself unless it was merged, else
    the record it was merged into (followed through later merges)."""
    seen = {player.pk}
    while player.merged_into_id is not None and len(seen) <= MAX_MERGE_DEPTH:
        player = Player.objects.get(pk=player.merged_into_id)
        if player.pk in seen:
            break
        seen.add(player.pk)
    return player


def players_by_licence(licences: Iterable[str], *, user=None) -> dict[str, Player]:
    """{licence: the record a new registration of that licence links to}, for the licences
    that name one (a licence of a merged record leads to the record kept).

    Only the records of the tournaments ``user`` organises are linked to (every record for a
    superuser; without a user, a command or the demo run by the installation's operator,
    every record too): a licence held by anyone else names no record here, so that nobody
    borrows another organiser's player, nor learns that a licence is known. Joining two
    records of one person across organisers is a merge, with its own rule
    (``tournament.core.permissions.may_merge``). Among several records of one licence, the one that holds it
    itself comes first, then the oldest."""
    wanted = {licence for licence in licences if licence}
    if not wanted:
        return {}
    records = sorted(Player.objects.filter(licence__in=wanted),
                     key=lambda player: (player.merged_into_id is not None, player.pk))
    kept = {player.pk: player_kept(player) if player.merged_into_id else player
            for player in records}
    allowed: set[int] | None = None
    organised = None if user is None else organised_tournaments(user=user)
    if organised is not None:
        allowed = set(Registration.objects.filter(
            player_id__in={player.pk for player in kept.values()}, tournament_id__in=organised,
        ).values_list("player_id", flat=True))
    found: dict[str, Player] = {}
    for record in records:
        target = kept[record.pk]
        if target.merged_into_id is None and (allowed is None or target.pk in allowed):
            found.setdefault(record.licence, target)
    return found


def players_by_name_and_club(people: Iterable[tuple[str, str]], *, user=None
                             ) -> dict[tuple[str, str], Player]:
    """{``person_key(name, club)``: a record of that name and club} among the records an
    import by ``user`` may link to (:func:`linkable_players`; merged records aside), for the
    ``(name, club)`` pairs that name one: likely the same person, when no licence number tells.
    Names and clubs compare accents, case and ligatures aside (``tournament.names``), on
    SQLite as on PostgreSQL. The oldest record first."""
    wanted = {person_key(name, club) for name, club in people if name}
    if not wanted:
        return {}
    candidates = Player.objects.filter(
        merged_into__isnull=True, name_search_key__in={name for name, _club in wanted})
    linkable = linkable_players(user=user)
    if linkable is not None:
        candidates = candidates.filter(pk__in=linkable)
    found: dict[tuple[str, str], Player] = {}
    for record in sorted(candidates.only("id", "name", "club", "licence"), key=lambda p: p.pk):
        key = person_key(record.name, record.club)
        if key in wanted:
            found.setdefault(key, record)
    return found


def linkable_players(*, user):
    """The records an import by ``user`` may link its players to (a queryset of ids), or None
    for every record: as :func:`players_by_licence`, those of the tournaments they organise."""
    organised = None if user is None else organised_tournaments(user=user)
    if organised is None:
        return None
    return Registration.objects.filter(tournament_id__in=organised).values("player_id")


def merged_record_visible(*, player: Player, user) -> bool:
    """May ``user`` follow a merged record's address to the record kept? When they may see
    one of the tournaments the record was registered in when it was merged (its merge log
    keeps them): otherwise the redirect would tell that a record of a private tournament
    existed, and whom it was merged into (two queries)."""
    tournament_ids: set[int] = set()
    for details in PlayerMerge.objects.filter(merged=player).values_list("details", flat=True):
        tournament_ids.update(details.get("tournaments", []))
    tournaments = Tournament.objects.filter(pk__in=tournament_ids)
    return bool(access(user=user, tournaments=tournaments).visible)


def merge_candidate(*, user, number: int | None = None, licence: str = "") -> Player | None:
    """The other record of a merge as ``user`` names it, or None: by its ``number``, a record
    they may see (one of its tournaments is public or theirs; a merged record, one of the
    tournaments it was in); by its ``licence``, a record of a tournament they organise
    (licences are shown to those organisers only). An unknown record and one they may not
    see give the same None: the form's answer does not tell that a hidden record exists."""
    if not (user.is_authenticated and user.is_active):
        return None
    if number is not None:
        player = Player.objects.filter(pk=number).first()
        if player is None:
            return None
        if player.merged_into_id is not None:
            return player if merged_record_visible(player=player, user=user) else None
        tournaments = Tournament.objects.filter(registrations__player=player)
        return player if access(user=user, tournaments=tournaments).visible else None
    candidates = Player.objects.filter(licence=licence, merged_into__isnull=True)
    organised = organised_tournaments(user=user)
    if organised is not None:
        candidates = candidates.filter(registrations__tournament_id__in=organised)
    return candidates.order_by("pk").first()


def player_or_404(player_id: int) -> Player:
    try:
        return Player.objects.get(pk=player_id)
    except Player.DoesNotExist:
        raise Http404 from None


def player_career(*, player: Player, user) -> dict[str, Any]:
    """Everything a player's career page and PDF show, in a fixed number of queries.

    404 unless the player is registered in a tournament the user may see (a player of
    private tournaments only is nobody's business but their staff's). Keys:

    - ``player``; ``rating`` (their :class:`PlayerRating` or None) and ``rating_last_event``
      (its last tournament when the user may see it, else None); ``show_licence``;
    - ``tournaments``: one dict per tournament, newest first: ``tournament``, ``registration``,
      ``rank`` (None when not ranked there), ``rank_label``, ``ranked``, ``player_count`` (the
      players ranked), ``matches`` (confirmed), ``match_points`` (both over the whole
      tournament, as the club teams count them), ``final_included`` (a finalist: those figures
      are the qualifying sessions' and the final's together, docs/guides/final.md),
      ``url`` (their page in that tournament), ``withdrawn``, ``in_play`` (a session of it
      seated or played, or its last day not past: the rank is not final);
    - ``matches``: one dict per match they sat at, oldest first: ``tournament``,
      ``session``, ``table``, ``match_id``, ``url``, ``status``, ``status_label``,
      ``confirmed``, ``total``, ``opponents`` (``name``, ``total``, ``url``, ``winner``),
      ``rank`` (at the table, confirmed matches only), ``won``, ``winners`` (names),
      ``rating_change`` (conservative rating after minus before, rated matches only),
      ``rating_after``;
    - ``rating_history``: (conservative rating, tournament) after each rated match, oldest
      first; ``session_points``: (tournament, session number, total) for each confirmed match.
    """
    registrations = list(
        Registration.objects.filter(player=player)
        .select_related("tournament")
        .order_by("-tournament__start_date", "-tournament_id")
    )
    rights = access(user=user, tournaments=[registration.tournament for registration in registrations])
    registrations = [r for r in registrations if r.tournament_id in rights.visible]
    if not registrations:
        raise Http404
    tournaments = {registration.tournament_id: registration.tournament for registration in registrations}
    rating = PlayerRating.objects.filter(player=player).first()

    standings = cached_standings_of(tournaments=tournaments.values())
    # A tournament is in play while a session of it is seated or played, or until its last
    # day: its rank there is not final yet.
    today = timezone.localdate()
    in_play = set(Session.objects.filter(
        tournament_id__in=tournaments, status__in=[Session.Status.SEATED, Session.Status.PLAYING],
    ).values_list("tournament_id", flat=True)) | {
        pk for pk, tournament in tournaments.items()
        if (tournament.end_date or tournament.start_date) >= today}
    entries = []
    for registration in registrations:
        tournament = registration.tournament
        tournament_rows = standings[tournament.pk].rows
        row = next(row for row in tournament_rows if row["player_id"] == player.pk)
        # The whole tournament: a finalist's row holds the final's (docs/guides/final.md).
        figures = whole_tournament(row)
        entries.append({
            "tournament": tournament,
            "registration": registration,
            "rank": row["rank"],
            "rank_label": row["rank_label"],
            "ranked": row["ranked"],
            "player_count": ranked_count(tournament_rows),
            "matches": figures["matches"],
            "match_points": figures["match_points"],
            "final_included": row.get("stage") == STAGE_FINAL,
            "withdrawn": row["withdrawn"],
            "in_play": tournament.pk in in_play,
            "url": reverse(
                "tournament:player", kwargs={"slug": tournament.slug, "player_id": player.pk}
            ),
        })

    changes = {
        match_id: (rank, shown_before, shown, tournament_id)
        for match_id, rank, shown_before, shown, tournament_id in (
            RatingChange.objects.filter(player=player, tournament_id__in=tournaments)
            .order_by("played_on", "session", "at", "match_id")
            .values_list("match_id", "rank", "shown_before", "shown", "tournament_id")
        )
    }
    matches = _matches(player=player, tournaments=tournaments, changes=changes)
    chronology = {
        pk: index
        for index, pk in enumerate(
            sorted(tournaments, key=lambda pk: (tournaments[pk].start_date, pk))
        )
    }
    matches.sort(key=lambda entry: (chronology[entry["tournament"].pk], entry["session"]))
    last_event = rating.last_tournament_id if rating else None
    return {
        "player": player,
        "rating": rating,
        "rating_last_event": tournaments.get(last_event),
        "rating_provisional": rating is not None and is_provisional(rating.matches),
        "show_licence": rights.sees_licences,
        "tournaments": entries,
        "matches": matches,
        "rating_history": [
            (after, tournaments[tournament_id])
            for _rank, _before, after, tournament_id in changes.values()
        ],
        "session_points": [
            (entry["tournament"], entry["session"], entry["total"])
            for entry in matches
            if entry["confirmed"] and entry["total"] is not None
        ],
    }


def _matches(
    *, player: Player, tournaments: dict[int, Tournament], changes: dict[int, tuple]
) -> list[dict[str, Any]]:
    """The player's seats in these tournaments as the career's match dicts (two queries)."""
    seats = list(
        Seat.objects.filter(player=player, session__tournament_id__in=tournaments)
        .select_related("session", "table__match")
    )
    at_tables: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
    for table_id, order, other_id, name in (
        Seat.objects.filter(table_id__in=[seat.table_id for seat in seats])
        .order_by("order")
        .values_list("table_id", "order", "player_id", "player__name")
    ):
        at_tables[table_id].append((order, other_id, name))

    status_labels = dict(Match.Status.choices)
    entries = []
    for seat in seats:
        match = getattr(seat.table, "match", None)
        if match is None:
            continue
        tournament = tournaments[seat.session.tournament_id]
        seated = at_tables[seat.table_id]
        totals = list(match.totals or [])
        complete = len(totals) == len(seated) and bool(totals)
        confirmed = match.status == Match.Status.CONFIRMED
        ranks = ranks_of(totals) if complete and confirmed else None
        winners = {order for order, rank in enumerate(ranks or []) if rank == 1}
        change = changes.get(match.pk)
        entries.append({
            "tournament": tournament,
            "session": seat.session.number,
            "session_url": reverse(
                "tournament:session",
                kwargs={"slug": tournament.slug, "number": seat.session.number},
            ),
            "table": seat.table.number,
            "match_id": match.pk,
            "url": reverse(
                "tournament:match", kwargs={"slug": tournament.slug, "match_id": match.pk}
            ),
            "status": match.status,
            "status_label": str(status_labels.get(match.status, match.status)),
            "confirmed": confirmed,
            "total": totals[seat.order] if seat.order < len(totals) else None,
            "opponents": [
                {
                    "name": name,
                    "total": totals[order] if order < len(totals) else None,
                    "url": career_url(other_id),
                    "winner": order in winners,
                }
                for order, other_id, name in seated
                if other_id != player.pk
            ],
            "rank": ranks[seat.order] if ranks else None,
            "won": seat.order in winners,
            "winners": [name for order, _other, name in seated if order in winners],
            "rating_change": change[2] - change[1] if change else None,
            "rating_after": change[2] if change else None,
        })
    return entries


def merge_records(*, kept: Player, merged: Player) -> list[dict[str, Any]]:
    """The two records of a merge side by side (four queries): for each, ``role`` ("kept" or
    "merged"), ``player``, ``tournaments`` (their tournaments, oldest first), ``seats`` (how
    many sessions they sat in), ``rating`` (a :class:`PlayerRating` or None)."""
    records = [("kept", kept), ("merged", merged)]
    ids = [player.pk for _role, player in records]
    tournaments: dict[int, list[Tournament]] = defaultdict(list)
    for registration in (
        Registration.objects.filter(player_id__in=ids)
        .select_related("tournament")
        .order_by("tournament__start_date", "tournament_id")
    ):
        tournaments[registration.player_id].append(registration.tournament)
    seats = dict(
        Seat.objects.filter(player_id__in=ids)
        .values("player_id")
        .annotate(count=Count("pk"))
        .values_list("player_id", "count")
    )
    ratings = PlayerRating.objects.in_bulk(ids)
    return [
        {
            "role": role,
            "player": player,
            "tournaments": tournaments[player.pk],
            "seats": seats.get(player.pk, 0),
            "rating": ratings.get(player.pk),
        }
        for role, player in records
    ]
