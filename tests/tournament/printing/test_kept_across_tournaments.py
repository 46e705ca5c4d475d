"""The documents across tournaments (``/ratings.pdf``, a league's ranking and ratings, a
career) are kept once made like the other PDFs: compared by what they show, since no one
tournament's data version follows them, and made by one worker at a time however many
readers ask at once."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from django.test import Client

from tests.tournament.players.helpers import two_tournaments
from tests.tournament.printing.helpers import assert_pdf
from tournament.core.freshness import tournament_write
from tournament.kit import pdf
from tournament.models import League, Player, Tournament

READERS = 12


@pytest.fixture
def made(monkeypatch) -> list[str]:
    """The PDFs made (WeasyPrint's own work, counted): the first line of each one's HTML."""
    calls: list[str] = []
    real = pdf.html_to_pdf

    def counted(html: str, **kwargs) -> bytes:
        calls.append(html)
        return real(html, **kwargs)

    monkeypatch.setattr(pdf, "html_to_pdf", counted)
    return calls


def across() -> dict[str, str]:
    """Ana's career over two rated tournaments (``two_tournaments``), both in one league; the
    documents' addresses."""
    career = two_tournaments()
    league = League.objects.create(name="Saison", slug="saison")
    Tournament.objects.filter(pk__in=[career["spring"].pk, career["autumn"].pk]).update(
        league=league)
    return {
        "ratings": "/ratings.pdf",
        "league ratings": "/leagues/saison/ratings.pdf",
        "league ranking": "/leagues/saison/ranking.pdf",
        "career": f"/players/{career['ana'].pk}/career.pdf",
    }


@pytest.mark.django_db
def test_each_document_is_made_once_then_again_only_when_what_it_shows_changes(
    client, made
):
    addresses = across()
    for name, address in addresses.items():
        first = client.get(address)
        assert_pdf(first)
        again = client.get(address)
        assert again.content == first.content, name
        assert client.get(address, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304, name
    assert len(made) == len(addresses)
    # Shown by every one of them; as a write does, the tournaments' versions are raised.
    with tournament_write() as write:
        Player.objects.filter(name="Ana").update(name="Anaïs")
        for tournament in Tournament.objects.all():
            write.also(tournament.pk)
    for name, address in addresses.items():
        changed = client.get(address)
        assert "Anaïs" in " ".join(assert_pdf(changed)), name
    assert len(made) == 2 * len(addresses)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql",
                    reason="twelve connections at once: run with DATABASE_URL=postgres://...")
def test_twelve_readers_at_once_make_each_document_once(made):
    addresses = across()
    for name, address in addresses.items():
        before = len(made)
        start = threading.Barrier(READERS)
        answers: list[int | str] = []

        def read(address=address, start=start, answers=answers):
            try:
                start.wait()
                answers.append(Client().get(address).status_code)
            except Exception as error:  # noqa: BLE001 - reported by the test
                answers.append(repr(error))
            finally:
                connections.close_all()

        readers = [threading.Thread(target=read) for _reader in range(READERS)]
        for reader in readers:
            reader.start()
        for reader in readers:
            reader.join(timeout=120)
        assert answers == [200] * READERS, name
        assert len(made) == before + 1, name
