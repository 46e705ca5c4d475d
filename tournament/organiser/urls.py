from django.urls import path

from tournament.organiser import views

urlpatterns = [
    path("tournaments/new/", views.TournamentCreateView.as_view(), name="tournament_create"),
    path("tournaments/import/", views.TournamentImportView.as_view(), name="tournament_import"),
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
    path(
        "t/<slug:slug>/organise/sessions/open/",
        views.SessionOpenView.as_view(),
        name="session_open",
    ),
    path(
        "t/<slug:slug>/organise/sessions/<int:number>/start/",
        views.SessionStartView.as_view(),
        name="session_start",
    ),
    path(
        "t/<slug:slug>/organise/sessions/<int:number>/close/",
        views.SessionCloseView.as_view(),
        name="session_close",
    ),
]
