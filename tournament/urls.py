"""Addresses. The tournament's are stable (docs/reference/product.md): QR codes and bookmarks rely on them."""

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import set_language

from tournament.home import views

tournament_patterns = [
    path("", views.HomeView.as_view(), name="home"),
    path("my-tables/", views.MyTablesView.as_view(), name="my_tables"),
    path("t/<slug:slug>/", views.TournamentDetailView.as_view(), name="detail"),
    # Running the tournament: the organiser's pages, the seating, the standings, the public
    # pages of a session and of a player.
    path("", include("tournament.organiser.urls")),
    path("", include("tournament.sessions.urls")),
    path("", include("tournament.seating.urls")),
    path("", include("tournament.standings.urls")),
    path("", include("tournament.public.urls")),
    # The room (tournament/room/): the session clock, the head referee's board, calling a
    # referee, the projector screen.
    path("", include("tournament.room.urls")),
    path("", include("tournament.practice.urls")),
    # Printing (tournament/printing/): score sheets, seating, standings and match sheets as PDF.
    path("", include("tournament.printing.urls")),
    # A tournament's archive (tournament/archive/): its records as one ZIP, past results
    # imported from one.
    path("", include("tournament.archive.urls")),
    # The check of every figure (tournament/figures/): the organiser's.
    path("", include("tournament.figures.urls")),
    # Recording a match (tournament/matches/): the match page and entry screen, sheet mode,
    # corrections, ends of rounds, the audit log, the record download and upload.
    path("", include("tournament.matches.urls")),
    # Across tournaments: players' careers (tournament/players/), ratings
    # (tournament/ratings/) and leagues (tournament/leagues/).
    path("", include("tournament.players.urls")),
    path("", include("tournament.ratings.urls")),
    path("", include("tournament.leagues.urls")),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path(
        "login/",
        views.LoginView.as_view(),
        name="login",
    ),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("i18n/setlang/", set_language, name="set_language"),
    path("", include((tournament_patterns, "tournament"))),
]
