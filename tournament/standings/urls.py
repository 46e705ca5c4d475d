from django.urls import path

from tournament.standings import views

urlpatterns = [
    path("t/<slug:slug>/standings/", views.PublicStandingsView.as_view(), name="standings"),
]
