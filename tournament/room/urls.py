"""The room's addresses (docs/guides/room.md), in the ``tournament`` namespace."""

from django.urls import path

from tournament.room import views

urlpatterns = [
    path("t/<slug:slug>/room/", views.BoardView.as_view(), name="room_board"),
    path("t/<slug:slug>/room/calls/<int:call_id>/answer/", views.CallAnswerView.as_view(),
         name="room_call_answer"),
    path("t/<slug:slug>/room/settings/", views.RoomSettingsView.as_view(),
         name="room_settings"),
    path("t/<slug:slug>/screen/", views.ScreenView.as_view(), name="room_screen"),
    path("t/<slug:slug>/sessions/<int:number>/clock.json", views.ClockView.as_view(),
         name="session_clock_json"),
    path("t/<slug:slug>/sessions/<int:number>/tables/<int:table>/clock.json",
         views.ClockView.as_view(), name="table_clock_json"),
    path("t/<slug:slug>/organise/sessions/<int:number>/clock/",
         views.SessionClockView.as_view(), name="session_clock"),
    path("t/<slug:slug>/organise/sessions/<int:number>/entry/",
         views.SessionEntryView.as_view(), name="session_match_entry"),
    path("t/<slug:slug>/tables/<int:number>/call/", views.CallView.as_view(),
         name="table_call"),
]
