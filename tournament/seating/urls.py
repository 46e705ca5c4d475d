from django.urls import path

from tournament.seating import final_views, views

urlpatterns = [
    path(
        "t/<slug:slug>/organise/sessions/<int:number>/",
        views.SessionOrganiseView.as_view(),
        name="session_organise",
    ),
    path(
        "t/<slug:slug>/organise/sessions/<int:number>/seat/",
        views.SessionSeatView.as_view(),
        name="session_seat",
    ),
    path(
        "t/<slug:slug>/organise/sessions/<int:number>/swap/",
        views.SeatingSwapView.as_view(),
        name="seating_swap",
    ),
    path(
        "t/<slug:slug>/organise/sessions/<int:number>/reopen/",
        views.SessionReopenView.as_view(),
        name="session_reopen",
    ),
    path(
        "t/<slug:slug>/organise/final/open/",
        final_views.FinalOpenView.as_view(),
        name="final_open",
    ),
]
