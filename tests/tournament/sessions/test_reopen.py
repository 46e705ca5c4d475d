"""A closed session reopened by the organiser, with a reason kept in its audit log."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tests.factories import matches_confirmed
from tournament.core.tournaments import staff_role_grant
from tournament.models import AuditEntryRefused, Session, SessionAuditEntry
from tournament.sessions.services import session_close, session_reopen

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed(make_tournament, organiser):
    """Session 1 of 8 players, played, confirmed and closed by the organiser."""
    tournament = make_tournament(slug="closed", players=8, sessions=1)
    staff_role_grant(tournament=tournament, user=organiser, role="organiser")
    session = tournament.sessions.get(number=1)
    matches_confirmed(tournament=tournament)  # the session started first
    session_close(session=session, user=organiser)
    session.refresh_from_db()
    return session


def actions(session):
    return list(session.audit_entries.values_list("action", "reason", "user__username"))


def test_reopen_then_close_again_keeps_both_in_the_audit_log(closed, organiser):
    version = closed.tournament.data_version
    session_reopen(session=closed, user=organiser, reason="  Table 2 swapped scores ")
    closed.refresh_from_db()
    assert closed.status == Session.Status.PLAYING
    assert closed.tournament.__class__.objects.get(pk=closed.tournament_id).data_version > version
    session_close(session=closed, user=organiser)
    closed.refresh_from_db()
    assert closed.status == Session.Status.FINISHED
    assert actions(closed) == [
        ("closed", "", organiser.username),
        ("reopened", "Table 2 swapped scores", organiser.username),
        ("closed", "", organiser.username),
    ]


@pytest.mark.parametrize(
    ("reason", "code"), [("", "reason-missing"), ("   ", "reason-missing"),
                         ("x" * 501, "reason-too-long")]
)
def test_a_reason_is_required(closed, organiser, reason, code):
    with pytest.raises(ValidationError) as refused:
        session_reopen(session=closed, user=organiser, reason=reason)
    assert [error.code for error in refused.value.error_dict["reason"]] == [code]
    closed.refresh_from_db()
    assert closed.status == Session.Status.FINISHED and len(actions(closed)) == 1


@pytest.mark.parametrize("status", ["draft", "seated", "playing"])
def test_only_a_closed_session_is_reopened(closed, organiser, status):
    Session.objects.filter(pk=closed.pk).update(status=status)
    with pytest.raises(ValidationError) as refused:
        session_reopen(session=closed, user=organiser, reason="why not")
    assert refused.value.code == "session-not-closed"
    closed.refresh_from_db()
    assert closed.status == status and len(actions(closed)) == 1


def test_the_audit_log_is_append_only(closed):
    entry = closed.audit_entries.get()
    with pytest.raises(AuditEntryRefused):
        entry.save()
    with pytest.raises(AuditEntryRefused):
        entry.delete()


def logged(page):
    """The entries of the session page's log, its parts one after the other."""
    return [entry for _category, _heading, entries in page.context["session_log"]
            for entry in entries]


def test_the_session_page_reopens_and_shows_the_log(closed, organiser_client, organiser):
    url = "/t/closed/organise/sessions/1/"
    page = organiser_client.get(url)
    assert page.context["reopen_form"] is not None
    assert [entry.action for entry in logged(page)] == ["closed"]

    refused = organiser_client.post(url + "reopen/", {"reason": ""})
    assert refused.status_code == 400
    assert refused.context["reopen_form"].has_error("reason", "required")
    assert 'id="id_reason_error"' in refused.content.decode()

    response = organiser_client.post(url + "reopen/", {"reason": "Table 1: 12 read as 21"})
    assert response.status_code == 302 and response["Location"] == url
    closed.refresh_from_db()
    assert closed.status == Session.Status.PLAYING
    page = organiser_client.get(url)
    assert "reopen_form" not in page.context
    assert [(entry.action, entry.reason) for entry in logged(page)] == [
        ("closed", ""), ("reopened", "Table 1: 12 read as 21")]
    html = page.content.decode()
    assert 'data-action="reopened"' in html and "Table 1: 12 read as 21" in html

    assert organiser_client.post(url + "close/").status_code == 302
    closed.refresh_from_db()
    assert closed.status == Session.Status.FINISHED
    assert SessionAuditEntry.objects.filter(session=closed).count() == 3


def test_only_the_organiser_reopens(closed, referee_client, client):
    url = "/t/closed/organise/sessions/1/reopen/"
    assert referee_client.post(url, {"reason": "mine"}).status_code == 403
    assert client.post(url, {"reason": "mine"}).status_code == 302  # to the login page
    closed.refresh_from_db()
    assert closed.status == Session.Status.FINISHED and len(actions(closed)) == 1
