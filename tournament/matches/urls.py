"""The addresses of a match (in the "tournament" namespace): the page and entry screen, sheet
mode, the turn preview and writes, corrections and insertions, ends of rounds, the audit log,
the record; and every match's record of a tournament as one archive."""

from django.urls import path

from tournament.matches import views

MATCH = "t/<slug:slug>/matches/<int:match_id>/"

urlpatterns = [
    path(MATCH, views.MatchView.as_view(), name="match"),
    path(f"{MATCH}record.json", views.MatchRecordView.as_view(), name="match_record"),
    path(f"{MATCH}record/", views.MatchRecordUploadView.as_view(), name="match_record_upload"),
    path(f"{MATCH}sheet/", views.MatchSheetView.as_view(), name="match_sheet"),
    path(f"{MATCH}audit/", views.MatchAuditView.as_view(), name="match_audit"),
    path(f"{MATCH}preview/", views.TurnPreviewView.as_view(), name="match_turn_preview"),
    path(f"{MATCH}turns/", views.TurnAddView.as_view(), name="match_turn_add"),
    path(f"{MATCH}turns/undo/", views.TurnUndoView.as_view(), name="match_turn_undo"),
    path(f"{MATCH}turns/<int:turn_id>/correct/", views.TurnCorrectView.as_view(),
         name="match_turn_correct"),
    path(f"{MATCH}turns/<int:turn_id>/insert/", views.TurnInsertView.as_view(),
         name="match_turn_insert"),
    path(f"{MATCH}turns/<int:turn_id>/decision/", views.TurnDecisionView.as_view(),
         name="match_turn_decide"),
    path(f"{MATCH}rounds/<int:number>/end/", views.RoundEndView.as_view(), name="match_round_end"),
    path(f"{MATCH}rounds/<int:number>/confirm/", views.RoundConfirmView.as_view(),
         name="match_round_confirm"),
]
