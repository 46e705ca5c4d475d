"""The ratings' addresses, in the ``tournament`` namespace."""

from django.urls import path

from tournament.ratings import views

urlpatterns = [
    path("ratings/", views.RatingsView.as_view(), name="ratings"),
    path("ratings.pdf", views.RatingsPdfView.as_view(), name="ratings_pdf"),
    path("leagues/<slug:slug>/ratings/", views.RatingsView.as_view(), name="league_ratings"),
    path(
        "leagues/<slug:slug>/ratings.pdf",
        views.RatingsPdfView.as_view(),
        name="league_ratings_pdf",
    ),
]
