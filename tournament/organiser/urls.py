"""The organiser's addresses: a new tournament, its settings, its players, its staff."""

from django.urls import path

from tournament.organiser import views

urlpatterns = [
    path("tournaments/new/", views.TournamentCreateView.as_view(), name="tournament_create"),
    path("t/<slug:slug>/organise/", views.OrganiseView.as_view(), name="organise"),
    path(
        "t/<slug:slug>/organise/settings/",
        views.TournamentEditView.as_view(),
        name="tournament_edit",
    ),
    path(
        "t/<slug:slug>/organise/players/",
        views.PlayersView.as_view(),
        name="organise_players",
    ),
    path(
        "t/<slug:slug>/organise/players/import/",
        views.PlayersImportView.as_view(),
        name="players_import",
    ),
    path(
        "t/<slug:slug>/organise/players/<int:registration_id>/",
        views.RegistrationEditView.as_view(),
        name="registration_edit",
    ),
    path(
        "t/<slug:slug>/organise/players/<int:registration_id>/withdraw/",
        views.RegistrationWithdrawView.as_view(),
        name="registration_withdraw",
    ),
    path(
        "t/<slug:slug>/organise/players/<int:registration_id>/reinstate/",
        views.RegistrationReinstateView.as_view(),
        name="registration_reinstate",
    ),
    path("t/<slug:slug>/staff/", views.StaffView.as_view(), name="staff"),
    path("t/<slug:slug>/staff/unlock/", views.StaffUnlockView.as_view(), name="staff_unlock"),
    path(
        "t/<slug:slug>/staff/invitations/<int:invitation_id>/cancel/",
        views.StaffInvitationCancelView.as_view(),
        name="staff_invitation_cancel",
    ),
    path(
        "invitations/<int:invitation_id>/accept/",
        views.InvitationAnswerView.as_view(),
        name="invitation_accept",
    ),
    path(
        "invitations/<int:invitation_id>/decline/",
        views.InvitationAnswerView.as_view(accept=False),
        name="invitation_decline",
    ),
    path(
        "t/<slug:slug>/staff/<int:role_id>/revoke/",
        views.StaffRevokeView.as_view(),
        name="staff_revoke",
    ),
]
