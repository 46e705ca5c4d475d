"""A session's lifecycle (open, start, close), in the ``tournament`` namespace. Its seating and
reopening live on the session's organiser page (``tournament.seating``)."""

from django.urls import path

from tournament.sessions import views

urlpatterns = [
    path(
        "t/<slug:slug>/organise/sessions/open/",
        views.SessionOpenView.as_view(),
        name="session_open",
    ),
    path(
        "t/<slug:slug>/organise/sessions/<int:number>/start/",
        views.SessionStartView.as_view(),
        name="session_start",
    ),
    path(
        "t/<slug:slug>/sessions/<int:number>/check-in/",
        views.CheckInView.as_view(),
        name="session_check_in",
    ),
    path(
        "t/<slug:slug>/organise/sessions/<int:number>/close/",
        views.SessionCloseView.as_view(),
        name="session_close",
    ),
]
