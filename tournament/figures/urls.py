"""The check of every figure, the organiser's (docs/guides/organiser.md, "Checking every figure")."""

from django.urls import path

from tournament.figures import views

urlpatterns = [
    path("t/<slug:slug>/organise/figures/", views.FiguresCheckView.as_view(),
         name="figures_check"),
]
