"""Admin for every model. Turns, ends of rounds and the audit log are read-only here: a
correction goes through the recording services, which keep the old version and log it."""

from django.contrib import admin

from tournament.kit.transactions import retried_whole
from tournament.models import (
    Announcement,
    ArchiveImport,
    AuditEntry,
    Category,
    CheckIn,
    Installation,
    League,
    Match,
    MatchSubmission,
    Player,
    PlayerMerge,
    PlayerRating,
    RatingChange,
    RefereeCall,
    Registration,
    Round,
    RoundEnd,
    RoundSignature,
    Seat,
    Session,
    SessionAuditEntry,
    StaffInvitation,
    StaffRole,
    Table,
    TableScorer,
    Tournament,
    Turn,
)
from tournament.organiser.services import tournaments_delete
from tournament.ratings.services import ratings_tournament_rated_changed


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    autocomplete_fields = ["player"]


class StaffRoleInline(admin.TabularInline):
    model = StaffRole
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "start_date", "venue", "rules", "is_public"]
    list_filter = ["is_public", "rules"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [StaffRoleInline, RegistrationInline]
    # Changing it re-rates the tournament's matches: the organiser's settings page does that.
    readonly_fields = ["is_rated"]

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        """The admin's form, one write run whole (``retried_whole``): a save that moves the
        ratings while another write holds their turn runs again with the turn taken first."""
        return retried_whole(lambda: super(TournamentAdmin, self).changeform_view(
            request, object_id, form_url, extra_context))

    def delete_view(self, request, object_id, extra_context=None):
        return retried_whole(lambda: super(TournamentAdmin, self).delete_view(
            request, object_id, extra_context))

    def save_model(self, request, obj, form, change):
        """Saved as the admin does; then, when the tournament comes to count for the ratings
        or no longer does (made public or private), the ratings are refreshed from its first
        confirmed match, as the organiser's settings page does. The row is locked before it
        is read, so that two saves at once do not both read it as it was."""
        counted_before = change and Tournament.objects.select_for_update().get(
            pk=obj.pk).counts_for_ratings
        super().save_model(request, obj, form, change)
        if change and obj.counts_for_ratings != counted_before:
            ratings_tournament_rated_changed(obj)

    def delete_model(self, request, obj):
        tournaments_delete(tournaments=Tournament.objects.filter(pk=obj.pk))

    def delete_queryset(self, request, queryset):
        tournaments_delete(tournaments=queryset)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "licence", "merged_into"]
    search_fields = ["name", "club", "licence"]
    # A merge moves registrations and seats and is logged: the player's merge page does it.
    readonly_fields = ["merged_into"]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "points_scale", "best_results", "is_public"]
    list_filter = ["is_public", "points_scale"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "status", "first_session"]
    list_filter = ["tournament", "status"]
    search_fields = ["player__name", "player__club"]
    autocomplete_fields = ["player"]


@admin.register(Category)
class CategoryAdmin(admin.ModelAdmin):
    """Shown, not edited: a category's players are given on the players page, which keeps
    them in their tournament (docs/guides/categories.md)."""

    list_display = ["name", "tournament"]
    list_filter = ["tournament"]
    search_fields = ["name"]
    readonly_fields = ["tournament", "name", "registrations"]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(StaffRole)
class StaffRoleAdmin(admin.ModelAdmin):
    list_display = ["user", "tournament", "role", "tables"]
    list_filter = ["tournament", "role"]
    autocomplete_fields = ["user"]


