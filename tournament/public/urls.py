from django.urls import path

from tournament.public import views

urlpatterns = [
    path(
        "t/<slug:slug>/sessions/<int:number>/",
        views.PublicSessionView.as_view(),
        name="session",
    ),
    path(
        "t/<slug:slug>/tables/<int:number>/",
        views.TableNowView.as_view(),
        name="table_now",
    ),
    path(
        "t/<slug:slug>/players/<int:player_id>/",
        views.PublicPlayerView.as_view(),
        name="player",
    ),
]
