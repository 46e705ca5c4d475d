"""The printed documents' addresses (docs/reference/product.md), in the ``tournament`` namespace."""

from django.urls import path

from tournament.printing import prize_views, views

urlpatterns = [
    path("t/<slug:slug>/standings.pdf", views.StandingsPdfView.as_view(), name="standings_pdf"),
    path("t/<slug:slug>/prizes.pdf", prize_views.PrizeListPdfView.as_view(),
         name="prize_list_pdf"),
    path("t/<slug:slug>/tables.pdf", views.TableCardsPdfView.as_view(), name="table_cards_pdf"),
    path(
        "t/<slug:slug>/sessions/<int:number>/seating.pdf",
        views.SeatingPdfView.as_view(),
        name="seating_pdf",
    ),
    path(
        "t/<slug:slug>/sessions/<int:number>/sheets.pdf",
        views.ScoreSheetsPdfView.as_view(),
        name="score_sheets_pdf",
    ),
    path(
        "t/<slug:slug>/matches/<int:match_id>/sheet.pdf",
        views.MatchReportPdfView.as_view(),
        name="match_report_pdf",
    ),
]
