"""A tournament's archive, in the ``tournament`` namespace: its records as one ZIP, and the import
of a past tournament's archive."""

from django.urls import path

from tournament.archive import views

urlpatterns = [
    path("t/<slug:slug>/records.zip", views.TournamentRecordsZipView.as_view(), name="records_zip"),
    path("tournaments/import/", views.TournamentImportView.as_view(), name="tournament_import"),
]
