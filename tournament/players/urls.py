"""A player across tournaments: their career page, charts, and the merging of two records."""
from django.urls import path

from tournament.players import views

urlpatterns = [
    path("players/<int:player_id>/", views.PlayerCareerView.as_view(), name="player_career"),
    path(
        "players/<int:player_id>/career.pdf",
        views.PlayerCareerPdfView.as_view(),
        name="player_career_pdf",
    ),
    path("players/<int:player_id>/merge/", views.PlayerMergeView.as_view(), name="player_merge"),
]
