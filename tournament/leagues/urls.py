"""The leagues' addresses, in the ``tournament`` namespace."""

from django.urls import path

from tournament.leagues import views

urlpatterns = [
    path("leagues/", views.LeagueListView.as_view(), name="leagues"),
    path("leagues/new/", views.LeagueCreateView.as_view(), name="league_create"),
    path("leagues/<slug:slug>/", views.LeagueView.as_view(), name="league"),
    path("leagues/<slug:slug>/edit/", views.LeagueEditView.as_view(), name="league_edit"),
    path("leagues/<slug:slug>/ranking.pdf", views.LeagueRankingPdfView.as_view(),
         name="league_ranking_pdf"),
    path(
        "leagues/<slug:slug>/tournaments/add/",
        views.LeagueTournamentAddView.as_view(),
        name="league_tournament_add",
    ),
    path(
        "leagues/<slug:slug>/tournaments/remove/",
        views.LeagueTournamentRemoveView.as_view(),
        name="league_tournament_remove",
    ),
]