@admin.register(StaffInvitation)
class StaffInvitationAdmin(admin.ModelAdmin):
    """The roles offered and not accepted yet: a superuser may take one back here (or grant
    the role at once, in Staff roles)."""

    list_display = ["username", "tournament", "role", "tables", "invited_by", "created_at"]
    list_filter = ["tournament", "role"]
    search_fields = ["username"]
    readonly_fields = ["invited_by", "created_at"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """What the site writes and nobody edits (the history the services append, the archives'
    identities, the calls): read in the admin, never changed there."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ArchiveImport)
class ArchiveImportAdmin(ReadOnlyAdmin):
    """The archives imported: their identity, by which a second import is refused."""

    list_display = ["tournament", "installation", "source_tournament", "copy", "imported_by",
                    "imported_at"]
    list_filter = ["copy"]


@admin.register(Installation)
class InstallationAdmin(ReadOnlyAdmin):
    """This installation's identity, which its archives carry."""

    list_display = ["uuid", "created_at"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    show_change_link = True


@admin.register(RefereeCall)
class RefereeCallAdmin(ReadOnlyAdmin):
    """The players' calls for a referee (docs/guides/room.md): the session's log, read here."""

    list_display = ["table", "session", "reason", "times", "called_at", "answered_at",
                    "answered_by"]
    list_filter = ["session__tournament", "reason"]


@admin.register(Announcement)
class AnnouncementAdmin(admin.ModelAdmin):
    list_display = ["text", "tournament", "is_shown", "created_at"]
    list_filter = ["tournament", "is_shown"]


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "seed"]
    list_filter = ["tournament", "status"]
    inlines = [TableInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "session", "number"]
    list_filter = ["session__tournament"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["player", "table", "session", "order"]
    list_filter = ["session__tournament", "session"]
    search_fields = ["player__name"]
    autocomplete_fields = ["player"]


@admin.register(CheckIn)
class CheckInAdmin(admin.ModelAdmin):
    list_display = ["player", "session", "at", "by"]
    list_filter = ["session__tournament", "session"]
    search_fields = ["player__name"]
    autocomplete_fields = ["player"]
    readonly_fields = ["at", "by"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "status", "revision", "totals", "finished_at", "confirmed_at"]
    list_filter = ["table__session__tournament", "status"]
    readonly_fields = ["revision", "totals", "winners", "confirmed_at"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["__str__", "end_kind", "scores", "confirmed_at", "confirmed_by"]
    list_filter = ["match__table__session__tournament", "end_kind"]
    readonly_fields = ["end_kind", "scores"]


@admin.register(Turn)
class TurnAdmin(ReadOnlyAdmin):
    list_display = [
        "__str__",
        "player",
        "draws",
        "tile",
        "points_claimed",
        "points",
        "verdict",
        "decision",
        "superseded_at",
    ]
    list_filter = ["verdict", "decision"]


@admin.register(RoundEnd)
class RoundEndAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "racks", "settlement_claimed", "decision", "created_at",
                    "superseded_at"]
    list_filter = ["decision"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["at", "match", "user", "action", "summary"]
    list_filter = ["action"]
    search_fields = ["summary", "reason"]


@admin.register(SessionAuditEntry)
class SessionAuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["at", "session", "user", "action", "reason"]
    list_filter = ["action"]


@admin.register(MatchSubmission)
class MatchSubmissionAdmin(ReadOnlyAdmin):
    """The keys of the submissions saved (a submission sent again is answered "already
    saved"): kept by the services, shown here."""

    list_display = ["at", "match", "key"]


@admin.register(TableScorer)
class TableScorerAdmin(ReadOnlyAdmin):
    """A table's scorer link and the phone it binds (tournament.matches.scorers): kept by the
    services, shown here; the salt is not (the link is made from it)."""

    list_display = ["match", "device", "bound_at", "locked", "changed_at"]
    fields = ["match", "device", "bound_at", "locked", "changed_at"]


@admin.register(RoundSignature)
class RoundSignatureAdmin(ReadOnlyAdmin):
    """A seat's word on a round (tournament.matches.signatures): written by the services, an
    append-only entry, shown here."""

    list_display = ["at", "round", "seat", "agreed", "reason", "device", "own_phone"]
    fields = ["round", "seat", "digest", "agreed", "reason", "device", "own_phone", "at"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    """Derived from the confirmed matches (tournament.ratings.services): shown, never edited."""

    list_display = ["at", "match", "player", "rank", "mu", "sigma"]
    list_filter = ["tournament"]
    search_fields = ["player__name"]


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnlyAdmin):
    """Derived from the rating changes: shown, never edited."""

    list_display = ["player", "conservative", "mu", "sigma", "matches", "last_tournament"]
    search_fields = ["player__name"]


@admin.register(PlayerMerge)
class PlayerMergeAdmin(ReadOnlyAdmin):
    list_display = ["at", "kept", "merged", "user", "reason"]
