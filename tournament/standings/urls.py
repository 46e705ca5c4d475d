from django.urls import path

from tournament.standings import category_views, views

urlpatterns = [
    path("t/<slug:slug>/standings/", views.PublicStandingsView.as_view(), name="standings"),
    path("t/<slug:slug>/standings/categories/<int:category_id>/",
         category_views.CategoryStandingsView.as_view(), name="category_standings"),
    path("t/<slug:slug>/standings/clubs/", category_views.ClubTeamsView.as_view(),
         name="club_teams"),
]
