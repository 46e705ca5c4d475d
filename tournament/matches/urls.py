"""The addresses of a match (in the "tournament" namespace): the page and entry screen, sheet
mode, the turn preview and writes, corrections and insertions, ends of rounds,
the audit log, the record; a table's scorer link, its hand-over and take-over; the seats'
signatures of a round, on the scorer phone or through a seat's own link."""

from django.urls import path

from tournament.matches.stream.views import MatchStreamView
from tournament.matches.views import (
    corrections,
    entry,
    offline,
    page,
    records,
    scorers,
    sheet_mode,
    signatures,
)

MATCH = "t/<slug:slug>/matches/<int:match_id>/"

urlpatterns = [
    # at the site's root: the scope of a service worker is at most its own folder
    path("offline-worker.js", offline.OfflineWorkerView.as_view(), name="offline_worker"),
    path(MATCH, page.MatchView.as_view(), name="match"),
    path(f"{MATCH}live/", page.MatchLiveView.as_view(), name="match_live"),
    path(f"{MATCH}stream/", MatchStreamView.as_view(), name="match_stream"),
    path(f"{MATCH}record.json", records.MatchRecordView.as_view(), name="match_record"),
    path(f"{MATCH}record/", records.MatchRecordUploadView.as_view(), name="match_record_upload"),
    path(f"{MATCH}sheet/", sheet_mode.SheetModeView.as_view(), name="match_sheet_mode"),
    path(f"{MATCH}audit/", records.MatchAuditView.as_view(), name="match_audit"),
    path(f"{MATCH}preview/", entry.TurnPreviewView.as_view(), name="match_turn_preview"),
    path(f"{MATCH}turns/", entry.TurnAddView.as_view(), name="match_turn_add"),
    path(f"{MATCH}turns/undo/", entry.TurnUndoView.as_view(), name="match_turn_undo"),
    path(f"{MATCH}turns/<int:turn_id>/correct/", corrections.TurnCorrectView.as_view(),
         name="match_turn_correct"),
    path(f"{MATCH}turns/<int:turn_id>/insert/", corrections.TurnInsertView.as_view(),
         name="match_turn_insert"),
    path(f"{MATCH}turns/<int:turn_id>/decision/", entry.TurnDecisionView.as_view(),
         name="match_turn_decide"),
    path(f"{MATCH}rounds/<int:number>/end/", entry.RoundEndView.as_view(), name="match_round_end"),
    path(f"{MATCH}rounds/<int:number>/settlement/decision/",
         entry.SettlementDecisionView.as_view(), name="match_round_settlement_decide"),
    path(f"{MATCH}rounds/<int:number>/confirm/", entry.RoundConfirmView.as_view(),
         name="match_round_confirm"),
    # a table that keeps its own score: the private link of its score sheet, short
    path("s/<int:match_id>/<str:token>/", scorers.ScorerLinkView.as_view(), name="scorer_link"),
    path(f"{MATCH}scorer/hand-over/", scorers.ScorerHandOverView.as_view(),
         name="match_scorer_hand_over"),
    path(f"{MATCH}scorer/lock/", scorers.ScorerLockView.as_view(), name="match_scorer_lock"),
    # every seat signs: on the scorer phone passed round, or from a seat's own phone
    path(f"{MATCH}sign/", signatures.RoundSignView.as_view(), name="match_round_sign"),
    path("s/<int:match_id>/<str:token>/seat/", signatures.SeatLinkView.as_view(),
         name="seat_link"),
]
