"""The practice table's addresses, in the ``tournament`` namespace (docs/guides/referee.md)."""

from django.urls import path

from tournament.practice import views

urlpatterns = [
    path("t/<slug:slug>/practice/", views.PracticeView.as_view(), name="practice"),
    path("t/<slug:slug>/practice/reset/", views.PracticeResetView.as_view(),
         name="practice_reset"),
]
